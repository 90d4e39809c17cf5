"""What a program yields when it cannot go on (SPEC.md section 7): a :class:`Park` (a wait
whose slot does not hold the value yet: polled again only after memory changed) or a
:class:`Barrier` arrival.  A bare ``yield`` (None) is a point where another program may run."""

from __future__ import annotations

from typing import Optional

import numpy as np


class Park:
    """A blocked poll of the slot at ``addr`` (provenance ``buf``, elements of ``dtype``) for a
    value satisfying ``wanted`` (a description, e.g. ``== 1``); ``op`` the op that waits."""

    __slots__ = ("addr", "buf", "dtype", "wanted", "op", "version")

    def __init__(self, addr: int, buf, dtype: np.dtype, wanted: str, op=None):
        self.addr, self.buf, self.dtype, self.wanted, self.op = addr, buf, dtype, wanted, op
        self.version = -1

    def describe(self, memory) -> str:
        """``slot 0x...: sees 3, waits for == 4`` (reads the slot now)."""
        from .memory import Ptr

        try:
            seen = memory.load(Ptr(self.addr, self.buf), self.dtype)[()]
        except Exception:  # an unreadable slot is already reported where it was read
            seen = "?"
        rank = memory.rank_of(self.addr)
        where = f"buffer '{self.buf.name}'" if self.buf is not None else "memory"
        offset = self.addr - memory.base(rank) - (self.buf.offset if self.buf is not None else 0)
        return f"slot at byte {offset} of rank {rank}'s {where} holds {seen}, waits for {self.wanted}"


class Barrier:
    """An arrival at a barrier of team ``team`` (0: the world); ``op`` the op that arrived."""

    __slots__ = ("team", "op")

    def __init__(self, team: int, op=None):
        self.team, self.op = team, op


def relay(gen, op: Optional[object]):
    """``yield from gen``, stamping ``op`` on every Park / Barrier it yields; returns its value."""
    try:
        item = next(gen)
        while True:
            if item is not None and item.op is None:
                item.op = op
            item = gen.send((yield item))
    except StopIteration as stop:
        return stop.value
