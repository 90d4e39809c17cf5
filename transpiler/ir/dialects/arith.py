"""``arith`` ops as MLIR's ``ArithOps.td`` declares them (formats, inherent attributes, types).

All arith ops are free of memory effects.  Integer ops with overflow flags print them as
``overflow<nsw>`` (``#arith.overflow<nsw>``), float ops their fast-math flags as
``fastmath<fast>`` (``#arith.fastmath<fast>``); both are inherent attributes, as are
``predicate`` (``cmpi``/``cmpf``), ``value`` (``constant``) and ``roundingmode`` (``truncf``).
``arith.select`` has the hand-written ``custom<SelectOpTypes>`` syntax (a shaped condition's
type is printed, an ``i1`` one is not).
"""

from __future__ import annotations

from ..dialect import NO_EFFECTS, EnumKeyword, OpDef, TypedValue, ValueSpec, register
from ..types import I1, IntegerType, RankedTensorType, Type
from .common import KeywordAngle, operands_like_result

_IN, _OUT = ValueSpec("in"), ValueSpec("out")
_LHS, _RHS, _RESULT = ValueSpec("lhs"), ValueSpec("rhs"), ValueSpec("result")

CMPI_PREDICATE = EnumKeyword(
    "CmpIPredicate",
    tuple((k, i) for i, k in enumerate(("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"))),
    IntegerType(64),
)
CMPF_PREDICATE = EnumKeyword(
    "CmpFPredicate",
    tuple(
        (k, i)
        for i, k in enumerate(
            ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
        )
    ),
    IntegerType(64),
)
ROUNDING_MODE = EnumKeyword(
    "RoundingMode",
    tuple((k, i) for i, k in enumerate(("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"))),
)
FASTMATH = KeywordAngle("fastmath", "#arith.fastmath")
OVERFLOW = KeywordAngle("overflow", "#arith.overflow")


def bool_like(t: Type) -> Type:
    """i1, or a tensor of i1 of the same shape as ``t``."""
    if isinstance(t, RankedTensorType):
        return RankedTensorType(t.shape, I1, t.encoding)
    return I1


def _compare(detail, parsed) -> None:
    (t,) = parsed.types["lhs"]
    detail.operand_type_hints = [t, t]
    detail.result_types = [bool_like(t)]


def _constant(detail, parsed) -> None:
    value = detail.attributes["value"]
    t = getattr(value, "type", None)
    if t is None:
        text = str(value)
        if text in ("true", "false"):
            t = I1
        elif " : " in text:
            t = parsed.parse_type(text.rsplit(" : ", 1)[1])
    detail.result_types = [t] if t is not None else []


INT_OVERFLOW_BINARY = "addi subi muli shli".split()
INT_BINARY = "divsi divui remsi remui andi ori xori shrsi shrui maxsi minsi maxui minui ceildivsi floordivsi ceildivui".split()
FLOAT_BINARY = "addf subf mulf divf remf maximumf minimumf maxnumf minnumf".split()
INT_CASTS = "extsi extui trunci sitofp uitofp fptosi fptoui bitcast index_cast index_castui".split()


def _binary(name: str, flag: str = "", kind=None) -> OpDef:
    """``$lhs, $rhs [flag<...>] : T``; ``flag`` names the optional flags attribute."""
    group = f" (${flag}^)?" if flag else ""
    return OpDef(f"arith.{name}", operands=(_LHS, _RHS), results=(_RESULT,), attribute_kinds={flag: kind} if flag else {},
                 format=f"$lhs `,` $rhs{group} attr-dict `:` type($result)", infer=operands_like_result, effects=NO_EFFECTS)


register(
    OpDef(
        "arith.constant",
        results=(_RESULT,),
        attribute_kinds={"value": TypedValue()},
        format="attr-dict $value",
        infer=_constant,
        effects=NO_EFFECTS,
    ),
    *(_binary(n, "overflowFlags", OVERFLOW) for n in INT_OVERFLOW_BINARY),
    *(_binary(n) for n in INT_BINARY),
    *(_binary(n, "fastmath", FASTMATH) for n in FLOAT_BINARY),
    OpDef("arith.negf", operands=(ValueSpec("operand"),), results=(_RESULT,), attribute_kinds={"fastmath": FASTMATH},
          format="$operand ($fastmath^)? attr-dict `:` type($result)", infer=operands_like_result, effects=NO_EFFECTS),
    *(
        OpDef(f"arith.{n}", operands=(_IN,), results=(_OUT,), format="$in attr-dict `:` type($in) `to` type($out)",
              effects=NO_EFFECTS)
        for n in INT_CASTS
    ),
    OpDef("arith.extf", operands=(_IN,), results=(_OUT,), attribute_kinds={"fastmath": FASTMATH},
          format="$in ($fastmath^)? attr-dict `:` type($in) `to` type($out)", effects=NO_EFFECTS),
    OpDef("arith.truncf", operands=(_IN,), results=(_OUT,),
          attribute_kinds={"roundingmode": ROUNDING_MODE, "fastmath": FASTMATH},
          format="$in ($roundingmode^)? ($fastmath^)? attr-dict `:` type($in) `to` type($out)", effects=NO_EFFECTS),
    OpDef("arith.cmpi", operands=(_LHS, _RHS), results=(_RESULT,), attribute_kinds={"predicate": CMPI_PREDICATE},
          format="$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)", infer=_compare, effects=NO_EFFECTS),
    OpDef("arith.cmpf", operands=(_LHS, _RHS), results=(_RESULT,),
          attribute_kinds={"predicate": CMPF_PREDICATE, "fastmath": FASTMATH},
          format="$predicate `,` $lhs `,` $rhs ($fastmath^)? attr-dict `:` type($lhs)", infer=_compare,
          effects=NO_EFFECTS),
    OpDef("arith.select", operands=(ValueSpec("condition"), ValueSpec("true_value"), ValueSpec("false_value")),
          results=(_RESULT,), custom_syntax=True, effects=NO_EFFECTS),
)
