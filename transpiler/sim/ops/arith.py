"""``arith`` ops as MLIR defines them (SPEC.md section 7): integers wrap, ``divsi`` rounds toward
zero, ``remsi`` takes the dividend's sign, ``cmpi``/``cmpf`` by predicate number, floats in the
op's type.  Integer division by zero is a finding (MLIR leaves it undefined)."""

from __future__ import annotations

import operator

import numpy as np

from ..dtypes import dense_value, dtype_of, scalar_attr, unsigned
from ..errors import Finding, NotSimulated
from ..attrs import attr as attr_of, attr_value
from ..closures import binary, const, unary
from ..memory import Ptr
from .. import provenance
from .table import implements
from .tiles import TileAdd, addi_fast
from .common import cast, fast_apply, float_fn, maximumf, maxnumf, minimumf, minnumf, result_dtype

CMPI = {0: np.equal, 1: np.not_equal, 2: np.less, 3: np.less_equal, 4: np.greater, 5: np.greater_equal,
        6: np.less, 7: np.less_equal, 8: np.greater, 9: np.greater_equal}


def _constant(op, c):
    attr = attr_of(op, "value")
    t = op.result_types[0]
    if attr is None:
        raise NotSimulated("has no value attribute")
    text = str(attr)
    if text.startswith("dense<"):
        return dense_value(text, t)
    return scalar_attr(attr, t)


@implements("arith.constant", prepare=_constant, fast=lambda st, ins, outs: const(st, outs))
def constant(p, st, args):
    return st


#: Python operators that compute what these ufuncs compute, for the integer and native float
#: dtypes, through numpy's scalar fast path on scalars (the ufunc itself on arrays).
OPERATORS = {np.add: operator.add, np.subtract: operator.sub, np.multiply: operator.mul,
             np.bitwise_and: operator.and_, np.bitwise_or: operator.or_, np.bitwise_xor: operator.xor}


def _binary(ufunc, bool_ufunc=None):
    def prepare(op, c):
        dtype = result_dtype(op)
        if dtype.kind == "f":
            f = float_fn(ufunc, dtype)
            return OPERATORS.get(ufunc, f) if f is ufunc else f
        if dtype.kind == "b" and bool_ufunc is not None:
            return bool_ufunc
        return OPERATORS.get(ufunc, ufunc) if dtype.kind in "iu" else ufunc
    return prepare


def _apply2(p, st, args):
    return st(args[0], args[1])


def _apply1(p, st, args):
    return st(args[0])


def _addi_prepare(op, c):
    g = _binary(np.add, np.logical_xor)(op, c)
    shape = getattr(op.result_types[0], "shape", ())
    return TileAdd(g) if len(shape) >= 2 and result_dtype(op).kind in "iu" else g


implements("arith.addi", prepare=_addi_prepare, fast=addi_fast)(_apply2)
for _name, _u, _b in (("subi", np.subtract, np.logical_xor),
                      ("muli", np.multiply, np.logical_and), ("andi", np.bitwise_and, None),
                      ("ori", np.bitwise_or, None), ("xori", np.bitwise_xor, None),
                      ("maxsi", np.maximum, None), ("minsi", np.minimum, None),
                      ("addf", np.add, None), ("subf", np.subtract, None), ("mulf", np.multiply, None),
                      ("divf", np.divide, None), ("remf", np.fmod, None), ("maximumf", maximumf, None),
                      ("minimumf", minimumf, None), ("maxnumf", maxnumf, None), ("minnumf", minnumf, None)):
    implements(f"arith.{_name}", prepare=_binary(_u, _b), fast=fast_apply)(_apply2)

implements("arith.negf", prepare=_binary(np.negative), fast=fast_apply)(_apply1)


def _nonzero(b):
    if (b == 0 if b.__class__ is not np.ndarray else (b == 0).any()):
        raise Finding("divides by zero")


def _unsigned_prepare(op, c):
    return unsigned(result_dtype(op)), result_dtype(op)


@implements("arith.divsi")
def divsi(p, st, args):
    a, b = args
    _nonzero(b)
    return (a - np.fmod(a, b)) // b


@implements("arith.remsi")
def remsi(p, st, args):
    _nonzero(args[1])
    return np.fmod(args[0], args[1])


@implements("arith.floordivsi")
def floordivsi(p, st, args):
    _nonzero(args[1])
    return args[0] // args[1]


@implements("arith.ceildivsi")
def ceildivsi(p, st, args):
    _nonzero(args[1])
    a, b = args
    return a // b + (a % b != 0).astype(a.dtype)  # floor + 1 when inexact: no negation that wraps


def _unsigned_op(ufunc, check=False):
    def fn(p, st, args):
        u, dtype = st
        a, b = cast(args[0], u), cast(args[1], u)
        if check:
            _nonzero(b)
        return cast(ufunc(a, b), dtype)
    return fn


for _name, _u, _chk in (("divui", np.floor_divide, True), ("remui", np.remainder, True),
                        ("maxui", np.maximum, False), ("minui", np.minimum, False),
                        ("ceildivui", lambda a, b: a // b + (a % b != 0).astype(a.dtype), True)):
    implements(f"arith.{_name}", prepare=_unsigned_prepare)(_unsigned_op(_u, _chk))


def _shift_prepare(op, c):
    dtype = result_dtype(op)
    return dtype, unsigned(dtype), dtype.itemsize * 8


@implements("arith.shli", prepare=_shift_prepare)
def shli(p, st, args):
    return np.left_shift(args[0], args[1])


@implements("arith.shrsi", prepare=_shift_prepare)
def shrsi(p, st, args):
    return np.right_shift(args[0], args[1])


@implements("arith.shrui", prepare=_shift_prepare)
def shrui(p, st, args):
    dtype, u, _bits = st
    return cast(np.right_shift(cast(args[0], u), cast(args[1], u)), dtype)


def _cmpi_prepare(op, c):
    pred = attr_value(op, "predicate")
    if pred not in CMPI:
        raise NotSimulated(f"predicate {pred} is not simulated")
    dtype = dtype_of(op.operand_types[0])
    return CMPI[pred], (unsigned(dtype) if pred >= 6 else None)


def _cmpi_fast(st, ins, outs):
    f, u = st
    return binary(f, ins, outs) if u is None else None


@implements("arith.cmpi", prepare=_cmpi_prepare, fast=_cmpi_fast)
def cmpi(p, st, args):
    f, u = st
    a, b = args
    if u is not None:
        a, b = cast(a, u), cast(b, u)
    return f(a, b)


def _cmpf_table():
    def unordered(f):
        return lambda a, b: f(a, b) | np.isnan(a) | np.isnan(b)
    return {0: lambda a, b: np.zeros(np.broadcast(a, b).shape, bool)[()], 1: np.equal, 2: np.greater,
            3: np.greater_equal, 4: np.less, 5: np.less_equal,
            6: lambda a, b: np.not_equal(a, b) & ~np.isnan(a) & ~np.isnan(b),
            7: lambda a, b: ~np.isnan(a) & ~np.isnan(b), 8: unordered(np.equal), 9: unordered(np.greater),
            10: unordered(np.greater_equal), 11: unordered(np.less), 12: unordered(np.less_equal),
            13: np.not_equal, 14: lambda a, b: np.isnan(a) | np.isnan(b),
            15: lambda a, b: np.ones(np.broadcast(a, b).shape, bool)[()]}


CMPF = _cmpf_table()


def _cmpf_prepare(op, c):
    pred = attr_value(op, "predicate")
    dtype = dtype_of(op.operand_types[0])
    f = CMPF[pred]
    if dtype.kind != "f":  # bf16 / f8 compare through f32
        return lambda a, b: f(np.asarray(a, np.float32), np.asarray(b, np.float32))[()]
    return f


@implements("arith.cmpf", prepare=_cmpf_prepare, fast=fast_apply)
def cmpf(p, st, args):
    return st(args[0], args[1])


@implements("arith.select")
def select(p, st, args):
    c, a, b = args
    if np.ndim(c) == 0:
        return a if c else b
    if isinstance(a, Ptr):  # lane by lane, each lane keeping its provenance
        return provenance.select(p.run.memory, c, a, b)
    return np.where(c, a, b)


def _cast_prepare(op, c):
    return dtype_of(op.operand_types[0]), result_dtype(op)


def _to(dst):
    def to(x):
        return cast(x, dst)
    return to


def _widen(dst):
    def widen(x):  # a numpy scalar converts exactly to a wider integer
        return x.astype(dst) if x.__class__ is np.ndarray else dst.type(x)
    return widen


def _extsi_fast(st, ins, outs):
    src, dst = st
    return None if src.kind == "b" else unary(_widen(dst), ins, outs)


@implements("arith.extsi", prepare=_cast_prepare, fast=_extsi_fast)
def extsi(p, st, args):
    src, dst = st
    x = args[0]
    if src.kind == "b":
        return cast(-cast(x, dst), dst)
    return cast(x, dst)


@implements("arith.extui", "arith.uitofp", "arith.index_castui", prepare=_cast_prepare)
def extui(p, st, args):
    src, dst = st
    return cast(cast(args[0], unsigned(src)), dst)


@implements("arith.trunci", prepare=_cast_prepare)
def trunci(p, st, args):
    src, dst = st
    if dst.kind == "b":
        return cast(np.bitwise_and(args[0], 1), dst)
    return cast(args[0], dst)


@implements("arith.sitofp", "arith.fptosi", "arith.extf", "arith.truncf", "arith.index_cast",
            prepare=_cast_prepare, fast=lambda st, ins, outs: unary(_to(st[1]), ins, outs))
def convert(p, st, args):
    return cast(args[0], st[1])


@implements("arith.fptoui", prepare=_cast_prepare)
def fptoui(p, st, args):
    return cast(cast(args[0], unsigned(st[1])), st[1])


@implements("arith.bitcast", prepare=_cast_prepare)
def bitcast(p, st, args):
    return np.asarray(args[0], dtype=st[0]).view(st[1])[()]
