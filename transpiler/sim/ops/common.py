"""Helpers shared by the op tables: result dtypes, float computation in the op's type, values
that may be pointers."""

from __future__ import annotations

import numpy as np

from ..dtypes import dtype_of
from ..closures import binary, unary
from ..memory import Ptr
from .rounding import from_f64

#: dtypes numpy has no arithmetic of its own for: computed in f32 and rounded back after every op
#: (exact for +, -, *, / of these narrow types: f32 has more than twice their precision).
NARROW = frozenset(np.dtype(n) for n in ("bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
                                         "float8_e5m2fnuz", "float8_e4m3b11fnuz")
                   if hasattr(__import__("ml_dtypes"), n))
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)


def result_dtype(op, index: int = 0) -> np.dtype:
    """The numpy dtype of ``op``'s result ``index``."""
    return dtype_of(op.result_types[index])


def operand_dtype(op, index: int = 0) -> np.dtype:
    """The numpy dtype of ``op``'s operand ``index``."""
    return dtype_of(op.operand_types[index])


def float_fn(ufunc, dtype: np.dtype):
    """``ufunc`` computed in ``dtype`` (through f32 for the narrow types)."""
    if dtype in NARROW:
        def narrow(*args):
            return ufunc(*(np.asarray(a).astype(F32) for a in args)).astype(dtype)[()]
        return narrow
    return ufunc


def maximumf(a, b):
    """MLIR's maximumf: NaN if either is NaN, and -0 < +0."""
    r = np.maximum(a, b)
    return np.where((a == 0) & (b == 0), np.where(np.signbit(a), b, a), r)[()].astype(r.dtype)


def minimumf(a, b):
    """MLIR's minimumf: NaN if either is NaN, and -0 < +0."""
    r = np.minimum(a, b)
    return np.where((a == 0) & (b == 0), np.where(np.signbit(a), a, b), r)[()].astype(r.dtype)


def maxnumf(a, b):
    """MLIR's maxnumf (LLVM's maxnum): a NaN operand gives way to the other, a signaling NaN as
    a quiet one (numpy's ``fmax`` returns NaN for a signaling NaN operand: hypothesis found it
    in ``tt.clampf`` of bf16, CI of session 43)."""
    return _num(np.fmax, a, b)


def minnumf(a, b):
    """MLIR's minnumf (LLVM's minnum): a NaN operand gives way to the other (see :func:`maxnumf`)."""
    return _num(np.fmin, a, b)


def _num(ufunc, a, b):
    a, b = np.asarray(a), np.asarray(b)
    r = ufunc(a, b)
    return np.where(np.isnan(a), b, np.where(np.isnan(b), a, r))[()].astype(r.dtype)


def cast(x, dtype: np.dtype):
    """``x`` as ``dtype`` (a numpy scalar for a scalar); an f64 ``x`` to a narrow float rounds once
    (:func:`.rounding.from_f64`)."""
    if not hasattr(x, "astype"):
        return dtype.type(x)
    if dtype in NARROW and x.dtype == F64:
        return from_f64(np.asarray(x), dtype)[()]
    return x.astype(dtype)


def fast_apply(st, ins, outs):
    """The instruction of an op whose static data ``st`` is the function of its one or two operands."""
    if outs.__class__ is not int:
        return None
    if len(ins) == 1:
        return unary(st, ins, outs)
    return binary(st, ins, outs) if len(ins) == 2 else None


def map_value(x, f):
    """``f`` on a value's array, keeping a pointer's provenance."""
    return x.map(f) if isinstance(x, Ptr) else f(x)


def as_bool(c) -> bool:
    """A scalar condition as a Python bool."""
    return bool(c)
