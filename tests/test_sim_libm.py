"""The transcendental ``math`` ops against the C library called directly through ctypes
(issue 29 class 1; SPEC.md section 7: what the C library's function of the op's type gives, f16,
bf16 and f8 through f32 then rounded once).  The reference here binds the functions itself and
rounds with :mod:`exact_float`, never with the simulator's code; ``math.rsqrt`` (no C function)
is ``1 / sqrt(x)``, each step correctly rounded in the op's type, against exact rationals."""

from __future__ import annotations

import ctypes
import ctypes.util
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transpiler.ir.types import FloatType

from exact_float import INF, NAN, exact, round_exact, same
from op_cases import FLOATS, floats as _floats, run_op
from test_sim_float_properties import _sqrt_exact_rounded

_M = ctypes.CDLL(ctypes.util.find_library("m"))
#: op -> the C function of double (the float one has an ``f`` more) and its operand count
LIBM_OPS = {"math.exp": ("exp", 1), "math.exp2": ("exp2", 1), "math.expm1": ("expm1", 1), "math.log": ("log", 1),
            "math.log2": ("log2", 1), "math.log10": ("log10", 1), "math.log1p": ("log1p", 1),
            "math.sin": ("sin", 1), "math.cos": ("cos", 1), "math.tan": ("tan", 1), "math.asin": ("asin", 1),
            "math.acos": ("acos", 1), "math.atan": ("atan", 1), "math.sinh": ("sinh", 1),
            "math.cosh": ("cosh", 1), "math.tanh": ("tanh", 1), "math.erf": ("erf", 1),
            "math.powf": ("pow", 2), "math.atan2": ("atan2", 2)}


def _c(name: str, t: str, arity: int):
    ctype = ctypes.c_double if t == "f64" else ctypes.c_float
    f = getattr(_M, name if t == "f64" else name + "f")
    f.restype, f.argtypes = ctype, [ctype] * arity
    return f


def _wanted(op: str, t: str, args):
    """The C library's result for ``args`` (numpy scalars of ``t``), exactly, then rounded to ``t``."""
    name, arity = LIBM_OPS[op]
    wide = [float(a) if t == "f64" else float(np.float32(float(a))) for a in args]  # exact: f32 holds every narrow value
    return round_exact(*exact(_c(name, t, arity)(*wide)), t)


#: arguments where the functions are interesting: around 0, 1, pi, overflow, the edges
_SPECIAL = [0.5, 2.0, -2.0, 1e-3, 3.14159265, 1.5707963, 88.7, 89.0, 709.0, 710.0, -100.0, 1e10, 0.999, 1.001]


def _operand(t):
    return st.one_of(_floats(t), st.sampled_from(_SPECIAL).map(lambda v: _narrowed(v, t)))


def _narrowed(v: float, t: str):
    """``v`` rounded to ``t`` (past its range: infinity, without numpy's overflow warning)."""
    with np.errstate(over="ignore"):
        return np.array(v).astype(np.float64).astype(_floats_dtype(t))[()]


def _floats_dtype(t):
    from exact_float import DTYPES

    return DTYPES[t]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(LIBM_OPS)), st.sampled_from(FLOATS), st.data())
def test_transcendental_ops_are_the_c_librarys(op, t, data):
    arity = LIBM_OPS[op][1]
    args = [data.draw(_operand(t)) for _ in range(arity)]
    want = _wanted(op, t, args)
    got = run_op(op, args, [FloatType(t)] * arity, FloatType(t))
    assert np.asarray(got).dtype == _floats_dtype(t) and same(got, want), \
        (op, t, [float(a) for a in args], float(got), want)


@pytest.mark.parametrize("op", sorted(LIBM_OPS))
@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_every_16_bit_input_at_once(op, t):
    """A whole tensor of every f16 / bf16 bit pattern (the op's table) against the C library
    element by element."""
    dt = _floats_dtype(t)
    xs = np.arange(0, 2 ** 16, 61, dtype=np.uint16).view(dt)
    args = [xs] * LIBM_OPS[op][1] if LIBM_OPS[op][1] == 1 else [xs, xs[::-1].copy()]
    got = run_op(op, args, [FloatType(t)] * len(args), FloatType(t))
    for k in range(xs.size):
        assert same(got[k], _wanted(op, t, [a[k] for a in args])), (op, t, [float(a[k]) for a in args])


def _rsqrt(x, t):
    """``1 / sqrt(x)``: the root rounded, then the quotient rounded, in ``t`` for f32 and f64, in
    f32 for the narrower types (then rounded once to ``t``)."""
    w = t if t in ("f32", "f64") else "f32"
    value, neg = round_exact(*_sqrt_exact_rounded(x, w), w)
    if value == NAN:
        q = NAN, False
    elif value == INF:
        q = Fraction(0), neg
    elif value == 0:
        q = INF, neg
    else:
        q = round_exact(Fraction(1) / value * (-1 if neg else 1), neg, w)
    return q if w == t else round_exact(*q, t)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FLOATS), st.data())
def test_rsqrt_is_one_over_the_rounded_root(t, data):
    a = data.draw(_floats(t))
    got = run_op("math.rsqrt", [a], [FloatType(t)], FloatType(t))
    assert np.asarray(got).dtype == _floats_dtype(t) and same(got, _rsqrt(exact(float(a)), t)), (t, float(a), float(got))
