"""Ranks, steps and the seeded scheduler (SPEC.md section 7, "Machine" and "Schedules").

A step gives every rank a list of actions (launches and host fills) run in stream order; the
lists of different ranks run concurrently.  Every program (and sub-block) of the launches now
running is a generator (:func:`transpiler.sim.interp.call_function`); the scheduler picks the
next one to advance with a seeded ``random.Random`` and advances it to its next yield: a point
where another program may run (``None``), a :class:`~transpiler.sim.blocking.Park` (it waits
for a slot: parked until memory changes, then polled again) or a
:class:`~transpiler.sim.blocking.Barrier`.  When nothing can run and something is blocked, the
step is a :class:`~transpiler.sim.errors.Deadlock` naming every blocked wait.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Dict, List, Optional, Sequence

from .access import FactCache
from .blocking import Barrier, Park
from .errors import Deadlock, Finding, StepLimit, format_program, op_note
from .interp import call_function
from .limits import check_programs
from .progress import Progress
from .library.pe_query import team_members

#: scheduler turns between two looks at the parked programs (also when none can run); with more
#: parked programs than this, at least as many turns as there are parked programs, so that
#: re-polling them costs O(1) per turn (a failed poll changes nothing: fewer of them leave the
#: reachable memories as they are)
WAKE_EVERY = 64


class Run:
    """The state of one schedule: memory, teams, the RNG, the op counter and its limit."""

    def __init__(self, memory, teams, seed: int, reorder: bool, max_ops: int, on_progress=None):
        self.memory = memory
        self.ranks = memory.ranks
        self.teams = list(teams)
        self.rng = random.Random(seed)
        self.reorder = reorder
        self.ops = 0
        self.max_ops = max_ops
        self.op_list: List[object] = []
        self._op_ids: Dict[int, int] = {}
        self.on_progress = on_progress  # called with a transpiler.sim.progress.Progress
        self.run_of = (1, 1)  # this run's number and the number of runs, for on_progress
        self.watch = None  # --races / --trace (transpiler.sim.watch)

    def op_key(self, op) -> int:
        """A small integer naming ``op`` (the writer ids of the memory)."""
        k = self._op_ids.get(id(op))
        if k is None:
            k = self._op_ids[id(op)] = len(self.op_list)
            self.op_list.append(op)
        return k

    def memory_buffer_at(self, addr: int):
        """The buffer whose bytes hold ``addr`` in some heap (None: no buffer)."""
        mem = self.memory
        rank = mem.rank_of(addr)
        if rank < 0:
            return None
        off = addr - mem.base(rank)
        for buf in mem.buffers.values():
            if buf.offset <= off < buf.offset + buf.nbytes:
                return buf
        return None


class Program:
    """One program (or sub-block) of a launch; also the ``dev`` the library models run on."""

    __slots__ = ("rank", "pid", "grid", "sub_block", "program", "run", "snapshots", "memory", "n_ranks",
                 "teams", "gen", "launch", "blocked", "facts", "hb", "calls")

    def __init__(self, run: Run, launch, rank: int, pid, sub_block: Optional[int]):
        self.run = run
        self.launch = launch
        self.rank = rank
        self.pid = pid
        self.grid = launch.grid
        self.sub_block = 0 if sub_block is None else sub_block
        self.program = tuple(pid) if sub_block is None else tuple(pid) + (sub_block,)
        self.snapshots: Dict[int, object] = {}
        self.memory = run.memory
        self.n_ranks = run.ranks
        self.teams = run.teams
        self.blocked = None
        self.gen = None
        self.calls = 0  # tt.call frames open (ops/tt.py: MAX_CALL_DEPTH)
        self.facts = FactCache()  # transpiler.sim.access
        self.hb = None  # transpiler.sim.hb.Actor, with --races / --trace

    def take_snapshot(self, wait) -> None:
        """At ``wait`` (one whose loads ``--reorder`` may move above it): the memory as it is now,
        for those loads, in place of the one an earlier pass through the wait took."""
        old = self.snapshots.get(id(wait))
        if old is not None:
            old.release()
        self.snapshots[id(wait)] = self.memory.snapshot()

    def release_snapshots(self) -> None:
        """The program ended: no load reads its snapshots again."""
        for snap in self.snapshots.values():
            snap.release()
        self.snapshots.clear()


class ActiveLaunch:
    """A launch running on one rank: its function, grid, arguments and live program count."""

    def __init__(self, function, grid, args, sub_blocks: int):
        self.function, self.grid, self.args, self.sub_blocks = function, tuple(grid), args, sub_blocks
        self.total = 0
        self.live = 0


def run_step(run: Run, queues: Sequence[deque], start_action, step=(1, 1), programs: int = 0) -> None:
    """Run one step: ``queues[r]`` holds rank r's actions; ``start_action(run, rank, action)``
    applies a fill (returning None) or returns the :class:`ActiveLaunch` of a launch.  ``step``:
    its number and the number of steps, ``programs`` its program count, for ``run.on_progress``.

    Raises:
        Deadlock, StepLimit, Finding: what the run found.
    """
    runnable: List[Program] = []
    parked: List[Program] = []
    arrivals: Dict[int, List[Program]] = {}
    current: List[Optional[ActiveLaunch]] = [None] * run.ranks
    mem = run.memory
    watch = run.watch
    if watch is not None:
        watch.step()

    def advance_rank(rank: int) -> None:
        current[rank] = None
        q = queues[rank]
        while q:
            launch = start_action(run, rank, q.popleft())
            if launch is None:
                continue
            programs = _programs(run, launch, rank)
            if not programs:
                continue
            current[rank] = launch
            launch.total = launch.live = len(programs)
            if watch is not None:
                watch.launch(rank, programs, launch.sub_blocks)
            runnable.extend(programs)
            return

    done = 0

    def report() -> None:
        run.on_progress(Progress(*run.run_of, *step, done, max(programs, done), run.ops))

    for r in range(run.ranks):
        advance_rank(r)
    turn = last_wake = 0
    seen_version = mem.version
    rng = run.rng
    # randrange(n) for one positive int is _randbelow(n) (CPython 3.9 to 3.13): the same seeded
    # sequence of schedules without randrange's argument checks
    pick = getattr(rng, "_randbelow", rng.randrange)
    while True:
        turn += 1
        if parked and (not runnable or (turn % WAKE_EVERY == 0 and (len(parked) <= WAKE_EVERY or
                                                                  turn - last_wake >= len(parked)))) \
                and mem.version != seen_version:
            seen_version, last_wake = mem.version, turn
            still = []
            for p in parked:
                (runnable if p.blocked.version != seen_version else still).append(p)
            parked = still
        if not runnable:
            if parked or any(arrivals.values()):
                if watch is not None:
                    watch.deadlock(parked + [p for w in arrivals.values() for p in w])
                raise _deadlock(run, parked, arrivals, current)
            if run.on_progress is not None:
                report()
            return
        i = pick(len(runnable))
        p = runnable[i]
        try:
            item = p.gen.send(None)
        except StopIteration:
            runnable[i] = runnable[-1]
            runnable.pop()
            done += 1
            if p.snapshots:
                p.release_snapshots()
            launch = current[p.rank]
            launch.live -= 1
            if watch is not None:
                watch.program_end(p)
            if launch.live == 0:
                if watch is not None:
                    watch.launch_end(p.rank)
                advance_rank(p.rank)
                _release_barriers(run, arrivals, current, runnable)
            continue
        if run.ops > run.max_ops:
            raise StepLimit(f"more than {run.max_ops} ops executed (--max-ops)", op=getattr(item, "op", None),
                            rank=p.rank, program=p.program)
        if run.on_progress is not None and turn % 4096 == 0:
            report()
        if item is None:
            continue
        runnable[i] = runnable[-1]
        runnable.pop()
        p.blocked = item
        if item.__class__ is Park:
            item.version = mem.version
            parked.append(p)
        elif item.__class__ is Barrier:
            if watch is not None:
                watch.arrive(p)
            arrivals.setdefault(item.team, []).append(p)
            _release_barriers(run, arrivals, current, runnable)
        else:  # pragma: no cover - the ops yield nothing else
            raise Finding(f"yielded {item!r}", rank=p.rank, program=p.program)


def _programs(run: Run, launch: ActiveLaunch, rank: int) -> List[Program]:
    gx, gy, gz = (tuple(launch.grid) + (1, 1, 1))[:3]
    launch.grid = (gx, gy, gz)
    subs = [None] if launch.sub_blocks <= 1 else list(range(launch.sub_blocks))
    count = gx * gy * gz * len(subs)
    check_programs(count, run.ranks)
    if count > run.max_ops - run.ops:  # each program runs one op at least (its return)
        raise StepLimit(f"a launch of {count:,} programs runs at least {count:,} ops, more than the {run.max_ops - run.ops:,} "
                        f"the run may still execute (--max-ops {run.max_ops:,})", rank=rank)
    out = []
    for z in range(gz):
        for y in range(gy):
            for x in range(gx):
                for s in subs:
                    p = Program(run, launch, rank, (x, y, z), s)
                    p.gen = call_function(p, launch.function, launch.args)
                    out.append(p)
    return out


def _release_barriers(run: Run, arrivals, current, runnable) -> None:
    """Release every barrier that all programs of its team's ranks have reached."""
    for team, waiting in list(arrivals.items()):
        if not waiting:
            continue
        members = team_members(waiting[0], team) or []
        if any(current[r] is None for r in members):
            continue
        needed = sum(current[r].total for r in members)
        if len(waiting) >= needed:
            if run.watch is not None:
                run.watch.barrier(waiting, team)
            for p in waiting:
                p.blocked = None
            runnable.extend(waiting)
            arrivals[team] = []


def _deadlock(run: Run, parked, arrivals, current) -> Deadlock:
    notes = []
    for p in parked:
        park = p.blocked
        notes.append(op_note(park.op, f"rank {p.rank}, program {format_program(p.program)} waits: "
                                      f"{park.describe(run.memory)}"))
    for team, waiting in arrivals.items():
        members = team_members(waiting[0], team) if waiting else []
        needed = sum(current[r].total for r in members if current[r] is not None)
        for p in waiting:
            notes.append(op_note(p.blocked.op, f"rank {p.rank}, program {format_program(p.program)} waits at a "
                                               f"barrier of team {team} ({len(waiting)} of {needed} programs arrived)"))
    first = parked[0] if parked else next(w[0] for w in arrivals.values() if w)
    n = len(parked) + sum(len(w) for w in arrivals.values())
    return Deadlock(f"deadlock: every unfinished program is blocked ({n} blocked)", op=first.blocked.op,
                    rank=first.rank, program=first.program, notes=notes)
