"""``tt`` ops that compute (Triton's definitions, SPEC.md section 7): ranges, shape ops, pointer
arithmetic, ``dot``, ``reduce``/``scan`` with their combiner regions, calls.  Memory ops are in
:mod:`.tt_memory`."""

from __future__ import annotations

import numpy as np

from ..attrs import attr_value
from ..dtypes import dtype_of, pointee, shape_of
from ..errors import Finding, NotSimulated
from ..interp import call_function, run_region
from ..memory import OffsetPtr, Ptr
from ..provenance import at_addresses
from .table import implements
from ..closures import const, unary
from .tiles import addptr_fast, broadcast_to, offset
from .common import cast, float_fn, map_value, maximumf, maxnumf, minimumf, minnumf, result_dtype
from .rounding import RTNE, convert

I64 = np.dtype(np.int64)


def _program_id_fast(axis, ins, outs):
    def run(p, f):
        f[outs] = np.int32(p.pid[axis])
    return run


@implements("tt.get_program_id", prepare=lambda op, c: attr_value(op, "axis"), fast=_program_id_fast)
def get_program_id(p, st, args):
    return np.int32(p.pid[st])


@implements("tt.get_num_programs", prepare=lambda op, c: attr_value(op, "axis"))
def get_num_programs(p, st, args):
    return np.int32(p.grid[st])


def _make_range(op, c):
    start, end = attr_value(op, "start"), attr_value(op, "end")
    return np.arange(start, end, dtype=np.int32)


@implements("tt.make_range", prepare=_make_range, fast=lambda st, ins, outs: const(st, outs))
def make_range(p, st, args):
    return st


def _shape_dtype(op, c):
    t = op.result_types[0]
    return shape_of(t), dtype_of(t)


def _splat(st):
    shape, dtype = st

    def splat(x):
        if x.__class__ is Ptr:
            if x.addr.__class__ is int:  # kept as base + offsets (transpiler.sim.access)
                return OffsetPtr(x.addr, None, 1, shape, x.buf, x.heap)
            return Ptr(np.full(shape, x.addr, dtype=I64), x.buf, x.heap)
        return np.full(shape, x, dtype=dtype)
    return splat


@implements("tt.splat", prepare=_shape_dtype, fast=lambda st, ins, outs: unary(_splat(st), ins, outs))
def splat(p, st, args):
    return _splat(st)(args[0])


@implements("tt.broadcast", prepare=_shape_dtype)
def broadcast(p, st, args):
    shape = st[0]
    return map_value(args[0], lambda a: broadcast_to(a, shape))


@implements("tt.expand_dims", prepare=lambda op, c: attr_value(op, "axis"))
def expand_dims(p, st, args):
    return map_value(args[0], lambda a: np.expand_dims(a, st))


@implements("tt.reshape", prepare=_shape_dtype)
def reshape(p, st, args):
    return map_value(args[0], lambda a: np.reshape(a, st[0]))


@implements("tt.trans", prepare=lambda op, c: tuple(attr_value(op, "order")))
def trans(p, st, args):
    return map_value(args[0], lambda a: np.transpose(a, st))


@implements("tt.join")
def join(p, st, args):
    return np.stack([args[0], args[1]], axis=-1)


@implements("tt.split")
def split(p, st, args):
    a = args[0]
    return a[..., 0], a[..., 1]


@implements("tt.cat", prepare=_shape_dtype)
def cat(p, st, args):
    return np.concatenate([np.asarray(args[0]), np.asarray(args[1])], axis=0)


def _addptr_prepare(op, c):
    return dtype_of(pointee(op.result_types[0])).itemsize


@implements("tt.addptr", prepare=_addptr_prepare, fast=addptr_fast)
def addptr(p, st, args):
    return offset(st, args[0], args[1], p)


def _bitcast_prepare(op, c):
    t = op.result_types[0]
    from ..dtypes import is_pointer

    return None if is_pointer(t) else dtype_of(t)


@implements("tt.bitcast", prepare=_bitcast_prepare)
def bitcast(p, st, args):
    x = args[0]
    if st is None:
        return x
    return np.asarray(x).view(st)[()]


@implements("tt.int_to_ptr")
def int_to_ptr(p, st, args):
    """Each lane: the buffer and heap its address lies in (:func:`.provenance.at_addresses`)."""
    return at_addresses(p.run.memory, args[0])


@implements("tt.ptr_to_int")
def ptr_to_int(p, st, args):
    return np.asarray(args[0].addr, dtype=I64)[()]


def _fp_prepare(op, c):
    mode = attr_value(op, "rounding", RTNE) if op.name == "tt.fp_to_fp" else RTNE
    return op.name, result_dtype(op), mode


@implements("tt.fp_to_fp", "tt.precise_sqrt", "tt.precise_divf", prepare=_fp_prepare)
def fp_ops(p, st, args):
    """``fp_to_fp``: :func:`.rounding.convert` with the op's ``rounding`` (default rtne)."""
    name, dtype, mode = st
    if name == "tt.fp_to_fp":
        return convert(args[0], dtype, mode)
    if name == "tt.precise_sqrt":
        return cast(np.sqrt(np.asarray(args[0], np.float64)), dtype)
    if name == "tt.precise_divf":
        return cast(np.asarray(args[0], np.float64) / np.asarray(args[1], np.float64), dtype)


#: tt.PropagateNan (TritonAttrDefs.td): NONE = 0, ALL = 0xFFFF
PROPAGATE_NONE, PROPAGATE_ALL = 0, 0xFFFF


def _clampf_prepare(op, c):
    mode = attr_value(op, "propagateNan")
    if mode not in (PROPAGATE_NONE, PROPAGATE_ALL):
        raise NotSimulated(f"propagateNan = {mode} is neither none (0) nor all (0xFFFF)")
    dtype = result_dtype(op)
    up, down = (maximumf, minimumf) if mode == PROPAGATE_ALL else (maxnumf, minnumf)
    return float_fn(up, dtype), float_fn(down, dtype)


@implements("tt.clampf", prepare=_clampf_prepare)
def clampf(p, st, args):
    """``clamp(x, min, max)`` as Triton lowers it (``ClampFOpConversion`` in triton-lang/triton's
    lib/Conversion/TritonGPUToLLVM/ElementwiseOpToLLVM.cpp, targets with LLVM's maximum/minimum,
    and in triton-cpu's TritonToTritonCPU/ConvertElementwiseOps.cpp): ``propagateNan = all`` is
    ``minimumf(maximumf(x, min), max)`` (NaN if any operand is NaN, -0 < +0); ``none`` is
    ``minnumf(maxnumf(x, min), max)`` (a NaN operand gives way to the other; of two equal zeros
    MLIR lets either be the result).  ``tl.clamp`` calls min > max and a NaN bound undefined; the
    composition still gives them a value, and that is the value returned."""
    up, down = st
    return down(up(args[0], args[1]), args[2])


def _dot_prepare(op, c):
    return result_dtype(op)


@implements("tt.dot", prepare=_dot_prepare)
def dot(p, st, args):
    a, b, acc = args[0], args[1], args[2]
    compute = np.dtype(np.float32) if st.kind == "f" and st.itemsize < 4 else st
    prod = np.matmul(np.asarray(a).astype(compute, copy=False), np.asarray(b).astype(compute, copy=False))
    acc = np.asarray(acc)
    if prod.shape == acc.shape:  # a fresh array: the sum in place, one rounding as before
        return np.add(prod, acc.astype(compute, copy=False), out=prod).astype(st, copy=False)
    return (prod + acc.astype(compute, copy=False)).astype(st, copy=False)


def _region_prepare(op, c):
    region = op.regions[0]
    straight = len(region.blocks) == 1 and not any(o.regions or o.name.startswith("cf.") for o in region.blocks[0].ops)
    return c.region(region), attr_value(op, "axis", 0), bool(attr_value(op, "reverse", False)), straight


def _combine(p, st, frame, lhs, rhs):
    """The combiner region on the pairs ``lhs[k]``, ``rhs[k]`` (arrays of one shape): once on the
    whole arrays when it is straight-line, else once per element pair, so that its own control
    flow (``scf.if``, ``cf`` branches) decides per pair (issue 29, "regions as regions")."""
    blocks, straight = st[0], st[3]
    if straight:
        out = yield from run_region(p, blocks, frame, list(lhs) + list(rhs))
        return [np.asarray(o) for o in out]
    shape = np.shape(lhs[0])
    out = None
    for i in np.ndindex(*shape):
        r = yield from run_region(p, blocks, frame, [v[i] for v in lhs] + [v[i] for v in rhs])
        if out is None:
            out = [np.empty(shape, np.asarray(x).dtype) for x in r]
        for o, x in zip(out, r):
            o[i] = x
    return out if out is not None else [np.empty(shape, v.dtype) for v in lhs]


@implements("tt.reduce", gen=True, prepare=_region_prepare)
def reduce(p, st, args, frame):
    """Pairwise tree over the axis: log2(n) runs of the combiner region on whole arrays (the
    order of a float sum is not fixed, SPEC.md section 7)."""
    axis = st[1]
    vals = [np.moveaxis(np.asarray(a), axis, 0) for a in args]
    while vals[0].shape[0] > 1:
        n = vals[0].shape[0]
        half = n // 2
        out = yield from _combine(p, st, frame, [v[:half] for v in vals], [v[half:2 * half] for v in vals])
        if n % 2:
            out = [np.concatenate([o, v[2 * half:]]) for o, v in zip(out, vals)]
        vals = out
    res = tuple(v[0][()] if v[0].ndim == 0 else v[0] for v in vals)
    return res if len(res) > 1 else res[0]


@implements("tt.scan", gen=True, prepare=_region_prepare)
def scan(p, st, args, frame):
    """Inclusive scan by doubling steps (Hillis-Steele): log2(n) runs of the combiner region."""
    axis, rev = st[1], st[2]
    vals = [np.moveaxis(np.asarray(a), axis, 0) for a in args]
    if rev:
        vals = [v[::-1] for v in vals]
    n = vals[0].shape[0]
    d = 1
    while d < n:
        out = yield from _combine(p, st, frame, [v[:-d] for v in vals], [v[d:] for v in vals])
        vals = [np.concatenate([v[:d], np.asarray(o, dtype=v.dtype)]) for v, o in zip(vals, out)]
        d *= 2
    if rev:
        vals = [v[::-1] for v in vals]
    res = tuple(np.moveaxis(v, 0, axis) for v in vals)
    return res if len(res) > 1 else res[0]


def _call_prepare(op, c):
    from ..attrs import attr

    callee = attr(op, "callee")
    name = str(callee).lstrip("@").strip('"')
    if name not in c.functions:
        raise NotSimulated(f"calls @{name}, which the module does not define")
    return c.function(name)


#: calls open at once in one program: a recursion that does not end ran into Python's own limit,
#: exit 3 (attack of session 43); each call is a few Python frames deep
MAX_CALL_DEPTH = 64


@implements("tt.call", "func.call", "call", gen=True, prepare=_call_prepare)
def call(p, st, args, frame):
    """The callee in a fresh frame; a finding past :data:`MAX_CALL_DEPTH` nested calls."""
    if p.calls >= MAX_CALL_DEPTH:
        raise Finding(f"calls nested more than {MAX_CALL_DEPTH} deep (a recursion that does not end?)")
    p.calls += 1
    try:
        res = yield from call_function(p, st, args)
    finally:
        p.calls -= 1
    return None if not res else (res[0] if len(res) == 1 else tuple(res))
