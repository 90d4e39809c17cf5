"""Benchmark of the simulator (issue 23, criterion 7): allgather_push on 8 ranks.

    python benchmarks/sim_allgather.py                 # n_per_rank = 1 M f32 (4096 programs of 256 per rank)
    python benchmarks/sim_allgather.py --n 1024        # the 1 k smoke run
    python benchmarks/sim_allgather.py --races         # the same with race detection (--races)

Prints the wall and CPU time of the run (parsing included), the ops simulated, ops per second, and a profile summary of where the time
goes (``--profile``).  Figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
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
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
