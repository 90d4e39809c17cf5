"""Provenance per lane (SPEC.md section 7, "Machine"): each lane of a tensor of pointers keeps the
buffer and the heap (rank) it was derived from, and every access is checked lane by lane.

Representation (see :class:`~transpiler.sim.memory.Ptr`): a pointer whose lanes share one buffer
and heap keeps them once (``buf``, ``heap``; ``heap`` None: the heap the address lies in), which is
the fast path of every access.  When lanes differ (``arith.select`` of pointers into two buffers or
two ranks' heaps, ``int_to_ptr`` or a load of pointers), ``lanes`` is an ``int32`` array of the
address array's shape holding one code per lane, ``heap * (B + 1) + b``: ``b`` the buffer's index
in allocation order (``B``, past the last: no buffer), ``heap`` the rank (``R``: no rank's heap).

Errors: :class:`~transpiler.sim.errors.OutOfBounds` naming the lane's element index (``lane 5``,
``lane (0, 3, 1)``), the buffer, its size in elements and the lane's offset in elements from the
buffer's start in the lane's heap.
"""

from __future__ import annotations

import numpy as np

from .errors import OutOfBounds
from .memory import Ptr

I64 = np.dtype(np.int64)


class Tables:
    """Per memory: buffers in allocation order, their byte offsets and sizes (one past the end: no
    buffer, size -1 so that nothing fits), and ``nb`` = B + 1."""

    def __init__(self, mem):
        self.bufs = list(mem.buffers.values())
        self.index = {id(b): i for i, b in enumerate(self.bufs)}
        self.nb = len(self.bufs) + 1
        self.offset = np.array([b.offset for b in self.bufs] + [0], I64)
        self.nbytes = np.array([b.nbytes for b in self.bufs] + [-1], I64)


def tables(mem) -> Tables:
    t = getattr(mem, "_prov_tables", None)
    if t is None:
        t = mem._prov_tables = Tables(mem)
    return t


def heaps_of(mem, addr) -> np.ndarray:
    """The rank whose heap holds each address (R where none does)."""
    g = np.asarray(addr, I64) - mem.base(0)
    h = g // mem.heap_size
    return np.where((g >= 0) & (h < mem.ranks), h, mem.ranks)


def codes(mem, ptr) -> np.ndarray:
    """The lane codes of ``ptr`` (int64 array of its address shape)."""
    shape = np.shape(ptr.addr)
    if ptr.lanes is not None:
        return np.broadcast_to(ptr.lanes, shape).astype(I64)
    t = tables(mem)
    b = t.nb - 1 if ptr.buf is None else t.index[id(ptr.buf)]
    heap = heaps_of(mem, ptr.addr) if ptr.heap is None else np.full(shape, ptr.heap, I64)
    return heap * t.nb + b


def select(mem, c, a, b):
    """``arith.select`` of two pointers, lane by lane (``c`` a bool array)."""
    addr = np.where(c, a.addr, b.addr)
    if a.lanes is None and b.lanes is None and a.buf is b.buf and a.heap == b.heap:
        return Ptr(addr, a.buf, a.heap)
    return Ptr(addr, None, None, np.where(c, codes(mem, a), codes(mem, b)).astype(np.int32))


def at_addresses(mem, addr):
    """The pointer(s) at the byte addresses ``addr`` (``int_to_ptr``, a loaded pointer): each lane
    gets the buffer its address lies in, in the heap it lies in (no buffer where none)."""
    t = tables(mem)
    heap = heaps_of(mem, addr)
    off = np.asarray(addr, I64) - mem.base(0) - heap * mem.heap_size
    # the last buffer starting at or before the offset, if the offset lies inside it
    b = np.searchsorted(t.offset[:-1], off, side="right") - 1
    inside = (b >= 0) & (off < t.offset[np.maximum(b, 0)] + t.nbytes[np.maximum(b, 0)]) & (heap < mem.ranks)
    b = np.where(inside, b, t.nb - 1)
    if np.ndim(addr) == 0:
        k = int(b)
        return Ptr(int(addr), None if k == t.nb - 1 else t.bufs[k], int(heap) if inside else None)
    return Ptr(np.asarray(addr, I64), None, None, (heap * t.nb + b).astype(np.int32))


def with_heap(mem, ptr, rank: int, addr):
    """``ptr``'s lanes moved to ``rank``'s heap at ``addr`` (``symm_at``)."""
    if ptr.lanes is None:
        return Ptr(addr, ptr.buf, rank)
    t = tables(mem)
    return Ptr(addr, None, None, (ptr.lanes % t.nb + rank * t.nb).astype(np.int32))


def indices(mem, ptr, itemsize: int, mask, what: str):
    """Element indices (of a view of ``itemsize``-byte elements) of every lane of ``ptr``, each
    checked against its own buffer in its own heap; masked-off lanes get a valid index.

    Raises:
        OutOfBounds: the first live lane (in row-major order) outside its buffer or misaligned.
    """
    t = tables(mem)
    g = np.asarray(ptr.addr, I64) - mem.base(0)
    code = codes(mem, ptr)
    b, heap = code % t.nb, code // t.nb
    start = heap * mem.heap_size + t.offset[b]
    live = np.ones(g.shape, bool) if mask is None or mask is True else np.broadcast_to(mask, g.shape)
    ok = (heap < mem.ranks) & (g >= start) & (g + itemsize <= start + t.nbytes[b]) & (g % itemsize == 0)
    bad = live & ~ok
    if bad.any():
        k = int(np.flatnonzero(bad.ravel())[0])
        lane = np.unravel_index(k, g.shape) if g.ndim else ()
        raise OutOfBounds(explain(mem, t, what, lane, int(g.ravel()[k]), int(b.ravel()[k]), int(heap.ravel()[k]), itemsize))
    idx = g // itemsize
    if not live.all():
        idx = np.where(live, idx, int(idx[live].ravel()[0]) if live.any() else 0)
    return idx


def explain(mem, t: Tables, what: str, lane, g: int, b: int, heap: int, itemsize: int) -> str:
    """The message of an access by ``lane`` at heap-relative byte address ``g`` through a pointer
    into buffer index ``b`` of ``heap``: the offset in elements from the buffer's start."""
    at = f" at lane {lane[0] if len(lane) == 1 else tuple(int(i) for i in lane)}" if lane else ""
    address = hex(g + mem.base(0))
    if b == t.nb - 1:
        return f"{what}{at} through a pointer to no buffer (address {address})"
    buf = t.bufs[b]
    size = f"{buf.nbytes // itemsize} elements of {itemsize} bytes"
    if heap >= mem.ranks:
        return f"out-of-bounds {what}{at}: address {address} is in no rank's memory (a pointer into buffer '{buf.name}', {size})"
    rel = g - heap * mem.heap_size - buf.offset
    if rel % itemsize:
        return (f"misaligned {what}{at}: byte {rel} of buffer '{buf.name}' on rank {heap} is not a multiple of the "
                f"element size {itemsize} (address {address})")
    return (f"out-of-bounds {what}{at}: element {rel // itemsize} is outside buffer '{buf.name}' ({size}) "
            f"on rank {heap} (address {address})")
