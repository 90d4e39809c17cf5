"""``--races`` (SPEC.md section 7, "Races"; issue 29, "Races by happens-before"): two conflicting
accesses not ordered by happens-before are a finding in one run, whatever the schedule, naming
both ops (location, rank, program), the buffer and the element range.

Correct kernels (the examples, the shared corpus's kernels, the sim inputs) give none, before and
after lowering; mutants that drop a wait, hoist a notify above its data or drop a barrier give one
naming both accesses; so do a store race between near-equal floats (issue 29, class 7) and a load
racing with a remote put; a property test compares the detector with an oracle of its own on
small random programs.
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import race_mutants
import race_programs
from sim_kernels import BUILDERS, DISTRIBUTED, EXAMPLES, KERNELS
from transpiler import lower
from transpiler.api import LoweringWarning
from transpiler.diagnostics import op_location
from transpiler.sim import Finding, Launch, Plan, check_lowering, simulate
from transpiler.sim.races import Race

INPUTS = Path(__file__).parent / "sim_inputs"
SIM = [sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"]
# kernels correct only on fewer ranks: the ranks they are run on here (see
# test_rma_putmem_signal_races_on_three_ranks_or_more)
RANKS = {"rma_putmem_signal": 2}
EXAMPLE_NAMES = sorted(d.name for d in EXAMPLES.iterdir() if d.is_dir())
needs_corpus = pytest.mark.skipif(not DISTRIBUTED.is_dir(), reason="../shared/corpus/distributed is not next to the repository")


def _race(plan, **kw) -> Race:
    with pytest.raises(Race) as e:
        simulate(plan, races=True, **kw)
    return e.value


def _line(op) -> int:
    source, offset = op_location(op)
    return source.text.count("\n", 0, offset) + 1


def _named(race: Race):
    return {race.op.name, race.other_op.name}


# ---- correct kernels: no race --------------------------------------------------------------

@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_example_has_no_race_before_and_after_lowering(example):
    text = (EXAMPLES / example / f"{example}.ttir").read_text()
    plan, _ = BUILDERS[example](text, RANKS.get(example, 4))
    check_lowering(plan, schedules=2, races=True)


@needs_corpus
@pytest.mark.parametrize("kernel", KERNELS)
def test_corpus_kernel_has_no_race(kernel):
    text = (DISTRIBUTED / f"{kernel}.ttir").read_text()
    plan, _ = BUILDERS[kernel](text, RANKS.get(kernel, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LoweringWarning)
        check_lowering(plan, races=True)


@pytest.mark.parametrize("function", ["atomic", "cas", "lanes"])
def test_counter_with_atomics_has_no_race(function):
    """Atomics do not race with atomics; every ticket goes to the program's own slot."""
    text = (INPUTS / "counter.ttir").read_text()
    plan = Plan(3, {"counter": "zeros(1, i32)", "tickets": "zeros(64, i32)"},
                [[Launch([0, 1, 2], text, function=function, grid=(3,), args={"counter": "counter", "tickets": "tickets"})]])
    for seed in range(3):  # the tickets depend on the schedule (one run each): no race in any
        simulate(plan, races=True, seed=seed)


def _teams(text, sync=1):
    return Plan(4, {"out": "zeros(4, i32)", "flags": "zeros(4, i32)"},
                [[Launch([0, 1, 2, 3], text, args={"out": "out", "flags": "flags", "team": 0, "idx": 1, "sync": sync})]])


def test_barrier_orders_the_flags_of_every_rank():
    check_lowering(_teams((INPUTS / "teams.ttir").read_text()), races=True)


def test_steps_and_stream_order_order_launches():
    """rma_putmem_signal's ``out`` is written in both steps by the same rank: no race between
    steps; a host fill before a launch on the same rank is ordered before it."""
    text = (INPUTS / "counter.ttir").read_text()
    launch = Launch([0, 1], text, function="atomic", args={"counter": "counter", "tickets": "tickets"})
    from transpiler.sim import Fill

    plan = Plan(2, {"counter": "zeros(1, i32)", "tickets": "zeros(8, i32)"},
                [[Fill([0, 1], {"tickets": "ones(8)"}), launch], [launch, launch]])
    simulate(plan, races=True)


# ---- races found ---------------------------------------------------------------------------

def test_lost_update_counter_is_a_race_naming_load_and_store():
    text = (INPUTS / "counter.ttir").read_text()
    plan = Plan(2, {"counter": "zeros(1, i32)", "tickets": "zeros(8, i32)"},
                [[Launch([0, 1], text, function="racy", args={"counter": "counter", "tickets": "tickets"})]])
    race = _race(plan)
    assert race.kind == "race"
    assert _named(race) <= {"tt.load", "tt.store"} and "tt.store" in _named(race)
    assert race.buffer == "counter" and (race.lo, race.hi) == (0, 0)
    text = str(race)
    assert "race" in text and "'counter'" in text and "element 0" in text
    assert "rank" in race.notes[0].message and "program" in race.notes[0].message


def test_missing_barrier_is_a_race():
    mutant = race_mutants.barrier_dropped((INPUTS / "teams.ttir").read_text())
    race = _race(_teams(mutant))
    assert _named(race) == {"tt.store", "tt.load"} and race.buffer == "flags"
    assert race.rank != race.other_rank


@pytest.mark.parametrize("example", ["allgather_push", "gemm_reduce_scatter"])
def test_dropped_wait_is_a_race(example):
    text = (EXAMPLES / example / f"{example}.ttir").read_text()
    mutant = race_mutants.wait_dropped(text)
    assert mutant is not None
    plan, _ = BUILDERS[example](mutant, 4)
    race = _race(plan)
    assert "tt.load" in _named(race) and race.rank != race.other_rank


@pytest.mark.parametrize("example", ["reduce_scatter", "allreduce_oneshot"])
def test_dropped_wait_guarding_only_inputs_is_no_race(example):
    """These kernels' waits order the reads of ``x`` after the peers' notifies, but nothing in
    the step writes ``x``: without the wait no two accesses conflict, so no race (happens-before
    is about conflicting accesses, not about the waits themselves)."""
    text = (EXAMPLES / example / f"{example}.ttir").read_text()
    plan, _ = BUILDERS[example](race_mutants.wait_dropped(text), 4)
    simulate(plan, races=True)


def test_notify_before_its_data_is_a_race():
    text = (EXAMPLES / "allgather_push" / "allgather_push.ttir").read_text()
    plan, _ = BUILDERS["allgather_push"](race_mutants.notify_hoisted(text), 4)
    race = _race(plan)
    assert _named(race) == {"tt.store", "tt.load"} and race.buffer == "buf"
    assert race.hi >= race.lo


def test_dropped_wait_after_lowering_is_a_race():
    path = EXAMPLES / "allgather_push" / "allgather_push.ttadapter.mlir"
    mutant = race_mutants.lowered_wait_dropped(path.read_text())
    plan, _ = BUILDERS["allgather_push"](mutant, 4)
    race = _race(plan)
    assert _named(race) == {"tt.store", "tt.load"}


NEAR = """module {
  tt.func public @near(%out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %rank = distributed.get_rank %c0 : i32
    %r = arith.sitofp %rank : i32 to f32
    %eps = arith.constant 1.0e-07 : f32
    %one = arith.constant 1.0 : f32
    %d = arith.mulf %r, %eps : f32
    %v = arith.addf %one, %d : f32
    %dst = distributed.symm_at %out, %c0, : !tt.ptr<f32>
    tt.store %dst, %v : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_store_race_between_near_equal_floats_is_found():
    """Issue 29 class 7: 1.0 and 1.0 + 1e-7 differ by less than the f32 tolerance; the race is
    found in one run (one schedule)."""
    race = _race(Plan(2, {"out": "zeros(1, f32)"}, [[Launch([0, 1], NEAR, args={"out": "out"})]]))
    assert _named(race) == {"tt.store"} and race.buffer == "out" and {race.rank, race.other_rank} == {0, 1}


PUT_LOAD = """module {
  tt.func public @put_load(%buf: !tt.ptr<f32>, %src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %rank = distributed.get_rank %c0 : i32
    %is0 = arith.cmpi eq, %rank, %c0 : i32
    scf.if %is0 {
      distributed.extern_call %buf, %src, %c64, %c1 {distributed.core_type = "vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_float_putmem_nbi"} : (!tt.ptr<f32>, !tt.ptr<f32>, i32, i32) -> ()
    } else {
      %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
      %b = tt.splat %buf : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
      %p = tt.addptr %b, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
      %v = tt.load %p : tensor<16x!tt.ptr<f32>>
      %o = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
      %q = tt.addptr %o, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
      tt.store %q, %v : tensor<16x!tt.ptr<f32>>
    }
    tt.return
  }
}
"""


def test_load_racing_with_a_remote_put():
    plan = Plan(2, {"buf": "zeros(32, f32)", "src": "ones(32, f32)", "out": "zeros(16, f32)"},
                [[Launch([0, 1], PUT_LOAD, args={"buf": "buf", "src": "src", "out": "out"})]])
    race = _race(plan)
    assert _named(race) == {"tt.load", "distributed.extern_call"} and race.buffer == "buf"
    assert (race.lo, race.hi) == (0, 15)


@pytest.mark.parametrize("ranks", [3, 4])
def test_rma_putmem_signal_races_on_three_ranks_or_more(ranks):
    """The example's getmem_nbi reads the previous rank's ``dst`` while the rank before that puts
    into it, with nothing ordering the two (correct values only because the second step puts what
    the first did): a race by SPEC section 7, whatever the values.  On 2 ranks the rank before
    the previous is the rank itself (program order)."""
    text = (EXAMPLES / "rma_putmem_signal" / "rma_putmem_signal.ttir").read_text()
    plan, _ = BUILDERS["rma_putmem_signal"](text, ranks)
    race = _race(plan)
    assert _named(race) == {"distributed.extern_call"} and race.buffer == "dst" and race.rank != race.other_rank
    notes = str(race)
    assert "putmem_signal" in notes and "getmem" in notes


def test_rma_putmem_signal_without_the_signal_reset_races_in_its_second_step():
    """Run twice without setting the signals back to 0, the second wait passes on the first
    step's signal, so the load of ``dst`` races with the second step's put into it."""
    text = (EXAMPLES / "rma_putmem_signal" / "rma_putmem_signal.ttir").read_text()
    plan, _ = BUILDERS["rma_putmem_signal"](text, 2)
    plan.steps[1] = [a for a in plan.steps[1] if isinstance(a, Launch)]
    races = []
    for seed in range(4):  # whether the wait saw the second signal depends on the schedule
        try:
            simulate(plan, races=True, seed=seed)
        except Race as e:
            races.append(e)
    assert races and all(_named(r) == {"tt.load", "distributed.extern_call"} and r.buffer == "dst" for r in races)


def test_races_through_ttd_sim(tmp_path):
    kernel = tmp_path / "near.ttir"
    kernel.write_text(NEAR)
    args = [str(kernel), "--ranks", "2", "--arg", "out=zeros(1)"]
    ok = subprocess.run(SIM + args, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    run = subprocess.run(SIM + args + ["--races"], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "error:" in run.stderr and "race" in run.stderr and "Traceback" not in run.stderr
    assert "no data race" not in ok.stdout  # nothing claimed where nothing was checked


def test_races_through_ttd_sim_says_when_there_is_none():
    """``--races`` with no race says so (the new-user trial saw nothing and could not tell whether
    the check ran), for the lowered module too under ``--check-lowering``."""
    kernel = INPUTS / "teams.ttir"
    args = [str(kernel), "--ranks", "2", "--arg", "out=zeros(4)", "--arg", "flags=zeros(2)", "--arg", "team=0",
            "--arg", "idx=1", "--arg", "sync=1", "--races"]
    for extra, where in (([], "no data race"), (["--check-lowering"], "no data race before or after lowering")):
        run = subprocess.run(SIM + args + extra, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert f"ttd-sim: {where} (every two conflicting accesses ordered by happens-before)" in run.stdout.splitlines()


# ---- property: a race is reported iff some conflicting pair is unordered ---------------------

def _check_program(events, ranks, seed=None):
    seqs = race_programs.per_rank(events, ranks)
    texts = [race_programs.kernel(seq) for seq in seqs]
    plan = Plan(ranks, {"buf": "zeros(16, i32)", "sig": "zeros(256, i32)"},
                [[Launch([r], texts[r][0], args={"buf": "buf", "sig": "sig"}) for r in range(ranks)]])
    pairs = race_programs.unordered_pairs(events, ranks)
    try:
        simulate(plan, races=True, seed=len(events) if seed is None else seed)
    except Race as race:
        assert pairs, f"a race reported where every pair is ordered: {race}"
        a = (race.rank, texts[race.rank][1][_line(race.op)])
        b = (race.other_rank, texts[race.other_rank][1][_line(race.other_op)])
        assert (a, b) in pairs or (b, a) in pairs, (a, b, pairs)
        return
    assert not pairs, f"no race reported, but {pairs} are unordered"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 3), st.integers(1, 9))
def test_race_reported_iff_some_pair_is_unordered(data, ranks, length):
    events = race_programs.draw(lambda seq: data.draw(st.sampled_from(list(seq))), ranks, length)
    _check_program(events, ranks)


@pytest.mark.parametrize("seed", range(6))
def test_adds_form_a_release_sequence(seed):
    """Ranks 0 and 1 each add 1 to rank 2's flag, rank 2 waits for 2: rank 0's store before its
    add is ordered before rank 2's load, whichever add came last; a store after the add is not."""
    ordered = [("store", 0, 2, 0), ("sync", (0, 1), 2, 0, True), ("load", 2, 2, 0)]
    _check_program(ordered, 3, seed)
    racy = [("sync", (0, 1), 2, 0, True), ("store", 0, 2, 0), ("load", 2, 2, 0)]
    assert race_programs.unordered_pairs(racy, 3)
    _check_program(racy, 3, seed)


def test_generated_programs_cover_both_answers():
    """The oracle is not trivially one-sided on the drawn sizes: seeded draws give both answers."""
    rng = random.Random(1)
    answers = set()
    for k in range(60):
        ranks = 2 + k % 2
        events = race_programs.draw(rng.choice, ranks, 4 + k % 9)
        answers.add(bool(race_programs.unordered_pairs(events, ranks)))
        _check_program(events, ranks, k)
    assert answers == {True, False}


# ---- sub-blocks, teams, several element types ------------------------------------------------

def _sub_blocks(text, subs=2):
    return Plan(2, {"out": f"zeros({2 * subs}, i64)", "seen": f"zeros({2 * subs}, i64)"},
                [[Launch([0, 1], text, grid=(2,), args={"out": "out", "seen": "seen", "nsub": subs})]])


@pytest.mark.parametrize("subs", [2, 3])
def test_sub_blocks_meet_at_the_barrier_without_race(subs):
    text = (INPUTS / "sub_blocks.ttir").read_text()
    check_lowering(_sub_blocks(text, subs), sub_blocks=subs, races=True)
    race = _race(_sub_blocks(race_mutants.barrier_dropped(text), subs), sub_blocks=subs)
    assert _named(race) == {"tt.store", "tt.load"} and race.program != race.other_program
    assert len(race.program) == 4  # (x, y, z, sub-block)


def test_team_barrier_orders_its_members_only():
    """aclshmem_barrier(team 1 = ranks 1 and 3) orders their flags; without it they race."""
    text = (INPUTS / "teams.ttir").read_text()

    def plan(t):
        return Plan(4, {"out": "zeros(4, i32)", "flags": "zeros(4, i32)"},
                    [[Launch([1, 3], t, args={"out": "out", "flags": "flags", "team": 1, "idx": 1, "sync": 1})]],
                    teams=[(1, 2, 2)])
    simulate(plan(text), races=True, schedules=3)
    race = _race(plan(race_mutants.barrier_dropped(text)))
    assert {race.rank, race.other_rank} == {1, 3} and race.buffer == "flags"


@needs_corpus
def test_producer_of_several_element_types_and_its_readers():
    """multi_dtype's producer (f16, bf16, f32, i8, i32, i64 stores, then a notify) and its
    readers (a wait, then loads of each type): no race; the readers without their wait race
    with the producer's stores."""
    producer = (INPUTS / "multi_dtype_producer.ttir").read_text()
    reader = (DISTRIBUTED / "multi_dtype.ttir").read_text()
    from sim_kernels import MULTI_ARGS, multi_dtype_buffers

    def plan(r):
        return Plan(4, multi_dtype_buffers(4, [0] * 4),
                    [[Launch([0], producer, args={"h": "h", "bf": "bf", "f": "f", "b": "b", "i": "i", "l": "l", "sig": "sig"}),
                      Launch([1, 2, 3], r, args={**MULTI_ARGS, "peer": 0})]])
    simulate(plan(reader), races=True, schedules=3)
    race = _race(plan(race_mutants.wait_dropped(reader)))
    assert _named(race) == {"tt.store", "tt.load"} and 0 in {race.rank, race.other_rank}
