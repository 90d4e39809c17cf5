"""``math`` ops, computed in the op's type (f16 natively, bf16/f8 through f32, rounded back)."""

from __future__ import annotations

import numpy as np

from . import implements
from .common import fast_apply, float_fn, result_dtype


def _erf(x):
    """erf to about 1e-7 (Abramowitz and Stegun 7.1.26, with the symmetry erf(-x) = -erf(x))."""
    x = np.asarray(x)
    s = np.sign(x)
    a = np.abs(x).astype(np.float64)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return (s * y).astype(x.dtype)[()]


UNARY = {"exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
         "expm1": np.expm1, "sqrt": np.sqrt, "rsqrt": lambda x: np.reciprocal(np.sqrt(x)), "sin": np.sin,
         "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "absf": np.abs, "floor": np.floor, "ceil": np.ceil,
         "trunc": np.trunc, "roundeven": np.rint, "round": lambda x: np.trunc(x + np.copysign(0.5, x)),
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
implements("math.fma", prepare=_float_prepare(lambda a, b, c: a * b + c))(_apply)


@implements("math.absi")
def absi(p, st, args):
    return np.abs(args[0])
