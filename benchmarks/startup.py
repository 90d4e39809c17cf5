#!/usr/bin/env python3
"""Start-up, whole-process and in-process speed of ttd-lower, as ratios, in one run (issue 16).

    python benchmarks/startup.py [--corpus ../shared/corpus] [--pairs 21] [--big-pairs 3] [--no-scaling]

From a clone: ``python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/python
benchmarks/startup.py`` (``python3 tests/tools/verify-downstream --install`` puts the C++
baseline ``triton-adapter-opt`` in the cache, ``~/.cache/ttd-lower/downstream/bin``; without it, its ratios are
left out).  Every figure is the median of alternating pairs (ours, then the reference, again
and again), so that a machine that slows down in the middle slows both sides:

* start-up: ``ttd-lower`` on an empty module against ``python -c pass`` from the same venv;
* typical kernel (``distributed/allgather_push.ttir``), whole process, against ``python -c pass``
  and against ``triton-adapter-opt`` (which gets the kernel with its ``distributed.*`` ops in
  generic form, having no such dialect);
* ``bench/big.compat.ttir`` (40k lines), whole process, against ``triton-adapter-opt``, with
  the peak resident memory of both (each child's own, from ``wait4``);
* in process: ``transpiler.lower`` of the typical kernel, steady state (ms per call);
* linear: ``benchmarks/scaling.py``'s 1k / 8k / 64k distributed ops in one block.

The targets of issue 16 are printed next to the figures; nothing is asserted (a loaded machine
is not a failure).  Bytecode is compiled first and one run made first, as for an
installed package.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

KERNEL = "distributed/allgather_push.ttir"
BIG = "bench/big.compat.ttir"
EMPTY_MODULE = "module {\n}\n"


def child_env():
    """The environment of the timed processes: bytecode may be read and written, as installed."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_once(cmd, env):
    """(wall seconds, peak RSS in MB) of one run of ``cmd`` (its own rusage, from ``wait4``).

    Raises:
        RuntimeError: the command failed.
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({proc.returncode}):\n{err[:2000]}")
    return seconds, usage.ru_maxrss / 1024


def pairs(ours, reference, count, env):
    """Alternating runs: medians of ours and of the reference, the median of the per-pair
    ratios, and the peak RSS (MB, the largest seen) of each side."""
    a, b, ratios, rss_a, rss_b = [], [], [], 0.0, 0.0
    for _ in range(count):
        ta, ma = run_once(ours, env)
        tb, mb = run_once(reference, env)
        a.append(ta)
        b.append(tb)
        ratios.append(ta / tb)
        rss_a, rss_b = max(rss_a, ma), max(rss_b, mb)
    return statistics.median(a), statistics.median(b), statistics.median(ratios), rss_a, rss_b


def find_tao():
    from bench import find_tao as find  # one place knows where the C++ tool lives

    return find()


def ttd_command():
    """The ``ttd-lower`` console script of this interpreter's environment (else ``-m transpiler``)."""
    script = Path(sys.executable).with_name("ttd-lower")
    return [str(script)] if script.exists() else [sys.executable, "-m", "transpiler"]


def in_process_ms(text: str, calls: int) -> float:
    """Median milliseconds of ``transpiler.lower(text)`` once warm (grammar, tables, caches)."""
    import warnings

    from transpiler import lower

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(20):
            lower(text, filename="kernel.ttir")
        times = []
        for _ in range(calls):
            t0 = time.perf_counter()
            lower(text, filename="kernel.ttir")
            times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def scaling_growth(counts=(1000, 8000, 64000), runs=3):
    """(seconds per count, growth of the time against growth of the op count at the largest)."""
    from scaling import kernel, time_lowering

    time_lowering(kernel(10), 1)
    seconds = [time_lowering(kernel(n), runs) for n in counts]
    return seconds, (seconds[-1] / seconds[0]) / (counts[-1] / counts[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--pairs", type=int, default=21, help="alternating pairs for start-up and the kernel")
    parser.add_argument("--big-pairs", type=int, default=3, help="alternating pairs for big.compat.ttir")
    parser.add_argument("--calls", type=int, default=200, help="in-process calls (after 20 warm-up calls)")
    parser.add_argument("--no-scaling", action="store_true", help="skip the 1k/8k/64k ops scaling run")
    args = parser.parse_args()
    corpus = Path(args.corpus)
    kernel, big = corpus / KERNEL, corpus / BIG
    missing = [str(p) for p in (kernel, big) if not p.exists()]
    if missing:
        print(f"missing corpus files: {', '.join(missing)} (use --corpus)", file=sys.stderr)
        return 2
    env = child_env()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "transpiler")], env=env,
                   stdout=subprocess.DEVNULL, check=False)
    ttd = ttd_command()
    python_pass = [sys.executable, "-c", "pass"]
    work = Path(tempfile.mkdtemp(prefix="ttd-startup-"))
    empty = work / "empty.ttir"
    empty.write_text(EMPTY_MODULE)
    out = ["-o", os.devnull]
    run_once(ttd + [str(kernel)] + out, env)  # bytecode, the file cache
    tao = find_tao()

    rows = []  # (figure, ours, reference name, reference, ratio, target)
    ours, ref, ratio, _, _ = pairs(ttd + [str(empty)] + out, python_pass, args.pairs, env)
    rows.append(("start-up (empty module), whole process", f"{1e3 * ours:.1f} ms", "python -c pass",
                 f"{1e3 * ref:.1f} ms", ratio, "-"))
    ours, ref, ratio, _, _ = pairs(ttd + [str(kernel)] + out, python_pass, args.pairs, env)
    rows.append(("typical kernel, whole process", f"{1e3 * ours:.1f} ms", "python -c pass", f"{1e3 * ref:.1f} ms",
                 ratio, "<= 6 (goal 3)"))
    if tao:
        from bench import generic_distributed

        generic = generic_distributed(kernel, work)
        ours, ref, ratio, _, _ = pairs(ttd + [str(kernel)] + out, [tao, str(generic), "--allow-unregistered-dialect"] + out,
                                       args.pairs, env)
        rows.append(("typical kernel, whole process", f"{1e3 * ours:.1f} ms", "triton-adapter-opt", f"{1e3 * ref:.1f} ms",
                     ratio, "-"))
        ours, ref, ratio, rss_ours, rss_ref = pairs(ttd + [str(big)] + out, [tao, str(big), "--allow-unregistered-dialect"] + out,
                                                    args.big_pairs, env)
        rows.append((f"{big.name} ({sum(1 for _ in big.open()):,} lines), whole process", f"{ours:.3f} s",
                     "triton-adapter-opt", f"{ref:.3f} s", ratio, "<= 2 (goal 1)"))
        rows.append((f"{big.name}, peak RSS", f"{rss_ours:.0f} MB", "triton-adapter-opt", f"{rss_ref:.0f} MB",
                     rss_ours / rss_ref, "<= 1.5"))
    else:
        print("triton-adapter-opt not found: its ratios are left out "
              "(python3 tests/tools/verify-downstream --install gets it)", file=sys.stderr)
    ms = in_process_ms(kernel.read_text(), args.calls)
    rows.append(("typical kernel, in process (transpiler.lower)", f"{ms:.2f} ms", "-", "-", None, "<= 2 ms"))
    if not args.no_scaling:
        counts = (1000, 8000, 64000)
        seconds, growth = scaling_growth(counts)
        rows.append((f"scaling {'/'.join(f'{c // 1000}k' for c in counts)} ops in one block",
                     " / ".join(f"{s:.2f}" for s in seconds) + " s", "op count", "64x", growth, "<= 1.25"))
    shutil.rmtree(work, ignore_errors=True)

    print(f"\nttd-lower {' '.join(ttd)}; medians of {args.pairs} alternating pairs "
          f"({args.big_pairs} for the big file); {os.cpu_count()} cores\n")
    print("| figure | ttd-lower | against | reference | ratio | issue 16 target |")
    print("| --- | ---: | --- | ---: | ---: | --- |")
    for figure, value, against, reference, ratio, target in rows:
        shown = f"{ratio:.2f}x" if ratio is not None else "-"
        print(f"| {figure} | {value} | {against} | {reference} | {shown} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
