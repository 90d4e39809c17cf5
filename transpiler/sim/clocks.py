"""Vector clocks for ``--races`` (SPEC.md section 7, "Races"): happens-before over the actors of a
step (every program or sub-block of every launch, and each rank's stream of host actions).

A :class:`Clock` maps an actor id (int) to the last epoch (int, from 1) of that actor known to
happen before; an absent actor is 0.  It is kept in two layers so that the many programs of a
launch, or every program after a ``barrier_all``, share one dictionary instead of a copy each:
``base`` is a dict that is never changed once shared (the stream's clock at a launch, the join
at a barrier), ``own`` holds this clock's entries above it.  Joins between clocks with the same
``base`` cost the size of ``own``; with different ones, the size of the other base too.
"""

from __future__ import annotations

from typing import Dict, Iterable, Optional

EMPTY: Dict[int, int] = {}


class Clock:
    """``get(actor)``: the actor's last epoch that happens before the holder (0: none)."""

    __slots__ = ("base", "own")

    def __init__(self, base: Optional[Dict[int, int]] = None, own: Optional[Dict[int, int]] = None):
        self.base = EMPTY if base is None else base
        self.own = {} if own is None else own

    def get(self, actor: int) -> int:
        v = self.own.get(actor)
        return self.base.get(actor, 0) if v is None else v

    def join(self, other: "Clock") -> None:
        """Every entry the larger of this clock's and ``other``'s (acquire)."""
        own, base = self.own, self.base
        if other.base is not base:
            for t, k in other.base.items():
                if k > own.get(t, 0) and k > base.get(t, 0):
                    own[t] = k
        for t, k in other.own.items():
            if k > own.get(t, 0) and k > base.get(t, 0):
                own[t] = k

    def copy(self) -> "Clock":
        """A clock that later changes of this one do not change (what a release stores)."""
        return Clock(self.base, dict(self.own))

    def flat(self) -> Dict[int, int]:
        """One dict of every entry (to share as the ``base`` of other clocks)."""
        if not self.own:
            return self.base
        out = dict(self.base)
        out.update(self.own)
        return out


def join_all(clocks: Iterable[Clock]) -> Dict[int, int]:
    """The join of ``clocks`` as one dict (a barrier, the end of a launch); clocks that share a
    base are merged through their ``own`` layers only."""
    out: Dict[int, int] = {}
    bases = set()
    for c in clocks:
        if id(c.base) not in bases:
            bases.add(id(c.base))
            for t, k in c.base.items():
                if k > out.get(t, 0):
                    out[t] = k
        for t, k in c.own.items():
            if k > out.get(t, 0):
                out[t] = k
    return out
