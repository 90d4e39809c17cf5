"""Memory as it was at a wait, for ``--reorder`` (SPEC.md section 7, "Schedules"), kept as an
undo log of pages rather than as copies of the heaps.

A load that ``--reorder`` may move above a wait reads memory as it was when its program reached
the wait.  Copying every heap at every such wait costs the heaps' size per program and wait; here
a :class:`Snapshot` is only a number (its epoch), and :class:`UndoLog` saves a page of the heaps
(``PAGE`` bytes) the first time it is written after the newest live snapshot was taken, once for
every snapshot taken before.  A snapshot reads a page from the first copy saved after it was
taken (the page as it was then: every write since would have saved one), or from the current
memory if the page was not written since.  The log holds each page at most once per snapshot
epoch, so it is bounded by the bytes written while snapshots are alive, and copies no snapshot
needs any more (no live snapshot between two copies of a page) are dropped as snapshots end.
"""

from __future__ import annotations

import bisect
from typing import Dict, List

import numpy as np

PAGE = 4096  # bytes; a multiple of every element size, so an aligned element lies in one page


class Snapshot:
    """Memory as it was when it was taken (:meth:`UndoLog.take`): ``gather`` reads it."""

    __slots__ = ("log", "epoch", "live")

    def __init__(self, log: "UndoLog", epoch: int):
        self.log, self.epoch, self.live = log, epoch, True

    def gather(self, dtype: np.dtype, idx) -> np.ndarray:
        """The elements at indices ``idx`` (of the memory viewed as ``dtype``; aligned, checked)
        as they were when the snapshot was taken: an array of ``idx``'s shape (a scalar for an
        integer index)."""
        return self.log.gather(self, np.dtype(dtype), idx)

    def release(self) -> None:
        """The snapshot is not read again (its program ended, or took a newer one at the same
        wait): the copies only it needed may go."""
        if self.live:
            self.live = False
            self.log.release(self)


class UndoLog:
    """The saved pages of ``flat`` (the heaps' bytes) for the live snapshots.

    ``pages[p]`` is a list of ``(epoch, bytes)``, epochs increasing: the page as it was just
    before its first write after the snapshot of that epoch (the newest live one then) was taken.
    """

    def __init__(self, flat: np.ndarray):
        self.flat = flat
        self.epoch = 0  # the epoch of the newest snapshot (0: none yet)
        self.live: List[int] = []  # the epochs of the live snapshots, increasing
        self.pages: Dict[int, List[tuple]] = {}
        self.saved_bytes = 0
        self._prune_at = 1 << 20  # prune the log when it holds this many bytes

    @property
    def active(self) -> bool:
        """Whether some snapshot is live (then every write must call :meth:`before_write`)."""
        return bool(self.live)

    def take(self) -> Snapshot:
        """A snapshot of the memory now."""
        self.epoch += 1
        self.live.append(self.epoch)
        return Snapshot(self, self.epoch)

    def release(self, snap: Snapshot) -> None:
        self.live.remove(snap.epoch)
        if not self.live:
            self.pages.clear()
            self.saved_bytes = 0
        elif self.saved_bytes >= self._prune_at:
            self._prune()

    # ---- writes ---------------------------------------------------------------------------------
    def before_write(self, start: int, stop: int) -> None:
        """Bytes ``[start, stop)`` of ``flat`` are about to be written: save their pages."""
        if stop > start:
            self._save(range(start // PAGE, (stop - 1) // PAGE + 1))

    def before_write_elements(self, idx, itemsize: int) -> None:
        """The elements at indices ``idx`` (of a view of ``itemsize``-byte elements) are about to
        be written: save their pages."""
        byte = np.asarray(idx, dtype=np.int64) * itemsize
        if byte.size == 1:
            p = int(byte.reshape(-1)[0]) // PAGE
            self._save((p,))
        elif byte.size:
            self._save(np.unique(byte // PAGE).tolist())

    def _save(self, pages) -> None:
        newest = self.live[-1]
        flat, log = self.flat, self.pages
        for p in pages:
            copies = log.get(p)
            if copies is None:
                copies = log[p] = []
            elif copies[-1][0] >= newest:
                continue  # saved since the newest snapshot: the older ones read that copy
            copies.append((newest, flat[p * PAGE:(p + 1) * PAGE].copy()))
            self.saved_bytes += PAGE

    # ---- reads ----------------------------------------------------------------------------------
    def gather(self, snap: Snapshot, dtype: np.dtype, idx):
        view = self.flat.view(dtype)
        values = view[idx]
        if not self.pages:
            return values
        scalar = np.ndim(idx) == 0
        values = np.array(values, copy=True, ndmin=1)
        byte = np.asarray(idx, dtype=np.int64).reshape(-1) * dtype.itemsize
        page = byte // PAGE
        flat_values = values.reshape(-1)
        for p in np.unique(page).tolist():
            copies = self.pages.get(p)
            if not copies:
                continue
            k = _first_at_least(copies, snap.epoch)
            if k == len(copies):
                continue  # not written since the snapshot
            here = page == p
            flat_values[here] = copies[k][1].view(dtype)[(byte[here] - p * PAGE) // dtype.itemsize]
        return values[0] if scalar else values

    def _prune(self) -> None:
        """Drop the copies no live snapshot reads: copy k of a page (after copy k-1) is read by
        the snapshots of epochs in (epoch of k-1, epoch of k]."""
        live, kept, total = self.live, {}, 0
        for p, copies in self.pages.items():
            out, before = [], 0
            for epoch, data in copies:
                i = bisect.bisect_right(live, before)
                if i < len(live) and live[i] <= epoch:
                    out.append((epoch, data))
                    total += PAGE
                before = epoch
            if out:
                kept[p] = out
        self.pages, self.saved_bytes = kept, total
        self._prune_at = max(1 << 20, 2 * total)


def _first_at_least(copies, epoch: int) -> int:
    """The index of the first copy whose epoch is at least ``epoch`` (``bisect`` without ``key``,
    which Python 3.9 lacks)."""
    lo, hi = 0, len(copies)
    while lo < hi:
        mid = (lo + hi) // 2
        if copies[mid][0] < epoch:
            lo = mid + 1
        else:
            hi = mid
    return lo
