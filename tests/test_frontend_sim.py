"""The public Triton-distributed Ascend tests and tutorials run on simulated ranks (issue 21,
items 2 and 3): each test's own check, through a numpy port of its host code
(``frontend_ports``), before and after lowering, on the world size it uses and, for the
generic kernels, on 4 and 8 ranks; the tutorials against numpy at small shapes; and the test
that is racy as written (``test_put_get_mem``) shown racy, each race pinned."""

from __future__ import annotations

import collections

import pytest

import frontend_cases as fc

fc.require_frontend()
np = pytest.importorskip("numpy", reason="the simulator needs the `sim` extra (numpy)")

import frontend_ports as ports  # noqa: E402
from transpiler.sim import Finding, check_lowering, simulate  # noqa: E402

SCHEDULES = 4
PORTS = [(ports.my_pe, w) for w in (2, 4, 8)] + [(lambda w: ports.my_pe(w, "test_num_ranks"), w) for w in (2, 4, 8)]
PORTS += [(ports.symm_at, w) for w in (2, 4, 8)] + [(ports.wait_notify, 2), (ports.signal_op, 2)]
PORTS += [(ports.barrier_ops, 2), (ports.barrier_ops, 4)]  # run_test_team_world / run_test_sub_team
NAMES = ["test_my_pe", "test_num_ranks", "test_symm_at"]


def _id(entry):
    builder, world = entry
    name = {ports.symm_at: "test_symm_at", ports.wait_notify: "test_wait_notify", ports.signal_op: "test_signal_op",
            ports.barrier_ops: "test_barrier_ops", ports.my_pe: "test_my_pe"}.get(builder, "test_num_ranks")
    return f"{name}-{world}ranks"


@pytest.mark.parametrize("entry", PORTS, ids=_id)
def test_public_test_check_holds_before_and_after_lowering(entry):
    builder, world = entry
    port = builder(world)
    assert port.checks, "the port asserts nothing"
    before = simulate(port.plan, schedules=SCHEDULES)
    assert port.failed(before.buffers) == []
    after = check_lowering(port.plan, schedules=SCHEDULES)  # also: the same memory before and after
    assert port.failed(after.buffers) == []


def _failures(port, seeds, lowered=False):
    """How often each check fails, one schedule per seed."""
    run = check_lowering if lowered else simulate
    counts = collections.Counter()
    for seed in seeds:
        counts.update(c.split(": ", 1)[1].split(":")[0] for c in port.failed(run(port.plan, seed=seed).buffers))
    return counts


@pytest.mark.parametrize("lowered", [False, True], ids=["before-lowering", "after-lowering"])
def test_put_get_mem_as_written_depends_on_the_schedule(lowered):
    """``test_put_get_mem`` is racy as written (issue 21, item 3): the simulator finds its result
    schedule-dependent, and the host's own assertions fail under some schedules."""
    port = ports.put_get_mem()
    with pytest.raises(Finding) as caught:
        (check_lowering if lowered else simulate)(port.plan, schedules=10)
    assert caught.value.kind == "schedule-dependent"
    message = ports.located(port, caught.value.message)
    assert "test_put_get_mem.py.txt:" in message.splitlines()[0] and " error: the result depends on the schedule" in message
    assert 'assert torch.equal(dst.cpu(), expected), f"Rank {rank}: putmem_nbi mismatch"' in message
    failing = _failures(port, range(12), lowered)
    assert set(failing) == {"putmem_nbi", "putmem_signal", "putmem_signal_nbi"}, failing


def test_put_get_mem_race_1_reset_before_the_peers_put_without_a_barrier():
    """Each round's ``dst.fill_(-1)`` is not ordered before the peer's put into this dst (no
    ``dist.barrier()`` between them): with one after each reset, putmem_nbi and
    putmem_signal_nbi hold under every schedule; putmem_signal still fails (race 2)."""
    failing = _failures(ports.put_get_mem(barrier_after_reset=True), range(16))
    assert set(failing) == {"putmem_signal"}, failing


def test_put_get_mem_race_2_putmem_signal_reuses_the_barriers_signal_value():
    """``barrier_all_putmem_signal`` (epoch 1) leaves 1 in every ``signal_ptr`` slot, and the
    putmem_signal round waits for ``>= 1`` on the same slots: the wait does not wait.  With a
    fresh value (2, then 3) and the barriers above, every check holds under every schedule."""
    port = ports.put_get_mem(barrier_after_reset=True, signal_values=(2, 3))
    assert port.failed(simulate(port.plan, schedules=10).buffers) == []
    assert port.failed(check_lowering(port.plan, schedules=4).buffers) == []


@pytest.mark.parametrize("world", [2, 4])
@pytest.mark.parametrize("file", sorted(ports.TUTORIAL_SHAPES))
def test_tutorial_equals_numpy_before_and_after_lowering(file, world):
    plan, reference = ports.tutorial(file, world)
    before = simulate(plan, schedules=2)
    after = check_lowering(plan, schedules=2)
    for r in range(world):
        for result in (before, after):
            c = result.buffers[r]["C"].astype(np.float32)
            # the host's torch.testing.assert_close(C_golden, C, rtol=1e-3, atol=1e-3), C in float16
            np.testing.assert_allclose(c, reference[r].astype(np.float16).astype(np.float32), rtol=1e-3, atol=1e-3)


def test_wait_notify_is_for_two_ranks_only():
    """Its consumer waits for world_size - 1 signals, one 64-byte line each, in a signal buffer
    of one int64: on more than 2 ranks the wait reads past it (why issue 21 runs it on 2 only)."""
    with pytest.raises(Finding) as caught:
        simulate(ports.wait_notify(4).plan)
    assert caught.value.kind == "out-of-bounds"
    text = str(caught.value.diagnostic())
    assert "'distributed.wait' op rank 0" in text and "outside buffer 'signal_mem'" in text
