"""Float-to-float conversion with a rounding mode, as ``tt.fp_to_fp`` defines it (SPEC.md section
7, "Floats are bit-exact"): the exact value of each element rounded to the result type.

* ``rtne`` (Triton's ``RoundingMode`` 1, and the default): round to nearest, ties to even, which
  numpy's and ``ml_dtypes``' casts do (but ``ml_dtypes`` before 0.7 casts f64 arrays to its narrow
  types through f32, rounding twice: :func:`from_f64` rounds once); overflow gives ±inf, or NaN in a type with no infinity
  (``f8E4M3FN`` and the ``fnuz`` kinds).
* ``rtz`` (``RoundingMode`` 0): round toward zero.  Overflow gives ± the largest finite value (never
  inf).  ±inf stays ±inf where the type has one (else NaN); NaN stays NaN.  A type with no −0
  (``fnuz``) gives +0 for a negative value that rounds to zero.

Shapes: any (a numpy scalar in, a numpy scalar out).  Sources are at most f64, so every source value
is exact in f64, which is where magnitudes are compared.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

RTZ, RTNE = 0, 1  # tt.RoundingMode numbering (transpiler/ir/dialects/tt.py)
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)


def convert(x, dtype: np.dtype, mode: int = RTNE):
    """``x`` (float array or scalar) converted to the float ``dtype`` with rounding ``mode``
    (overflow and NaN casts are results here, not warnings)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return _convert(x, dtype, mode)


def _convert(x, dtype: np.dtype, mode: int):
    a = np.asarray(x)
    r = from_f64(a, dtype) if a.dtype == F64 else a.astype(dtype)
    if mode == RTNE or r.dtype.itemsize >= a.dtype.itemsize and _wider(a.dtype, dtype):
        return r[()] if r.ndim == 0 else r
    exact = a.astype(F64)
    near = r.astype(F64)
    finite = np.isfinite(exact)
    # rounded away from zero (past the exact value, or overflowed to inf / NaN): one step toward 0
    over = finite & ~(np.abs(near) <= np.abs(exact))
    if np.any(over):
        r = np.array(r, copy=True)
        u = np.dtype(f"u{dtype.itemsize}")
        bits = r.view(u)
        sign = u.type(1 << (8 * dtype.itemsize - 1))
        top = np.array(ml_dtypes.finfo(dtype).max, dtype).view(u)
        nan = ~np.isfinite(near) & over  # overflow: the largest finite value, with the sign
        stepped = np.where(nan, top | (bits & sign) if dtype_has_inf(dtype) else top, bits - u.type(1))
        stepped = np.where(nan & np.signbit(exact), stepped | sign, stepped)
        if not np.signbit(np.array(-0.0, dtype)):  # no -0 (fnuz): sign | 0 is NaN, make it +0
            stepped = np.where((stepped & ~sign) == 0, u.type(0), stepped)
        bits[...] = np.where(over, stepped, bits)
    return r[()] if r.ndim == 0 else r


def from_f64(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The f64 array ``a`` rounded once, to nearest even, to the float ``dtype`` (any shape).

    For a ``dtype`` narrower than f32 the cast goes through f32 rounded *to odd* (truncate, then set
    the last bit when inexact): f32 has more than two bits beyond any narrower format's precision,
    so the second rounding is the correct rounding of ``a`` (Boldo and Melquiond, "When double
    rounding is odd", 2005).  ``ml_dtypes`` before 0.7 (the newest for Python 3.9 is 0.5.4) casts
    f64 arrays through an f32 rounded to nearest, which double-rounds: f64 ``2**-10 + 2**-62`` to
    ``f8E4M3FN`` gives 0 there instead of ``2**-9``.  SPEC.md section 7, "Floats are bit-exact"."""
    if dtype.itemsize >= 4:
        return a.astype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        t = a.astype(F32)
        back = t.astype(F64)
        inexact = np.isfinite(a) & (back != a)
        if not np.any(inexact):
            return t.astype(dtype)
        bits = np.array(t, copy=True).view(np.uint32)
        # the nearest rounded away from zero (or overflowed to inf): one step toward zero truncates
        bits -= (inexact & (np.abs(back) > np.abs(a))).astype(np.uint32)
        bits |= inexact.astype(np.uint32)
        return bits.view(F32).astype(dtype)


def dtype_has_inf(dtype: np.dtype) -> bool:
    """Whether the float ``dtype`` has an infinity."""
    return bool(np.isinf(np.array(np.inf, dtype)))


def _wider(src: np.dtype, dst: np.dtype) -> bool:
    """Every ``src`` value is exact in ``dst`` (then rounding modes agree)."""
    s, d = ml_dtypes.finfo(src), ml_dtypes.finfo(dst)
    return d.nmant >= s.nmant and d.maxexp >= s.maxexp and d.minexp <= s.minexp
