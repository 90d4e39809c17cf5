"""``math`` ops, computed in the op's type (f16 natively, bf16/f8 through f32, rounded back);
the transcendental ones as the C library computes them (:mod:`.libm`)."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np

from . import libm
from .table import implements
from .common import cast, fast_apply, float_fn, result_dtype


def _round(x):
    """Halfway away from zero, exact: ``x - trunc(x)`` is exact in x's type (no ``x + 0.5``)."""
    t = np.trunc(x)
    return t + np.copysign(np.abs(x - t) >= 0.5, x).astype(t.dtype)


def _rsqrt(x):
    """``1 / sqrt(x)``: MLIR's ``math.rsqrt`` has no C function; its expansion is a ``sqrt``
    then a ``divf``, each rounded in f32 or f64; a type narrower than f32 goes through f32 and is
    rounded once at the end, as the C library ops are (SPEC.md section 7)."""
    x = np.asarray(x)
    if x.dtype.itemsize >= 4:
        return np.reciprocal(np.sqrt(x))
    return np.reciprocal(np.sqrt(x.astype(np.float32))).astype(x.dtype)[()]


#: ops numpy computes correctly rounded in the op's type (through f32 for the narrow types), and rsqrt
UNARY = {"sqrt": np.sqrt, "rsqrt": _rsqrt, "absf": np.abs, "floor": np.floor,
         "ceil": np.ceil, "trunc": np.trunc, "roundeven": np.rint, "round": _round}
BINARY = {"copysign": np.copysign}


def _libm_prepare(name):
    def prepare(op, c):
        dtype = result_dtype(op)

        def c_library(*args):
            return libm.apply(name, dtype, *args)
        return c_library
    return prepare


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
for _name in libm.FUNCTIONS:  # transcendental: the C library's function of the op's type
    implements(f"math.{_name}", prepare=_libm_prepare(_name), fast=fast_apply)(_apply)
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
