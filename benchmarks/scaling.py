#!/usr/bin/env python3
"""Does lowering time grow linearly with the number of distributed ops in one block?

    python benchmarks/scaling.py [--counts 1000,8000,64000] [--runs 3]

Generates one ``tt.func`` whose single block holds N ``distributed.symm_at`` ops (each on a
fresh ``tt.addptr`` of a kernel argument, with a user of its result) and an ``arith.constant``
signal notified N/8 times, lowers it in process with :func:`transpiler.lower` (parse, both
stages, print), and prints the time of each N, microseconds per op and the growth factor
against the smallest N.  Linear cost means time(8k) / time(1k) near 8 (issue 12: at most 10;
issue 16: growth at most 1.25 times faster than the op count).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def kernel(n: int) -> str:
    """A kernel with ``n`` symm_at ops (and ``n // 8`` notifies) in one block."""
    lines = ["module {",
             "  tt.func public @scaling(%buf: !tt.ptr<f32>, %sig: !tt.ptr<i32>, %peer: i32) {",
             "    %c1_i64 = arith.constant 1 : i64",
             "    %c4_i32 = arith.constant 4 : i32"]
    for i in range(n):
        lines.append(f"    %p{i} = tt.addptr %buf, %c4_i32 : !tt.ptr<f32>, i32")
        lines.append(f"    %r{i} = distributed.symm_at %p{i}, %peer, : !tt.ptr<f32>")
        lines.append(f"    %v{i} = tt.load %r{i} : !tt.ptr<f32>")
        if i % 8 == 0:
            lines.append('    "distributed.notify"(%sig, %c1_i64, %peer) <{commScope = 1 : i32, sigOp = 2 : i32}> '
                         ": (!tt.ptr<i32>, i64, i32) -> ()")
    lines += ["    tt.return", "  }", "}", ""]
    return "\n".join(lines)


def time_lowering(text: str, runs: int) -> float:
    from transpiler import lower

    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        lower(text, filename="scaling.ttir")
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="1000,8000,64000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    time_lowering(kernel(10), 1)  # grammar tables and imports out of the figures
    base = None
    print(f"{'ops':>8} {'seconds':>9} {'us/op':>8} {'growth':>8} {'ops ratio':>9}")
    for n in counts:
        seconds = time_lowering(kernel(n), args.runs)
        if base is None:
            base = (n, seconds)
        growth = seconds / base[1]
        print(f"{n:>8} {seconds:>9.3f} {1e6 * seconds / n:>8.1f} {growth:>8.2f} {n / base[0]:>9.1f}")


if __name__ == "__main__":
    main()
