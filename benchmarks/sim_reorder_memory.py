"""Peak memory of ``ttd-sim --reorder`` against the same run without it (issue 29, criterion 3).

    python benchmarks/sim_reorder_memory.py [--n 4194304] [--ranks 2] [--grid 64] [--root DIR]

A kernel whose programs each wait on a flag (set by the host) and then load a block of ``x``
without the wait's token, so ``--reorder`` may move every load above its wait (SPEC.md
section 7, "Schedules"), and store it to ``out``; ``x`` and ``out`` hold ``n`` f32 per rank, and
an unused buffer ``pad`` of ``n`` f32 makes the heaps larger than what the programs touch.  The
run with and without ``--reorder``, each in a fresh process (``--root``: the checkout whose
``transpiler`` it imports, to compare with an older one), prints time and peak resident memory
(the child's own, ``ru_maxrss``) and the bound of issue 29: with ``--reorder`` at most twice the
run without it plus 256 MB.  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KERNEL = """module {
  tt.func public @wait_then_copy(%sig: !tt.ptr<i32>, %x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %c1 = arith.constant 1 : i32
    %c256 = arith.constant 256 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c256 : i32
    %t = distributed.wait %sig, %c1, %c1, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %b = tt.splat %base : i32 -> tensor<256xi32>
    %o = arith.addi %b, %r : tensor<256xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %o : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %v = tt.load %xp : tensor<256x!tt.ptr<f32>>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %op = tt.addptr %os, %o : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %op, %v : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}
"""

CHILD = """
import json, resource, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from transpiler.sim import Fill, Launch, Plan, simulate
n, R, grid, reorder = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
plan = Plan(R, {"sig": "zeros(16, i32)", "x": f"arange({n}, f32)", "out": f"zeros({n}, f32)",
                "pad": f"zeros({n}, f32)"},
            [[Fill(list(range(R)), {"sig": np.ones(1, np.int32)}),
              Launch(list(range(R)), sys.stdin.read(), grid=(grid,), args={"sig": "sig", "x": "x", "out": "out"})]])
t = time.perf_counter()
res = simulate(plan, reorder=reorder, schedules=2)
wall = time.perf_counter() - t
assert np.array_equal(res.buffers[0]["out"][: 256 * grid], np.arange(256 * grid, dtype=np.float32))
print(json.dumps({"wall": wall, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(root: Path, n: int, ranks: int, grid: int, reorder: bool) -> dict:
    """One child run: ``{"wall": s, "rss_mb": peak MB}``."""
    proc = subprocess.run([sys.executable, "-c", CHILD, str(root), str(n), str(ranks), str(grid), "1" if reorder else "0"],
                          input=KERNEL, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 22, help="f32 elements of x, out and pad per rank")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--grid", type=int, default=64, help="programs per rank (each loads 256 elements)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    a = ap.parse_args()
    heaps = a.ranks * 3 * a.n * 4 / 2 ** 20
    plain = run(a.root, a.n, a.ranks, a.grid, False)
    reordered = run(a.root, a.n, a.ranks, a.grid, True)
    bound = 2 * plain["rss_mb"] + 256
    print(f"{a.root}: {a.ranks} ranks x {a.grid} programs, heaps {heaps:.0f} MB, 2 schedules")
    print("| run | wall | peak RSS |")
    print("| --- | ---: | ---: |")
    print(f"| without --reorder | {plain['wall']:.2f} s | {plain['rss_mb']:.0f} MB |")
    print(f"| with --reorder | {reordered['wall']:.2f} s | {reordered['rss_mb']:.0f} MB |")
    print(f"bound (issue 29): {bound:.0f} MB; {'within' if reordered['rss_mb'] <= bound else 'OVER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
