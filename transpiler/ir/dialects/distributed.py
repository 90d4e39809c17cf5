"""The Triton-distributed ``distributed`` dialect: seven ops (SPEC.md section 1).

Formats are those of the dialect's ODS (note the literal commas before ``attr-dict``, which
print as ``, :`` when the dictionary is empty).  ``notify`` has no custom format.  Memory
effects follow the seed tables (seed ``000_...``, "Memory Side Effect Model").
"""

from __future__ import annotations

from typing import List

from ..attributes import BoolAttr, IntegerAttr, StringAttr
from ..dialect import (NO_EFFECTS, READ_ONLY, READ_WRITE, EnumKeyword, OpDef, ValueSpec, all_attributes,
                       register)
from ..types import I1, I32, I64, IntegerType, PointerType, RankedTensorType
from .tt_memory import MEM_SEMANTIC, MEM_SYNC_SCOPE  # Triton's own enums (TritonAttrDefs.td)

# SPEC.md section 1, enum table (all i32-backed)
SIGNAL_OP = EnumKeyword("SignalOp", (("set", 1), ("add", 2)))
COMM_SCOPE = EnumKeyword("CommScope", (("gpu", 1), ("intra_node", 2), ("inter_node", 3)))

ENUM_ATTRIBUTES = {"scope": MEM_SYNC_SCOPE, "semantic": MEM_SEMANTIC, "sigOp": SIGNAL_OP, "commScope": COMM_SCOPE}


def _same_as_input(detail, parsed) -> None:
    detail.result_types = list(parsed.types["symmAddr"])


def _types(op):
    """Each operand's type as far as it is known (the op's own text first, then the producer)."""
    return op.operand_types


def _verify_wait(op) -> List[str]:
    errors = []
    bar, n, value, *pred = _types(op)
    if isinstance(bar, RankedTensorType) and isinstance(bar.element, PointerType):
        errors.append(f"barrier {bar} is a tensor of pointers: the dialect allows it but the device library "
                      f"has no wrapper for it; wait on a scalar !tt.ptr<iN>")
    elif not isinstance(bar, PointerType) or not isinstance(bar.pointee, IntegerType):
        errors.append(f"barrier must be a !tt.ptr to an integer type, found {bar}")
    elif value is not None and value != bar.pointee:
        errors.append(f"waitValue has type {value} but the barrier points to {bar.pointee}; they must match")
    if n is not None and not isinstance(n, IntegerType):
        errors.append(f"numBarriers must be an integer, found {n}")
    for t in op.result_types:
        if not isinstance(t, IntegerType):
            errors.append(f"the token must be an integer, found {t}")
    if pred and pred[0] is not None and pred[0] != I1:
        errors.append(f"the predicate 'pred' must be i1, found {pred[0]}")
    return errors + _check_enums(op, (("scope", MEM_SYNC_SCOPE), ("semantic", MEM_SEMANTIC)))


def _verify_consume_token(op) -> List[str]:
    errors = []
    value, token = _types(op)
    if op.result_types and op.result_types[0] != value:
        errors.append(f"result type {op.result_types[0]} must equal the input type {value}")
    if token is not None and not isinstance(token, IntegerType):
        errors.append(f"the token must be an integer, found {token}")
    return errors


def _verify_rank_query(op) -> List[str]:
    errors = []
    if op.result_types and op.result_types[0] != I32:
        errors.append(f"the result must be i32, found {op.result_types[0]}")
    return errors


def _verify_symm_at(op) -> List[str]:
    errors = []
    ptr = _types(op)[0]
    if not isinstance(ptr, PointerType):
        errors.append(f"symmAddr must be a scalar !tt.ptr, found {ptr}")
    if op.result_types and op.result_types[0] != ptr:
        errors.append(f"result type {op.result_types[0]} must equal the operand type {ptr}")
    return errors


def enum_value(op, name: str):
    """An enum attribute of ``op`` (property or attribute), as an int, or None."""
    attr = all_attributes(op).get(name)
    return attr.value if isinstance(attr, IntegerAttr) else None


def _check_enums(op, enums) -> List[str]:
    """Each enum attribute is there, an ``i32`` integer, and one of the enum's values."""
    errors = []
    attributes = all_attributes(op)
    for name, enum in enums:
        attr = attributes.get(name)
        if attr is None:
            errors.append(f"requires the '{name}' attribute ({enum.enum_name}: {_allowed(enum)})")
        elif not isinstance(attr, IntegerAttr) or attr.type != I32:
            errors.append(f"'{name}' must be an i32 {enum.enum_name} value ({_allowed(enum)}), found {attr}")
        elif enum.keyword(attr.value) is None:
            errors.append(f"'{name}' = {attr.value} is not a {enum.enum_name} value ({_allowed(enum)})")
    return errors


def _allowed(enum) -> str:
    """``"KEY = N, ..."``: the enum's values, for a message."""
    return ", ".join(f"{k} = {n}" for k, n in enum.values)


def _verify_notify(op) -> List[str]:
    errors = []
    sig, value, rank = _types(op)
    if not isinstance(sig, PointerType):
        errors.append(f"sigAddr must be a scalar !tt.ptr, found {sig}")
    if value is not None and value != I64:
        errors.append(f"the signal value must be i64, found {value}")
    if rank is not None and rank != I32:
        errors.append(f"the rank must be i32, found {rank}")
    return errors + _check_enums(op, (("sigOp", SIGNAL_OP), ("commScope", COMM_SCOPE)))


def _verify_extern_call(op) -> List[str]:
    errors = []
    attrs_ = all_attributes(op)  # the generic form MLIR prints holds them as properties
    for name in ("libname", "libpath", "symbol"):
        if not isinstance(attrs_.get(name), StringAttr):
            errors.append(f"requires a string attribute '{name}'")
    if not isinstance(attrs_.get("pure"), BoolAttr):
        errors.append("requires a bool attribute 'pure'")
    return errors


def _extern_call_effects(op):
    """No effects when ``pure = true``, else read and write (seed ``000_...``)."""
    pure = all_attributes(op).get("pure")  # a property in generic form, an attribute in custom form
    return NO_EFFECTS if isinstance(pure, BoolAttr) and pure.value else READ_WRITE


WAIT = OpDef(
    "distributed.wait",
    # Triton 3.7 line: an optional i1 predicate after the semantic; no segment sizes (SPEC.md section 1)
    operands=(ValueSpec("barrierPtr"), ValueSpec("numBarriers"), ValueSpec("waitValue"),
              ValueSpec("pred", optional=True, type=I1)),
    results=(ValueSpec("token"),),
    attribute_kinds={"scope": MEM_SYNC_SCOPE, "semantic": MEM_SEMANTIC},
    format="$barrierPtr `,` $numBarriers `,` $waitValue `,` `scope` `=` $scope `semantic` `=` $semantic"
    " (`pred` `=` $pred^)? attr-dict"
    " `:` type($barrierPtr) `,` type($numBarriers) `,` type($waitValue) `->` type($token)",
    effects=READ_ONLY,
    verify=_verify_wait,
)
WAIT.custom_syntax = True  # the declared format, with an error that names the obsolete form

CONSUME_TOKEN = OpDef(
    "distributed.consume_token",
    operands=(ValueSpec("input"), ValueSpec("token")),
    results=(ValueSpec("result"),),
    format="$input `,` $token `,` attr-dict `:` type($input) `,` type($token) `->` type($result)",
    effects=NO_EFFECTS,
    verify=_verify_consume_token,
)

GET_RANK = OpDef(
    "distributed.get_rank",
    operands=(ValueSpec("axis", type=I32),),
    results=(ValueSpec("result"),),
    format="$axis attr-dict `:` type($result)",
    effects=NO_EFFECTS,
    verify=_verify_rank_query,
)

GET_NUM_RANKS = OpDef(
    "distributed.get_num_ranks",
    operands=(ValueSpec("axis", type=I32),),
    results=(ValueSpec("result"),),
    format="$axis attr-dict `:` type($result)",
    effects=NO_EFFECTS,
    verify=_verify_rank_query,
)

SYMM_AT = OpDef(
    "distributed.symm_at",
    operands=(ValueSpec("symmAddr"), ValueSpec("rank", type=I32)),
    results=(ValueSpec("remoteAddr"),),
    format="$symmAddr `,` $rank `,` attr-dict `:` type($symmAddr)",
    infer=_same_as_input,
    effects=READ_ONLY,
    verify=_verify_symm_at,
)


NOTIFY = OpDef(
    "distributed.notify",
    operands=(ValueSpec("sigAddr"), ValueSpec("signalVal", type=I64), ValueSpec("rank", type=I32)),
    effects=READ_WRITE,
    verify=_verify_notify,
    custom_syntax=True,
    inherent=("sigOp", "commScope"),
)

EXTERN_CALL = OpDef(
    "distributed.extern_call",
    operands=(ValueSpec("srcs", variadic=True),),
    results=(ValueSpec("result", variadic=True),),
    format="$srcs attr-dict `:` functional-type($srcs, $result)",
    effects=_extern_call_effects,
    verify=_verify_extern_call,
    inherent=("libname", "libpath", "symbol", "pure"),
)

OPS = (WAIT, CONSUME_TOKEN, GET_RANK, GET_NUM_RANKS, SYMM_AT, NOTIFY, EXTERN_CALL)
register(*OPS)
