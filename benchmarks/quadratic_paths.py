#!/usr/bin/env python3
"""Do the two paths issue 25 found quadratic grow linearly now?

    python benchmarks/quadratic_paths.py split [--counts 1500,12000] [--runs 3]
    python benchmarks/quadratic_paths.py lint  [--counts 2000,16000] [--runs 3]

``split``: a file of N ``// -----`` chunks, each a small kernel with a ``get_rank``, lowered by
``ttd-lower --split-input-file -o /dev/null`` (a fresh process, as a user runs it).
``lint``: one kernel with N ``notify``/``wait`` pairs on one signal argument (each wait on the
slot its notify sets, the token consumed), checked by ``ttd-lower --lint-only``.

Prints the time of each N and the growth against the smallest N.  Linear cost: 8x the input
within 12x the time (issue 25).  Each figure is the median of ``--runs`` runs (the machine is
shared: compare ratios, not seconds).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def split_file(n: int) -> str:
    """``n`` chunks, each one kernel with a distributed op."""
    chunk = ("module {{\n  tt.func public @k{i}(%x: i32, %out: !tt.ptr<i32>) {{\n"
             "    %r = distributed.get_rank %x : i32\n    %s = arith.addi %r, %x : i32\n"
             "    tt.store %out, %s : !tt.ptr<i32>\n    tt.return\n  }}\n}}\n")
    return "// -----\n".join(chunk.format(i=i) for i in range(n))


def lint_kernel(n: int) -> str:
    """One kernel with ``n`` notify/wait pairs on the signal argument ``%sig``, slot ``i`` 64
    bytes apart, each wait's token consumed."""
    lines = ["module {",
             "  tt.func public @pairs(%sig: !tt.ptr<i32>, %buf: !tt.ptr<f32>, %peer: i32) {",
             "    %c1_i32 = arith.constant 1 : i32",
             "    %c1_i64 = arith.constant 1 : i64"]
    for i in range(n):
        lines += [f"    %o{i} = arith.constant {16 * i} : i32",
                  f"    %s{i} = tt.addptr %sig, %o{i} : !tt.ptr<i32>, i32",
                  f'    "distributed.notify"(%s{i}, %c1_i64, %peer) <{{commScope = 1 : i32, sigOp = 1 : i32}}> '
                  ": (!tt.ptr<i32>, i64, i32) -> ()",
                  f"    %t{i} = distributed.wait %s{i}, %c1_i32, %c1_i32, scope = gpu semantic = acquire "
                  ": !tt.ptr<i32>, i32, i32 -> i32",
                  f"    %b{i} = distributed.consume_token %buf, %t{i}, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>",
                  f"    %v{i} = tt.load %b{i} : !tt.ptr<f32>"]
    lines += ["    tt.return", "  }", "}", ""]
    return "\n".join(lines)


CASES = {
    "split": (split_file, ["--split-input-file", "-o", os.devnull], "1500,12000"),
    "lint": (lint_kernel, ["--lint-only"], "2000,16000"),
}


def ttd_lower() -> str:
    exe = Path(sys.executable).parent / "ttd-lower"
    return str(exe) if exe.exists() else "ttd-lower"


def time_run(path: str, flags, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run([ttd_lower(), path, *flags], capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0 or "warning" in proc.stderr:
            sys.exit(f"ttd-lower failed on {path}:\n{proc.stderr[-2000:]}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--counts")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    make, flags, default_counts = CASES[args.case]
    counts = [int(c) for c in (args.counts or default_counts).split(",")]
    base = None
    print(f"{args.case}: ttd-lower {' '.join(flags)}")
    print(f"{'N':>8} {'seconds':>9} {'growth':>8} {'N ratio':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            path = os.path.join(tmp, f"{args.case}{n}.ttir")
            Path(path).write_text(make(n))
            seconds = time_run(path, flags, args.runs)
            if base is None:
                base = (n, seconds)
            print(f"{n:>8} {seconds:>9.3f} {seconds / base[1]:>8.2f} {n / base[0]:>8.1f}")


if __name__ == "__main__":
    main()
