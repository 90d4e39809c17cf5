"""Issue 23: the simulator's features that SPEC.md section 7 defines, each run and checked:
``--plan`` files (teams, typed buffers, per-rank launches and host fills, relative paths, usage
errors), teams and the ``team_*`` queries, sub-blocks at a barrier, ``--device-library`` releases,
``--out`` archives, ``tt.scan`` / ``cf`` branches / atomics on real kernels of
``../shared/corpus/ttir/``, the ``--arg`` forms and ``--max-ops``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim_kernels import BUILDERS, DISTRIBUTED, EXAMPLES, SHARED, check_against
from transpiler.sim import Finding, Launch, Plan, check_lowering, simulate

HERE = Path(__file__).parent
INPUTS = HERE / "sim_inputs"
TTIR = SHARED / "ttir" / "triton-3.4"
SIM = [sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"]
needs_ttir = pytest.mark.skipif(not TTIR.is_dir(), reason="../shared/corpus/ttir is not next to the repository")
needs_corpus = pytest.mark.skipif(not DISTRIBUTED.is_dir(), reason="../shared/corpus/distributed is not next to the repository")


def sim(*args, cwd=None):
    return subprocess.run(SIM + [str(a) for a in args], capture_output=True, text=True, cwd=cwd)


# ---- --plan ---------------------------------------------------------------------------------

def _write_plan(tmp_path: Path, plan: dict) -> Path:
    (tmp_path / "kernels").mkdir(exist_ok=True)
    (tmp_path / "kernels" / "teams.ttir").write_text((INPUTS / "teams.ttir").read_text())
    path = tmp_path / "plans" / "run.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(plan))
    return path


def test_plan_file_with_teams_fills_per_rank_launches_and_out(tmp_path):
    """Four ranks, team 1 = ranks 1 and 3 (start 1, stride 2, size 2).  Step 0: host fills
    (a per-rank .npy relative to the plan, and a typed value on ranks 2, 3), then launches that
    differ per rank (ranks 1, 3 query team 1 and meet at its barrier; ranks 0, 2 query the world
    and team -1); step 1 a fill after the launches.  ``--out`` holds every buffer of every rank."""
    for r in range(4):
        np.save(tmp_path / f"extra{r}.npy", np.full(3, 10 * r, np.int16))
    kernel = "../kernels/teams.ttir"
    plan = {"ranks": 4, "teams": [[1, 2, 2]],
            "buffers": {"out": "zeros(4, i32)", "flags": "zeros(4, i32)", "extra": "../extra{rank}.npy",
                        "wide": "full(2, 7, i64)"},
            "steps": [[{"ranks": [0, 1, 2, 3], "fill": {"wide": "arange(2, i64)"}},
                       {"ranks": [1, 3], "kernel": kernel, "function": "team_queries",
                        "args": {"out": "out", "flags": "flags", "team": 1, "idx": [1, 0], "sync": 1}},
                       {"ranks": [0], "kernel": kernel, "args": {"out": "out", "flags": "flags", "team": 0,
                                                                   "idx": 3, "sync": 0}},
                       {"ranks": [2], "kernel": kernel, "args": {"out": "out", "flags": "flags", "team": -1,
                                                                   "idx": "rank", "sync": 0}},
                       {"ranks": [2, 3], "fill": {"wide": "full(1, 5)"}}],
                      [{"ranks": [0], "fill": {"extra": "ones(2, i16)"}}]]}
    path = _write_plan(tmp_path, plan)
    out = tmp_path / "npz"
    run = sim("--plan", path, "--schedules", "4", "--out", out, cwd="/")
    assert run.returncode == 0, run.stderr
    assert "4 ranks, 2 steps, 4 schedules" in run.stdout
    got = [dict(np.load(out / f"rank{r}.npz")) for r in range(4)]
    assert all(set(g) == {"out", "flags", "extra", "wide"} for g in got)
    # team_my_pe, team_n_pes, team_translate_pe(team, idx, world), flags seen after the barrier
    assert got[1]["out"].tolist() == [0, 2, 3, 2] and got[3]["out"].tolist() == [1, 2, 1, 2]
    assert got[0]["out"].tolist() == [0, 4, 3, 0]          # the world: rank 0 is index 0 of 4
    assert got[2]["out"].tolist() == [-1, -1, -1, 0]       # ACLSHMEM_TEAM_INVALID answers -1
    assert [g["flags"].tolist() for g in got] == [[0] * 4, [0, 1, 0, 1], [0] * 4, [0, 1, 0, 1]]
    assert got[0]["extra"].dtype == np.int16 and got[0]["extra"].tolist() == [1, 1, 0]
    assert [g["extra"].tolist() for g in got[1:]] == [[10] * 3, [20] * 3, [30] * 3]
    assert [g["wide"].tolist() for g in got] == [[0, 1], [0, 1], [5, 1], [5, 1]]
    assert got[0]["wide"].dtype == np.int64


@pytest.mark.parametrize("change, message", [
    (lambda p, d: p["buffers"].update(extra="../extra{rank}.npy"), "same size in bytes"),
    (lambda p, d: p["steps"][0][0]["args"].pop("idx"), "argument 'idx' of @team_queries is not given"),
    (lambda p, d: p["steps"][0][0].update(kernel="../kernels/none.ttir"), "cannot read the kernel"),
    (lambda p, d: p["buffers"].update(spare="zeros(4)"), "needs its element type"),  # passed to no pointer
    (lambda p, d: p.update(teams=[[2, 2, 2]]), "not a strided subset"),
    (lambda p, d: p["steps"][0][0]["args"].update(idx=[1, 2, 3]), "3 values for 2 ranks"),
])
def test_plan_errors_are_located_exit_1(tmp_path, change, message):
    """An error in the plan file is located at its value, exit 1 (issue 31 item 5: an error in an
    input, as ttd-lower's; was a usage error, exit 2, with no location)."""
    np.save(tmp_path / "extra0.npy", np.zeros(3, np.int16))
    np.save(tmp_path / "extra1.npy", np.zeros(4, np.int16))
    plan = {"ranks": 2, "buffers": {"out": "zeros(4, i32)", "flags": "zeros(2, i32)"},
            "steps": [[{"ranks": [0, 1], "kernel": "../kernels/teams.ttir",
                        "args": {"out": "out", "flags": "flags", "team": 0, "idx": 0, "sync": 0}}]]}
    change(plan, tmp_path)
    path = _write_plan(tmp_path, plan)
    run = sim("--plan", path)
    assert run.returncode == 1, run.stderr
    assert re.match(rf"{re.escape(str(path))}:1:\d+: error: (buffers|teams|steps)\S*: ", run.stderr), run.stderr
    assert message in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""


# ---- teams ----------------------------------------------------------------------------------

def _team_plan(team, teams=((1, 2, 2),), ranks=(0, 1, 2, 3), sync=0):
    return Plan(4, {"out": "zeros(4, i32)", "flags": "zeros(4, i32)"},
                [[Launch(list(ranks), (INPUTS / "teams.ttir").read_text(),
                         args={"out": "out", "flags": "flags", "team": team, "idx": 1, "sync": sync})]],
                teams=list(teams))


def test_team_queries_before_and_after_lowering():
    """Every handle on every rank: the world, a member's team, a team the rank is not in, -1."""
    for team, want in [(0, [[r, 4, 1] for r in range(4)]),
                       (1, [[-1, 2, 3], [0, 2, 3], [-1, 2, 3], [1, 2, 3]]),
                       (2, [[-1, 3, 2], [0, 3, 2], [1, 3, 2], [2, 3, 2]]),   # ranks 1..3: index 1 is rank 2
                       (-1, [[-1, -1, -1]] * 4)]:
        res = check_lowering(_team_plan(team, teams=[(1, 2, 2), (1, 1, 3)]), schedules=2)
        assert [res.buffers[r]["out"][:3].tolist() for r in range(4)] == want, team


def test_unknown_team_handle_is_an_error_at_the_op():
    with pytest.raises(Finding) as e:
        simulate(_team_plan(2))  # one team in the plan: handle 2 is none
    assert "team handle 2 is not a team" in e.value.message
    assert e.value.op is not None and e.value.op.name == "distributed.extern_call"


def test_team_barrier_waits_for_the_team_only():
    """Ranks 1 and 3 meet at aclshmem_barrier(1) while ranks 0 and 2 run nothing: no deadlock,
    and each member sees both members' flags under every schedule."""
    res = check_lowering(_team_plan(1, ranks=(1, 3), sync=1), schedules=6)
    assert [res.buffers[r]["out"][3] for r in (1, 3)] == [2, 2]


# ---- sub-blocks -----------------------------------------------------------------------------

@pytest.mark.parametrize("subs", [1, 2, 3])
def test_every_sub_block_counts_at_a_barrier(tmp_path, subs):
    kernel = INPUTS / "sub_blocks.ttir"
    out = tmp_path / "npz"
    run = sim(kernel, "--ranks", "2", "--grid", "2", "--sub-blocks", subs, "--arg", f"out=zeros({2 * subs})",
              "--arg", f"seen=zeros({2 * subs})", "--arg", f"nsub={subs}", "--schedules", "6", "--check-lowering",
              "--out", out)
    assert run.returncode == 0, run.stderr
    want = np.tile(np.arange(subs) + 1, 2)
    for r in range(2):
        got = np.load(out / f"rank{r}.npz")
        np.testing.assert_array_equal(got["out"], want)
        np.testing.assert_array_equal(got["seen"], np.roll(want, -1))


# ---- --device-library -----------------------------------------------------------------------

@pytest.mark.parametrize("release", ["1.2.0", "1.2.0-post", "master"])
def test_device_library_releases(release):
    """Each release's signatures (an int64 numBarriers, ...) run the same kernels to the same
    memory; a symbol the release lacks is a finding at the call."""
    for name in ("allgather_push", "reduce_scatter"):
        plan, ref = BUILDERS[name]((EXAMPLES / name / f"{name}.ttir").read_text(), 2)
        check_against(check_lowering(plan, device_library=release, schedules=2), ref, plan)
    run = sim(EXAMPLES / "rma_putmem_signal" / "rma_putmem_signal.ttir", "--ranks", "2", "--device-library", release,
              "--arg", "symm_dst_ptr=zeros(256)", "--arg", "src_ptr=arange(256)", "--arg", "signal_ptr=zeros(32)",
              "--arg", "out_ptr=zeros(256)", "--arg", "n_elements=16")
    from transpiler.lowering.link_check import load_library

    if "aclshmem_signal_wait_until" not in load_library(None, release):
        assert run.returncode == 1 and "aclshmem_signal_wait_until, which the" in run.stderr, run.stderr
    else:
        assert run.returncode == 0, run.stderr


# ---- ops on real kernels --------------------------------------------------------------------

@needs_ttir
def test_scan_kernel():
    """scans.ttir: forward sum, reverse product, a two-operand scan, an i64 scan along axis 1."""
    # exact sums and products, none overflowing: x and x + 1 are powers of two (or minus one)
    x = np.random.default_rng(3).choice(np.array([-0.5, 1.0], np.float32), 256)
    plan = Plan(1, {"x": x, "out": "zeros(512, f32)"},
                [[Launch([0], (TTIR / "scans.ttir").read_text(), args={"#0": "x", "#1": "out"})]])
    out = simulate(plan).buffers[0]["out"]
    rev_prod = np.cumprod(x[::-1])[::-1]
    want = np.cumsum(x) + rev_prod + np.cumsum(x) + np.cumprod(x + 1)
    np.testing.assert_allclose(out[:256], want, rtol=1e-5)
    np.testing.assert_array_equal(out[256:], np.cumsum(x.astype(np.int64).reshape(16, 16), axis=1).ravel())


def _control_flow_reference(x, n, thresh, grid):
    out = np.zeros(512, np.float32)
    f = np.float32
    for pid in range(grid):
        offs = pid * 128 + np.arange(128)
        if pid * 128 >= n:
            continue  # the cf.cond_br to the early tt.return
        mask = offs < n
        v = np.where(mask, x[np.minimum(offs, x.size - 1)], f(0))
        s, it = v.sum(dtype=np.float32), 0
        while s < thresh and it < 100:
            v = v * f(2) + f(1)
            s, it = v.sum(dtype=np.float32), it + 1
        if s > 0:
            k, v = it * 2, v + s
        elif s < -100:
            k, v = it + 3, v - s
        else:
            k = 0
        v = v * f(0.5)
        for i in range(8):
            v = v + f(i) if i % 2 == 0 else v - f(k)
        out[offs[mask]] = v[mask]
    return out


@needs_ttir
@pytest.mark.parametrize("scale, thresh", [(1.0, 500.0), (-10.0, -1e9), (0.0, -1.0)])
def test_control_flow_kernel(scale, thresh):
    """control_flow.ttir: a cf.cond_br early return (program 3 of 4 has no element), scf.while,
    nested scf.if (each of its three branches by one of the inputs), scf.for."""
    x = (np.random.default_rng(5).random(300) * scale).astype(np.float32)
    plan = Plan(1, {"x": x, "out": "zeros(512, f32)"},
                [[Launch([0], (TTIR / "control_flow.ttir").read_text(), grid=(4,),
                         args={"#0": "x", "#1": "out", "#2": 300, "#3": thresh})]])
    got = simulate(plan, schedules=2).buffers[0]["out"]
    np.testing.assert_allclose(got, _control_flow_reference(x, 300, np.float32(thresh), 4), rtol=1e-4, atol=1e-3)


@needs_ttir
def test_atomics_kernel_under_every_schedule():
    """atomics.ttir: a counter every program increments, fadd, max/min where lanes share an
    address, and/or/xor, a spin lock taken with atomic_cas and released with exch."""
    G, n = 4, 500
    x = np.random.default_rng(7).standard_normal(512).astype(np.float32)
    acc = np.random.default_rng(8).standard_normal(512).astype(np.float32)
    bits = np.array([0, 0, 0, 0, 0, 0, 0, 0, 0x0F0F, 0x1, 0x3], np.int32)
    plan = Plan(1, {"counter": "zeros(2, i32)", "lock": "zeros(1, i32)", "x": x, "acc": acc, "bits": bits},
                [[Launch([0], (TTIR / "atomics.ttir").read_text(), grid=(G,),
                         args={"#0": "counter", "#1": "lock", "#2": "x", "#3": "acc", "#4": "bits", "#5": n})]])
    live = np.arange(G * 128) < n
    as_int = np.where(live, x[:G * 128], 0).view(np.int32)
    for seed in range(8):
        b = simulate(plan, seed=seed).buffers[0]
        assert b["counter"][0] == G and 1 <= b["counter"][1] <= G  # the holder of the lock saw its own add
        assert b["lock"][0] == 0
        np.testing.assert_allclose(b["acc"][:n], acc[:n] + x[:n], rtol=1e-6)
        np.testing.assert_array_equal(b["acc"][n:], acc[n:])
        groups = [as_int[live & (np.arange(G * 128) % 4 == g)] for g in range(4)]
        assert b["bits"][:4].tolist() == [max(0, int(g.max())) for g in groups]
        assert b["bits"][4:8].tolist() == [min(0, int(g.min())) for g in groups]
        assert b["bits"][8:11].tolist() == [0x0F0F & 255, 0x1 | 256, 0x3 ^ (7 * (G % 2))]


@pytest.mark.parametrize("function", ["atomic", "cas", "lanes"])
def test_counter_on_rank_0_is_atomic_under_every_schedule(function):
    """Every program (3) of every rank (4) takes tickets from one counter on rank 0: the tickets
    are 0..N-1, each once, under every schedule; the racy load/store version loses updates under
    some schedule (so the schedules do interleave the programs)."""
    R, G = 4, 3
    per = 4 if function == "lanes" else 1
    text = (INPUTS / "counter.ttir").read_text()

    def run(fn, seed):
        plan = Plan(R, {"counter": "zeros(1, i32)", "tickets": f"zeros({R * G * per}, i32)"},
                    [[Launch(list(range(R)), text, function=fn, grid=(G,), args={"counter": "counter", "tickets": "tickets"})]])
        b = simulate(plan, seed=seed).buffers
        own = [b[r]["tickets"][r * G * per:(r + 1) * G * per] for r in range(R)]  # each rank writes its own slots
        return b[0]["counter"][0], np.sort(np.concatenate(own))

    for seed in range(10):
        count, tickets = run(function, seed)
        assert count == R * G * per, seed
        np.testing.assert_array_equal(tickets, np.arange(R * G * per), err_msg=f"seed {seed}")
    assert any(run("racy", s)[0] < R * G for s in range(10))


# ---- --arg forms and --max-ops --------------------------------------------------------------

ARGS = """module {
  tt.func public @args(%out: !tt.ptr<i64>, %fout: !tt.ptr<f32>, %in: !tt.ptr<i16>, %a: i32, %b: i64, %c: f32, %d: i8) {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %a64 = arith.extsi %a : i32 to i64
    tt.store %out, %a64 : !tt.ptr<i64>
    %p1 = tt.addptr %out, %c1 : !tt.ptr<i64>, i32
    tt.store %p1, %b : !tt.ptr<i64>
    %d64 = arith.extsi %d : i8 to i64
    %p2 = tt.addptr %out, %c2 : !tt.ptr<i64>, i32
    tt.store %p2, %d64 : !tt.ptr<i64>
    %v = tt.load %in : !tt.ptr<i16>
    %v64 = arith.extsi %v : i16 to i64
    %p3 = tt.addptr %out, %c3 : !tt.ptr<i64>, i32
    tt.store %p3, %v64 : !tt.ptr<i64>
    tt.store %fout, %c : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_arg_forms(tmp_path):
    """``rank``, one value per rank, ``#i`` (by position), a hexadecimal and a wrapped integer,
    a float, ``FILE.npy`` with ``{rank}``."""
    kernel = tmp_path / "args.ttir"
    kernel.write_text(ARGS)
    for r in range(3):
        np.save(tmp_path / f"in{r}.npy", np.array([100 + r, 5], np.int16))
    out = tmp_path / "npz"
    run = sim(kernel, "--ranks", "3", "--arg", "out=zeros(4)", "--arg", "#1=full(1,9)", "--arg",
              f"in={tmp_path}/in{{rank}}.npy", "--arg", "a=rank", "--arg", "b=10,-20,0x30", "--arg", "#5=2.5",
              "--arg", "d=200", "--out", out)
    assert run.returncode == 0, run.stderr
    for r in range(3):
        got = np.load(out / f"rank{r}.npz")
        assert got["out"].tolist() == [r, [10, -20, 48][r], 200 - 256, 100 + r]
        assert got["fout"].tolist() == [2.5] and got["in"].tolist() == [100 + r, 5]


@pytest.mark.parametrize("args, message", [
    (["--arg", "b=1,2"], "2 values for 3 ranks"),
    (["--arg", "b=x"], "a number, 'rank' or one number per rank"),
    (["--arg", "#9=1"], "has no argument #9"),
    (["--arg", "in=missing{rank}.npy"], "cannot read"),
])
def test_arg_errors_exit_2(tmp_path, args, message):
    kernel = tmp_path / "args.ttir"
    kernel.write_text(ARGS)
    np.save(tmp_path / "in.npy", np.zeros(2, np.int16))
    given = {"out": "out=zeros(4)", "fout": "fout=zeros(1)", "in": f"in={tmp_path}/in.npy", "a": "a=1", "b": "b=1",
             "c": "c=1.0", "d": "d=1"}
    for a in args:
        name = a.split("=")[0]
        given.pop(name, None)
    rest = [x for v in given.values() for x in ("--arg", v)]
    run = sim(kernel, "--ranks", "3", *rest, *args, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and "Traceback" not in run.stderr


def test_max_ops_on_the_command_line(tmp_path):
    kernel = EXAMPLES / "allgather_push" / "allgather_push.ttir"
    args = ["--arg", "local_ptr=arange(256)", "--arg", "symm_buf_ptr=zeros(1024)", "--arg", "signal_ptr=zeros(64)",
            "--arg", "out_ptr=zeros(1024)", "--arg", "n_per_rank=256", "--arg", "epoch=1"]
    ok = sim(kernel, "--ranks", "4", *args)
    ops = int(re.search(r": ([\d,]+) ops per run", ok.stdout).group(1).replace(",", ""))
    assert ok.returncode == 0 and sim(kernel, "--ranks", "4", "--max-ops", ops, *args).returncode == 0
    run = sim(kernel, "--ranks", "4", "--max-ops", ops - 1, *args)
    assert run.returncode == 1, run.stderr
    assert f"more than {ops - 1} ops executed (--max-ops)" in run.stderr and "rank" in run.stderr


CAS_LANES = """module {
  tt.func public @cas_lanes(%counter: !tt.ptr<i32>, %old: !tt.ptr<i32>) {
    %lane = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %ones = arith.constant dense<1> : tensor<4xi32>
    %next = arith.addi %lane, %ones : tensor<4xi32>
    %ptrs = tt.splat %counter : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %seen = tt.atomic_cas acq_rel, gpu, %ptrs, %lane, %next : (tensor<4x!tt.ptr<i32>>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %op = tt.splat %old : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %dst = tt.addptr %op, %lane : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    tt.store %dst, %seen : tensor<4x!tt.ptr<i32>>
    tt.return
  }
}
"""


def test_cas_lanes_on_one_address_run_in_lane_order():
    """Lane k swaps k for k + 1: one after another, each lane sees the previous lane's value."""
    res = simulate(Plan(1, {"counter": "zeros(1, i32)", "old": "zeros(4, i32)"},
                        [[Launch([0], CAS_LANES, args={"counter": "counter", "old": "old"})]]))
    assert res.buffers[0]["counter"].tolist() == [4] and res.buffers[0]["old"].tolist() == [0, 1, 2, 3]


def test_progress_reports_programs_done_per_step_and_run():
    """Issue 33, the progress bar: ``on_progress`` gets where the run is (run k of K, step, the
    step's programs done of all, ops), the last report of each step with every program done; with
    ``check_lowering`` both modules' runs, labelled."""
    from transpiler.sim import check_lowering, load_plan, simulate
    from transpiler.sim.progress import Progress

    plan = load_plan(str(Path(__file__).parents[1] / "examples" / "allgather_push" / "plan.json"))
    seen = []
    simulate(plan, schedules=2, on_progress=seen.append)
    assert all(isinstance(p, Progress) and 0 <= p.done <= p.programs and p.label == "" for p in seen)
    ends = [p for p in seen if p.done == p.programs]
    assert [(p.run, p.runs, p.step, p.steps) for p in ends] == [(r, 2, s, 3) for r in (1, 2) for s in (1, 2, 3)]
    assert [p.programs for p in ends[:3]] == [4, 0, 4]  # 4 ranks x grid [1] (no sub-blocks in it); a fill: none
    assert ends[0].ops < ends[2].ops and ends[2].describe().startswith("run 1/2, step 3/3: 4/4 programs, ")
    both = []
    check_lowering(plan, on_progress=both.append)
    assert [p.label for p in both if p.step == 3 and p.done == p.programs] == ["before lowering", "after lowering"]


def test_progress_bar_of_the_command_line_shows_programs_of_the_step():
    from transpiler.cli.sim import _progress
    from transpiler.sim.progress import Progress

    bar = _progress()
    with bar as update:  # not a terminal under pytest: no bar
        assert update is None
    bar.start -= 2.0  # a run past its first second
    bar.update(Progress(2, 3, 1, 1, 12, 40, 1234567, "after lowering"))
    try:
        task = bar.bar.tasks[0]
        assert (task.completed, task.total) == (12, 40)
        assert task.description == "after lowering, run 2/3, step 1/1: 12/40 programs, 1,234,567 ops"
    finally:
        bar.__exit__(None, None, None)
