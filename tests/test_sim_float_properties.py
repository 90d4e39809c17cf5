"""Property tests of the simulator's float ops and conversions against independent references
(issue 29 class 1; SPEC.md section 7, "Floats are bit-exact"): exact rationals rounded by
:mod:`exact_float` (+, -, *, /, sqrt, integral rounding, conversions, max/min, cmpf), Python
integers on the bits (copysign); the C library in tests/test_sim_libm.py.  Hypothesis draws any bit pattern and
the edge values (±0, ±inf, NaN, subnormals, largest finite, halfway cases).  A float-to-int
conversion out of range (poison in MLIR) asserts no value; nor is a NaN's payload asserted (any
NaN is NaN).  tests/test_sim_op_coverage.py maps each covered op to its test and lists the gaps."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transpiler.ir.types import FloatType, IntegerType

from exact_float import DTYPES, FORMATS, INF, NAN, exact, order_key, round_exact, same
from op_cases import FLOATS, WIDTHS, floats as _floats, ints as _ints, run_op, unsigned as _u, wrap


def _add(x, y):
    (a, na), (b, nb) = x, y
    if NAN in (a, b) or (a == INF and b == INF and na != nb):
        return NAN, False
    if a == INF or b == INF:
        return INF, na if a == INF else nb
    s = a + b  # exact values carry their sign; a zero sum is -0 only for -0 + -0
    return s, (na and nb) if s == 0 else s < 0


def _mul(x, y):
    (a, na), (b, nb) = x, y
    if NAN in (a, b) or (INF in (a, b) and 0 in (a, b)):
        return NAN, False
    if INF in (a, b):
        return INF, na != nb
    return a * b, na != nb


def _div(x, y):
    (a, na), (b, nb) = x, y
    if NAN in (a, b) or (a == INF and b == INF) or (a == 0 and b == 0):
        return NAN, False
    if a == INF or b == 0:
        return INF, na != nb
    if b == INF:
        return Fraction(0), na != nb
    return a / b, na != nb


def _neg(x):
    a, n = x
    return (a, False) if a == NAN else (a if a == INF else -a, not n)


FLOAT_OPS = {"arith.addf": _add, "arith.subf": lambda x, y: _add(x, _neg(y)), "arith.mulf": _mul,
             "arith.divf": _div, "tt.precise_divf": _div}


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(sorted(FLOAT_OPS)), st.sampled_from(FLOATS), st.data())
def test_float_arithmetic_is_correctly_rounded(name, t, data):
    if name == "tt.precise_divf" and t not in ("f32", "f64"):
        return  # Triton's precise_divf takes f32 (and f64) only
    a, b = data.draw(_floats(t)), data.draw(_floats(t))
    want = round_exact(*FLOAT_OPS[name](exact(float(a)), exact(float(b))), t)
    got = run_op(name, [a, b], [FloatType(t)] * 2, FloatType(t))
    assert np.asarray(got).dtype == DTYPES[t] and same(got, want), (name, t, float(a), float(b), float(got), want)


def _sqrt_exact_rounded(x, t):
    """sqrt rounded to ``t``: the exact root is irrational in general; rounded to nearest from
    an integer square root with enough extra bits (and a sticky bit), which is exact rounding."""
    a, n = x
    if a == NAN or (n and a != 0):
        return NAN, False
    if a == INF:
        return INF, False
    if a == 0:
        return Fraction(0), n
    p = FORMATS[t][0] + 4
    e = 0
    while a < Fraction(2) ** (2 * p):  # scale by 4^k so that the root has more than p + 2 bits
        a *= 4
        e += 1
    r = math.isqrt(a.numerator // a.denominator)  # floor(sqrt(a)) = floor(sqrt(floor(a)))
    exact_root = r * r == a
    val = Fraction(r) + (0 if exact_root else Fraction(1, 4))  # sticky: strictly between r and r + 1
    return val / Fraction(2) ** e, False


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["math.sqrt", "tt.precise_sqrt"]), st.sampled_from(FLOATS), st.data())
def test_sqrt_is_correctly_rounded(name, t, data):
    if name == "tt.precise_sqrt" and t not in ("f32", "f64"):
        return
    a = data.draw(_floats(t))
    want = round_exact(*_sqrt_exact_rounded(exact(float(a)), t), t)
    got = run_op(name, [a], [FloatType(t)], FloatType(t))
    assert np.asarray(got).dtype == DTYPES[t] and same(got, want), (name, t, float(a), float(got), want)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["arith.negf", "math.absf"]), st.sampled_from(FLOATS), st.data())
def test_sign_ops_are_exact(name, t, data):
    a = data.draw(_floats(t))
    v, n = exact(float(a))
    want = (NAN, False) if v == NAN else ((v if v == INF else -v, not n) if name == "arith.negf" else
                                          (v if v == INF else abs(v), False))
    got = run_op(name, [a], [FloatType(t)], FloatType(t))
    if v == NAN:
        assert float(got) != float(got)
    else:
        assert same(got, round_exact(*want, t)), (name, t, float(a), float(got))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["arith.sitofp", "arith.uitofp"]), st.sampled_from(WIDTHS), st.sampled_from(FLOATS), st.data())
def test_int_to_float_is_correctly_rounded(name, w, t, data):
    a = data.draw(_ints(w))
    v = _u(a, w) if name == "arith.uitofp" else a
    got = run_op(name, [np.dtype(f"i{w // 8}").type(a)], [IntegerType(w)], FloatType(t))
    assert same(got, round_exact(Fraction(v), False, t)), (name, w, t, a, float(got))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["arith.fptosi", "arith.fptoui"]), st.sampled_from(FLOATS), st.sampled_from(WIDTHS), st.data())
def test_float_to_int_truncates(name, t, w, data):
    a = data.draw(_floats(t))
    v, _ = exact(float(a))
    if v in (NAN, INF):
        return  # poison in MLIR
    q = int(v)  # toward zero
    lo, hi = (0, (1 << w) - 1) if name == "arith.fptoui" else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    if not lo <= q <= hi:
        return  # out of range: poison in MLIR
    got = run_op(name, [a], [FloatType(t)], IntegerType(w))
    assert wrap(int(got), w) == wrap(q, w), (name, t, w, float(a), got)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(FLOATS), st.sampled_from(FLOATS), st.data())
def test_truncf_extf_round_exactly(src, dst, data):
    if src == dst:
        return
    narrower = FORMATS[dst][0] < FORMATS[src][0] or (src, dst) in (("bf16", "f16"), ("f16", "bf16"))
    name = "arith.truncf" if narrower else "arith.extf"
    a = data.draw(_floats(src))
    got = run_op(name, [a], [FloatType(src)], FloatType(dst))
    assert same(got, round_exact(*exact(float(a)), dst)), (name, src, dst, float(a), float(got))


def _halfway_neighbours(dst: str):
    """f64 values at and one f64 step either side of the midpoints between adjacent ``dst`` values
    (smallest subnormals, the normal boundary, the largest finite): where a cast through f32 rounded
    to nearest rounds twice and gets it wrong (ml_dtypes before 0.7)."""
    dt = DTYPES[dst]
    u = np.dtype(f"u{dt.itemsize}")
    top = int(np.array(float(FORMATS[dst][2]), dt).view(u))
    normal = int(np.array(2.0 ** FORMATS[dst][1], dt).view(u))
    for bits in (0, 1, 2, normal - 1, normal, top - 1, top):
        lo, hi = (float(np.array(b, u).view(dt)) for b in (bits, bits + 1))
        mid = lo + (hi - lo) / 2 if bits < top else lo + (lo - float(np.array(bits - 1, u).view(dt))) / 2
        for m in (mid, -mid):
            yield from (math.nextafter(m, -math.inf), m, math.nextafter(m, math.inf))


@pytest.mark.parametrize("dst", [t for t in FLOATS if FORMATS[t][0] < 24])
def test_f64_to_narrow_rounds_once(dst):
    """arith.truncf from f64 to a narrow type rounds the exact value once (SPEC.md
    section 7, "Floats are bit-exact"); a cast through an f32 rounded to nearest would double-round
    the values just past a midpoint."""
    for f in _halfway_neighbours(dst):
        got = run_op("arith.truncf", [np.float64(f)], [FloatType("f64")], FloatType(dst))
        assert same(got, round_exact(*exact(f), dst)), ("truncf", dst, f, float(got))


def _integral(v: Fraction, name: str) -> Fraction:
    """``v`` rounded to an integer as ``name`` does (exact, Python integers)."""
    fl = v.numerator // v.denominator
    if name == "math.floor":
        return Fraction(fl)
    if name == "math.ceil":
        return Fraction(-((-v.numerator) // v.denominator))
    if name == "math.trunc":
        return Fraction(int(v))
    if name == "math.round":  # halfway cases away from zero
        m = abs(v) + Fraction(1, 2)
        return Fraction(m.numerator // m.denominator) * (1 if v >= 0 else -1)
    rest = v - fl  # roundeven: halfway cases to the even integer
    return Fraction(fl + (1 if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and fl % 2) else 0))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["math.floor", "math.ceil", "math.trunc", "math.roundeven", "math.round"]), st.sampled_from(FLOATS),
       st.data())
def test_integral_rounding_is_exact(name, t, data):
    """The result keeps the operand's sign (a negative value rounding to 0 gives -0)."""
    a = data.draw(_floats(t))
    v, n = exact(float(a))
    want = (v, n) if v in (NAN, INF) else (_integral(v, name), n)
    got = run_op(name, [a], [FloatType(t)], FloatType(t))
    assert same(got, round_exact(*want, t)), (name, t, float(a), float(got))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"]),
       st.sampled_from(FLOATS), st.data())
def test_max_min_floats(name, t, data):
    """maximumf/minimumf: NaN if either is NaN, -0 < +0; maxnumf/minnumf: the other operand of a
    NaN (MLIR lets them return either zero of ±0, so only the value is asserted there)."""
    a, b = data.draw(_floats(t)), data.draw(_floats(t))
    x, y = exact(float(a)), exact(float(b))
    got = run_op(name, [a, b], [FloatType(t)] * 2, FloatType(t))
    nan_x, nan_y = x[0] == NAN, y[0] == NAN
    if name in ("arith.maximumf", "arith.minimumf") and (nan_x or nan_y) or nan_x and nan_y:
        assert float(got) != float(got)
        return
    if nan_x or nan_y:
        assert same(got, round_exact(*(y if nan_x else x), t))
        return
    pick = max if "max" in name else min
    want = pick(x, y, key=order_key)
    if name in ("arith.maxnumf", "arith.minnumf") and x[0] == 0 and y[0] == 0:
        assert float(got) == 0
        return
    assert same(got, round_exact(*want, t)), (name, t, float(a), float(b), float(got))


CMPF = {0: lambda a, b, u: False, 1: lambda a, b, u: not u and a == b, 2: lambda a, b, u: not u and a > b,
        3: lambda a, b, u: not u and a >= b, 4: lambda a, b, u: not u and a < b, 5: lambda a, b, u: not u and a <= b,
        6: lambda a, b, u: not u and a != b, 7: lambda a, b, u: not u, 8: lambda a, b, u: u or a == b,
        9: lambda a, b, u: u or a > b, 10: lambda a, b, u: u or a >= b, 11: lambda a, b, u: u or a < b,
        12: lambda a, b, u: u or a <= b, 13: lambda a, b, u: u or a != b, 14: lambda a, b, u: u, 15: lambda a, b, u: True}


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 15), st.sampled_from(FLOATS), st.data())
def test_cmpf_predicates(pred, t, data):
    """Ordered predicates are false and unordered ones true when an operand is NaN; -0 == +0."""
    a, b = data.draw(_floats(t)), data.draw(_floats(t))
    x, y = exact(float(a)), exact(float(b))
    unordered = NAN in (x[0], y[0])
    kx, ky = ((0, 0), (0, 0)) if unordered else tuple((-2 if v[1] else 2, 0) if v[0] == INF else (0, v[0]) for v in (x, y))
    got = run_op("arith.cmpf", [a, b], [FloatType(t)] * 2, IntegerType(1), predicate=pred)
    assert bool(got) == CMPF[pred](kx, ky, unordered), (pred, t, float(a), float(b))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FLOATS), st.data())
def test_copysign(t, data):
    a, b = data.draw(_floats(t)), data.draw(_floats(t))
    got = run_op("math.copysign", [a, b], [FloatType(t)] * 2, FloatType(t))
    u = f"u{DTYPES[t].itemsize}"
    sign = 1 << (8 * DTYPES[t].itemsize - 1)
    want = (int(np.asarray(a).view(u)) & ~sign) | (int(np.asarray(b).view(u)) & sign)  # bits, Python integers
    if float(a) != float(a):  # a NaN: its payload is not asserted (as everywhere here), its sign is
        assert float(got) != float(got) and bool(np.signbit(got)) == bool(int(np.asarray(b).view(u)) & sign)
        return
    assert int(np.asarray(got).view(u)) == want, (t, float(a), float(b), float(got))


def _fmod(x, y):
    """fmod exactly: a - b * trunc(a / b), the sign of a (NaN for an infinite a or a zero b)."""
    (a, na), (b, _) = x, y
    if NAN in (a, b) or a == INF or b == 0:
        return NAN, False
    if b == INF:
        return a, na
    q = a / b
    r = a - b * int(q)  # int() truncates toward zero
    return r, na if r == 0 else r < 0


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(FLOATS), st.data())
def test_remf_is_the_exact_remainder(t, data):
    """arith.remf is fmod (the result is exact in every format)."""
    a, b = data.draw(_floats(t)), data.draw(_floats(t))
    got = run_op("arith.remf", [a, b], [FloatType(t)] * 2, FloatType(t))
    assert same(got, round_exact(*_fmod(exact(float(a)), exact(float(b))), t)), (t, float(a), float(b), float(got))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([("f64", 64), ("f32", 32), ("f16", 16), ("bf16", 16)]), st.booleans(), st.data())
def test_bitcast_keeps_the_bits(pair, to_int, data):
    """arith.bitcast between a float and the integer of its width keeps every bit (NaN payloads too)."""
    t, w = pair
    bits = data.draw(st.integers(0, 2 ** w - 1))
    u = np.array(bits, f"u{w // 8}")
    src, dst = (FloatType(t), IntegerType(w)) if to_int else (IntegerType(w), FloatType(t))
    arg = u.view(DTYPES[t])[()] if to_int else u.view(f"i{w // 8}")[()]
    got = run_op("arith.bitcast", [arg], [src], dst)
    assert int(np.asarray(got).view(f"u{w // 8}")) == bits, (t, to_int, bits)
