"""``math`` ops, computed in the op's type (f16 natively, bf16/f8 through f32, rounded back)."""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct
from fractions import Fraction

import numpy as np

from .table import implements
from .common import cast, fast_apply, float_fn, result_dtype


def _libm_erff():
    lib = ctypes.util.find_library("m")
    if lib is None:
        return None
    f = ctypes.CDLL(lib).erff
    f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
    return f


_ERFF = _libm_erff()
_ERF = {np.dtype(np.float64): np.frompyfunc(math.erf, 1, 1),
        np.dtype(np.float32): np.frompyfunc(_ERFF or math.erf, 1, 1)}


def _erf(x):
    """erf as the C library's function of x's type: ``erf`` for f64, ``erff`` for f32 (and the
    narrow types, through f32; SPEC.md section 7, "Floats are bit-exact")."""
    x = np.asarray(x)
    kind = np.dtype(np.float64) if x.dtype == np.float64 else np.dtype(np.float32)
    return np.asarray(_ERF[kind](x.astype(kind)), dtype=kind).astype(x.dtype)[()]


def _round(x):
    """Halfway away from zero, exact: ``x - trunc(x)`` is exact in x's type (no ``x + 0.5``)."""
    t = np.trunc(x)
    return t + np.copysign(np.abs(x - t) >= 0.5, x).astype(t.dtype)


UNARY = {"exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
         "expm1": np.expm1, "sqrt": np.sqrt, "rsqrt": lambda x: np.reciprocal(np.sqrt(x)), "sin": np.sin,
         "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "absf": np.abs, "floor": np.floor, "ceil": np.ceil,
         "trunc": np.trunc, "roundeven": np.rint, "round": _round,
         "erf": _erf, "atan": np.arctan, "asin": np.arcsin, "acos": np.arccos, "sinh": np.sinh, "cosh": np.cosh}
BINARY = {"powf": np.power, "copysign": np.copysign, "atan2": np.arctan2}


def _float_prepare(ufunc):
    def prepare(op, c):
        return float_fn(ufunc, result_dtype(op))
    return prepare


def _apply(p, st, args):
    return st(*args)


for _name, _u in UNARY.items():
    implements(f"math.{_name}", prepare=_float_prepare(_u), fast=fast_apply)(_apply)
for _name, _u in BINARY.items():
    implements(f"math.{_name}", prepare=_float_prepare(_u), fast=fast_apply)(_apply)
def _fma1(a: float, b: float, c: float, odd: bool) -> float:
    """a*b + c exact (rationals), rounded to f64: to nearest even for an f64 result, else *to odd*,
    so that one later rounding to any format of at most 51 bits is the correct rounding of the
    exact value (no double rounding)."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        f = float(exact)
    except OverflowError:  # beyond f64: round to nearest overflows to infinity
        return math.inf if exact > 0 else -math.inf
    if odd and Fraction(f) != exact and math.isfinite(f) and struct.unpack("<q", struct.pack("<d", f))[0] & 1 == 0:
        f = math.nextafter(f, math.inf if exact > Fraction(f) else -math.inf)
    if f == 0 and exact == 0:
        return a * b + c  # the sign of an exact zero as IEEE gives it
    return f


_FMA = np.frompyfunc(_fma1, 4, 1)


def _fma_prepare(op, c):
    dtype = result_dtype(op)

    def fma(a, b, c):
        """math.fma rounded once (SPEC.md section 7, "Floats are bit-exact")."""
        wide = [np.asarray(v).astype(np.float64) for v in (a, b, c)]
        with np.errstate(over="ignore"):  # overflow to infinity is the IEEE result
            return cast(np.asarray(_FMA(*wide, dtype != np.float64), dtype=np.float64), dtype)[()]
    return fma


implements("math.fma", prepare=_fma_prepare)(_apply)


@implements("math.absi")
def absi(p, st, args):
    return np.abs(args[0])
