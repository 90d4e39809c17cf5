"""``tt.load``, ``tt.store``, ``tt.atomic_rmw``, ``tt.atomic_cas``: each one indivisible action on
global memory, preceded by a point where another program may run (SPEC.md section 7).

``load`` with a mask reads ``other`` (or 0) where the mask is false and touches no memory there;
``store`` writes only where the mask is true.  A pointer is stored as its byte address (8 bytes);
a loaded pointer's lanes get the buffer and heap their addresses lie in
(:func:`transpiler.sim.provenance.at_addresses`).  Under ``--reorder`` a load the analysis of
:mod:`transpiler.sim.reorder` marks may, by the schedule's coin, read the memory as it was when
the program reached the wait it may be hoisted above."""

from __future__ import annotations

import numpy as np

from .. import access
from ..attrs import attr_value
from ..dtypes import dtype_of, pointee
from ..errors import NotSimulated
from ..memory import Ptr
from ..provenance import recall, remember
from ...ir.types import PointerType
from ..closures import spread3
from .table import implements

RMW = {1: np.bitwise_and, 2: np.bitwise_or, 3: np.bitwise_xor, 4: np.add, 5: np.add, 6: np.maximum,
       7: np.minimum, 8: np.maximum, 9: np.minimum, 10: None}
UNSIGNED_RMW = (8, 9)
FLOAT_ADD = (4, 5)  #: ADD, FADD: on floats, the result depends on the order of the adds


def _element_dtype(op, index=0):
    t = pointee(op.operand_types[index])
    from ...ir.types import RankedTensorType

    if isinstance(t, RankedTensorType):
        raise NotSimulated("through a block pointer (!tt.ptr<tensor<...>>) is not simulated")
    return dtype_of(t)


class MemOp:
    """Static data of a memory op: element dtype, the op, its reorder wait (loads)."""

    __slots__ = ("dtype", "op", "wait", "rmw", "pointers")

    def __init__(self, op, c, rmw=None):
        self.dtype = _element_dtype(op)
        self.pointers = isinstance(pointee(op.operand_types[0]), PointerType)  # loads/stores pointers
        self.op = op
        self.wait = c.reorder_wait(op) if op.name == "tt.load" else None
        self.rmw = rmw


def _scalar(values, ptr):
    return values[()] if ptr.__class__ is Ptr and np.ndim(ptr.addr) == 0 else values


def _load_pointers(p, st, ptr, mask=None, other=None):
    """A load of pointers: the addresses, each lane with the provenance recorded when it was
    stored (:func:`transpiler.sim.provenance.recall`)."""
    mem = p.run.memory
    addr = _load(p, st, ptr, mask, None if other is None else other.addr)
    return recall(mem, mem.indices(ptr, 8, mask, "load"), addr)


def _load(p, st, ptr, mask=None, other=None):
    run = p.run
    mem = run.memory
    if st.wait is not None and run.reorder:
        snap = p.snapshots.get(id(st.wait))
        if snap is not None and run.rng.random() < 0.5:
            values = _scalar(access.load(p, mem, ptr, st.dtype, mask, other, snap), ptr)
            if run.watch is not None:
                run.watch.access(p, st.op, "read", ptr, st.dtype.itemsize, mask)
            return values
    values = _scalar(access.load(p, mem, ptr, st.dtype, mask, other), ptr)
    if run.watch is not None:
        run.watch.access(p, st.op, "read", ptr, st.dtype.itemsize, mask)
    return values


@implements("tt.load", point=True, prepare=lambda op, c: MemOp(op, c),
            fast=lambda st, ins, outs: spread3(_load_pointers if st.pointers else _load, st, ins, outs))
def load(p, st, args):
    return (_load_pointers if st.pointers else _load)(p, st, *args)


def _store(p, st, ptr, values, mask=None):
    mem = p.run.memory
    if mem.writers is not None:
        mem.writer = p.run.op_key(st.op)
    access.store(p, mem, ptr, st.dtype, values, mask)
    if p.run.watch is not None:
        p.run.watch.access(p, st.op, "write", ptr, st.dtype.itemsize, mask)


def _store_pointers(p, st, ptr, values, mask=None):
    """A store of pointers: their byte addresses (8 bytes each), their provenance recorded."""
    _store(p, st, ptr, np.asarray(values.addr, dtype=st.dtype)[()], mask)
    mem = p.run.memory
    remember(mem, mem.indices(ptr, 8, mask, "store"), values, mask)


@implements("tt.store", point=True, prepare=lambda op, c: MemOp(op, c),
            fast=lambda st, ins, outs: spread3(_store_pointers if st.pointers else _store, st, ins, outs))
def store(p, st, args):
    (_store_pointers if st.pointers else _store)(p, st, *args)


def _rmw_prepare(op, c):
    code = attr_value(op, "atomic_rmw_op")
    if code not in RMW:
        raise NotSimulated(f"atomic_rmw_op {code} is not simulated")
    return MemOp(op, c, code)


@implements("tt.atomic_rmw", point=True, prepare=_rmw_prepare)
def atomic_rmw(p, st, args):
    """Old values returned; lanes of one op that hit the same address combine in lane order."""
    mem = p.run.memory
    ptr, val = args[0], args[1]
    mask = args[2] if len(args) > 2 else None
    dtype = st.dtype
    idx = mem.indices(ptr, dtype.itemsize, mask, "atomic")
    view = mem.view(dtype)
    old = view[idx]
    live = np.ones(np.shape(idx), bool) if mask is None else np.broadcast_to(mask, np.shape(idx))
    flat_idx = np.ravel(idx)[np.ravel(live)]
    v = np.ravel(np.broadcast_to(np.asarray(val, dtype=dtype), np.shape(idx)))[np.ravel(live)]
    if mem.writers is not None:
        mem.writer = p.run.op_key(st.op)
    f = RMW[st.rmw]
    target, v = (view.view(np.dtype(f"u{dtype.itemsize}")), v.view(f"u{dtype.itemsize}")) \
        if st.rmw in UNSIGNED_RMW else (view, v)
    mem.before_write_elements(flat_idx, dtype.itemsize)
    if flat_idx.size > 1 and np.unique(flat_idx).size < flat_idx.size:
        # lanes sharing an address: one atomic after another, in lane order, each seeing the last
        seq = np.empty(flat_idx.size, dtype)
        for k, i in enumerate(flat_idx.tolist()):
            seq[k] = view[i]
            if f is None:
                target[i] = v[k]
            else:
                f.at(target, [i], v[k:k + 1])
        old = old.copy()
        old.reshape(-1)[np.flatnonzero(np.ravel(live))] = seq
    elif f is None:
        target[flat_idx] = v
    else:
        f.at(target, flat_idx, v)
    mem._wrote(flat_idx, dtype.itemsize)
    if st.rmw in FLOAT_ADD and not np.issubdtype(dtype, np.integer):
        mem.added_floats_at(flat_idx, dtype.itemsize)
    mem.version += 1
    if p.run.watch is not None:
        p.run.watch.access(p, st.op, "atomic", ptr, dtype.itemsize, mask)
    if mask is not None:
        old = np.where(mask, old, np.zeros_like(old))
    return old[()] if np.ndim(ptr.addr) == 0 else old


@implements("tt.atomic_cas", point=True, prepare=lambda op, c: MemOp(op, c))
def atomic_cas(p, st, args):
    mem = p.run.memory
    ptr, cmp, val = args
    dtype = st.dtype
    idx = mem.indices(ptr, dtype.itemsize, None, "atomic")
    view = mem.view(dtype)
    old = view[idx].copy() if np.ndim(idx) else view[int(idx)]
    hit = old == cmp
    mem.before_write_elements(idx, dtype.itemsize)
    if np.ndim(idx) and np.unique(idx).size < idx.size:
        # lanes sharing an address: one compare-and-swap after another, in lane order
        cmps = np.broadcast_to(np.asarray(cmp, dtype=dtype), idx.shape).ravel()
        vals = np.broadcast_to(np.asarray(val, dtype=dtype), idx.shape).ravel()
        flat_old = old.reshape(-1)
        for k, i in enumerate(idx.ravel().tolist()):
            flat_old[k] = view[i]
            if view[i] == cmps[k]:
                view[i] = vals[k]
    elif np.ndim(idx):
        view[idx[hit]] = np.broadcast_to(np.asarray(val, dtype=dtype), idx.shape)[hit]
    elif hit:
        view[int(idx)] = val
    mem.version += 1
    if p.run.watch is not None:
        p.run.watch.access(p, st.op, "atomic", ptr, dtype.itemsize)
    return old
