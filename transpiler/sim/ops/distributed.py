"""The ``distributed`` dialect before lowering, as SPEC.md section 7 defines it (seed ``000_...``
memory effects; seed ``002_...`` sections 4-6).  Written apart from the device library's model
(:mod:`transpiler.sim.library`) on purpose: the run before lowering follows this file, the run
after follows the library, and the lowering is right when both give the same memory."""

from __future__ import annotations

import numpy as np

from ..attrs import attr, attr_value
from ..blocking import Park
from ..dtypes import dtype_of, pointee, wrap_int
from ..errors import Finding, NotSimulated
from ..library import invoke
from ..library.binding import convert
from ..memory import Ptr
from ..provenance import with_heap
from ..closures import copy
from .table import implements
from .common import cast, result_dtype

I64 = np.dtype(np.int64)
SLOT_BYTES = 64  # one barrier per 64-byte cache line (SPEC.md section 5)
SET, ADD = 1, 2  # the dialect's SignalOp numbering (SPEC.md section 1)


@implements("distributed.get_rank")
def get_rank(p, st, args):
    """The rank."""
    return np.int32(p.rank)


@implements("distributed.get_num_ranks")
def get_num_ranks(p, st, args):
    """R, the number of ranks."""
    return np.int32(p.n_ranks)


def symm_at(p, ptr: Ptr, r) -> Ptr:
    """``p - heap_base(calling rank) + heap_base(r)`` (seed ``002_...`` section 5.3).

    Raises:
        Finding: ``p`` outside the calling rank's heap, or ``r`` outside 0..R-1.
    """
    mem = p.memory
    r = int(r)
    if not 0 <= r < p.n_ranks:
        raise Finding(f"rank {r} is outside 0..{p.n_ranks - 1}")
    base = mem.base(p.rank)
    a = ptr.addr
    lo, hi = (a, a) if a.__class__ is int else (int(np.min(a)), int(np.max(a)))
    if lo < base or hi >= base + mem.heap_size:
        raise Finding(_outside_heap(mem, ptr, lo if lo < base else hi, p.rank))
    delta = mem.base(r) - base
    if ptr.lanes is None:  # one buffer: the same buffer in rank r's heap
        return Ptr(ptr.addr + delta, ptr.buf, r)
    return with_heap(mem, ptr, r, ptr.addr + delta)


def _outside_heap(mem, ptr: Ptr, addr: int, rank: int) -> str:
    """The message of ``symm_at`` of ``addr``, outside the calling ``rank``'s heap: the element
    of the pointer's buffer it is, when the pointer has one (as an out-of-bounds access says)."""
    buf = ptr.buf
    if buf is None or ptr.heap is None:
        return f"pointer {hex(addr)} is not in the heap of the calling rank {rank}"
    size = buf.dtype.itemsize
    rel = addr - mem.base(ptr.heap) - buf.offset
    return (f"out-of-bounds pointer: element {rel // size} is outside buffer '{buf.name}' ({buf.count} elements "
            f"of {size} bytes) on rank {ptr.heap}, and outside the calling rank {rank}'s heap (address {hex(addr)})")


@implements("distributed.symm_at")
def symm_at_op(p, st, args):
    return symm_at(p, args[0], args[1])


@implements("distributed.consume_token", fast=lambda st, ins, outs: copy(ins[0], outs))
def consume_token(p, st, args):
    """``x``: the token only orders memory accesses."""
    return args[0]


_SIGNAL_TYPES = frozenset(np.dtype(n) for n in ("int32", "int64", "uint64"))


class NotifyStatic:
    __slots__ = ("op", "sig_op", "dtype")

    def __init__(self, op, c):
        self.op = op
        self.sig_op = attr_value(op, "sigOp")
        if self.sig_op not in (SET, ADD):
            raise NotSimulated(f"sigOp {self.sig_op} is neither set (1) nor add (2)")
        t = dtype_of(pointee(op.operand_types[0]))
        self.dtype = t if t in _SIGNAL_TYPES else None  # ui32, i16, f32 ...: the 8 bytes of the i64 (SPEC 2.2, 7)


@implements("distributed.notify", gen=True, prepare=NotifyStatic)
def notify(p, st, args, frame):
    """SET stores v, ADD adds v atomically, on rank ``peer``'s copy of ``sig``; v converted to
    the pointee type (wrapping); another pointee: SET stores the 8 bytes of the i64."""
    sig, v, peer = args
    target = symm_at(p, sig, peer)
    yield
    mem = p.memory
    if mem.writers is not None:
        mem.writer = p.run.op_key(st.op)
    if st.dtype is None:
        if st.sig_op == ADD:
            raise Finding("adds to a signal whose pointee is not i32, i64 or ui64")
        mem.store(target, I64, np.int64(v))
    else:
        value = wrap_int(int(v), st.dtype)
        if st.sig_op == ADD:
            value = wrap_int(int(mem.load(target, st.dtype)[()]) + int(value), st.dtype)
        mem.store(target, st.dtype, value)
    if p.run.watch is not None:  # release (SPEC.md section 7, "Races")
        p.run.watch.release(p, int(target.addr), st.sig_op == ADD, v)
    return None


class WaitStatic:
    __slots__ = ("op", "dtype", "token", "snapshot", "pred")

    def __init__(self, op, c):
        self.op = op
        self.dtype = dtype_of(pointee(op.operand_types[0]))
        self.token = result_dtype(op)
        self.snapshot = c.snapshots_at(op)
        self.pred = len(op.operands) > 3


@implements("distributed.wait", gen=True, prepare=WaitStatic)
def wait(p, st, args, frame):
    """For i = 0 .. n-1 in order, polls the element at byte offset i * 64 of ``bar`` until it
    equals v once; the token is 0.  A predicated wait waits only where the predicate is true."""
    bar, n, v = args[0], args[1], args[2]
    run = p.run
    if run.reorder and st.snapshot:
        p.take_snapshot(st.op)
    if st.pred and not args[3]:
        return st.token.type(0)
    mem = p.memory
    want = cast(v, st.dtype)
    for i in range(int(n)):
        slot = Ptr(bar.addr + i * SLOT_BYTES, bar.buf, bar.heap)
        while True:
            yield
            seen = mem.load(slot, st.dtype)[()]
            if run.watch is not None:  # acquire, every round
                run.watch.poll(p, int(slot.addr), seen, want, seen == want)
            if seen == want:
                break
            yield Park(int(slot.addr), slot.buf, st.dtype, f"== {want}", st.op)
    return st.token.type(0)


class ExternStatic:
    __slots__ = ("op", "binding", "dtypes", "symm_at")

    def __init__(self, op, c):
        self.op = op
        sym = attr(op, "symbol")
        symbol = getattr(sym, "value", None)
        if not isinstance(symbol, str):
            raise NotSimulated("has no symbol attribute")
        self.symm_at = symbol == "aclshmem_ptr"  # remote_ptr: symm_at (SPEC.md section 7)
        self.binding = None if self.symm_at else c.library.bind(symbol, len(op.operands), len(op.results))
        self.dtypes = [None if str(t).startswith("!tt.ptr") else dtype_of(t) for t in op.result_types]


@implements("distributed.extern_call", gen=True, prepare=ExternStatic)
def extern_call(p, st, args, frame):
    """The library function its ``symbol`` names, on its operands in order."""
    if st.symm_at:
        return symm_at(p, args[0], args[1])
    mem = p.memory
    if mem.writers is not None:
        mem.writer = p.run.op_key(st.op)
    r = yield from invoke(p, st.binding.model, convert(st.binding, args), st.op)
    if not st.dtypes:
        return None
    return r if st.dtypes[0] is None else cast(r, st.dtypes[0])
