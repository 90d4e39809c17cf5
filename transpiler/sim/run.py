"""Running a :class:`~transpiler.sim.plan.Plan`: inputs made once, one run per schedule, results
compared across schedules (a schedule-dependent result is a finding, SPEC.md section 7)."""

from __future__ import annotations

from collections import deque
from typing import Dict, List, Optional, Tuple

import attrs
import numpy as np

from ..diagnostics import DiagnosticError
from .errors import SCHEDULE, Finding, ParseFailure, UsageError, op_note
from .compiler import Compiler
from ..gcpause import collector_paused
from .library.binding import DeviceLibrary
from .limits import check_heaps
from .outcome import Outcome, first_difference, kept, same
from .progress import programs_of
from .memory import Memory
from .arguments import arguments, check_pointees, function_of, pointer_dtypes
from .plan import Fill, Launch, Plan, parse_value
from .plan_actions import check_plan
from .scheduler import ActiveLaunch, Run, run_step
from .watch import attach, tracing


@attrs.define
class SimResult:
    """``buffers[r][name]``: rank r's copy of each buffer after the run of the first schedule
    (numpy arrays of the buffer's dtype); ``ops``: ops executed in it; ``seeds``: the schedules;
    ``outcomes``: the first schedule's :class:`Outcome` (each later one is compared with it as
    it ends, then let go: :func:`schedule_runs`).  The buffers are read-only views of the first
    run's heaps, which the result keeps; nothing else of a run is kept."""

    buffers: List[Dict[str, np.ndarray]]
    ops: int
    seeds: List[int]
    outcomes: List["Outcome"] = attrs.Factory(list)


@attrs.define
class _Prepared:
    plan: Plan
    layout: List[Tuple[str, int, np.dtype]]
    initial: Dict[str, List[np.ndarray]]
    steps: list
    teams: list


def _compiler(cache, launch: Launch, library: DeviceLibrary) -> Compiler:
    module = launch.module
    key = module if isinstance(module, str) else id(module)
    c = cache.get(key)
    if c is None:
        if isinstance(module, str):
            from ..parser import parse_module

            try:
                module = parse_module(module, launch.filename)
            except DiagnosticError as e:
                raise ParseFailure(e.diagnostics[0]) from None
        _verify_distributed_ops(module)
        c = cache[key] = Compiler(module, library)
    return c


def _verify_distributed_ops(module) -> None:
    """The distributed ops of ``module`` pass the verifier of ``ttd-lower``'s ``ttir`` stage
    (SPEC.md sections 1-2) before they run: a notify whose operands are in the wrong order ran
    into an internal error (attack of session 43).

    Raises:
        ParseFailure: at the first op the verifier refuses, as ``ttd-lower`` words it.
    """
    if not module.names_distributed:
        return
    from ..ir.verifier import verify_ops

    problems = verify_ops(op for op in module.walk() if op.name.startswith("distributed."))
    if problems:
        raise ParseFailure(problems[0])


def prepare(plan: Plan, seed: int, library: DeviceLibrary, sub_blocks: int, cache: Optional[dict] = None) -> _Prepared:
    """Inputs made and launches resolved once for every schedule (the plan checked first,
    ``plan_actions.check_plan``; a loaded plan's errors located in its file).

    Raises:
        UsageError: a malformed plan (unknown buffer, heaps over ``MAX_HEAP_BYTES``, missing argument, rank out of range, ...).
        NotSimulated / Finding: a kernel that cannot be compiled.
    """
    try:
        return _prepare(check_plan(plan), seed, library, sub_blocks, {} if cache is None else cache)
    except UsageError as e:
        origin = getattr(plan, "origin", None)
        raise (origin.locate(e) if origin is not None else e) from None


def _prepare(plan: Plan, seed: int, library: DeviceLibrary, sub_blocks: int, cache: dict) -> _Prepared:
    resolved, pointee, uses = [], {}, {}
    for s, step in enumerate(plan.steps):
        for a, action in enumerate(step):
            if isinstance(action, Launch):
                c = _compiler(cache, action, library)
                fn = function_of(c, action.function, ("steps", s, a))
                for name, d, where, label in pointer_dtypes(fn, action.args, ("steps", s, a)):
                    pointee.setdefault(name, d)
                    uses.setdefault(name, []).append((d, where, label, fn.name))
                resolved.append((c, fn))
    rng = np.random.default_rng(seed)
    layout, initial = [], {}
    values = {}
    for name, value in plan.buffers.items():
        try:
            values[name] = parse_value(value, pointee.get(name), plan.base_dir, plan.ranks)
        except UsageError as e:
            raise UsageError(e.message, ("buffers", name)) from None
    check_pointees(values, uses)
    try:
        check_heaps(plan.ranks, [v.n * v.dtype.itemsize for v in values.values()])
    except UsageError as e:
        raise UsageError(e.message, ("buffers", max(values, key=lambda n: values[n].n * values[n].dtype.itemsize))
                         if values else None) from None
    for name, v in values.items():
        arrays = [v.materialize(r, rng) for r in range(plan.ranks)]
        layout.append((name, arrays[0].nbytes, arrays[0].dtype))
        initial[name] = arrays
    steps, launches = [], iter(resolved)
    for s, step in enumerate(plan.steps):
        queues: List[list] = [[] for _ in range(plan.ranks)]
        for a, action in enumerate(step):
            ranks = list(action.ranks)
            if isinstance(action, Fill):
                fills = {}
                for name, value in action.values.items():
                    at = ("steps", s, a, "values", name)
                    try:
                        v = parse_value(value, initial[name][0].dtype, plan.base_dir, plan.ranks)
                    except UsageError as e:
                        raise UsageError(e.message, at) from None
                    if v.n * v.dtype.itemsize > initial[name][0].nbytes:
                        raise UsageError(f"the fill of '{name}' is larger than the buffer", at)
                    fills[name] = {r: v.materialize(r, rng) for r in ranks}
                for r in ranks:
                    queues[r].append(("fill", {n: f[r] for n, f in fills.items()}))
                continue
            c, fn = next(launches)
            for i, r in enumerate(ranks):
                queues[r].append(("launch", fn, tuple(action.grid),
                                  arguments(fn, action.args, i, r, len(ranks), initial, ("steps", s, a)),
                                  sub_blocks if c.uses_sub_blocks else 1))
        steps.append(queues)
    return _Prepared(plan, layout, initial, steps, list(plan.teams))


def run_schedule(prep: _Prepared, seed: int, reorder: bool, max_ops: int, track_writers: bool = False,
                 on_progress=None, races: bool = False, tracer=None, run_of=(1, 1)) -> Run:
    """One run of the prepared plan under schedule ``seed``; the finished :class:`Run` (see
    :func:`attach`).  ``on_progress``: called with a :class:`~.progress.Progress`, this run
    being number ``run_of[0]`` of ``run_of[1]``."""
    memory = Memory(prep.plan.ranks, prep.layout)
    for name, arrays in prep.initial.items():
        for r, a in enumerate(arrays):
            if a.ndim == 1 and a.strides == (0,) and not a[:1].view(np.uint8).any():
                continue  # all zero bits: the new heap's pages already are (and stay untouched)
            memory.array(name, r)[...] = a
    if track_writers:
        memory.track_writers()
    run = Run(memory, prep.teams, seed, reorder, max_ops, on_progress)
    run.run_of = run_of
    attach(run, races, tracer)

    def start(run, rank, action):
        if action[0] == "fill":
            for name, a in action[1].items():
                buf = memory.buffers[name]
                start = rank * memory.heap_size + buf.offset
                memory.before_write(start, start + a.size * buf.dtype.itemsize)
                memory.array(name, rank)[: a.size] = a.astype(buf.dtype, copy=False)
                if run.watch is not None:
                    run.watch.fill(rank, name, a.size * memory.buffers[name].dtype.itemsize)
            memory.version += 1
            return None
        _, fn, grid, args, subs = action
        resolved = [memory.pointer(v, rank) if kind == "buffer" else v for kind, v in args]
        return ActiveLaunch(fn, grid, resolved, subs)

    # the collector paused (issue 33: 27 % of a large run walking objects that are not garbage):
    # what a run allocates is freed by reference counts as programs end
    with np.errstate(all="ignore"), collector_paused():
        for k, queues in enumerate(prep.steps):
            programs = sum(programs_of(a) for q in queues for a in q)
            run_step(run, [deque(q) for q in queues], start, (k + 1, len(prep.steps)), programs)
    return run


def simulate(plan: Plan, *, seed: int = 0, schedules: int = 1, reorder: bool = False, sub_blocks: int = 2,
             max_ops: int = 10 ** 7, device_library: str = "bundled", on_progress=None, races: bool = False,
             trace=None) -> SimResult:
    """Run ``plan`` under ``schedules`` schedules (seeds ``seed``, ``seed + 1``, ...).

    Inputs (``random(...)``) come from ``numpy.random.default_rng(seed)``, the same for every
    schedule.  Returns the buffers of the first schedule.  ``races`` and ``trace``: :func:`attach`.

    Raises:
        UsageError: a malformed plan, naming the key path (a loaded plan's located in its file).
        Finding: deadlock, out-of-bounds access, op not simulated, step limit, or (kind
            ``schedule-dependent``) a result that differs between two schedules (exit status 1).
    """
    prep = prepare(plan, seed, DeviceLibrary(device_library), sub_blocks)
    seeds = [seed + k for k in range(schedules)]
    runs = schedule_runs(prep, seeds, reorder, max_ops, on_progress, races, trace)
    first_run, first = next(runs)
    ops = first_run.ops
    del first_run
    for later in runs:  # each checked against the first, then let go (its heaps with it)
        del later
    return SimResult(first.buffers, ops, seeds, [first])


def schedule_runs(prep: _Prepared, seeds: List[int], reorder: bool, max_ops: int, on_progress=None,
                  races: bool = False, trace=None) -> "ScheduleRuns":
    """``(run, outcome)`` of the prepared plan under each schedule of ``seeds``, one at a time
    (:class:`ScheduleRuns`).  The first run is traced into ``trace``; each later outcome is
    compared with the first's.

    Raises:
        Finding: of a run, or (kind ``schedule-dependent``) an outcome that differs from the first's.
    """
    return ScheduleRuns(prep, seeds, reorder, max_ops, on_progress, races, trace)


class ScheduleRuns:
    """The runs of :func:`schedule_runs` as an iterator that holds no run between two ``next``:
    a run's heaps go as soon as its caller lets them go (issue 33, memory; a generator's frame
    kept the last run it yielded alive while suspended).  Of the first outcome only what the
    schedule comparison needs is kept (:func:`~.outcome.kept`: a digest, when no float atomic add
    wrote last); an outcome that differs from it makes the first schedule run again, to name the
    element."""

    def __init__(self, prep: _Prepared, seeds: List[int], reorder: bool, max_ops: int, on_progress=None,
                 races: bool = False, trace=None):
        self.prep, self.seeds, self.reorder, self.max_ops = prep, list(seeds), reorder, max_ops
        self.on_progress, self.races, self.trace = on_progress, races, trace
        self.k = 0
        self.first = None  # what is kept of the first outcome

    def __iter__(self) -> "ScheduleRuns":
        return self

    def __next__(self) -> Tuple[Run, Outcome]:
        if self.k >= len(self.seeds):
            raise StopIteration
        k, s = self.k, self.seeds[self.k]
        self.k += 1
        with tracing(self.trace if k == 0 else None) as tracer:
            run = run_schedule(self.prep, s, self.reorder, self.max_ops, on_progress=self.on_progress,
                               races=self.races, tracer=tracer, run_of=(k + 1, len(self.seeds)))
        outcome = Outcome.of(s, run)
        if k == 0:
            self.first = kept(outcome)
        elif not same(self.first, outcome):
            diff = first_difference(self.full(self.first), outcome)
            if diff is not None:
                raise _schedule_difference(self.prep, diff, self.first.seed, s, self.reorder, self.max_ops)
        return run, outcome

    def full(self, kept_outcome) -> Outcome:
        """The whole outcome behind ``kept_outcome`` (its schedule run again when only its
        fingerprint was kept)."""
        if isinstance(kept_outcome, Outcome):
            return kept_outcome
        return Outcome.of(kept_outcome.seed, run_schedule(self.prep, kept_outcome.seed, self.reorder, self.max_ops))


def _schedule_difference(prep: _Prepared, diff, seed_a: int, seed_b: int, reorder: bool, max_ops: int) -> Finding:
    """The finding that schedules ``seed_a`` and ``seed_b`` leave different memory (``diff``: rank,
    buffer, index and both values), with a note at the op that last wrote the element under each
    (both schedules run once more, writers tracked: the cost falls on a failing run only), so that
    it points into the kernel, not at the command (new-user trial of session 42)."""
    r, name, i, a, b = diff
    notes = []
    for seed in (seed_a, seed_b):
        note = writer_note(run_schedule(prep, seed, reorder, max_ops, track_writers=True), r, name, i,
                           f"under schedule {seed}")
        if note is not None:
            notes.append(note)
    return Finding(f"the result depends on the schedule: rank {r}, buffer '{name}', index {i} is {a} "
                   f"under schedule {seed_a} and {b} under schedule {seed_b} (--races names the accesses nothing "
                   f"orders)", notes=notes, kind=SCHEDULE)


def writer_note(run: Run, rank: int, name: str, index: int, label: str):
    """A note at the op that last wrote the element (or None when nothing wrote it)."""
    k = run.memory.last_writer(name, rank, index)
    if k < 0:
        return None
    return op_note(run.op_list[k], f"{label}: the op that last wrote it")
