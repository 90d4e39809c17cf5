"""Tile helpers of the hot ops (issue 33): ``tt.broadcast``'s view, ``tt.addptr`` as base +
offsets, and the ``arith.addi`` of integer tiles that notes its affine form for
:mod:`transpiler.sim.access` (SPEC.md section 7: the values are numpy's; only the cost changes)."""

from __future__ import annotations

import numpy as np

from ..access import note_sum
from ..memory import OffsetPtr, Ptr
from .common import fast_apply

I64 = np.dtype(np.int64)


def broadcast_to(a, shape):
    """``np.broadcast_to(a, shape)`` (a read-only view, numpy stride 0 along the axes it
    stretches), built by the ndarray constructor when ``a`` is a C-contiguous array of the same
    rank: ``tt.broadcast`` runs a dozen times per GEMM iteration, and numpy's function costs
    about 6 us where the view costs 1."""
    if a.__class__ is np.ndarray and a.ndim == len(shape) and a.flags.c_contiguous:
        strides = []
        for n, m, s in zip(a.shape, shape, a.strides):
            if n != m:
                if n != 1:
                    return np.broadcast_to(a, shape)  # numpy's error
                s = 0
            strides.append(s)
        view = np.ndarray(shape, a.dtype, a, 0, tuple(strides))
        view.flags.writeable = False
        return view
    return np.broadcast_to(a, shape)


class TileAdd:
    """The static data of an ``arith.addi`` whose result is an integer tensor of rank >= 2: the
    sum ``g``, and (:func:`addi_fast`) the result's affine form noted for the access that reads
    through it (:func:`transpiler.sim.access.note_sum`), so that a tile of pointers built as
    ``rows[:, None] * stride + cols[None, :]`` is a strided view without comparing its lanes."""

    __slots__ = ("g",)

    def __init__(self, g):
        self.g = g

    def __call__(self, x, y):
        return self.g(x, y)


def addi_fast(st, ins, outs):
    """The instruction of ``arith.addi``: :func:`.common.fast_apply`'s, plus :func:`note_sum`
    on the result when ``st`` is a :class:`TileAdd`."""
    if st.__class__ is not TileAdd or outs.__class__ is not int:
        return fast_apply(st, ins, outs)
    a, b = ins
    g = st.g

    def run(p, f):
        x, y = f[a], f[b]
        r = f[outs] = g(x, y)
        note_sum(p, r, x, y)
    return run


def addptr_fast(st, ins, outs):
    """The instruction of ``tt.addptr`` (``st`` the pointee's size in bytes): :func:`offset`
    with the running program, whose facts a sum of offsets is noted in."""
    if outs.__class__ is not int or len(ins) != 2:
        return None
    a, b = ins

    def run(p, f):
        f[outs] = offset(st, f[a], f[b], p)
    return run


def offset(st, ptr, off, p=None):
    """``ptr + off * st`` (``st`` the pointee's size in bytes); a sum of two offset tensors notes
    its affine form for program ``p``'s accesses (:func:`.access.note_sum`)."""
    if ptr.__class__ is OffsetPtr and ptr.off is None and off.__class__ is np.ndarray and off.shape == ptr.dims \
            and off.dtype.kind in "iu":
        return OffsetPtr(ptr.base, off, st, ptr.dims, ptr.buf, ptr.heap)
    if ptr.__class__ is OffsetPtr and ptr.off is not None and ptr.scale == st and off.__class__ is np.ndarray \
            and off.shape == ptr.dims and off.dtype.kind in "iu":
        k = off.flat[0]
        if (off == k).all():  # a uniform step (a loop's `ptrs += BLOCK`): the base moves, the offsets stay
            return OffsetPtr(ptr.base + int(k) * st, ptr.off, st, ptr.dims, ptr.buf, ptr.heap)
        total = np.add(ptr.off, off, dtype=I64)
        if p is not None:
            note_sum(p, total, ptr.off, off)
        return OffsetPtr(ptr.base, total, st, ptr.dims, ptr.buf, ptr.heap)
    if ptr.addr.__class__ is int and (off.__class__ is not np.ndarray or off.ndim == 0):
        return Ptr(ptr.addr + int(off) * st, ptr.buf, ptr.heap)
    addr = np.asarray(ptr.addr, dtype=I64) + np.asarray(off).astype(I64) * st
    return Ptr(addr, ptr.buf, ptr.heap, None if ptr.lanes is None else np.broadcast_to(ptr.lanes, addr.shape))
