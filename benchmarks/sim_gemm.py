"""The public GEMM tutorials on simulated ranks (issue 33, criterion 2), as their host code launches them.

    python benchmarks/sim_gemm.py [--size 512] [--ranks 2] [--schedules 3] [--only 01-allgather-gemm] [--plain]

Each of ``tutorials/ascend/01-03`` of the shared corpus (all-gather GEMM, GEMM reduce-scatter,
GEMM all-reduce) is compiled by the frontend (``transpiler.language``) and run as
``ttd-sim --check-lowering --schedules K`` would (``check_lowering``: before and after lowering,
K schedules each; with ``--plain``, one ``simulate`` run of the kernel as written, what
``ttd-sim`` without ``--check-lowering`` does) with the host code's tiles (128 x 256 x 256,
pvalue 4, 20 programs, two communication buffers) at M = N = K = ``--size`` (the host code's is 4096).  Prints per tutorial
the wall time, the peak resident memory (the process's, so far), whether C equals the host's
golden (``assert_close`` at 1e-3), and numpy's ``A @ B`` for the same shapes in the same run.
Needs the ``frontend`` and ``sim`` extras and the shared corpus next to the repository.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton 3.9 warns when it is unset

import frontend_ports as ports  # noqa: E402
from transpiler.sim import check_lowering, simulate  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=512, help="M = N = K (the host code's: 4096)")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--schedules", type=int, default=3)
    ap.add_argument("--only", choices=sorted(ports.HOST_SHAPES), action="append")
    ap.add_argument("--plain", action="store_true", help="one simulate run (schedule 0), not check_lowering")
    a = ap.parse_args()
    how = "one run (no --check-lowering)" if a.plain else f"--check-lowering --schedules {a.schedules}"
    print(f"M = N = K = {a.size}, {a.ranks} ranks, {how}, host tiles "
          f"{'x'.join(map(str, ports.HOST_BLOCKS))}")
    print("| tutorial | ttd-sim | peak RSS | C as the host expects | numpy A @ B | ratio |")
    print("| --- | ---: | ---: | --- | ---: | ---: |")
    for file in a.only or sorted(ports.HOST_SHAPES):
        shape = dict(ports.HOST_SHAPES[file], M=a.size, N=a.size, K=a.size)
        plan, reference = ports.tutorial(file, a.ranks, shape=shape, blocks=ports.HOST_BLOCKS)
        t = time.perf_counter()
        result = simulate(plan) if a.plain else check_lowering(plan, schedules=a.schedules)
        wall = time.perf_counter() - t
        ok = all(np.allclose(result.buffers[r]["C"].astype(np.float32),
                             reference[r].astype(np.float16).astype(np.float32), rtol=1e-3, atol=1e-3)
                 for r in range(a.ranks))
        x = np.ones((a.size, a.size), np.float32)
        x @ x  # BLAS warmed up
        t = time.perf_counter()
        for _ in range(a.ranks):
            x @ x
        ref = time.perf_counter() - t
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"| {file} | {wall:.1f} s | {rss:.0f} MB | {'yes' if ok else 'NO'} | {ref * 1e3:.1f} ms | "
              f"{wall / ref:.0f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
