"""What a long run reports while it runs (issue 33: a progress bar of programs done per step).

``simulate(..., on_progress=f)`` and ``check_lowering`` call ``f(progress)`` with a
:class:`Progress` every few thousand scheduler turns and at the end of every step.  The command
line draws it as a rich progress line on a terminal (``transpiler.cli.sim``).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Progress:
    """Where a run is: ``run`` (1-based) of ``runs`` (schedules; with ``check_lowering`` the
    runs before lowering, then after), ``label`` (``""``, ``"before lowering"``, ``"after
    lowering"``), ``step`` (1-based) of ``steps``, ``done`` of the step's ``programs``
    (sub-blocks counted; launches of the step not yet started counted too), ``ops`` executed in
    this run so far."""

    run: int
    runs: int
    step: int
    steps: int
    done: int
    programs: int
    ops: int
    label: str = ""

    def describe(self) -> str:
        """``after lowering, run 2/3, step 1/1: 12/40 programs, 1,234,567 ops``."""
        head = f"{self.label}, " if self.label else ""
        return (f"{head}run {self.run}/{self.runs}, step {self.step}/{self.steps}: "
                f"{self.done:,}/{self.programs:,} programs, {self.ops:,} ops")


def programs_of(action) -> int:
    """The programs (sub-blocks counted) an action of a prepared step starts (``run.prepare``:
    ``("launch", function, grid, args, sub_blocks)``; none for a ``("fill", ...)``)."""
    if action[0] == "fill":
        return 0
    _, _fn, grid, _args, subs = action
    n = max(subs, 1)
    for g in grid:
        n *= g
    return n
