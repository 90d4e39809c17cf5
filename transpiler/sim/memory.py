"""The ranks' symmetric heaps and the pointers into them (SPEC.md section 7, "Machine").

* One byte heap per rank, all of them slices of one numpy ``uint8`` array: rank ``r``'s heap
  starts at byte address ``BASE + r * heap_size``.  Every buffer sits at the **same offset in
  every rank's heap** (what ``aclshmem_malloc`` guarantees, seed ``002_...`` section 5.2), aligned
  to 256 bytes.  Memory nobody fills is zero.
* A pointer value is a :class:`Ptr`: byte addresses (a Python/numpy int for ``!tt.ptr<T>``, an
  ``int64`` array for a tensor of pointers) and a provenance per lane, the buffer and heap (rank)
  it was derived from: once for all lanes (``buf``, ``heap``) or per lane (``lanes``,
  :mod:`transpiler.sim.provenance`).
  An :class:`OffsetPtr` is the same tensor of pointers kept as ``base + off * scale`` (a splat
  pointer plus an offset tensor), so that an access checks its bounds from the offsets' range
  (:mod:`transpiler.sim.access`); its ``addr`` is the materialized array.
* Every load, store, atomic and RMA checks that each address it touches (where the mask is true)
  lies inside its lane's buffer in its lane's heap, at an address aligned to the element size;
  else :class:`~transpiler.sim.errors.OutOfBounds` (the interpreter adds op, rank, program).
* ``version`` counts writes: a parked wait is polled again only after it changed.
* With ``track_writers``, each written element remembers the id of the op that wrote it
  (``--check-lowering`` reports the writer of a differing element).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np


BASE = 1 << 32  # byte address of rank 0's heap (0 stays an invalid address)
ALIGN = 256


from .pointers import Buffer, OffsetPtr, Ptr  # noqa: F401 (the pointer values; re-exported)
from . import provenance
from .snapshots import Snapshot, UndoLog


class Memory:
    """The heaps of ``ranks`` ranks with ``buffers`` ``(name, nbytes, dtype)`` allocated in order.

    Raises:
        ValueError: a buffer name used twice.
    """

    def __init__(self, ranks: int, buffers: Sequence[Tuple[str, int, np.dtype]]):
        self.ranks = ranks
        self.buffers: Dict[str, Buffer] = {}
        offset = 0
        for name, nbytes, dtype in buffers:
            if name in self.buffers:
                raise ValueError(f"buffer '{name}' is allocated twice")
            self.buffers[name] = Buffer(name, offset, nbytes, dtype)
            offset += -(-max(nbytes, 1) // ALIGN) * ALIGN
        self.heap_size = max(offset, ALIGN)
        self.flat = np.zeros(ranks * self.heap_size, dtype=np.uint8)
        self._views: Dict[np.dtype, np.ndarray] = {}
        self.version = 0
        self.writers: Optional[np.ndarray] = None
        self.writer = -1  # id of the op now writing (set by the interpreter when tracking)
        #: per byte: the element starting there was last written by a float atomic add, whose
        #: order is the schedule's (SPEC.md section 7); None until the first such add
        self.loose: Optional[np.ndarray] = None
        #: the pages saved for ``--reorder``'s snapshots (:mod:`.snapshots`); every write calls
        #: :meth:`before_write` / :meth:`before_write_elements` while ``undo.active``
        self.undo = UndoLog(self.flat)

    # ---- addresses --------------------------------------------------------------------------
    def base(self, rank: int) -> int:
        """Byte address of ``rank``'s heap."""
        return BASE + rank * self.heap_size

    def pointer(self, name: str, rank: int) -> Ptr:
        """A pointer to buffer ``name`` in ``rank``'s heap."""
        buf = self.buffers[name]
        return Ptr(self.base(rank) + buf.offset, buf, rank)

    def rank_of(self, addr: int) -> int:
        """The rank whose heap holds ``addr`` (-1 outside every heap)."""
        g = int(addr) - BASE
        return g // self.heap_size if 0 <= g < self.flat.size else -1

    def array(self, name: str, rank: int) -> np.ndarray:
        """``rank``'s copy of buffer ``name`` as a (writable) array of the buffer's dtype."""
        buf = self.buffers[name]
        start = rank * self.heap_size + buf.offset
        return self.flat[start : start + buf.nbytes].view(buf.dtype)

    def view(self, dtype) -> np.ndarray:
        """The whole memory as elements of ``dtype``."""
        dtype = np.dtype(dtype)
        v = self._views.get(dtype)
        if v is None:
            v = self._views[dtype] = self.flat.view(dtype)
        return v

    def track_writers(self) -> None:
        """Remember, per element start byte, the id of the op that last wrote it."""
        self.writers = np.full(self.flat.size, -1, dtype=np.int32)

    # ---- checks -----------------------------------------------------------------------------
    def indices(self, ptr: Ptr, itemsize: int, mask=None, what: str = "access"):
        """Element indices (of ``view`` of an ``itemsize`` dtype) of ``ptr``'s addresses.

        Masked-off lanes get a valid index (the buffer's start) and are never touched.

        Raises:
            OutOfBounds: an address (where ``mask`` is true) outside its lane's buffer in its
                lane's heap, or not aligned to ``itemsize`` (:func:`.provenance.indices`).
        """
        a = ptr.addr
        if ptr.lanes is not None:
            return provenance.indices(self, ptr, itemsize, mask, what)
        if a.__class__ is int and mask is None:  # a scalar pointer: the same checks without numpy
            g = a - BASE
            if self._inside(ptr.buf, g, g, itemsize, ptr.heap) and g % itemsize == 0:
                return g // itemsize
        g = np.asarray(a, dtype=np.int64) - BASE
        live = g if mask is None or mask is True else g[np.broadcast_to(mask, g.shape)]
        if live.size:  # one buffer and heap: the extremes decide; else lane by lane (or the finding)
            lo, hi = int(live.min()), int(live.max())
            if not self._inside(ptr.buf, lo, hi, itemsize, ptr.heap) or lo % itemsize or \
                    (live.size > 1 and np.any(live % itemsize)):
                return provenance.indices(self, ptr, itemsize, mask, what)
        idx = g // itemsize
        if mask is not None and mask is not True and live.size != g.size:
            safe = int(live.flat[0]) // itemsize if live.size else 0
            idx = np.where(mask, idx, safe)
        return idx

    def _inside(self, buf: Optional[Buffer], lo: int, hi: int, itemsize: int, heap=None) -> bool:
        if buf is None or lo < 0:
            return False
        rank = lo // self.heap_size if heap is None else heap
        start = rank * self.heap_size + buf.offset
        return rank < self.ranks and start <= lo and hi + itemsize <= start + buf.nbytes

    # ---- accesses ---------------------------------------------------------------------------
    def load(self, ptr: Ptr, dtype: np.dtype, mask=None, other=None):
        """The elements at ``ptr`` (``other``, or 0, where ``mask`` is false)."""
        return masked(self.view(dtype)[self.indices(ptr, dtype.itemsize, mask, "load")], dtype, mask, other)

    def store(self, ptr: Ptr, dtype: np.dtype, values, mask=None) -> None:
        """Write ``values`` at ``ptr`` where ``mask`` is true."""
        self.store_at(self.indices(ptr, dtype.itemsize, mask, "store"), dtype, values, mask)

    def store_at(self, idx, dtype: np.dtype, values, mask=None) -> None:
        """Write ``values`` at the checked element indices ``idx`` (of ``view(dtype)``) where
        ``mask`` is true."""
        view = self.view(dtype)
        if self.undo.active:
            self.undo.before_write_elements(idx if mask is None else np.asarray(idx)[np.broadcast_to(mask, np.shape(idx))],
                                            dtype.itemsize)
        if idx.__class__ is int or np.ndim(idx) == 0:
            if mask is None or bool(mask):
                view[int(idx)] = values
                self._wrote(int(idx), dtype.itemsize)
        else:
            values = np.broadcast_to(np.asarray(values, dtype=dtype), idx.shape)
            if mask is None:
                view[idx] = values
                self._wrote(idx, dtype.itemsize)
            else:
                m = np.broadcast_to(mask, idx.shape)
                view[idx[m]] = values[m]
                self._wrote(idx[m], dtype.itemsize)
        self.version += 1

    def _wrote(self, idx, itemsize: int) -> None:
        if self.writers is not None:
            self.writers[np.asarray(idx) * itemsize] = self.writer
        if self.loose is not None:
            self.loose[np.asarray(idx) * itemsize] = False

    def added_floats_at(self, idx, itemsize: int) -> None:
        """Mark the elements at indices ``idx`` (of a view of ``itemsize``-byte elements) as last
        written by a float atomic add: compared across runs with a tolerance (SPEC.md section 7)."""
        if self.loose is None:
            self.loose = np.zeros(self.flat.size, dtype=bool)
        self.loose[np.asarray(idx) * itemsize] = True

    def read_bytes(self, addr: int, nbytes: int, buf: Optional[Buffer], what: str) -> np.ndarray:
        """A copy of ``nbytes`` bytes at ``addr`` (checked against ``buf``)."""
        if nbytes <= 0:
            return np.zeros(0, dtype=np.uint8)
        start = int(self.indices(Ptr(addr, buf), 1, None, what))
        self.indices(Ptr(addr + nbytes - 1, buf), 1, None, what)
        return self.flat[start : start + nbytes].copy()

    def write_bytes(self, addr: int, data: np.ndarray, buf: Optional[Buffer], what: str) -> None:
        """Write the bytes ``data`` at ``addr`` (checked against ``buf``)."""
        if data.size == 0:
            return
        start = int(self.indices(Ptr(addr, buf), 1, None, what))
        self.indices(Ptr(addr + data.size - 1, buf), 1, None, what)
        if self.undo.active:
            self.undo.before_write(start, start + data.size)
        self.flat[start : start + data.size] = data
        if self.writers is not None:
            self.writers[start : start + data.size] = self.writer
        if self.loose is not None:
            self.loose[start : start + data.size] = False
        self.version += 1

    def last_writer(self, name: str, rank: int, index: int) -> int:
        """The id of the op that last wrote element ``index`` of ``rank``'s ``name`` (-1: none)."""
        if self.writers is None:
            return -1
        buf = self.buffers[name]
        return int(self.writers[rank * self.heap_size + buf.offset + index * buf.dtype.itemsize])

    def snapshot(self) -> Snapshot:
        """The memory as it is now, for a load ``--reorder`` may move above a wait (SPEC.md
        section 7): pages are saved as they are written while it is live (:mod:`.snapshots`);
        :meth:`Snapshot.release` it when no load will read it again."""
        return self.undo.take()

    def before_write(self, start: int, stop: int) -> None:
        """Bytes ``[start, stop)`` of the heaps are about to be written (for the snapshots)."""
        if self.undo.active:
            self.undo.before_write(start, stop)

    def before_write_elements(self, idx, itemsize: int) -> None:
        """The elements at indices ``idx`` of an ``itemsize`` view are about to be written."""
        if self.undo.active:
            self.undo.before_write_elements(idx, itemsize)

    def load_from(self, snapshot: Snapshot, ptr: Ptr, dtype: np.dtype, mask=None, other=None):
        """:meth:`load` from a :meth:`snapshot` instead of the current memory."""
        return masked(snapshot.gather(dtype, self.indices(ptr, dtype.itemsize, mask, "load")), dtype, mask, other)

    def buffers_of(self, rank: int) -> Dict[str, np.ndarray]:
        """Every buffer of ``rank``, by name, as read-only views of the heap: for the end of a run,
        when nothing writes the heap again (no copy: a run's outcome holds its heap, nothing else
        of the run; issue 33, memory)."""
        out = {}
        for name in self.buffers:
            a = self.array(name, rank)
            a.flags.writeable = False
            out[name] = a
        return out

    def names(self) -> List[str]:
        return list(self.buffers)


def masked(values, dtype: np.dtype, mask, other):
    """Loaded ``values`` with ``other`` (or 0) where ``mask`` is false."""
    if mask is not None:
        values = np.where(mask, values, dtype.type(0) if other is None else other).astype(dtype, copy=False)
    return values

