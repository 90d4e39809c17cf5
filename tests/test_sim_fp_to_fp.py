"""Issue 29, class 1: ``tt.fp_to_fp`` rounds the exact value of its operand to the result type
with the op's ``rounding`` (``rtne``, the default, or ``rtz``), to the bit (SPEC.md section 7,
"Floats are bit-exact").  The reference is exact rational arithmetic (``fractions``) on the
target format's parameters, not the simulator's code nor numpy's / ml_dtypes' casts.

Overflow: ``rtne`` gives ±inf where the type has an infinity, else NaN; ``rtz`` gives ± the largest
finite value.  ±inf in: ±inf where the type has one, else NaN.  NaN in: NaN.  The ``fnuz`` types
have no −0 (a negative result that rounds to zero is +0)."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transpiler.ir.attributes import IntegerAttr
from transpiler.ir.types import FloatType, IntegerType
from transpiler.sim import Launch, Plan, simulate
from transpiler.sim.ops import load_all

from exact_float import DTYPES, FORMATS, RTNE, RTZ, exact, floor_log2 as _floor_log2, round_exact

IMPLS = load_all()
SOURCES = ["f64", "f32", "f16", "bf16"]
TARGETS = ["f32", "f16", "bf16", "f8E5M2", "f8E4M3FN", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ"]


def reference(x: float, target: str, mode: int):
    """``(value, negative)`` of ``x`` rounded to ``target`` (value a Fraction, or "nan" / "inf")."""
    return round_exact(*exact(x), target, mode)


def _fp_to_fp(x, src: str, dst: str, mode):
    impl = IMPLS["tt.fp_to_fp"]
    attrs = {} if mode is None else {"rounding": IntegerAttr(mode, IntegerType(32))}
    op = SimpleNamespace(name="tt.fp_to_fp", result_types=[FloatType(dst)], operand_types=[FloatType(src)],
                         attributes=attrs, properties={})
    return impl.fn(None, impl.prepare(op, None), [x])


def _check(x, src, dst, mode):
    got = np.asarray(_fp_to_fp(x, src, dst, mode))
    assert got.dtype == DTYPES[dst]
    want, neg = reference(float(np.asarray(x)), dst, RTNE if mode is None else mode)
    g = float(got)
    label = f"{src} {float(np.asarray(x))!r} -> {dst} ({'rtz' if mode == RTZ else 'rtne'}): got {g!r}"
    if want == "nan":
        assert g != g, label
        return
    assert bool(np.signbit(g)) == bool(neg), label
    if want == "inf":
        assert g in (float("inf"), float("-inf")), label
    else:
        assert g not in (float("inf"), float("-inf")) and g == g and abs(Fraction(g)) == want, label + f", want {want}"


PAIRS = [(s, d) for s in SOURCES for d in TARGETS
         if FORMATS[d][0] < FORMATS[s][0] or (s, d) in (("bf16", "f16"), ("f16", "bf16"))]


def _edges(src: str, dst: str):
    """Values of ``src`` at the edges of ``dst``: ±0, ±inf, NaN, both types' smallest subnormals
    and largest finite values, points just above/below and halfway between neighbours there."""
    p, emin, top, _, _ = FORMATS[dst]
    sub = Fraction(2) ** (emin - p + 1)
    base = [Fraction(0), sub, sub / 2, sub * 3 / 2, sub / 4, Fraction(2) ** emin, Fraction(2) ** emin - sub / 2,
            top, top + Fraction(2) ** (_floor_log2(top) - p), top + Fraction(2) ** (_floor_log2(top) - p + 1),
            Fraction(1) + Fraction(2) ** -p, Fraction(1) + 3 * Fraction(2) ** -p, Fraction(1) + Fraction(2) ** (1 - p),
            FORMATS[src][2], Fraction(2) ** (FORMATS[src][1] - FORMATS[src][0] + 1)]
    out = [float("inf"), float("-inf"), float("nan")]
    dt = DTYPES[src]
    for v in base:
        for s in (1, -1):
            f = float(s * v)
            with np.errstate(over="ignore"):  # a value past the source type's range is left out
                y = dt.type(f)
            if np.isfinite(y) and Fraction(float(y)) == s * v:  # exactly representable in the source
                out.append(f)
                out.append(float(np.nextafter(np.float64(f), 0.0)) if dt == np.float64 else f)
    return out


@pytest.mark.parametrize("src,dst", PAIRS)
@pytest.mark.parametrize("mode", [RTZ, RTNE, None])
def test_fp_to_fp_edges(src, dst, mode):
    dt = DTYPES[src]
    for f in _edges(src, dst):
        x = dt.type(f)
        _check(x, src, dst, mode)
        bits = int(np.asarray(x).view(f"u{dt.itemsize}"))
        for step in (-1, 1):  # the source's neighbours of each edge value (bit patterns wrap)
            near = np.array((bits + step) % 2 ** (8 * dt.itemsize), f"u{dt.itemsize}").view(dt)[()]
            _check(near, src, dst, mode)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PAIRS), st.sampled_from([RTZ, RTNE]), st.data())
def test_fp_to_fp_matches_exact_rounding(pair, mode, data):
    src, dst = pair
    dt = DTYPES[src]
    bits = data.draw(st.integers(0, 2 ** (8 * dt.itemsize) - 1))
    x = np.array(bits, f"u{dt.itemsize}").view(dt)[()]
    _check(x, src, dst, mode)


def test_fp_to_fp_rtz_on_a_tensor():
    """The op on arrays (what kernels pass): lane by lane as on scalars."""
    x = np.array([1 + 2 ** -11 + 2 ** -12, -(1 + 2 ** -11 + 2 ** -12), 65520.0, -1e6, 2 ** -25, np.nan], np.float32)
    got = _fp_to_fp(x, "f32", "f16", RTZ)
    assert got.dtype == np.float16 and got.shape == x.shape
    for a, g in zip(x, got):
        want, neg = reference(float(a), "f16", RTZ)
        assert (g != g) if want == "nan" else (Fraction(float(abs(g))) == want and bool(np.signbit(g)) == neg)


KERNEL = """module {
  tt.func public @k(%x: !tt.ptr<f32>, %y: !tt.ptr<f16>) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %pxa = tt.addptr %px, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %v = tt.load %pxa : tensor<4x!tt.ptr<f32>>
    %h = tt.fp_to_fp %v, rounding = MODE : tensor<4xf32> -> tensor<4xf16>
    %py = tt.splat %y : !tt.ptr<f16> -> tensor<4x!tt.ptr<f16>>
    %pya = tt.addptr %py, %r : tensor<4x!tt.ptr<f16>>, tensor<4xi32>
    tt.store %pya, %h : tensor<4x!tt.ptr<f16>>
    tt.return
  }
}
"""


@pytest.mark.parametrize("mode", ["rtz", "rtne"])
def test_fp_to_fp_rounding_attribute_in_a_kernel(mode):
    """``rounding = rtz`` as TTIR writes it reaches the op: 1 + 3 * 2^-12 is halfway between two
    f16 values (rtne rounds up to the even one, rtz down); 65520 overflows f16 under rtne only."""
    xs = [1 + 3 * 2 ** -12, -(1 + 3 * 2 ** -12), 65520.0, 2 ** -26]
    plan = Plan(1, {"x": np.array(xs, np.float32), "y": "zeros(4, f16)"},
                [[Launch([0], KERNEL.replace("MODE", mode), args={"x": "x", "y": "y"})]])
    got = simulate(plan).buffers[0]["y"]
    for a, g in zip(xs, got):
        want, neg = reference(float(np.float32(a)), "f16", RTZ if mode == "rtz" else RTNE)
        assert (float(g) in (float("inf"), float("-inf"))) if want == "inf" else Fraction(float(abs(g))) == want
        assert bool(np.signbit(g)) == neg
