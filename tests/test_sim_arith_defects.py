"""Issue 29, class 1: the simulator's arithmetic is MLIR's, to the bit (SPEC.md section 7,
"Floats are bit-exact").  One test per defect the issue lists; each compares with a reference
that is not the simulator's code (Python integers, exact rationals, the C library)."""

from __future__ import annotations

import ctypes
import ctypes.util
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from transpiler.ir.types import FloatType, IntegerType
from transpiler.sim.ops import load_all

IMPLS = load_all()


def _op(name, *args, result):
    """Run op ``name`` of the sim op table on numpy scalars ``args`` with result type ``result``."""
    impl = IMPLS[name]
    fake = SimpleNamespace(name=name, result_types=[result], operand_types=[result] * len(args),
                           attributes={}, attrs={})
    st = impl.prepare(fake, None) if impl.prepare else fake
    return impl.fn(None, st, list(args))


def _bits(x, dtype):
    return np.asarray(x, dtype=dtype).view(np.uint8 if dtype.itemsize == 1 else f"u{dtype.itemsize}")


def test_ceildivsi_at_int_min():
    a, b = np.int32(-2 ** 31), np.int32(3)
    want = -((2 ** 31) // 3)  # ceil(-2^31 / 3), Python integers
    assert int(_op("arith.ceildivsi", a, b, result=IntegerType(32))) == want


def test_ceildivui_near_max():
    a, b = np.uint32(2 ** 32 - 1), np.uint32(2)
    want = -(-(2 ** 32 - 1) // 2)
    assert int(_op("arith.ceildivui", a, b, result=IntegerType(32, "u"))) == want


def test_fma_rounded_once_f32():
    # a*b = 1 + 2^-11 + 2^-24 exactly; rounded to f32 first the 2^-24 is lost and a*b + c gives 0
    a = np.float32(1 + 2 ** -12)
    b = np.float32(1 + 2 ** -12)
    c = np.float32(-(1 + 2 ** -11))
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    want = np.float32(float(exact))  # 2^-24: exactly representable
    got = _op("math.fma", a, b, c, result=FloatType("f32"))
    assert _bits(got, np.dtype(np.float32)) == _bits(want, np.dtype(np.float32))


def test_round_just_below_half():
    x = np.float32(np.nextafter(np.float32(0.5), np.float32(0)))
    got = _op("math.round", x, result=FloatType("f32"))
    assert float(got) == 0.0


def test_round_above_2_pow_23():
    x = np.float32(2 ** 23 + 1)
    got = _op("math.round", x, result=FloatType("f32"))
    assert float(got) == float(x)


def test_erf_near_zero_is_libms():
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.erff.restype = ctypes.c_float
    libm.erff.argtypes = [ctypes.c_float]
    x = np.float32(1e-3)
    got = _op("math.erf", x, result=FloatType("f32"))
    assert _bits(got, np.dtype(np.float32)) == _bits(np.float32(libm.erff(x)), np.dtype(np.float32))


@pytest.mark.parametrize("name,want_neg", [("arith.maximumf", False), ("arith.minimumf", True)])
def test_maximumf_minimumf_order_signed_zeros(name, want_neg):
    for a, b in ((np.float32(-0.0), np.float32(0.0)), (np.float32(0.0), np.float32(-0.0))):
        got = _op(name, a, b, result=FloatType("f32"))
        assert bool(np.signbit(got)) is want_neg, (name, a, b)


gmpy2 = pytest.importorskip("gmpy2", reason="gmpy2 (the test extra) is the correctly rounded reference")
from hypothesis import given, settings, strategies as st  # noqa: E402

# IEEE binary32 / binary64 for MPFR: precision, and emin/emax with subnormals (gmpy2 docs)
_FORMATS = {np.dtype(np.float32): dict(precision=24, emin=-148, emax=128),
            np.dtype(np.float64): dict(precision=53, emin=-1073, emax=1024)}


def _mpfr_fma(a, b, c, dtype):
    """a*b + c rounded once to ``dtype`` by MPFR (round to nearest even)."""
    ctx = gmpy2.context(subnormalize=True, **_FORMATS[dtype])
    with ctx:
        r = gmpy2.fma(gmpy2.mpfr(float(a)), gmpy2.mpfr(float(b)), gmpy2.mpfr(float(c)))
    return np.asarray(float(r), dtype=np.float64).astype(dtype)


@pytest.mark.parametrize("width", [32, 64])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_fma_matches_mpfr(width, data):
    dtype = np.dtype(f"f{width // 8}")
    floats = st.floats(width=width, allow_nan=False, allow_infinity=False)
    a, b, c = (dtype.type(data.draw(floats)) for _ in range(3))
    want = _mpfr_fma(a, b, c, dtype)
    got = _op("math.fma", a, b, c, result=FloatType(f"f{width}"))
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert _bits(got, dtype) == _bits(want, dtype), (a, b, c, got, want)


@pytest.mark.parametrize("name", ["arith.divsi", "arith.remsi", "arith.divui", "arith.remui", "arith.floordivsi",
                                  "arith.ceildivsi", "arith.ceildivui"])
@pytest.mark.parametrize("divisor", [np.int32(0), np.array([3, 0, 5], np.int32)], ids=["scalar", "one-lane"])
def test_integer_division_by_zero_is_a_finding(name, divisor):
    """MLIR leaves it undefined; the simulator reports it (SPEC.md section 7), for a scalar and
    for one zero lane of a tensor."""
    from transpiler.sim.errors import Finding

    dividend = np.int32(7) if divisor.ndim == 0 else np.array([7, 7, 7], np.int32)
    with pytest.raises(Finding, match="divides by zero"):
        _op(name, dividend, divisor, result=IntegerType(32))
    assert _op(name, dividend, np.int32(2) if divisor.ndim == 0 else np.array([2, 3, 5], np.int32),
               result=IntegerType(32)) is not None
