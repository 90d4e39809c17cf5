"""The values of the simulator's memory model that other modules build: a heap :class:`Buffer`
and the pointer values :class:`Ptr` and :class:`OffsetPtr` (SPEC.md section 7, "Machine"; see
:mod:`transpiler.sim.memory` for the heaps and :mod:`transpiler.sim.provenance` for the per-lane
provenance).  A leaf, so that both import it and neither the other back (issue 30)."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np


class Buffer:
    """A buffer of the symmetric heap: ``name``, byte ``offset`` in every heap, ``nbytes``,
    element ``dtype`` (what the plan declared; accesses may use another type)."""

    __slots__ = ("name", "offset", "nbytes", "dtype")

    def __init__(self, name: str, offset: int, nbytes: int, dtype: np.dtype):
        self.name, self.offset, self.nbytes, self.dtype = name, offset, nbytes, np.dtype(dtype)

    @property
    def count(self) -> int:
        return self.nbytes // self.dtype.itemsize

    def __repr__(self) -> str:
        return f"<buffer {self.name} [{self.offset}, {self.offset + self.nbytes})>"


class Ptr:
    """A pointer value: ``addr`` (int or int64 array of byte addresses), ``buf`` and ``heap`` (the
    provenance of every lane; ``heap`` None: the heap each address lies in) or ``lanes`` (int32
    codes, one per lane, :mod:`transpiler.sim.provenance`; then ``buf`` and ``heap`` are None)."""

    __slots__ = ("addr", "buf", "heap", "lanes")

    def __init__(self, addr, buf: Optional[Buffer], heap: Optional[int] = None, lanes=None):
        self.addr, self.buf, self.heap, self.lanes = addr, buf, heap, lanes

    @property
    def shape(self) -> Tuple[int, ...]:
        return np.shape(self.addr)

    def map(self, f) -> "Ptr":
        """The same provenance, ``f`` applied to the addresses (and lane codes: shape ops)."""
        return Ptr(f(self.addr), self.buf, self.heap, None if self.lanes is None else f(self.lanes))

    def __repr__(self) -> str:
        return f"<ptr {self.buf.name if self.buf else '?'} {self.addr!r}>"


class OffsetPtr(Ptr):
    """A tensor of pointers ``base + off * scale``: ``base`` a byte address (int), ``off`` an
    integer array of element offsets (None: all zero, a splat), ``scale`` the element size in
    bytes, ``buf`` the provenance.  ``addr`` is the int64 address array (made on first use)."""

    __slots__ = ("base", "off", "scale", "dims", "_addr")

    def __init__(self, base: int, off, scale: int, dims: Tuple[int, ...], buf: Optional[Buffer], heap=None):
        self.base, self.off, self.scale, self.dims, self.buf, self.heap = base, off, scale, dims, buf, heap
        self._addr, self.lanes = None, None

    @property
    def addr(self):
        a = self._addr
        if a is None:
            if self.off is None:
                a = np.full(self.dims, self.base, dtype=np.int64)
            else:
                a = self.base + self.off.astype(np.int64) * self.scale
            self._addr = a
        return a

    @property
    def shape(self) -> Tuple[int, ...]:
        return self.dims

    def map(self, f) -> "OffsetPtr":
        """The same base and provenance, ``f`` (a shape op: broadcast, expand_dims, reshape,
        trans) applied to the offsets (a view where numpy makes one), so that the tile stays
        ``base + off * scale`` for :mod:`transpiler.sim.access`."""
        if self.off is None:
            dims = f(np.broadcast_to(np.int8(0), self.dims)).shape
            return OffsetPtr(self.base, None, self.scale, dims, self.buf, self.heap)
        off = f(self.off)
        return OffsetPtr(self.base, off, self.scale, off.shape, self.buf, self.heap)
