"""Translation validation (SPEC.md section 7, ``--check-lowering``): a plan run before and after
lowering under the same inputs and schedules; the first element that differs is a finding
naming rank, buffer, index, both values and the op that last wrote it in each run."""

from __future__ import annotations

import warnings
from typing import Dict, Optional, Tuple, Union

import attrs

from .errors import DIFFERENCE, Finding, ParseFailure
from .library.binding import DeviceLibrary
from .plan import Launch, Plan
from .outcome import first_difference, kept, same
from .run import SimResult, prepare, run_schedule, schedule_runs, writer_note
from .trace import tracing


def lower_plan(plan: Plan, lowered: Optional[Dict[str, Union[str, Tuple[str, str]]]] = None, device_library: str = "bundled",
               core_type_fallback: bool = False) -> Plan:
    """The plan with every launch's module replaced by its lowering (``transpiler.api.lower``,
    as ``ttd-lower`` with the same options would make it), or by ``lowered[text]`` when given:
    the lowered text, or ``(text, filename)`` to locate its findings in that file (``--lowered``).

    Raises:
        transpiler.api.LoweringError: a module does not lower.
    """
    from ..api import LoweringWarning, lower

    done: Dict[str, Tuple[str, Optional[str]]] = {
        k: (v if isinstance(v, tuple) else (v, None)) for k, v in (lowered or {}).items()}
    steps = []
    for step in plan.steps:
        actions = []
        for a in step:
            if isinstance(a, Launch):
                if not isinstance(a.module, str):
                    raise TypeError("check_lowering needs each launch's module as text")
                if a.module not in done:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", LoweringWarning)
                        done[a.module] = (lower(a.module, filename=a.filename, device_library=device_library,
                                                core_type_fallback=core_type_fallback), None)
                text, filename = done[a.module]
                a = attrs.evolve(a, module=text, filename=filename or a.filename + " (lowered)")
            actions.append(a)
        steps.append(actions)
    return attrs.evolve(plan, steps=steps)


def check_lowering(plan: Plan, *, lowered: Optional[Dict[str, Union[str, Tuple[str, str]]]] = None, seed: int = 0,
                   schedules: int = 1, reorder: bool = False, sub_blocks: int = 2, max_ops: int = 10 ** 7,
                   device_library: str = "bundled", core_type_fallback: bool = False,
                   on_progress=None, races: bool = False, trace=None) -> SimResult:
    """Run ``plan`` before and after lowering under the same inputs and ``schedules`` schedules.

    Returns the after-lowering result of the first schedule.  ``races`` and ``trace`` as for
    :func:`~.run.simulate`; the trace holds both first runs, the one after lowering as processes
    ``R`` ... ``2R - 1`` (SPEC.md section 7, "Interface").

    Raises:
        Finding: of kind ``difference`` (notes: the writer of the element in each run), or any
            finding of either run (a schedule-dependent result included), its message ending
            with ``(in the module before lowering)`` or ``(in the module after lowering)``.
        transpiler.api.LoweringError: the plan's modules do not lower.
    """
    after_plan = lower_plan(plan, lowered, device_library, core_type_fallback)
    library = DeviceLibrary(device_library)
    preps = [_labelled(label, prepare, p, seed, library, sub_blocks)
             for label, p in (("before lowering", plan), ("after lowering", after_plan))]
    preps[1].initial = preps[0].initial  # the same buffers and seed: one copy of the inputs
    seeds = [seed + k for k in range(schedules)]

    def progress(label):
        return None if on_progress is None else lambda p: on_progress(attrs.evolve(p, label=label))

    result = None
    with tracing(trace) as tracer:
        # the two modules' runs of each schedule side by side, compared as they end: the first
        # outcome of each module is kept (the schedule check), every later run let go (issue 33)
        before, after = (schedule_runs(prep, seeds, reorder, max_ops, progress(label), races, tracer)
                         for prep, label in zip(preps, ("before lowering", "after lowering")))
        # of the run before lowering only its fingerprint is kept while the one after runs (two
        # heaps alive at a time, not four): a difference runs it again for the element
        for k in range(schedules):
            if tracer is not None and k == 0:
                tracer.begin_run("before lowering", 0)
            b = kept(_labelled("before lowering", next, before)[1])
            if tracer is not None and k == 0:
                tracer.begin_run("after lowering", plan.ranks)
            run, a = _labelled("after lowering", next, after)
            if result is None:
                result = SimResult(a.buffers, run.ops, seeds, [a])
            if not same(b, a):
                diff = first_difference(before.full(b), a)
                if diff is not None:
                    raise _difference(plan, after_plan, diff, b.seed, reorder, max_ops, library, sub_blocks, seed)
            del run, a, b
    return result


def _labelled(label: str, fn, *args):
    """``fn(*args)``; a finding of it says which module it is in (issue 31 item 6)."""
    try:
        return fn(*args)
    except ParseFailure:
        raise
    except Finding as f:
        f.message = f"{f.message} (in the module {label})"
        raise


def _difference(plan, after_plan, diff, s, reorder, max_ops, library, sub_blocks, seed) -> Finding:
    r, name, i, x, y = diff
    notes = []
    for p, label in ((plan, "before lowering"), (after_plan, "after lowering")):
        run = run_schedule(prepare(p, seed, library, sub_blocks), s, reorder, max_ops, track_writers=True)
        note = writer_note(run, r, name, i, label)
        if note is not None:
            notes.append(note)
    return Finding(f"the lowering changes the result: rank {r}, buffer '{name}', index {i} is {x} before lowering "
                   f"and {y} after (schedule {s})", notes=notes, kind=DIFFERENCE)
