"""``--races``: two accesses to overlapping elements of a heap buffer, at least one a write, not
both atomics, not ordered by happens-before (:mod:`.hb`), are a :class:`Race` (SPEC.md section
7, "Races"), found in one run whatever the values and the schedule.

Shadow memory, per element of every rank's copy of every buffer (elements of the buffer's
declared dtype; an access of another width covers every element its bytes overlap), in numpy
``int32`` arrays of length N = the elements of all buffers of all ranks:

* ``write[i]``: the last plain write, an index into ``epochs`` (``(actor, epoch, op)``; 0: none);
* ``reads[i]``: the reads since that write not known to happen before a later read, an index
  into ``sets`` (tuples of epoch indices; 0: none) -- FastTrack's read sets, pruned of reads
  ordered before the newest one, which loses no race;
* ``atomics[i]`` (made at the first atomic): the same for atomics since the last plain write.

An access of k elements costs a few numpy gathers and scatters of length k, and a Python loop
over the *distinct* epochs and sets among them (one or two for a block written by one program).
Errors: :class:`Race`, a :class:`~.errors.Finding` of kind ``race`` at the second access, with
a note at the first.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Dict, List, Tuple

import numpy as np

from .attrs import attr
from .errors import Finding, format_program, op_note
from .hb import Actor
from .memory import BASE, Memory

RACE = "race"
I32, I64 = np.dtype(np.int32), np.dtype(np.int64)
NAMES = {"read": "read", "write": "write", "atomic": "atomic"}


class Race(Finding):
    """Two conflicting accesses not ordered by happens-before: ``op`` / ``rank`` / ``program``
    the second (where it is raised), ``other_op`` / ``other_rank`` / ``other_program`` the
    first; ``buffer`` the buffer's name; ``lo`` ... ``hi`` the elements both touched (of the
    buffer's dtype, in the copy of rank ``owner``)."""

    kind = RACE

    def __init__(self, message, op, rank, program, other: Actor, other_op, buffer: str, owner: int, lo: int, hi: int,
                 note: str):
        super().__init__(message, op=op, rank=rank, program=program, notes=[op_note(other_op, note)] if other_op else [])
        self.other_op, self.other_rank, self.other_program = other_op, other.rank, other.program
        self.buffer, self.owner, self.lo, self.hi = buffer, owner, lo, hi


def _call(op) -> str:
    """`` (aclshmem_float_putmem_nbi)`` for a library call, else nothing."""
    symbol = attr(op, "symbol") if op is not None else None
    return f" ({symbol.value})" if isinstance(getattr(symbol, "value", None), str) else ""


def _who(a: Actor) -> str:
    if a.program is None:
        return f"rank {a.rank}'s host (a fill)"
    return f"rank {a.rank}, program {format_program(a.program)}"


class RaceDetector:
    """The shadow memory of ``memory``'s buffers (all ranks) and the epochs and read sets."""

    def __init__(self, memory: Memory):
        self.memory = memory
        bufs = sorted(memory.buffers.values(), key=lambda b: b.offset)
        self.bufs = bufs
        self.offsets = np.array([b.offset for b in bufs], dtype=I64)
        self.isz = np.array([b.dtype.itemsize for b in bufs], dtype=I64)
        counts = [-(-b.nbytes // b.dtype.itemsize) for b in bufs]
        starts, n = [], 0
        for c in counts:  # buffer-major: buffer b of rank r starts at starts[b * R + r]
            for _ in range(memory.ranks):
                starts.append(n)
                n += c
        self.starts = np.array(starts + [n], dtype=I64)
        self._offsets, self._isz, self._starts = self.offsets.tolist(), self.isz.tolist(), self.starts.tolist()
        self.size = n
        self.reset()

    def reset(self) -> None:
        """A step begins: nothing before it can race with anything after."""
        self.write = np.zeros(self.size, I32)
        self.reads = np.zeros(self.size, I32)
        self.atomics = None
        self.epochs: List[Tuple[Actor, int, object]] = [(None, 0, None)]
        self._epoch_ids: Dict[tuple, int] = {}
        self.sets: List[tuple] = [()]
        self._set_ids: Dict[tuple, int] = {(): 0}
        self._added: Dict[tuple, int] = {}

    # ---- addresses -> shadow indices ---------------------------------------------------------
    def elements(self, addr, itemsize: int) -> np.ndarray:
        """Shadow indices of the elements that accesses of ``itemsize`` bytes at the byte
        addresses ``addr`` (int or int64 array, already checked in bounds) overlap."""
        mem = self.memory
        g = np.asarray(addr, dtype=I64).ravel() - BASE
        r = g // mem.heap_size
        off = g - r * mem.heap_size
        b = np.searchsorted(self.offsets, off, "right") - 1
        boff, isz = self.offsets[b], self.isz[b]
        first = (off - boff) // isz
        idx = self.starts[b * mem.ranks + r] + first
        span = (off + itemsize - 1 - boff) // isz - first
        if span.size and span.max() > 0:
            idx = np.concatenate([idx] + [idx[span >= k] + k for k in range(1, int(span.max()) + 1)])
        return idx

    def _index(self, addr: int):
        """``(shadow index, buffer copy k)`` of the element holding byte address ``addr``."""
        g = addr - BASE
        r, off = divmod(g, self.memory.heap_size)
        b = bisect_right(self._offsets, off) - 1
        k = b * self.memory.ranks + r
        return self._starts[k] + (off - self._offsets[b]) // self._isz[b], k

    def block(self, actor: Actor, base: int, off: np.ndarray, mask, itemsize: int):
        """Shadow indices of the lanes of ``base + off * itemsize`` where ``mask`` (None: all) is
        true, when one buffer copy of ``itemsize``-byte elements holds them; else None.  The live
        offsets of an ``(off, mask)`` pair are kept per actor (the interpreter never changes an array)."""
        blocks = actor.blocks
        c = blocks.get((id(off), id(mask)))
        if c is None or c[0] is not off or c[1] is not mask:
            live = (off if mask is None else off[np.broadcast_to(mask, off.shape)]).astype(I64).ravel()
            c = (off, mask, live, int(live.min()) if live.size else 0, int(live.max()) if live.size else -1)
            if len(blocks) > 64:
                blocks.clear()
            blocks[(id(off), id(mask))] = c
        live, lo, hi = c[2], c[3], c[4]
        if hi < lo:
            return live
        (i_lo, k), (i_hi, _) = self._index(base + lo * itemsize), self._index(base + hi * itemsize)
        if self._isz[k // self.memory.ranks] != itemsize or i_hi - i_lo != hi - lo or i_hi >= self._starts[k + 1]:
            return None
        return live + (i_lo - lo)

    def byte_range(self, addr: int, nbytes: int) -> np.ndarray:
        """Shadow indices of the elements the ``nbytes`` bytes at ``addr`` overlap."""
        if nbytes <= 0:
            return np.zeros(0, I64)
        lo, hi = self.elements(np.array([addr, addr + nbytes - 1]), 1)
        return np.arange(lo, hi + 1, dtype=I64)

    def _where(self, idx: np.ndarray):
        """``(buffer name, owning rank, lo, hi)`` of the first buffer copy among ``idx``."""
        k = np.searchsorted(self.starts, idx, "right") - 1
        first = int(k.min())
        el = idx[k == first] - self.starts[first]
        b, r = divmod(first, self.memory.ranks)
        return self.bufs[b].name, r, int(el.min()), int(el.max())

    # ---- epochs and read sets ----------------------------------------------------------------
    def _epoch(self, actor: Actor, op) -> int:
        key = (actor.id, actor.epoch, id(op))
        e = self._epoch_ids.get(key)
        if e is None:
            e = self._epoch_ids[key] = len(self.epochs)
            self.epochs.append((actor, actor.epoch, op))
        return e

    def _add(self, s: int, e: int, actor: Actor) -> int:
        """The set ``s`` with epoch ``e`` of ``actor`` added (entries ordered before it dropped)."""
        key = (s, e)
        out = self._added.get(key)
        if out is None:
            epochs = self.epochs
            kept = tuple(x for x in self.sets[s] if not actor.ordered_after(epochs[x][0], epochs[x][1])) + (e,)
            out = self._set_ids.get(kept)
            if out is None:
                out = self._set_ids[kept] = len(self.sets)
                self.sets.append(kept)
            self._added[key] = out
        return out

    def _add_all(self, table: np.ndarray, idx: np.ndarray, e: int, actor: Actor) -> None:
        ids = table[idx]
        if ids.size and ids.min() == ids.max():
            table[idx] = self._add(int(ids[0]), e, actor)
            return
        uniq, inv = np.unique(ids, return_inverse=True)
        table[idx] = np.array([self._add(int(s), e, actor) for s in uniq], I32)[inv]

    # ---- checks ------------------------------------------------------------------------------
    def _check_epochs(self, table, idx, actor, op, kind, prior):
        ids = table[idx]
        first = int(ids[0])
        for u in (first,) if (ids == first).all() else np.unique(ids).tolist():
            if u == 0:
                continue
            a, k, first_op = self.epochs[u]
            if not actor.ordered_after(a, k):
                self._race(actor, op, kind, a, first_op, prior, idx[ids == u])

    def _check_sets(self, table, idx, actor, op, kind, prior):
        if table is None:
            return
        ids = table[idx]
        first = int(ids[0])
        for s in (first,) if (ids == first).all() else np.unique(ids).tolist():
            for x in self.sets[s]:
                a, k, first_op = self.epochs[x]
                if not actor.ordered_after(a, k):
                    self._race(actor, op, kind, a, first_op, prior, idx[ids == s])

    def _race(self, actor, op, kind, other: Actor, other_op, other_kind, idx):
        buf, owner, lo, hi = self._where(idx)
        what = f"element {lo}" if lo == hi else f"elements {lo}..{hi}"
        message = (f"race: this {NAMES[kind]}{_call(op)} of buffer '{buf}' ({what} of rank {owner}'s copy) is not "
                   f"ordered by happens-before with a {NAMES[other_kind]}{_call(other_op)} by {_who(other)}")
        note = f"{_who(other)}: the {NAMES[other_kind]}{_call(other_op)} it races with"
        raise Race(message, op, actor.rank, actor.program, other, other_op, buf, owner, lo, hi, note)

    def access(self, actor: Actor, op, kind: str, idx: np.ndarray) -> None:
        """Check and record an access (``kind`` ``read``, ``write`` or ``atomic``) of the
        shadow elements ``idx``.  Raises :class:`Race`."""
        if not idx.size:
            return
        self._check_epochs(self.write, idx, actor, op, kind, "write")
        e = self._epoch(actor, op)
        if kind == "read":
            self._check_sets(self.atomics, idx, actor, op, kind, "atomic")
            self._add_all(self.reads, idx, e, actor)
            return
        self._check_sets(self.reads, idx, actor, op, kind, "read")
        if kind == "atomic":
            if self.atomics is None:
                self.atomics = np.zeros(self.size, I32)
            self._add_all(self.atomics, idx, e, actor)
            return
        self._check_sets(self.atomics, idx, actor, op, kind, "atomic")
        self.write[idx] = e
        self.reads[idx] = 0
        if self.atomics is not None:
            self.atomics[idx] = 0
