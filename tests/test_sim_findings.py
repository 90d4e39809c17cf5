"""Criteria 4 and 5 of issue 23: a missing ``consume_token`` shows as a schedule-dependent result
under ``--reorder``; a wait nobody satisfies is a located deadlock; an out-of-bounds store is a
located error with rank and address.  Through the Python API and the ``ttd-sim`` command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim_kernels import DISTRIBUTED, EXAMPLES, MULTI_ARGS, multi_dtype_buffers
from transpiler.parser import parse_module
from transpiler.sim import Deadlock, Finding, Launch, Plan, StepLimit, check_lowering, simulate
from transpiler.sim.compiler import Compiler
from transpiler.sim.library.binding import DeviceLibrary

HERE = Path(__file__).parent
PRODUCER = (HERE / "sim_inputs" / "multi_dtype_producer.ttir").read_text()
needs_corpus = pytest.mark.skipif(not DISTRIBUTED.is_dir(), reason="../shared/corpus/distributed is not next to the repository")
SIM = [sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"]


def _multi_plan(reader: str, R: int = 4) -> Plan:
    """Rank 0 runs the producer, ranks 1..R-1 the reader of rank 0's buffers, in one step."""
    producer_args = {"h": "h", "bf": "bf", "f": "f", "b": "b", "i": "i", "l": "l", "sig": "sig"}
    return Plan(R, multi_dtype_buffers(R, [0] * R),
                [[Launch([0], PRODUCER, args=producer_args),
                  Launch(list(range(1, R)), reader, args={**MULTI_ARGS, "peer": 0})]])


def _outcomes(plan, seeds):
    seen = set()
    for s in seeds:
        res = simulate(plan, seed=s, reorder=True)
        seen.add(tuple(np.concatenate([res.buffers[r]["out"] for r in range(1, plan.ranks)]).tolist()))
    return seen


def _with_consume_tokens(text: str) -> str:
    for ptr, t in (("ri", "i32"), ("rh", "f16"), ("rl", "i64")):
        text, n = re.subn(rf"(\n\s*)(%\w+) = tt\.load %{ptr} : !tt\.ptr<{t}>",
                          rf"\1%{ptr}_tok = distributed.consume_token %{ptr}, %token, : !tt.ptr<{t}>, i32 -> !tt.ptr<{t}>"
                          rf"\1\2 = tt.load %{ptr}_tok : !tt.ptr<{t}>", text)
        assert n == 1
    return text


@needs_corpus
def test_reorder_candidates_of_multi_dtype_are_lines_17_19_21():
    text = (DISTRIBUTED / "multi_dtype.ttir").read_text()
    c = Compiler(parse_module(text), DeviceLibrary())
    c.function("multi_dtype_gather_kernel")
    loads = [op for op in c.ops if op.name == "tt.load"]
    lines = sorted(op.source.line_col(op.span[0])[0] for op in loads if c.reorder_wait(op) is not None)
    assert lines == [17, 19, 21]
    assert sorted(op.source.line_col(op.span[0])[0] for op in loads) == [17, 19, 21, 27, 31, 36, 40]


@needs_corpus
def test_multi_dtype_without_consume_token_depends_on_the_schedule():
    text = (DISTRIBUTED / "multi_dtype.ttir").read_text()
    plan = _multi_plan(text)
    assert len(_outcomes(plan, range(20))) > 1
    with pytest.raises(Finding) as e:
        simulate(plan, schedules=20, reorder=True)
    assert e.value.kind == "schedule-dependent"
    simulate(plan, schedules=20)  # without reordering the protocol is right


@needs_corpus
def test_multi_dtype_with_consume_tokens_gives_one_result():
    text = _with_consume_tokens((DISTRIBUTED / "multi_dtype.ttir").read_text())
    plan = _multi_plan(text)
    res = simulate(plan, schedules=20, reorder=True)
    f = np.arange(64, dtype=np.float32) + 1
    want = np.zeros(64, np.float32)
    want[:50] = ((f + f + f + np.arange(64)) * 1 + 3)[:50]
    for r in range(1, 4):
        np.testing.assert_array_equal(res.buffers[r]["out"], want)
    check_lowering(plan, schedules=20, reorder=True)


DEADLOCK = """module {
  tt.func public @never(%sig: !tt.ptr<i32> loc("sig"(#loc)), %out: !tt.ptr<i32> loc("out"(#loc))) {
    %c1 = arith.constant 1 : i32 loc(#loc1)
    %t = distributed.wait %sig, %c1, %c1, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32 loc(#loc2)
    tt.store %out, %t : !tt.ptr<i32> loc(#loc1)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc("never.py":3:0)
#loc1 = loc(unknown)
#loc2 = loc("never.py":5:8)
"""


def test_deadlock_is_reported_with_every_blocked_wait(tmp_path):
    kernel = tmp_path / "never.ttir"
    kernel.write_text(DEADLOCK)
    run = subprocess.run(SIM + [str(kernel), "--ranks", "3", "--grid", "2", "--arg", "sig=zeros(16)", "--arg", "out=zeros(1)",
                                "--max-ops", "1000"], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert re.search(r"never\.ttir:4:5: error: 'distributed.wait' op rank \d, program \(\d, 0, 0\): deadlock", run.stderr)
    assert "never.py:5:9: note: in the kernel's Python source" in run.stderr
    blocked = re.findall(r"note: rank (\d), program \((\d), 0, 0\) waits: slot at byte 0 of rank \1's buffer 'sig' holds 0, "
                         r"waits for == 1", run.stderr)
    assert sorted(blocked) == [(str(r), str(p)) for r in range(3) for p in range(2)]
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_deadlock_through_the_lowered_wait():
    plan = Plan(2, {"sig": "zeros(16, i32)", "out": "zeros(1, i32)"},
                [[Launch([0, 1], DEADLOCK, args={"sig": "sig", "out": "out"})]])
    with pytest.raises(Deadlock) as e:
        check_lowering(plan)
    assert len(e.value.notes) == 2


LOOP = """module {
  tt.func public @forever(%out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %big = arith.constant 2000000000 : i32
    scf.for %i = %c0 to %big step %c1 : i32 {
      tt.store %out, %i : !tt.ptr<i32>
    }
    tt.return
  }
}
"""


def test_step_limit_stops_a_long_run():
    plan = Plan(1, {"out": "zeros(1, i32)"}, [[Launch([0], LOOP, args={"out": "out"})]])
    with pytest.raises(StepLimit) as e:
        simulate(plan, max_ops=5000)
    assert "more than 5000 ops" in e.value.message and e.value.rank == 0


def test_out_of_bounds_store_is_located_with_rank_and_address():
    kernel = EXAMPLES / "allgather_push" / "allgather_push.ttir"
    run = subprocess.run(SIM + [str(kernel), "--ranks", "4", "--arg", "local_ptr=arange(256)", "--arg", "symm_buf_ptr=zeros(1000)",
                                "--arg", "signal_ptr=zeros(64)", "--arg", "out_ptr=zeros(1024)", "--arg", "n_per_rank=256",
                                "--arg", "epoch=1"], capture_output=True, text=True)
    assert run.returncode == 1
    assert re.search(r"allgather_push\.ttir:29:7: error: 'tt.store' op rank \d, program \(0, 0, 0\): out-of-bounds store at "
                     r"lane \d+: element \d+ is outside buffer 'symm_buf_ptr' \(1000 elements of 4 bytes\) on rank \d "
                     r"\(address 0x[0-9a-f]+\)", run.stderr)
    assert "allgather_push.py:20:10: note: in the kernel's Python source" in run.stderr


def test_usage_errors_exit_2(tmp_path):
    kernel = EXAMPLES / "allgather_push" / "allgather_push.ttir"
    run = subprocess.run(SIM + [str(kernel), "--ranks", "2", "--arg", "local_ptr=zeros(4)"], capture_output=True, text=True)
    assert run.returncode == 2 and ("5 arguments of @allgather_push_kernel are not given: --arg symm_buf_ptr=VALUE "
                                    "--arg signal_ptr=VALUE --arg out_ptr=VALUE") in run.stderr, run.stderr
