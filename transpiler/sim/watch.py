"""What ``--races`` and ``--trace`` observe of a run (SPEC.md section 7): the hooks the scheduler,
the memory ops, the dialect and the device library call, fanned out to the race detector
(:mod:`.hb`, :mod:`.races`) and the tracer (:mod:`.trace`).

``run.watch`` is None unless one of them is on; every hook is called as
``w = watch_of(p); if w is not None: w.hook(...)`` so a plain run pays one attribute test.
Each program gets an :class:`~.hb.Actor` (``p.hb``) at its launch.  Addresses are byte
addresses (ints or int64 arrays) of accesses that already passed their bounds checks.
"""

from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np

from .attrs import attr
from .hb import Actor, HappensBefore
from .memory import OffsetPtr
from .races import Race, RaceDetector
from .trace import tracing  # noqa: F401 (run.py's)


def _lanes(mask, shape):
    """``mask`` (bool array or scalar) as a bool array of ``shape``."""
    return mask if getattr(mask, "shape", None) == shape else np.broadcast_to(mask, shape)


def watch_of(dev) -> Optional["Watch"]:
    """The watch of the run ``dev`` (a program) belongs to; None outside a run or when off."""
    run = getattr(dev, "run", None)
    return None if run is None else run.watch


def attach(run, races: bool, tracer) -> None:
    """Give ``run`` a :class:`Watch` when ``races`` (look for races by happens-before in the run:
    raises :class:`~.races.Race`) or a ``tracer`` (:class:`~.trace.Tracer`, records the run) asks."""
    if races or tracer is not None:
        run.watch = Watch(run, races, tracer)


def symbol_of(op) -> str:
    """The ``symbol`` of an ``extern_call`` / ``hivm.hir.custom`` op (else the op's name)."""
    s = getattr(attr(op, "symbol"), "value", None) if op is not None else None
    return s if isinstance(s, str) else getattr(op, "name", "?")


class Watch:
    """The observers of one run over ``memory``: races on or off, a tracer or None."""

    def __init__(self, run, races: bool, tracer=None):
        self.run = run
        self.memory = run.memory
        self.hb = HappensBefore(run.ranks) if races else None
        self.races = RaceDetector(run.memory) if races else None
        self.trace = tracer
        self.current: Dict[int, List[Actor]] = {}
        self.steps = 0
        self.ids = 0

    # ---- machine -----------------------------------------------------------------------------
    def step(self) -> None:
        if self.steps and self.hb is not None:
            self.hb.step()
            self.races.reset()
        self.steps += 1

    def launch(self, rank: int, programs, sub_blocks: int) -> None:
        actors = []
        for p in programs:
            (x, y, z), (gx, gy, _) = p.pid, p.grid
            tid = (x + gx * (y + gy * z)) * max(sub_blocks, 1) + p.sub_block
            if self.hb is not None:
                a = self.hb.actor(rank, p.program, tid=tid)
            else:
                self.ids += 1
                a = Actor(self.ids, rank, p.program, tid=tid)
            p.hb = a
            actors.append(a)
        self.current[rank] = actors
        if self.hb is not None:
            self.hb.launch(rank, actors)
        if self.trace is not None:
            self.trace.launch(actors)

    def program_end(self, p) -> None:
        if self.trace is not None:
            self.trace.program_end(p.hb)

    def launch_end(self, rank: int) -> None:
        if self.hb is not None:
            self.hb.launch_end(rank, self.current.pop(rank, []))

    def fill(self, rank: int, name: str, nbytes: int) -> None:
        """A host fill of ``nbytes`` bytes of ``rank``'s ``name``: a write by the rank's stream."""
        if self.races is not None and nbytes:
            addr = self.memory.pointer(name, rank).addr
            self._check(self.hb.streams[rank], None, "write", self.races.byte_range(addr, nbytes))

    def arrive(self, p) -> None:
        if self.trace is not None:
            self.trace.arrive(p.hb)

    def barrier(self, programs, team: int) -> None:
        actors = [p.hb for p in programs]
        if self.hb is not None:
            self.hb.barrier(actors)
        if self.trace is not None:
            self.trace.barrier(actors, team)

    def deadlock(self, programs) -> None:
        """Every unfinished program is blocked: ``programs`` (parked waits, barrier arrivals)."""
        if self.trace is not None:
            for p in programs:
                b = p.blocked
                what = b.describe(self.memory) if hasattr(b, "describe") else f"waits at a barrier of team {b.team}"
                self.trace.instant(p.hb, "deadlock", what)

    # ---- memory ------------------------------------------------------------------------------
    def _check(self, actor, op, kind, idx) -> None:
        try:
            self.races.access(actor, op, kind, idx)
        except Race as r:
            if self.trace is not None and actor.program is not None:
                self.trace.instant(actor, "race", f"'{op.name}' op {r.where()}: {r.message}" if op is not None else r.message)
            raise

    def access(self, p, op, kind: str, ptr, itemsize: int, mask=None) -> None:
        """A ``tt.load`` (``read``), ``tt.store`` (``write``) or atomic (``atomic``) of
        ``itemsize``-byte elements at ``ptr`` where ``mask`` is true."""
        if self.races is not None:
            idx = None
            if ptr.__class__ is OffsetPtr and ptr.off is not None and ptr.scale == itemsize:
                idx = self.races.block(p.hb, ptr.base, ptr.off, mask, itemsize)
            if idx is None:
                addr = ptr.addr
                if mask is not None and mask is not True:
                    if np.ndim(addr) == 0:
                        if not bool(mask):
                            return
                    else:
                        addr = np.asarray(addr)[_lanes(mask, np.shape(addr))]
                idx = self.races.elements(addr, itemsize)
            self._check(p.hb, op, kind, idx)
        if self.trace is not None:
            self.trace.access(p.hb, kind)

    def rma(self, dev, read, write, pe: int) -> None:
        """An RMA call: a read of ``nbytes`` at ``read = (addr, nbytes)``, a write at ``write``."""
        a = dev.hb
        if self.races is not None:
            self._check(a, a.op, "read", self.races.byte_range(*read))
            self._check(a, a.op, "write", self.races.byte_range(*write))
        if self.trace is not None:
            self.trace.rma(a, symbol_of(a.op), read[1], pe)

    # ---- synchronisation ---------------------------------------------------------------------
    def at(self, dev, op) -> None:
        """``dev`` runs the library call ``op`` (named in its findings)."""
        dev.hb.op = op

    def _slot(self, addr: int) -> str:
        mem = self.memory
        rank = mem.rank_of(addr)
        buf = self.run.memory_buffer_at(addr)
        if buf is None:
            return f"address {hex(addr)}"
        return f"buffer '{buf.name}' byte {addr - mem.base(rank) - buf.offset} of rank {rank}"

    def release(self, dev, addr: int, add: bool, value, library: bool = False) -> None:
        """A signal write at byte address ``addr`` (notify, signal_op, ``_p``): SET or ADD."""
        a = dev.hb
        if self.hb is not None:
            self.hb.release(a, addr, add)
        if self.trace is not None:
            name = f"notify ({symbol_of(a.op)})" if library else "notify"
            self.trace.release(a, name, addr, self.memory.rank_of(addr), self._slot(addr), value, add)

    def poll(self, dev, addr: int, seen, wanted, done: bool, library: bool = False) -> None:
        """One round of a wait at ``addr``: it read ``seen``; ``done`` when that ends the wait."""
        a = dev.hb
        if self.hb is not None:
            self.hb.acquire(a, addr)
        if self.trace is not None:
            name = f"wait ({symbol_of(a.op)})" if library else "wait"
            self.trace.poll(a, name, addr, self._slot(addr), seen, wanted, done)
