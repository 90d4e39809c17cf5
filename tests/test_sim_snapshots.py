"""``--reorder``'s snapshots as an undo log of pages (``transpiler/sim/snapshots.py``, SPEC.md
section 7, "Schedules"): every live snapshot reads exactly what a full copy of the heaps taken at
the same moment holds, whatever the writes, and the log holds only pages written while snapshots
are alive (issue 29: a full copy per program and wait cost 3.3 GB where the run needs 127 MB)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transpiler.sim.memory import Memory
from transpiler.sim.snapshots import PAGE

SIZE = 6 * PAGE + 24  # bytes of the one rank's heap (not a whole number of pages)

steps = st.lists(st.one_of(
    st.tuples(st.just("take")),
    st.tuples(st.just("release"), st.integers(0, 7)),
    st.tuples(st.just("bytes"), st.integers(0, SIZE - 1), st.integers(1, 3 * PAGE), st.integers(0, 255)),
    st.tuples(st.just("elements"), st.lists(st.integers(0, SIZE // 4 - 1), min_size=1, max_size=40),
              st.integers(-2 ** 31, 2 ** 31 - 1)),
    st.tuples(st.just("read"), st.integers(0, 7), st.lists(st.integers(0, SIZE // 2 - 1), min_size=1, max_size=30)),
), max_size=40)


def _memory():
    return Memory(1, [("b", SIZE, np.dtype(np.uint8))])


@settings(max_examples=300, deadline=None)
@given(steps)
def test_a_snapshot_reads_what_a_full_copy_holds(program):
    mem = _memory()
    live = []  # (snapshot, the full copy taken with it)
    for step in program:
        kind = step[0]
        if kind == "take":
            live.append((mem.snapshot(), mem.flat.copy()))
        elif kind == "release" and live:
            snap, _ = live.pop(step[1] % len(live))
            snap.release()
        elif kind == "bytes":
            start = step[1]
            stop = min(mem.flat.size, start + step[2])
            mem.before_write(start, stop)
            mem.flat[start:stop] = step[3]
        elif kind == "elements":
            idx = np.array(step[1])
            mem.before_write_elements(idx, 4)
            mem.view(np.int32)[idx] = step[2]
        elif kind == "read" and live:
            snap, copy = live[step[1] % len(live)]
            idx = np.array(step[2])
            assert np.array_equal(snap.gather(np.int16, idx), copy.view(np.int16)[idx])
            assert snap.gather(np.int16, int(idx[0])) == copy.view(np.int16)[int(idx[0])]
    for snap, copy in live:
        assert np.array_equal(snap.gather(np.uint8, np.arange(copy.size)), copy)


def test_the_log_holds_only_pages_written_while_a_snapshot_lives():
    mem = _memory()
    mem.before_write(0, SIZE)  # no snapshot: nothing saved
    assert mem.undo.saved_bytes == 0
    snaps = [mem.snapshot() for _ in range(50)]
    for _ in range(10):  # the same page written again and again: one copy for all 50
        mem.before_write(10, 20)
        mem.flat[10:20] += 1
    assert mem.undo.saved_bytes == PAGE
    later = mem.snapshot()
    mem.before_write(PAGE + 1, PAGE + 2)
    mem.before_write(15, 16)
    assert mem.undo.saved_bytes == 3 * PAGE
    for s in snaps + [later]:
        s.release()
    assert mem.undo.saved_bytes == 0 and not mem.undo.pages


def test_copies_no_live_snapshot_reads_are_dropped():
    mem = _memory()
    mem.undo._prune_at = 0  # prune at every release
    first = mem.snapshot()
    mem.before_write(0, 1)
    mem.flat[0] = 1
    second = mem.snapshot()
    mem.before_write(0, 1)
    mem.flat[0] = 2
    assert mem.undo.saved_bytes == 2 * PAGE
    first.release()  # the copy taken for `first` only (before the first write) goes
    assert mem.undo.saved_bytes == PAGE and second.gather(np.uint8, 0) == 1 and mem.flat[0] == 2


@pytest.mark.parametrize("reorder", [False, True])
def test_a_reorder_run_ends_with_an_empty_log(reorder):
    """A whole run of the shared corpus's multi_dtype kernel (whose loads after its wait
    ``--reorder`` may move): snapshots are taken, and the log ends empty (every program released
    its snapshots at its end)."""
    from sim_kernels import BUILDERS, DISTRIBUTED
    from transpiler.sim.library.binding import DeviceLibrary
    from transpiler.sim.run import prepare, run_schedule

    if not DISTRIBUTED.is_dir():
        pytest.skip("../shared/corpus/distributed is not next to the repository")
    plan, _ = BUILDERS["multi_dtype"]((DISTRIBUTED / "multi_dtype.ttir").read_text(), 4)
    run = run_schedule(prepare(plan, 0, DeviceLibrary("bundled"), 2), 0, reorder, 10 ** 7)
    undo = run.memory.undo
    assert (undo.epoch > 0) == reorder
    assert not undo.live and undo.saved_bytes == 0 and not undo.pages
