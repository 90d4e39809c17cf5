"""Benchmark of the simulator (issue 23, criterion 7): allgather_push on 8 ranks.

    python benchmarks/sim_allgather.py                 # n_per_rank = 1 M f32 (4096 programs of 256 per rank)
    python benchmarks/sim_allgather.py --n 1024        # the 1 k smoke run
    python benchmarks/sim_allgather.py --races         # the same with race detection (--races)
    python benchmarks/sim_allgather.py --ranks 2       # 2 to 64 ranks (issue 33's sizes: --n 65536 or 1 M)

Prints the wall and CPU time of the run (parsing included), the ops simulated, ops per second,
the time numpy takes for the same data movement measured in the same run (each rank's shard
copied into every peer's symmetric buffer, then each buffer into its output) and the ratio,
the peak resident memory of the process against the heaps' bytes, and a profile summary of
where the time goes (``--profile``).  Figures are reported, never asserted; the exit status is
1 on a wrong result.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

from transpiler.sim import Launch, Plan, simulate

KERNEL = Path(__file__).resolve().parents[1] / "examples" / "allgather_push" / "allgather_push.ttir"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 20, help="elements per rank (f32)")
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--races", action="store_true", help="detect races by happens-before (SPEC.md section 7)")
    a = ap.parse_args()
    R, n = a.ranks, a.n
    grid = -(-n // 256)
    plan = Plan(R, {"x": f"rank({n}, f32)", "buf": f"zeros({n * R}, f32)", "sig": f"zeros({16 * R * grid}, i32)",
                    "out": f"zeros({n * R}, f32)"},
                [[Launch(list(range(R)), KERNEL.read_text(), grid=(grid,),
                         args={"local_ptr": "x", "symm_buf_ptr": "buf", "signal_ptr": "sig", "out_ptr": "out",
                               "n_per_rank": n, "epoch": 1})]])
    t0, c0 = time.perf_counter(), time.process_time()
    if a.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        result = prof.runcall(simulate, plan, max_ops=10 ** 9, races=a.races)
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)
    else:
        result = simulate(plan, max_ops=10 ** 9, races=a.races)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    want = np.repeat(np.arange(R, dtype=np.float32), n)
    ok = all(np.array_equal(result.buffers[r]["out"], want) for r in range(R))
    print(f"allgather_push{' --races' if a.races else ''}: {R} ranks x {grid} programs, n_per_rank={n}: {dt:.2f} s ({cpu:.2f} s CPU), "
          f"{result.ops:,} ops, {result.ops / dt:,.0f} ops/s ({result.ops / cpu:,.0f} per CPU second), result {'correct' if ok else 'WRONG'}")
    ref = numpy_reference(R, n)
    heaps = R * (n + 2 * n * R) * 4 + R * 16 * R * grid * 4  # x, buf, out (f32) and sig (i32) per rank
    print(f"numpy, the same copies: {ref * 1e3:.3f} ms; ttd-sim / numpy = {dt / ref:,.0f}x")
    print(f"peak RSS {peak_rss_mb():,.0f} MB; heaps {heaps / 2 ** 20:,.0f} MB")
    raise SystemExit(0 if ok else 1)


def numpy_reference(ranks: int, n: int, repeats: int = 3) -> float:
    """Seconds numpy takes for the kernel's data movement (best of ``repeats``): each rank's
    ``n`` f32 copied into every rank's symmetric buffer at its slot, then every buffer into
    that rank's output."""
    x = [np.full(n, r, np.float32) for r in range(ranks)]
    buf = [np.zeros(n * ranks, np.float32) for _ in range(ranks)]
    out = [np.zeros(n * ranks, np.float32) for _ in range(ranks)]
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for r in range(ranks):
            for peer in range(ranks):
                buf[peer][r * n:(r + 1) * n] = x[r]
        for r in range(ranks):
            out[r][:] = buf[r]
        best = min(best, time.perf_counter() - t0)
    return best


def peak_rss_mb() -> float:
    """The process's peak resident memory in MB (``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2 ** 20 if sys.platform == "darwin" else 2 ** 10)


if __name__ == "__main__":
    main()
