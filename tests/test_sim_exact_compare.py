"""SPEC.md section 7 as changed for issue 29: the simulator's own comparisons (across schedules,
before and after lowering) are bit for bit, except elements last written by a float atomic add;
and (issue 33) ``--check-lowering`` keeps each schedule's memory: 2K runs for K schedules;
and (issue 29 class 3) a combiner region runs its own control flow per combine step."""

from __future__ import annotations

import numpy as np
import pytest

import transpiler.sim.run as sim_run
from sim_kernels import BUILDERS, EXAMPLES
from transpiler.sim import check_lowering
from transpiler.sim.memory import Memory
from transpiler.sim.outcome import Fingerprint, Outcome, first_difference, kept, same


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_near_equal_floats_differ(dtype):
    """One ulp apart: inside the old float tolerance, a difference now."""
    x = np.ones(8, dtype)
    y = x.copy()
    y[5] = np.nextafter(y[5], dtype(2))
    assert first_difference([{"out": x}], [{"out": y}])[:3] == (0, "out", 5)


def test_signed_zero_and_nan_payload_differ():
    x = np.array([0.0, np.nan], np.float32)
    assert first_difference([{"b": x}], [{"b": np.array([-0.0, np.nan], np.float32)}])[2] == 0
    quiet = np.array([0x7FC00000, 0x7FC00001], np.uint32).view(np.float32)
    assert first_difference([{"b": quiet[:1]}], [{"b": quiet[1:]}]) is not None
    assert first_difference([{"b": x}], [{"b": x.copy()}]) is None


def test_float_atomic_add_elements_keep_a_tolerance():
    mem = Memory(1, [("acc", 16, np.dtype(np.float32))])
    mem.added_floats_at(np.array([2]), 4)
    a = Outcome.of(0, _FakeRun(mem))
    y = [{"acc": a.buffers[0]["acc"].copy()}]
    y[0]["acc"][2] = np.nextafter(np.float32(0), np.float32(1))  # a sum in another order
    assert first_difference(a, y) is None
    y[0]["acc"][1] = y[0]["acc"][2]  # not written by an atomic add: exact
    assert first_difference(a, y)[2] == 1
    mem.store_at(np.array([2]), np.dtype(np.float32), np.float32(1))  # a plain store ends the leeway
    assert not Outcome.of(0, _FakeRun(mem)).loose[0]["acc"][2]


class _FakeRun:
    def __init__(self, memory):
        self.memory = memory


def test_a_fingerprint_compares_as_the_bits_do():
    """What a comparison keeps of an outcome (issue 33, memory): a digest per buffer that tells
    the same bits from any other (signed zero, a NaN payload), and the outcome itself where a
    float atomic add wrote last (compared within a tolerance)."""
    mem = Memory(1, [("b", 16, np.dtype(np.float32))])
    mem.array("b", 0)[...] = [0.0, 1.0, np.nan, 3.0]
    first = kept(Outcome.of(0, _FakeRun(mem)))
    assert isinstance(first, Fingerprint) and same(first, Outcome.of(1, _FakeRun(mem)))
    for i, value in ((0, -0.0), (2, np.uint32(0x7FC00001).view(np.float32)), (3, np.nextafter(np.float32(3), 4))):
        other = Memory(1, [("b", 16, np.dtype(np.float32))])
        other.array("b", 0)[...] = mem.array("b", 0)
        other.array("b", 0)[i] = value
        assert not same(first, Outcome.of(1, _FakeRun(other))), i
    mem.added_floats_at(np.array([1]), 4)
    assert isinstance(kept(Outcome.of(0, _FakeRun(mem))), Outcome)


def test_check_lowering_holds_one_heap_beside_the_running_one(monkeypatch):
    """Each run of a check starts with the heaps of earlier runs gone, but for the result's (the
    first run after lowering): outcomes kept for the comparisons held four heaps (issue 33)."""
    import gc
    import weakref

    heaps, alive = [], []
    real = sim_run.run_schedule

    def counting(*a, **k):
        gc.collect()
        alive.append(sum(h() is not None for h in heaps))
        run = real(*a, **k)
        heaps.append(weakref.ref(run.memory.flat))
        return run

    monkeypatch.setattr(sim_run, "run_schedule", counting)
    plan, _ = BUILDERS["allgather_push"]((EXAMPLES / "allgather_push" / "allgather_push.ttir").read_text(), 2)
    check_lowering(plan, schedules=3)
    assert alive == [0, 0, 1, 1, 1, 1], alive


def test_check_lowering_runs_each_schedule_once(monkeypatch):
    calls = []
    real = sim_run.run_schedule
    monkeypatch.setattr(sim_run, "run_schedule", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    plan, _ = BUILDERS["allgather_push"]((EXAMPLES / "allgather_push" / "allgather_push.ttir").read_text(), 2)
    check_lowering(plan, schedules=3)
    assert sorted(calls) == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reduce_whose_combiner_branches(seed):
    """Issue 29 class 3: the combiner's scf.if decides per pair (was: numpy's "truth value of an
    array is ambiguous"); ties keep the first index, as the combiner says."""
    from pathlib import Path

    from transpiler.sim import Launch, Plan, simulate

    x = np.random.default_rng(seed).integers(-4, 5, 128).astype(np.float32)  # many ties
    text = (Path(__file__).parent / "sim_inputs" / "reduce_if.ttir").read_text()
    plan = Plan(1, {"x": x, "out": "zeros(1, f32)", "idx": "zeros(1, i32)"},
                [[Launch([0], text, args={"#0": "x", "#1": "out", "#2": "idx"})]])
    got = simulate(plan).buffers[0]
    assert got["out"][0] == x.max() and got["idx"][0] == int(np.argmax(x))
