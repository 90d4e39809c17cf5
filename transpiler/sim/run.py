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
from .progress import programs_of
from .memory import Memory
from .arguments import arguments, function_of, pointer_dtypes
from .plan import Fill, Launch, Plan, parse_value
from .plan_actions import check_plan
from .scheduler import ActiveLaunch, Run, run_step
from .watch import attach, tracing


@attrs.define
class SimResult:
    """``buffers[r][name]``: rank r's copy of each buffer after the run of the first schedule
    (numpy arrays of the buffer's dtype); ``ops``: ops executed in it; ``seeds``: the schedules;
    ``outcomes``: every schedule's :class:`Outcome`, in the order of ``seeds`` (kept so that
    ``--check-lowering`` compares them without running a schedule again)."""

    buffers: List[Dict[str, np.ndarray]]
    ops: int
    seeds: List[int]
    run: Optional[Run] = None
    outcomes: List["Outcome"] = attrs.Factory(list)


@attrs.define
class Outcome:
    """The final memory of one schedule: ``buffers[r][name]`` as in :class:`SimResult`, and
    ``loose[r][name]`` (or None), the elements last written by a float atomic add."""

    seed: int
    buffers: List[Dict[str, np.ndarray]]
    loose: Optional[List[Optional[Dict[str, np.ndarray]]]] = None

    @classmethod
    def of(cls, seed: int, run: Run) -> "Outcome":
        """The outcome of the finished ``run`` under schedule ``seed``."""
        m = run.memory
        loose = None
        if m.loose is not None:  # per buffer of each rank, the elements a float atomic add wrote last
            loose = [{name: m.loose[r * m.heap_size + b.offset:][: b.count * b.dtype.itemsize : b.dtype.itemsize].copy()
                      for name, b in m.buffers.items()} for r in range(m.ranks)]
        return cls(seed, [m.buffers_of(r) for r in range(m.ranks)], loose)


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
        c = cache[key] = Compiler(module, library)
    return c


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
    resolved, pointee = [], {}
    for s, step in enumerate(plan.steps):
        for a, action in enumerate(step):
            if isinstance(action, Launch):
                c = _compiler(cache, action, library)
                fn = function_of(c, action.function, ("steps", s, a))
                for name, d in pointer_dtypes(fn, action.args, ("steps", s, a)).items():
                    pointee.setdefault(name, d)
                resolved.append((c, fn))
    rng = np.random.default_rng(seed)
    layout, initial = [], {}
    values = {}
    for name, value in plan.buffers.items():
        try:
            values[name] = parse_value(value, pointee.get(name), plan.base_dir, plan.ranks)
        except UsageError as e:
            raise UsageError(e.message, ("buffers", name)) from None
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
    library = DeviceLibrary(device_library)
    prep = prepare(plan, seed, library, sub_blocks)
    first_run = None
    seeds = [seed + k for k in range(schedules)]
    outcomes: List[Outcome] = []
    for k, s in enumerate(seeds):
        with tracing(trace if first_run is None else None) as tracer:
            run = run_schedule(prep, s, reorder, max_ops, on_progress=on_progress, races=races, tracer=tracer,
                               run_of=(k + 1, schedules))
        outcomes.append(Outcome.of(s, run))
        if first_run is None:
            first_run = run
            continue
        diff = first_difference(outcomes[0], outcomes[-1])
        if diff is not None:
            r, name, i, a, b = diff
            raise Finding(f"the result depends on the schedule: rank {r}, buffer '{name}', index {i} is {a} under "
                          f"schedule {seed} and {b} under schedule {s}", kind=SCHEDULE)
        if run is not first_run:
            del run  # the outcome keeps copies of the buffers: the heaps of later runs can go
    return SimResult(outcomes[0].buffers, first_run.ops, seeds, first_run, outcomes)


def tolerance(dtype: np.dtype) -> float:
    """The relative and absolute tolerance of comparisons against an outside reference, and of
    elements last written by a float atomic add (SPEC.md section 7: their order is the
    schedule's): 1e-2 for 8-bit floats, 4e-3 for 16-bit, 1e-5 for wider."""
    if dtype.kind not in "fV" and "float" not in dtype.name:
        return 0.0
    return {1: 1e-1, 2: 4e-3}.get(dtype.itemsize, 1e-5)


def _loose(o, r: int, name: str):
    if isinstance(o, Outcome) and o.loose is not None and o.loose[r] is not None:
        return o.loose[r][name]
    return None


def first_difference(a, b):
    """``(rank, buffer, index, value in a, value in b)`` of the first element that differs, or None.

    ``a`` and ``b`` are :class:`Outcome` s, or lists (one per rank) of buffers by name.  Elements
    are compared bit for bit (SPEC.md section 7: the simulator sums in one fixed order), except
    elements either run last wrote by a float atomic add, compared within :func:`tolerance`
    (NaN equal to NaN)."""
    for r, (ra, rb) in enumerate(zip(_buffers(a), _buffers(b))):
        for name, x in ra.items():
            y = rb[name]
            x1, y1 = x.reshape(-1), y.reshape(-1)
            differ = np.flatnonzero(~_same_bits(x1, y1))  # the common case, none, costs one pass
            if not differ.size:
                continue
            la, lb = _loose(a, r, name), _loose(b, r, name)
            if (la is not None or lb is not None) and tolerance(x.dtype):
                near = (la if lb is None else lb if la is None else la | lb).reshape(-1)[differ]
                xf, yf = x1[differ].astype(np.float64), y1[differ].astype(np.float64)
                close = np.isclose(xf, yf, rtol=tolerance(x.dtype), atol=tolerance(x.dtype), equal_nan=True)
                differ = differ[~(near & close)]
            if differ.size:
                i = int(differ[0])
                return r, name, i, x1[i], y1[i]
    return None


def _buffers(o) -> List[Dict[str, np.ndarray]]:
    return o.buffers if isinstance(o, Outcome) else o


def _same_bits(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per element: ``x`` and ``y`` have the same bytes (NaN payloads and the sign of 0 included)."""
    size = x.dtype.itemsize
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    if size in (1, 2, 4, 8):  # one unsigned integer per element: one comparison, no byte axis
        word = np.dtype(f"u{size}")
        return x.view(word) == y.view(word)
    xb = x.view(np.uint8).reshape(x.shape + (size,))
    yb = y.view(np.uint8).reshape(y.shape + (size,))
    return (xb == yb).all(-1)


def writer_note(run: Run, rank: int, name: str, index: int, label: str):
    """A note at the op that last wrote the element (or None when nothing wrote it)."""
    k = run.memory.last_writer(name, rank, index)
    if k < 0:
        return None
    return op_note(run.op_list[k], f"{label}: the op that last wrote it")
