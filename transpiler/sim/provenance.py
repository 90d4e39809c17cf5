"""Provenance per lane (SPEC.md section 7, "Machine"): each lane of a tensor of pointers keeps the
buffer and the heap (rank) it was derived from, and every access is checked lane by lane.

Representation (see :class:`~transpiler.sim.memory.Ptr`): a pointer whose lanes share one buffer
and heap keeps them once (``buf``, ``heap``; ``heap`` None: the heap the address lies in), which is
the fast path of every access.  When lanes differ (``arith.select`` of pointers into two buffers or
two ranks' heaps, ``int_to_ptr`` or a load of pointers), ``lanes`` is an ``int32`` array of the
address array's shape holding one code per lane, ``heap * (B + 1) + b``: ``b`` the buffer's index
in allocation order (``B``, past the last: no buffer), ``heap`` the rank (``R``: no rank's heap).

Pointers in memory: a store of pointers writes their byte addresses and records, per element,
``(address, code)`` in ``mem.stored_pointers`` (a dict keyed by the element's byte index, made on
the first such store); a load of pointers gives each lane the recorded code when memory still
holds the recorded address there, else the buffer and heap its address lies in
(:func:`at_addresses`).  So a pointer one past its buffer's end keeps its buffer through memory.

Errors: :class:`~transpiler.sim.errors.OutOfBounds` naming the lane's element index (``lane 5``,
``lane (0, 3, 1)``), the buffer, its size in elements and the lane's offset in elements from the
buffer's start in the lane's heap.
"""

from __future__ import annotations

import numpy as np

from .errors import OutOfBounds
from .pointers import Ptr

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


def remember(mem, idx, ptr, mask) -> None:
    """Record the provenance of the pointers ``ptr`` stored at element indices ``idx`` (of an
    8-byte view) where ``mask`` is true."""
    shadow = getattr(mem, "stored_pointers", None)
    if shadow is None:
        shadow = mem.stored_pointers = {}
    addr = np.broadcast_to(np.asarray(ptr.addr, I64), np.shape(idx))
    code = np.broadcast_to(codes(mem, ptr), np.shape(idx))
    live = np.ones(np.shape(idx), bool) if mask is None else np.broadcast_to(mask, np.shape(idx))
    for i, a, c in zip(np.ravel(idx)[np.ravel(live)].tolist(), addr.ravel()[np.ravel(live)].tolist(),
                       code.ravel()[np.ravel(live)].tolist()):
        shadow[i * 8] = (a, c)


def recall(mem, idx, addr):
    """The pointer(s) loaded as ``addr`` from element indices ``idx`` (of an 8-byte view): the
    recorded provenance where memory still holds the recorded address, else :func:`at_addresses`."""
    ptr = at_addresses(mem, addr)
    shadow = getattr(mem, "stored_pointers", None)
    if not shadow:
        return ptr
    flat_idx, flat_addr = np.ravel(idx).tolist(), np.ravel(addr).tolist()
    hits = [(k, shadow.get(i * 8)) for k, (i, a) in enumerate(zip(flat_idx, flat_addr))]
    hits = [(k, rec[1]) for k, rec in hits if rec is not None and rec[0] == flat_addr[k]]
    if not hits:
        return ptr
    lanes = codes(mem, ptr).astype(np.int32).ravel()
    for k, c in hits:
        lanes[k] = c
    if np.ndim(addr) == 0:
        t = tables(mem)
        b = int(lanes[0]) % t.nb
        return Ptr(int(addr), None if b == t.nb - 1 else t.bufs[b], int(lanes[0]) // t.nb)
    return Ptr(np.asarray(addr, I64), None, None, lanes.reshape(np.shape(addr)))


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
