"""``--races`` on the public Triton-distributed Ascend tests' host ports (issue 29, "Must be true"
2): none on the tests that are correct as written; on ``test_put_get_mem``, racy as written (its
frontend notes, ``test_frontend_sim.py``), a race naming the two accesses of each of its races,
and none once both are fixed."""

from __future__ import annotations

import pytest

import frontend_cases as fc

fc.require_frontend()

import frontend_ports as ports  # noqa: E402
from test_frontend_sim import PORTS, _id  # noqa: E402
from transpiler.sim import check_lowering, simulate  # noqa: E402
from transpiler.sim.races import Race  # noqa: E402


@pytest.mark.parametrize("entry", PORTS, ids=_id)
def test_public_test_has_no_race(entry):
    builder, world = entry
    check_lowering(builder(world).plan, schedules=2, races=True)


def test_put_get_mem_race_1_the_reset_and_the_peers_put():
    """As written: each round's host ``dst.fill_(-1)`` is not ordered before the previous rank's
    put into that ``dst``."""
    with pytest.raises(Race) as e:
        simulate(ports.put_get_mem().plan, races=True)
    race = e.value
    assert race.buffer == "dst" and None in (race.program, race.other_program)  # one of them is the fill
    assert "(a fill)" in str(race) and "putmem" in str(race)


def test_put_get_mem_race_2_putmem_signal_with_a_stale_signal():
    """With a barrier after each reset, the putmem_signal round's wait sees the barrier's old
    signal value and does not wait: its ``dst`` check reads while the peer's put writes."""
    with pytest.raises(Race) as e:
        simulate(ports.put_get_mem(barrier_after_reset=True).plan, races=True)
    assert e.value.buffer == "dst" and "putmem_signal" in str(e.value)


def test_put_get_mem_fixed_has_no_race():
    port = ports.put_get_mem(barrier_after_reset=True, signal_values=(2, 3))
    check_lowering(port.plan, schedules=2, races=True)
