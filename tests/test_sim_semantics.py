"""Simulator semantics of issue 29, classes 4 and 5 (SPEC.md section 7): ``--max-ops`` counts every
op wherever it runs (a ``cf`` back-edge loop stops), and notify SET on a signal whose pointee is
not i32, i64 or ui64 stores the 8 bytes of the i64 before lowering, as ``aclshmem_int64_p`` does."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from transpiler.sim import Launch, Plan, StepLimit, check_lowering, simulate

CF_LOOP = """module {
  tt.func public @spin(%out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    cf.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %n = arith.addi %i, %c1 : i32
    cf.br ^loop(%n : i32)
  }
}
"""


def test_max_ops_stops_an_endless_cf_loop_without_memory_ops():
    plan = Plan(1, {"out": "zeros(1, i32)"}, [[Launch([0], CF_LOOP, args={"out": "out"})]])
    start = time.perf_counter()
    with pytest.raises(StepLimit) as e:
        simulate(plan, max_ops=1000)
    assert time.perf_counter() - start < 1.0
    assert "more than 1000 ops" in e.value.message and e.value.rank == 0


NOTIFY_UI32 = """module {
  tt.func public @signal(%sig: !tt.ptr<ui32>) {
    %v = arith.constant 4294967301 : i64
    %r = arith.constant 1 : i32
    "distributed.notify"(%sig, %v, %r) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<ui32>, i64, i32) -> ()
    tt.return
  }
}
"""


def _ui32_plan():
    return Plan(2, {"sig": "zeros(4, i32)"}, [[Launch([0, 1], NOTIFY_UI32, args={"sig": "sig"})]])


def test_notify_set_on_a_ui32_signal_stores_the_8_bytes_of_the_i64():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = simulate(_ui32_plan())
    assert result.buffers[1]["sig"].tolist() == [5, 1, 0, 0]  # 2**32 + 5, little-endian
    assert result.buffers[0]["sig"].tolist() == [0, 0, 0, 0]


def test_check_lowering_of_a_ui32_signal_notify_set_finds_no_difference():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_lowering(_ui32_plan(), schedules=3)
