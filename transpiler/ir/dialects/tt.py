"""``tt`` (Triton) ops: the ones whose results feed distributed ops, plus ``tt.func``.

Formats follow Triton's ``TritonOps.td``.  ``tt.func`` has the function-like syntax of MLIR's
``function_interface_impl`` and is read by a hook that also yields the entry block's arguments
(needed for ``gm_addr_args_indices``, SPEC.md section 2.4 item 8).
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..attributes import ArrayAttr, DictAttr, StringAttr, TypeAttr, unquote_string
from ..dialect import NO_EFFECTS, READ_ONLY, READ_WRITE, EnumKeyword, OpDef, OpDetail, SymbolRef, ValueSpec, register
from ..format import Cursor, finish
from ..types import FunctionType, PointerType, RankedTensorType, Type

PROGRAM_ID_DIM = EnumKeyword("ProgramIDDim", (("x", 0), ("y", 1), ("z", 2)))
INPUT_PRECISION = EnumKeyword("InputPrecision", (("tf32", 0), ("tf32x3", 1), ("ieee", 2), ("bf16x3", 3), ("bf16x6", 4)))

_SRC, _RESULT = ValueSpec("src"), ValueSpec("result")


def pointee_of(t: Type) -> Optional[Type]:
    """The loaded type of a pointer (or tensor of pointers); None if ``t`` is neither."""
    if isinstance(t, PointerType):
        return t.pointee
    if isinstance(t, RankedTensorType) and isinstance(t.element, PointerType):
        return RankedTensorType(t.shape, t.element.pointee, t.encoding)
    return None


def parse_function(op, items) -> OpDetail:
    """``[visibility] @name(%a: T {attrs} loc(..), ...) [-> results] [attributes {..}] {region}``."""
    cur = Cursor(items)
    location = cur.trailing_location()
    attributes = {}
    if cur.kind() == "BARE_ID" and str(cur.peek()) in ("public", "private", "nested"):
        attributes["sym_visibility"] = StringAttr(str(cur.next()))
    sym = str(cur.expect("SYMBOL_REF", "the function's @name"))
    attributes["sym_name"] = StringAttr(unquote_string(sym[1:]) if sym[1:2] == '"' else sym[1:])
    cur.expect("LPAR", "'('")
    args: List[Tuple[str, Type, Optional[str]]] = []
    arg_attrs = []
    while cur.kind() == "VALUE_USE":
        name = str(cur.next())
        cur.expect("COLON", "':'")
        t = cur.type()
        arg_attrs.append(cur.next() if cur.kind() == "ATTR_DICT" else DictAttr(()))
        loc = str(cur.next()) if cur.kind() == "LOC" else None
        args.append((name, t, loc))
        if not cur.accept("COMMA"):
            break
    cur.expect("RPAR", "')'")
    results: List[Type] = []
    if cur.accept("ARROW"):
        if cur.kind() == "LPAR":
            cur.next()
            while cur.kind() == "TYPE":
                results.append(cur.type())
                if cur.kind() == "ATTR_DICT":
                    cur.next()  # result attributes: kept in the text, not needed by passes
                if not cur.accept("COMMA"):
                    break
            cur.expect("RPAR", "')'")
        else:
            results.append(cur.type())
    if cur.accept_keyword("attributes"):
        attributes.update(cur.expect("ATTR_DICT", "an attribute dictionary").entries)
    region_args = {}
    if op.regions:
        cur.expect("REGION_SLOT", "the function body")
        region_args[0] = args
    attributes["function_type"] = TypeAttr(FunctionType(tuple(t for _, t, _ in args), tuple(results)))
    if any(d.entries for d in arg_attrs):
        attributes["arg_attrs"] = ArrayAttr(tuple(arg_attrs))
    return finish(op, cur, location, OpDetail(attributes=attributes, region_args=region_args))


def _load_result(detail, parsed) -> None:
    (ptr_type,) = parsed.types["ptr"]
    loaded = pointee_of(ptr_type)
    detail.result_types = [loaded] if loaded is not None else []
    hints = [ptr_type]
    if len(detail.operand_names) > 1:
        hints.append(_like(ptr_type, "i1"))
    if len(detail.operand_names) > 2:
        hints.append(loaded)
    detail.operand_type_hints = hints


def _like(t: Type, element: str) -> Optional[Type]:
    from ...parser.types import parse_type

    if isinstance(t, RankedTensorType):
        return RankedTensorType(t.shape, parse_type(element), t.encoding)
    return parse_type(element)


def _addptr(detail, parsed) -> None:
    (t,) = parsed.types["result"]
    detail.operand_type_hints[0] = t


def _same_as_result(detail, parsed) -> None:
    (t,) = parsed.types["result"]
    detail.operand_type_hints = [t] * len(detail.operand_names)


def _dot(detail, parsed) -> None:
    (d,) = parsed.types["d"]
    detail.operand_type_hints[2] = d


register(
    OpDef("tt.func", regions=("body",), parse_hook=parse_function, isolated=True, effects=NO_EFFECTS),
    OpDef("tt.return", operands=(ValueSpec("srcs", variadic=True),), format="attr-dict ($srcs^ `:` type($srcs))?",
          effects=NO_EFFECTS),
    OpDef("tt.call", operands=(ValueSpec("operands", variadic=True),), results=(ValueSpec("results", variadic=True),),
          attribute_kinds={"callee": SymbolRef()},
          format="$callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)", effects=READ_WRITE),
    OpDef("tt.addptr", operands=(ValueSpec("ptr"), ValueSpec("offset")), results=(_RESULT,),
          format="$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)", infer=_addptr, effects=NO_EFFECTS),
    *(
        OpDef(f"tt.{n}", operands=(_SRC,), results=(_RESULT,), format="$src attr-dict `:` type($src) `->` type($result)",
              effects=NO_EFFECTS)
        for n in ("splat", "broadcast", "expand_dims", "trans", "bitcast", "int_to_ptr", "ptr_to_int")
    ),
    OpDef("tt.make_range", results=(_RESULT,), format="attr-dict `:` type($result)", effects=NO_EFFECTS),
    OpDef("tt.get_program_id", results=(_RESULT,), attribute_kinds={"axis": PROGRAM_ID_DIM},
          format="$axis attr-dict `:` type($result)", effects=NO_EFFECTS),
    OpDef("tt.get_num_programs", results=(_RESULT,), attribute_kinds={"axis": PROGRAM_ID_DIM},
          format="$axis attr-dict `:` type($result)", effects=NO_EFFECTS),
    OpDef("tt.load", operands=(ValueSpec("ptr"), ValueSpec("mask", optional=True), ValueSpec("other", optional=True)),
          results=(_RESULT,), format="$ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)", infer=_load_result,
          effects=READ_ONLY),
    OpDef("tt.store", operands=(ValueSpec("ptr"), ValueSpec("value"), ValueSpec("mask", optional=True)),
          format="$ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)", effects=READ_WRITE),
    OpDef("tt.dot", operands=(ValueSpec("a"), ValueSpec("b"), ValueSpec("c")), results=(ValueSpec("d"),),
          attribute_kinds={"inputPrecision": INPUT_PRECISION},
          format="$a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:` type($a) `*` type($b) `->` type($d)",
          infer=_dot, effects=NO_EFFECTS),
)
