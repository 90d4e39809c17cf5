"""Block loads and stores through an :class:`~transpiler.sim.memory.OffsetPtr` (``base + off *
scale``), with the checks and effects of :meth:`Memory.load` / :meth:`Memory.store` (SPEC.md
section 7, "Machine"): every address where the mask is true lies inside the pointer's provenance
buffer, in one heap, aligned to the element size; masked-off lanes touch no memory.

What makes them cheap: the facts of an offset tensor under a mask (the smallest and largest live
offset, whether the live lanes are one contiguous run) are computed once per program for each
``(offsets, mask)`` pair of arrays and kept by identity (:func:`facts`; the interpreter never
changes an array a value holds, so a kept array's facts stay true while the program holds it).
The facts are kept only while both arrays live (weak references: an entry goes with its arrays,
so a program's cache holds no dead tile alive; issue 33, memory).  An access then checks ``base + lo * scale`` and ``base + hi * scale`` only, and a contiguous run is
one slice of the heap.  A tile whose offsets are affine in the lane index (``first + i * s0 + j *
s1``, what ``make_range`` arithmetic builds; :func:`affine`) with every lane live is a strided view
of the heap: a load copies it, a store whose lanes do not overlap assigns it, with no index array.
Anything else (no facts, misalignment, an address out of bounds) goes to
the general path of :class:`Memory`, which raises the finding with its usual text.
"""

from __future__ import annotations

import weakref
from typing import Optional

import numpy as np

from .memory import BASE, Memory, OffsetPtr, masked

I64 = np.dtype(np.int64)
FACTS_MAX = 256  # entries kept per program at most (then forgotten all at once); each also goes with its arrays


class Facts:
    """The live lanes of ``off`` under ``mask`` (None: every lane): ``n_live`` of ``n``, offsets
    ``lo`` ... ``hi``, the first live one ``first``, :meth:`int64` (``off`` as int64) and ``start``: the
    first offset when the live lanes are lanes 0 .. n_live-1 holding consecutive offsets (else None).
    ``tile``, ``(first, strides)`` of :func:`affine` when every lane is live, makes ``strides`` (in
    elements) and ``disjoint`` (no two lanes share an element) known; else ``strides`` is None."""

    __slots__ = ("shape", "usable", "n", "n_live", "lo", "hi", "first", "start", "_off64", "strides", "disjoint")

    def __init__(self, off, mask, tile=None):
        self.shape = off.shape
        self.usable = False
        self.strides = self._off64 = None
        if off.__class__ is not np.ndarray or off.dtype.kind not in "iu" or not off.size:
            return
        if mask is not None and (mask.__class__ is not np.ndarray or mask.dtype != np.bool_ or mask.shape != off.shape):
            return
        if tile is not None:  # every lane live, a strided view: no int64 copy, no index array
            self.first, self.strides = tile
            self.n = self.n_live = off.size
            self.lo, self.hi = _bounds(self.first, off.shape, self.strides)
            self.disjoint = _disjoint(off.shape, self.strides)
            self.start, self.usable = None, True
            return
        o = self._off64 = off.astype(I64)
        flat = o.ravel()
        live = flat if mask is None else flat[mask.ravel()]
        self.n, self.n_live = flat.size, live.size
        if not self.n_live:
            return
        self.usable = True
        self.lo, self.hi, self.first = int(live.min()), int(live.max()), int(live[0])
        prefix = mask is None or self.n_live == self.n or bool(mask[: self.n_live].all())
        run = off.ndim == 1 and np.array_equal(flat, np.arange(flat[0], flat[0] + self.n, dtype=I64))
        self.start = int(flat[0]) if prefix and run else None


    def int64(self, off: np.ndarray) -> np.ndarray:
        """``off`` (the offsets these are the facts of) as int64 (made on first use for an affine tile)."""
        if self._off64 is None:
            self._off64 = off.astype(I64)
        return self._off64


def affine(off: np.ndarray):
    """``(first, strides)`` when ``off[i0, i1, ...] == first + i0 * strides[0] + i1 * strides[1] +
    ...`` for every lane (strides in elements, 0 along axes of length 1), else None.  The strides
    are read off the lanes next to lane 0 and the whole tile compared once with the tile they
    generate, built in ``off``'s own type when its range and spans fit (no wrap: every partial
    sum is a lane's value)."""
    lines = [k for k, n in enumerate(off.shape) if n > 1]
    if len(lines) <= 1:  # one line of lanes (a broadcast's compact part): first + i * s
        flat = off.reshape(-1)
        first = int(flat[0])
        s = int(flat[1]) - first if flat.size > 1 else 0
        same = (flat == first) if s == 0 else (flat == np.arange(first, first + s * flat.size, s, dtype=I64))
        return (first, tuple(s if k in lines else 0 for k in range(off.ndim))) if same.all() else None
    first = int(off.flat[0])
    zero = (0,) * off.ndim
    strides = [0 if n == 1 else int(off[zero[:k] + (1,) + zero[k + 1:]]) - first for k, n in enumerate(off.shape)]
    lo, hi = _bounds(first, off.shape, strides)
    info = np.iinfo(off.dtype)
    fits = info.min <= min(lo, lo - first) and max(hi, hi - first) <= info.max
    expected = np.array(first, off.dtype if fits else I64)
    for k, (n, s) in enumerate(zip(off.shape, strides)):
        axis = [1] * off.ndim
        axis[k] = n
        expected = expected + (np.arange(n, dtype=expected.dtype) * s).reshape(axis)
    return (first, tuple(strides)) if np.array_equal(off, expected) else None


def note_sum(p, r, x, y) -> None:
    """Keep in ``p.facts`` the affine form of ``r = x + y`` (arrays of one shape, an integer
    ``arith.addi``) when ``x`` and ``y`` are broadcasts of affine lanes (numpy stride 0 along an
    axis, as ``tt.broadcast`` makes them), read off their compact parts: O(rows + columns), not
    O(tile).  Exact: the forms give the lanes of ``x`` and ``y`` as integers, and when their sum's
    range fits ``r``'s type no lane wrapped, so every lane of ``r`` is the form's."""
    if r.__class__ is not np.ndarray or x.__class__ is not np.ndarray or y.__class__ is not np.ndarray \
            or r.ndim < 2 or x.shape != r.shape or y.shape != r.shape or r.dtype.kind not in "iu" or not r.size:
        return
    fx = _compact_form(x)
    fy = _compact_form(y) if fx is not None else None
    if fy is None:
        return
    first, strides = fx[0] + fy[0], tuple(s + t for s, t in zip(fx[1], fy[1]))
    lo, hi = _bounds(first, r.shape, strides)
    info = np.iinfo(r.dtype)
    if info.min <= lo and hi <= info.max:
        remember(p.facts, (id(r),), (first, strides), r)


def _compact_form(x: np.ndarray):
    """:func:`affine` of a broadcast ``x`` read on its compact part (one lane along each axis
    of numpy stride 0); None when ``x`` is no broadcast (its lanes would all be read)."""
    if x.dtype.kind not in "iu":
        return None
    part = tuple(slice(0, 1) if s == 0 and n > 1 else slice(None) for s, n in zip(x.strides, x.shape))
    if all(k.stop is None for k in part):
        return None
    return affine(x[part])


def _bounds(first: int, shape, strides):
    """``(lo, hi)``: the smallest and largest offset of the affine tile ``first``, ``shape``, ``strides``."""
    spans = [(n - 1) * s for n, s in zip(shape, strides)]
    return first + sum(d for d in spans if d < 0), first + sum(d for d in spans if d > 0)


def _disjoint(shape, strides) -> bool:
    """No two lanes of the affine tile ``shape`` / ``strides`` (elements) share an element."""
    axes = sorted((abs(s), n) for n, s in zip(shape, strides) if n > 1)
    extent = 1
    for s, n in axes:
        if s < extent:
            return False
        extent = s * (n - 1) + extent
    return True


def _tile(view: np.ndarray, f: Facts, base: int) -> np.ndarray:
    """The heap ``view`` (elements) as the affine tile of ``f`` at element ``base``."""
    size = view.itemsize
    return np.lib.stride_tricks.as_strided(view[base + f.first:], f.shape, [s * size for s in f.strides])


def facts(p, off, mask) -> Optional[Facts]:
    """The :class:`Facts` of ``(off, mask)`` for program ``p`` (kept in ``p.facts``); None when
    the general path must be taken."""
    cache = p.facts
    key = (id(off), id(mask))
    entry = cache.get(key)
    if entry is None:
        if len(cache) >= FACTS_MAX:
            cache.clear()
        tile = None
        if off.__class__ is np.ndarray and off.ndim >= 2 and off.dtype.kind in "iu" and off.size \
                and (mask is None or (mask.__class__ is np.ndarray and mask.shape == off.shape and mask.all())):
            form = cache.get((id(off),))  # the offsets' own form, whatever the mask
            tile = form[0] if form is not None else remember(cache, (id(off),), affine(off), off)
        f = remember(cache, key, Facts(off, mask, tile), off, mask)
    else:
        f = entry[0]
    return f if f.usable else None


class FactCache(dict):
    """A program's facts: key -> ``(value, weak references)`` (:func:`remember`); a dict that a
    weak reference can point to, so that an entry's callbacks do not keep the cache alive."""

    __slots__ = ("__weakref__",)


def remember(cache: FactCache, key, value, *arrays):
    """``cache[key] = (value, refs)`` for as long as every array of ``arrays`` (None: none)
    lives: ``refs``, a weak reference to each, takes the entry away when its array goes, before
    its ``id`` can be reused (no reference cycle: the entry, with an int64 copy of the offsets,
    is freed by its reference count, the collector being paused during a run).  Returns ``value``."""
    home = weakref.ref(cache)

    def forget(_ref):
        c = home()
        if c is not None:
            c.pop(key, None)

    cache[key] = (value, [weakref.ref(a, forget) for a in arrays if a is not None])
    return value


def _checked(p, mem: Memory, ptr: OffsetPtr, itemsize: int, mask):
    """``(facts, element index of base)`` when every live address is inside ``ptr.buf`` and
    aligned; None otherwise (the general path decides, and reports)."""
    if ptr.off is None or ptr.scale != itemsize:
        return None
    f = facts(p, ptr.off, mask)
    if f is None:
        return None
    g = ptr.base - BASE
    if g % itemsize or not mem._inside(ptr.buf, g + f.lo * itemsize, g + f.hi * itemsize, itemsize, ptr.heap):
        return None
    return f, g // itemsize


def load(p, mem: Memory, ptr, dtype: np.dtype, mask, other, snapshot=None):
    """:meth:`Memory.load` (or :meth:`Memory.load_from` ``snapshot``) of ``ptr``."""
    if snapshot is not None:
        return mem.load_from(snapshot, ptr, dtype, mask, other)
    if ptr.__class__ is OffsetPtr:
        hit = _checked(p, mem, ptr, dtype.itemsize, mask)
        if hit is not None:
            f, base = hit
            view = mem.view(dtype)
            if f.strides is not None:
                values = view[f.int64(ptr.off) + base] if min(f.strides) < 0 else _tile(view, f, base).copy()
                if other is None or getattr(other, "dtype", None) == dtype:
                    return values
                return masked(values, dtype, mask, other)
            if f.start is not None:
                s = base + f.start
                if f.n_live == f.n:
                    values = view[s : s + f.n].copy()
                    if other is None or getattr(other, "dtype", None) == dtype:
                        return values  # every lane live: np.where(mask, values, other) is values
                    return masked(values, dtype, mask, other)
                values = np.zeros(f.n, dtype)
                values[: f.n_live] = view[s : s + f.n_live]
                return masked(values, dtype, mask, other)
            idx = f.int64(ptr.off) + base
            if f.n_live != f.n:
                idx = np.where(mask, idx, base + f.first)
            return masked(view[idx], dtype, mask, other)
    return mem.load(ptr, dtype, mask, other)


def store(p, mem: Memory, ptr, dtype: np.dtype, values, mask) -> None:
    """:meth:`Memory.store` of ``values`` at ``ptr`` where ``mask`` is true."""
    if ptr.__class__ is OffsetPtr:
        hit = _checked(p, mem, ptr, dtype.itemsize, mask)
        if hit is not None:
            f, base = hit
            if f.start is not None and values.__class__ is np.ndarray and values.shape == ptr.dims:
                s, k = base + f.start, f.n_live
                v = values if values.dtype == dtype else np.asarray(values, dtype=dtype)
                n = dtype.itemsize
                mem.before_write(s * n, (s + k) * n)
                mem.view(dtype)[s : s + k] = v if k == f.n else v[:k]
                if mem.writers is not None:
                    mem.writers[s * n : (s + k) * n : n] = mem.writer
                if mem.loose is not None:  # no longer the result of a float atomic add
                    mem.loose[s * n : (s + k) * n : n] = False
                mem.version += 1
                return
            if f.strides is not None and f.disjoint and min(f.strides) >= 0 and mem.writers is None \
                    and mem.loose is None \
                    and values.__class__ is np.ndarray and values.shape == ptr.dims:
                n = dtype.itemsize
                mem.before_write((base + f.lo) * n, (base + f.hi + 1) * n)
                _tile(mem.view(dtype), f, base)[...] = values if values.dtype == dtype else values.astype(dtype)
                mem.version += 1
                return
            mem.store_at(f.int64(ptr.off) + base, dtype, values, None if f.n_live == f.n else mask)
            return
    mem.store(ptr, dtype, values, mask)
