"""``arith`` ops as MLIR's ODS declares them (formats, effects, result types).

All arith ops are free of memory effects.  Declared so that the result type of any value a
distributed op uses can be known, and so that constants can be read (``notify``'s signal) and
created (the lowering's ``arith.constant`` / ``arith.trunci``).
"""

from __future__ import annotations

from ..dialect import NO_EFFECTS, EnumKeyword, OpDef, OpDetail, TypedValue, ValueSpec, register
from ..format import Cursor, finish
from ..types import I1, IntegerType, RankedTensorType, Type

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


def bool_like(t: Type) -> Type:
    """i1, or a tensor of i1 of the same shape as ``t``."""
    if isinstance(t, RankedTensorType):
        return RankedTensorType(t.shape, I1, t.encoding)
    return I1


def _all_same(detail, parsed) -> None:
    (t,) = parsed.types["result"]
    detail.operand_type_hints = [t] * len(detail.operand_names)


def _compare(detail, parsed) -> None:
    (t,) = parsed.types["lhs"]
    detail.operand_type_hints = [t, t]
    detail.result_types = [bool_like(t)]


def _constant(detail, parsed) -> None:
    value = detail.attributes["value"]
    t = getattr(value, "type", None)
    if t is None:
        from ...parser.types import parse_type

        text = str(value)
        if text in ("true", "false"):
            t = I1
        elif " : " in text:
            t = parse_type(text.rsplit(" : ", 1)[1])
    detail.result_types = [t] if t is not None else []


def _parse_select(op, items) -> OpDetail:
    """``%c, %a, %b : T`` or ``%c, %a, %b : C, T`` (a shaped condition is printed)."""
    cur = Cursor(items)
    location = cur.trailing_location()
    names = [str(cur.expect("VALUE_USE", "an SSA value"))]
    for _ in range(2):
        cur.expect("COMMA", "','")
        names.append(str(cur.expect("VALUE_USE", "an SSA value")))
    attributes = dict(cur.next().entries) if cur.kind() == "ATTR_DICT" else {}
    cur.expect("COLON", "':'")
    types = cur.type_list()
    cond, value = (types[0], types[1]) if len(types) == 2 else (I1, types[0])
    detail = OpDetail(operand_names=names, operand_type_hints=[cond, value, value], attributes=attributes, result_types=[value])
    return finish(op, cur, location, detail)


BINARY = (
    "addi subi muli divsi divui remsi remui andi ori xori shli shrsi shrui maxsi minsi maxui minui "
    "ceildivsi floordivsi addf subf mulf divf remf maximumf minimumf maxnumf minnumf"
).split()
UNARY = ["negf"]
CASTS = "extsi extui trunci extf truncf sitofp uitofp fptosi fptoui bitcast index_cast index_castui".split()

register(
    OpDef(
        "arith.constant",
        results=(_RESULT,),
        attribute_kinds={"value": TypedValue()},
        format="attr-dict $value",
        infer=_constant,
        effects=NO_EFFECTS,
    ),
    *(
        OpDef(f"arith.{n}", operands=(_LHS, _RHS), results=(_RESULT,), format="$lhs `,` $rhs attr-dict `:` type($result)",
              infer=_all_same, effects=NO_EFFECTS)
        for n in BINARY
    ),
    *(
        OpDef(f"arith.{n}", operands=(ValueSpec("operand"),), results=(_RESULT,),
              format="$operand attr-dict `:` type($result)", infer=_all_same, effects=NO_EFFECTS)
        for n in UNARY
    ),
    *(
        OpDef(f"arith.{n}", operands=(_IN,), results=(_OUT,), format="$in attr-dict `:` type($in) `to` type($out)",
              effects=NO_EFFECTS)
        for n in CASTS
    ),
    OpDef("arith.cmpi", operands=(_LHS, _RHS), results=(_RESULT,), attribute_kinds={"predicate": CMPI_PREDICATE},
          format="$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)", infer=_compare, effects=NO_EFFECTS),
    OpDef("arith.cmpf", operands=(_LHS, _RHS), results=(_RESULT,), attribute_kinds={"predicate": CMPF_PREDICATE},
          format="$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)", infer=_compare, effects=NO_EFFECTS),
    OpDef("arith.select", operands=(ValueSpec("condition"), ValueSpec("true_value"), ValueSpec("false_value")),
          results=(_RESULT,), parse_hook=_parse_select, effects=NO_EFFECTS),
)
