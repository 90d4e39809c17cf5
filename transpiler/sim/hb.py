"""Happens-before for ``--races`` (SPEC.md section 7, "Races"): the smallest order containing
program order within a program (sub-block); a notify, ``signal_op``, ``_p`` store or
``putmem_signal``'s signal -> the wait round (or ``wait_until``) that observed it (release ->
acquire); every op before a ``barrier_all`` / ``barrier(team)`` -> every op after it, over the
ranks it spans; the end of a launch -> the next action in stream order on that rank; a step's
end -> the next step.

FastTrack's representation (Flanagan and Freund, PLDI 2009): each :class:`Actor` (a program or
sub-block, or a rank's stream of host actions) has a vector clock (:class:`~.clocks.Clock`) and
an ``epoch``, its own entry; an access is stamped with ``(actor, epoch)`` and happens before a
later access by actor b iff ``b.clock.get(actor.id) >= epoch``.  The epoch advances after each
release, so accesses after it are not ordered before an acquire of it.  Steps reset everything:
every access of a step happens before every access of the next, so none of them is kept.

A release stores a copy of the releaser's clock at the slot's byte address: a SET replaces what
the slot held (the wait observes that write), an ADD joins it (the adds before it form a release
sequence, as C++'s RMWs do).  An acquire joins the slot's clock into the waiter's.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from .clocks import Clock, join_all


class Actor:
    """A program (``program`` = ``(x, y, z[, sub-block])``) or the host stream of ``rank``
    (``program`` None): ``id``, ``clock``, ``epoch``; ``op``: the library call now running
    (named in findings); ``tid``, ``start``, ``counts``, ``wait``, ``arrived``: the trace's;
    ``blocks``: the race detector's."""

    __slots__ = ("id", "rank", "program", "clock", "epoch", "op", "tid", "start", "counts", "wait", "arrived", "blocks")

    def __init__(self, ident: int, rank: int, program, clock: Optional[Clock] = None, tid: int = 0):
        self.id, self.rank, self.program, self.tid = ident, rank, program, tid
        self.epoch = 1
        self.clock = clock if clock is not None else Clock()
        self.clock.own[ident] = 1
        self.op = None
        self.start = 0
        self.counts = None
        self.wait = None
        self.arrived = 0
        self.blocks = {}  # the live lanes of (offsets, mask) pairs (RaceDetector.block)

    def tick(self) -> None:
        """A new epoch (after a release or a barrier)."""
        self.epoch += 1
        self.clock.own[self.id] = self.epoch

    def ordered_after(self, actor: "Actor", epoch: int) -> bool:
        """Whether the access of ``actor`` at ``epoch`` happens before this actor's next access."""
        return actor is self or self.clock.get(actor.id) >= epoch


class HappensBefore:
    """The clocks of one run over ``ranks`` ranks: actors, streams and released slots."""

    def __init__(self, ranks: int):
        self.ranks = ranks
        self.next_id = 0
        self.streams: List[Actor] = []
        self.slots: Dict[int, Clock] = {}
        self.step()

    def actor(self, rank: int, program, clock: Optional[Clock] = None, tid: int = 0) -> Actor:
        self.next_id += 1
        return Actor(self.next_id, rank, program, clock, tid)

    def step(self) -> None:
        """A step begins: everything before it is ordered before everything in it."""
        self.streams = [self.actor(r, None) for r in range(self.ranks)]
        self.slots = {}

    def launch(self, rank: int, actors: List[Actor]) -> None:
        """The programs of a launch on ``rank`` start after every action before it in stream order."""
        base = self.streams[rank].clock.flat()
        for a in actors:
            a.clock = Clock(base, {a.id: a.epoch})

    def launch_end(self, rank: int, actors: List[Actor]) -> None:
        """Every program of the launch ends before the stream's next action."""
        s = self.streams[rank]
        s.clock = Clock(join_all([s.clock] + [a.clock for a in actors]))
        s.tick()

    def barrier(self, actors: List[Actor]) -> None:
        """``actors`` leave a barrier together: each is ordered after everything any did before."""
        base = join_all(a.clock for a in actors)
        for a in actors:
            a.clock = Clock(base)
            a.tick()

    def release(self, actor: Actor, addr: int, add: bool) -> None:
        """``actor`` writes the signal at byte address ``addr`` (SET: ``add`` False; ADD: True)."""
        old = self.slots.get(addr)
        if add and old is not None:
            old.join(actor.clock)
        else:
            self.slots[addr] = actor.clock.copy()
        actor.tick()

    def acquire(self, actor: Actor, addr: int) -> None:
        """``actor`` read the signal at ``addr`` (a wait round)."""
        c = self.slots.get(addr)
        if c is not None:
            actor.clock.join(c)
