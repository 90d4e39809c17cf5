"""``math`` ops as MLIR's ``MathOps.td`` declares them.

Float ops take optional fast-math flags (``fastmath<fast>``, the inherent ``fastmath``
attribute, shared with ``arith``); every op here but the ``is*`` tests has
SameOperandsAndResultType, so the one printed type is every operand's and the result's.
"""

from __future__ import annotations

from ..dialect import NO_EFFECTS, OpDef, ValueSpec, register
from .arith import FASTMATH, bool_like
from .common import operands_like_result

FLOAT_UNARY = (
    "absf acos acosh asin asinh atan atanh cbrt ceil cos cosh erf erfc exp exp2 expm1 floor log log10 log1p log2 "
    "round roundeven rsqrt sin sinh sqrt tan tanh trunc"
).split()
FLOAT_BINARY = "atan2 copysign powf".split()
INT_UNARY = "absi ctlz cttz ctpop".split()
FLOAT_TESTS = "isfinite isinf isnan isnormal".split()


def _test(detail, parsed) -> None:
    (t,) = parsed.types["operand"]
    detail.result_types = [bool_like(t)]


def _like_lhs(detail, parsed) -> None:
    detail.result_types = list(parsed.types["lhs"])


def _op(name: str, operands, fastmath: bool = True, infer=operands_like_result, typed: str = "result") -> OpDef:
    values = " `,` ".join(f"${n}" for n in operands)
    flags = " ($fastmath^)?" if fastmath else ""
    return OpDef(f"math.{name}", operands=tuple(ValueSpec(n) for n in operands), results=(ValueSpec("result"),),
                 attribute_kinds={"fastmath": FASTMATH} if fastmath else {},
                 format=f"{values}{flags} attr-dict `:` type(${typed})", infer=infer, effects=NO_EFFECTS)


register(
    *(_op(n, ("operand",)) for n in FLOAT_UNARY),
    *(_op(n, ("lhs", "rhs")) for n in FLOAT_BINARY),
    _op("fma", ("a", "b", "c")),
    *(_op(n, ("operand",), fastmath=False) for n in INT_UNARY),
    _op("ipowi", ("lhs", "rhs"), fastmath=False),
    *(_op(n, ("operand",), infer=_test, typed="operand") for n in FLOAT_TESTS),
    OpDef("math.fpowi", operands=(ValueSpec("lhs"), ValueSpec("rhs")), results=(ValueSpec("result"),),
          attribute_kinds={"fastmath": FASTMATH},
          format="$lhs `,` $rhs ($fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)",
          infer=_like_lhs, effects=NO_EFFECTS),
)
