"""Shared pieces of the op-table property tests (tests/test_sim_op_properties.py,
tests/test_sim_float_properties.py): running one op of the simulator's table on numpy scalars,
integer wrapping, and hypothesis strategies of integers and floats with their edge values."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
from hypothesis import strategies as st

from transpiler.ir.attributes import IntegerAttr
from transpiler.ir.types import IntegerType
from transpiler.sim.ops import load_all

from exact_float import DTYPES, FORMATS

IMPLS = load_all()
WIDTHS = [8, 16, 32, 64]
FLOATS = ["f64", "f32", "f16", "bf16", "f8E5M2", "f8E4M3FN"]


def run_op(name, args, operand_types, result_type, p=None, **attrs):
    """Op ``name`` of the sim op table on ``args`` (numpy scalars or arrays, pointers), under the
    floating-point error state of a simulator run (transpiler/sim/run.py: overflow, NaN and
    wrapping are results, not warnings); ``p`` the program (the pointer ops read ``p.run.memory``)."""
    impl = IMPLS[name]
    op = SimpleNamespace(name=name, result_types=[result_type], operand_types=list(operand_types),
                         attributes={k: IntegerAttr(v, IntegerType(64)) for k, v in attrs.items()}, properties={})
    st_ = impl.prepare(op, None) if impl.prepare else op
    with np.errstate(all="ignore"):
        return impl.fn(p, st_, list(args))


def wrap(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if v >= 1 << (w - 1) else v


def ints(w):
    """Integers of width ``w`` (signed), the ends of the range drawn often."""
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    return st.one_of(st.integers(lo, hi), st.sampled_from([lo, lo + 1, -1, 0, 1, hi - 1, hi]))


def unsigned(v, w):
    """``v`` read as an unsigned ``w``-bit integer."""
    return v & ((1 << w) - 1)


def floats(name):
    """Values of the float type ``name``: any bit pattern, or an edge value."""
    dt = DTYPES[name]
    bits = st.integers(0, 2 ** (8 * dt.itemsize) - 1).map(lambda b: np.array(b, f"u{dt.itemsize}").view(dt)[()])
    p, emin, top, _, _ = FORMATS[name]
    edges = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1.0, -1.0, float(top), -float(top),
             float(Fraction(2) ** (emin - p + 1)), float(Fraction(2) ** emin), 1 + float(Fraction(2) ** (1 - p))]
    return st.one_of(bits, st.sampled_from([dt.type(e) for e in edges]))
