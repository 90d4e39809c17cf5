"""Exact rounding of rationals to the float types the simulator holds: the independent reference
of the simulator's float tests (issue 29; SPEC.md section 7, "Floats are bit-exact").  Exact rational
arithmetic (``fractions``) on each format's parameters, never numpy's or ml_dtypes' casts.

Overflow: round to nearest gives ±inf where the type has an infinity, else NaN; toward zero gives
± the largest finite value.  The ``fnuz`` types have no −0 (a negative result rounding to zero is +0).
"""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np

RTZ, RTNE = 0, 1  # tt.RoundingMode numbering
DTYPES = {"f64": np.dtype(np.float64), "f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
          "bf16": np.dtype(ml_dtypes.bfloat16), "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
          "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn), "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
          "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz), "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz)}
#: name: (precision incl. the hidden bit, smallest normal exponent, largest finite, has inf, has -0)
FORMATS = {"f64": (53, -1022, (2 - Fraction(1, 2 ** 52)) * 2 ** 1023, True, True),
           "f32": (24, -126, (2 - Fraction(1, 2 ** 23)) * 2 ** 127, True, True),
           "f16": (11, -14, Fraction(65504), True, True),
           "bf16": (8, -126, (2 - Fraction(1, 2 ** 7)) * 2 ** 127, True, True),
           "f8E5M2": (3, -14, Fraction(57344), True, True),
           "f8E4M3FN": (4, -6, Fraction(448), False, True),
           "f8E4M3FNUZ": (4, -7, Fraction(240), False, False),
           "f8E5M2FNUZ": (3, -15, Fraction(57344), False, False),
           "f8E4M3B11FNUZ": (4, -10, Fraction(30), False, False)}
INF, NAN = "inf", "nan"


def floor_log2(a: Fraction) -> int:
    """The exponent e with 2^e <= a < 2^(e+1) (a > 0)."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def round_exact(x, neg: bool, target: str, mode: int = RTNE):
    """``(value, negative)``: ``x`` (a Fraction magnitude-with-sign, or INF / NAN; ``neg`` the sign
    of a zero or infinite ``x``) rounded to ``target``; value a Fraction magnitude, INF or NAN."""
    p, emin, top, has_inf, has_negzero = FORMATS[target]
    if x == NAN:
        return NAN, False
    if x == INF:
        return (INF, neg) if has_inf else (NAN, False)
    neg = x < 0 or (x == 0 and neg)
    a = abs(x)
    if a == 0:
        return Fraction(0), neg and has_negzero
    q = Fraction(2) ** (max(floor_log2(a), emin) - p + 1)
    n, rest = divmod(a, q)
    if mode == RTNE and (rest * 2 > q or (rest * 2 == q and n % 2)):
        n += 1
    r = n * q
    if r > top:
        if mode == RTZ:
            r = top
        else:
            return (INF, neg) if has_inf else (NAN, False)
    return r, neg and (r != 0 or has_negzero)


def exact(f: float):
    """``(Fraction or INF / NAN, negative)`` of a Python float."""
    if f != f:
        return NAN, False
    if f in (float("inf"), float("-inf")):
        return INF, f < 0
    return Fraction(f), bool(np.signbit(f))


def order_key(x):
    """A sort key of an exact value ``(value, negative)`` with -0 below +0 (not for NaN)."""
    v, n = x
    if v == INF:
        return (1, 0) if not n else (-1, 0)
    return (0, v, 0 if n and v == 0 else 1)


def same(got, want) -> bool:
    """``got`` (a numpy float) is the rounded ``want`` = ``(value, negative)``: bit for bit (a
    finite value's bits are its value and sign), any NaN for NaN."""
    g = float(got)
    value, neg = want
    if value == NAN:
        return g != g
    if g != g or bool(np.signbit(g)) != bool(neg):
        return False
    if value == INF:
        return g in (float("inf"), float("-inf"))
    return g not in (float("inf"), float("-inf")) and abs(Fraction(g)) == value
