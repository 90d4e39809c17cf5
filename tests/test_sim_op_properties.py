"""Property tests of the simulator's integer ops against Python integers, wrapped to the width
(issue 29 class 1; SPEC.md section 7, "Ordinary ops"): hypothesis draws integers of every width
with the ends of the range.  Where MLIR leaves a result undefined (division by zero, signed
division overflow, a shift by the width or more) no value is asserted.  Float ops and conversions
are in tests/test_sim_float_properties.py; tests/test_sim_op_coverage.py maps each covered op to
its test and lists the gaps."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from transpiler.ir.types import IntegerType

from op_cases import WIDTHS, ints as _ints, run_op, unsigned as _u, wrap


def _tdiv(a, b, w=None):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


#: op: (reference on Python ints and the width, defined(a, b, w))
INT_OPS = {
    "arith.addi": (lambda a, b, w: a + b, None),
    "arith.subi": (lambda a, b, w: a - b, None),
    "arith.muli": (lambda a, b, w: a * b, None),
    "arith.andi": (lambda a, b, w: a & b, None),
    "arith.ori": (lambda a, b, w: a | b, None),
    "arith.xori": (lambda a, b, w: a ^ b, None),
    "arith.maxsi": (lambda a, b, w: max(a, b), None),
    "arith.minsi": (lambda a, b, w: min(a, b), None),
    "arith.maxui": (lambda a, b, w: max(_u(a, w), _u(b, w)), None),
    "arith.minui": (lambda a, b, w: min(_u(a, w), _u(b, w)), None),
    "arith.divsi": (_tdiv, lambda a, b, w: b != 0 and not (a == -(1 << (w - 1)) and b == -1)),
    "arith.remsi": (lambda a, b, w: a - b * _tdiv(a, b), lambda a, b, w: b != 0 and not (a == -(1 << (w - 1)) and b == -1)),
    "arith.floordivsi": (lambda a, b, w: a // b, lambda a, b, w: b != 0 and not (a == -(1 << (w - 1)) and b == -1)),
    "arith.ceildivsi": (lambda a, b, w: -((-a) // b), lambda a, b, w: b != 0 and not (a == -(1 << (w - 1)) and b == -1)),
    "arith.divui": (lambda a, b, w: _u(a, w) // _u(b, w), lambda a, b, w: b != 0),
    "arith.remui": (lambda a, b, w: _u(a, w) % _u(b, w), lambda a, b, w: b != 0),
    "arith.ceildivui": (lambda a, b, w: -(-_u(a, w) // _u(b, w)), lambda a, b, w: b != 0),
    "arith.shli": (lambda a, b, w: a << b, lambda a, b, w: 0 <= b < w),
    "arith.shrsi": (lambda a, b, w: a >> b, lambda a, b, w: 0 <= b < w),
    "arith.shrui": (lambda a, b, w: _u(a, w) >> b, lambda a, b, w: 0 <= b < w),
}


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(INT_OPS)), st.sampled_from(WIDTHS), st.data())
def test_integer_ops_match_python_integers(name, w, data):
    ref, defined = INT_OPS[name]
    a = data.draw(_ints(w))
    b = data.draw(st.one_of(_ints(w), st.integers(0, w + 1)) if "sh" in name else _ints(w))
    if defined is not None and not defined(a, b, w):
        return  # undefined in MLIR: no value asserted
    dt = np.dtype(f"i{w // 8}")
    t = IntegerType(w)
    got = run_op(name, [dt.type(a), dt.type(b)], [t, t], t)
    assert wrap(int(got), w) == wrap(ref(a, b, w), w), (name, w, a, b, got)


CMPI = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b, 3: lambda a, b: a <= b,
        4: lambda a, b: a > b, 5: lambda a, b: a >= b}


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 9), st.sampled_from(WIDTHS), st.data())
def test_cmpi_matches_python_integers(pred, w, data):
    a, b = data.draw(_ints(w)), data.draw(_ints(w))
    ref = CMPI[pred % 6 + 2 if pred >= 6 else pred]
    x, y = (_u(a, w), _u(b, w)) if pred >= 6 else (a, b)
    dt = np.dtype(f"i{w // 8}")
    got = run_op("arith.cmpi", [dt.type(a), dt.type(b)], [IntegerType(w)] * 2, IntegerType(1), predicate=pred)
    assert bool(got) == ref(x, y), (pred, w, a, b)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["arith.extsi", "arith.extui", "arith.trunci"]), st.sampled_from(WIDTHS), st.sampled_from(WIDTHS),
       st.data())
def test_integer_casts_match_python_integers(name, w1, w2, data):
    if (w2 <= w1) if name != "arith.trunci" else (w2 >= w1):
        return  # ext widens, trunc narrows (the verifier's rule)
    a = data.draw(_ints(w1))
    want = {"arith.extsi": a, "arith.extui": _u(a, w1), "arith.trunci": wrap(a, w2)}[name]
    got = run_op(name, [np.dtype(f"i{w1 // 8}").type(a)], [IntegerType(w1)], IntegerType(w2))
    assert wrap(int(got), w2) == wrap(want, w2), (name, w1, w2, a)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(WIDTHS), st.data())
def test_absi_matches_python_integers(w, data):
    """math.absi: |a| wrapped to the width (the minimum is its own absolute value)."""
    a = data.draw(_ints(w))
    t = IntegerType(w)
    got = run_op("math.absi", [np.dtype(f"i{w // 8}").type(a)], [t], t)
    assert wrap(int(got), w) == wrap(abs(a), w), (w, a, got)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["arith.index_cast", "arith.index_castui"]), st.sampled_from(WIDTHS), st.booleans(), st.data())
def test_index_casts_match_python_integers(name, w, to_index, data):
    """index_cast sign-extends to ``index`` (64 bits here, SPEC.md section 7) and truncates from
    it; index_castui zero-extends and truncates."""
    from transpiler.ir.types import IndexType

    src_w = w if to_index else 64
    a = data.draw(_ints(src_w))
    src, dst = (IntegerType(w), IndexType()) if to_index else (IndexType(), IntegerType(w))
    got = run_op(name, [np.dtype(f"i{src_w // 8}").type(a)], [src], dst)
    dst_w = 64 if to_index else w
    value = a if name == "arith.index_cast" else _u(a, src_w)
    assert wrap(int(got), dst_w) == wrap(value, dst_w), (name, w, to_index, a, got)
