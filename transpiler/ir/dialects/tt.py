"""``tt`` (Triton) ops but memory ones (those are in :mod:`.tt_memory`): functions, casts,
arithmetic, shapes, SPMD queries, reductions, debug ops and inline code.

Formats follow Triton's ``TritonOps.td`` (triton-ascend 3.2, checked against its
``triton-adapter-opt``; later additions as in upstream Triton 3.4-3.9), enum keywords its
``TritonAttrDefs.td``.  ``tt.func`` has the function-like syntax of MLIR's
``function_interface_impl`` and is read by a hook that also yields the entry block's arguments
(needed for ``gm_addr_args_indices``, SPEC.md section 2.4 item 8).  ``tt.reduce`` and
``tt.scan`` have no custom syntax (generic form only).
"""

from __future__ import annotations

import re
from typing import List, Optional

from ..attributes import Attribute, DictAttr, StringAttr, quote_string, unquote_string
from ..dialect import (NO_EFFECTS, READ_WRITE, EnumKeyword, OpDef, SymbolRef, TokenAttrKind, ValueSpec,
                       register)
from ..types import I1, PointerType, RankedTensorType, Type
from .common import UnitKeyword, operands_like_result

PROGRAM_ID_DIM = EnumKeyword("ProgramIDDim", (("x", 0), ("y", 1), ("z", 2)))
INPUT_PRECISION = EnumKeyword(
    "InputPrecision", (("tf32", 0), ("tf32x3", 1), ("ieee", 2), ("bf16x3", 3), ("bf16x6", 4), ("hf32", 3))
)  # 3 is bf16x3 upstream, hf32 in triton-ascend
ROUNDING_MODE = EnumKeyword("RoundingMode", (("rtz", 0), ("rtne", 1)))
PROPAGATE_NAN = EnumKeyword("PropagateNan", (("none", 0), ("all", 0xFFFF)))
SCALE_DOT_ELEM_TYPE = EnumKeyword(
    "ScaleDotElemType", tuple((k, i) for i, k in enumerate(("e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "bf16", "fp16")))
)

_SRC, _RESULT = ValueSpec("src"), ValueSpec("result")
_BARE_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
FUNCTION_ATTRIBUTES = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


class StringValue(TokenAttrKind):
    """A string literal (``"mov.u32 $0, %smid;"``), stored decoded."""

    token, what = "STRING", "a string"

    def decode(self, text: str, cursor) -> Attribute:
        return StringAttr(unquote_string(text))


def pointee_of(t: Type) -> Optional[Type]:
    """The loaded type of a pointer (or tensor of pointers); None if ``t`` is neither."""
    if isinstance(t, PointerType):
        return t.pointee
    if isinstance(t, RankedTensorType) and isinstance(t.element, PointerType):
        return RankedTensorType(t.shape, t.element.pointee, t.encoding)
    return None


# ---- tt.func ------------------------------------------------------------------------------------


def _dicts(array, n: int) -> List[Optional[DictAttr]]:
    """The ``n`` dictionaries of an ``arg_attrs``/``res_attrs`` array (None for an empty one)."""
    elements = list(getattr(array, "elements", ())) + [None] * n
    return [e if isinstance(e, DictAttr) and e.entries else None for e in elements[:n]]


def symbol_name(name: str) -> str:
    """``@name``, quoted when ``name`` is not a bare identifier (MLIR's ``isBareIdentifier``)."""
    return "@" + name if _BARE_IDENTIFIER.fullmatch(name) else "@" + quote_string(name)


# ---- tt.dot_scaled ------------------------------------------------------------------------------
# Triton 3.4+ (the 3.2 syntax, with a mandatory lhs scale, is older and not read):
# $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type
# attr-dict `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
# (hooks: our format engine anchors optional groups on values, not on types)


# ---- type rules ---------------------------------------------------------------------------------


def _addptr(detail, parsed) -> None:
    (t,) = parsed.types["result"]
    detail.operand_type_hints[0] = t


def _same_as_first_operand(name: str):
    def infer(detail, parsed) -> None:
        (t,) = parsed.types[name]
        detail.operand_type_hints = [t] * len(detail.operand_names)
        detail.result_types = [t]

    return infer


def _both_operands_like_lhs(detail, parsed) -> None:
    (t,) = parsed.types["lhs"]
    detail.operand_type_hints = [t, t]


def _split(detail, parsed) -> None:
    (t,) = parsed.types["outLHS"]
    detail.result_types = [t, t]


def _element_of_src(detail, parsed) -> None:
    (t,) = parsed.types["src"]
    detail.result_types = [t.element if isinstance(t, RankedTensorType) else t]


def _histogram(detail, parsed) -> None:
    (t,) = parsed.types["src"]
    if len(detail.operand_names) > 1:
        detail.operand_type_hints = [t, like(t, I1)]


def like(t: Type, element: Type) -> Type:
    """``element``, or a tensor of ``element`` of the shape (and encoding) of ``t``."""
    if isinstance(t, RankedTensorType):
        return RankedTensorType(t.shape, element, t.encoding)
    return element


def _dot(detail, parsed) -> None:
    (d,) = parsed.types["d"]
    detail.operand_type_hints[2] = d


def _unary(name: str, **kwargs) -> OpDef:
    """``$src attr-dict : type($src) -> type($result)``."""
    return OpDef(f"tt.{name}", operands=(_SRC,), results=(_RESULT,),
                 format="$src attr-dict `:` type($src) `->` type($result)", effects=NO_EFFECTS, **kwargs)


register(
    # functions
    OpDef("tt.func", regions=("body",), custom_syntax=True, isolated=True,
          inherent=FUNCTION_ATTRIBUTES, effects=NO_EFFECTS),
    OpDef("tt.return", operands=(ValueSpec("srcs", variadic=True),), format="attr-dict ($srcs^ `:` type($srcs))?",
          effects=NO_EFFECTS),
    OpDef("tt.call", operands=(ValueSpec("operands", variadic=True),), results=(ValueSpec("results", variadic=True),),
          attribute_kinds={"callee": SymbolRef()}, inherent=("arg_attrs", "res_attrs"),
          format="$callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)", effects=READ_WRITE),
    # casts
    *(_unary(n) for n in ("int_to_ptr", "ptr_to_int", "bitcast")),
    OpDef("tt.fp_to_fp", operands=(_SRC,), results=(_RESULT,), attribute_kinds={"rounding": ROUNDING_MODE},
          format="$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)",
          effects=NO_EFFECTS),
    # arithmetic
    OpDef("tt.clampf", operands=(ValueSpec("x"), ValueSpec("min"), ValueSpec("max")), results=(_RESULT,),
          attribute_kinds={"propagateNan": PROPAGATE_NAN},
          format="$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)",
          infer=operands_like_result, effects=NO_EFFECTS),
    OpDef("tt.precise_sqrt", operands=(ValueSpec("x"),), results=(_RESULT,), format="$x attr-dict `:` type($x)",
          infer=_same_as_first_operand("x"), effects=NO_EFFECTS),
    *(
        OpDef(f"tt.{n}", operands=(ValueSpec("x"), ValueSpec("y")), results=(_RESULT,),
              format="$x `,` $y attr-dict `:` type($x)", infer=_same_as_first_operand("x"), effects=NO_EFFECTS)
        for n in ("precise_divf", "mulhiui")
    ),
    OpDef("tt.addptr", operands=(ValueSpec("ptr"), ValueSpec("offset")), results=(_RESULT,),
          format="$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)", infer=_addptr, effects=NO_EFFECTS),
    # shapes
    *(_unary(n) for n in ("splat", "broadcast")),
    OpDef("tt.unsplat", operands=(_SRC,), results=(_RESULT,), format="$src attr-dict `:` type($src)",
          infer=_element_of_src, effects=NO_EFFECTS),
    OpDef("tt.histogram", operands=(_SRC, ValueSpec("mask", optional=True)), results=(_RESULT,),
          format="$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)", infer=_histogram,
          effects=NO_EFFECTS),
    _unary("expand_dims", inherent=("axis",)),
    _unary("trans", inherent=("order",)),
    OpDef("tt.reshape", operands=(_SRC,), results=(_RESULT,),
          attribute_kinds={"allow_reorder": UnitKeyword("allow_reorder"),
                           "efficient_layout": UnitKeyword("efficient_layout")},
          format="$src ($allow_reorder^)? ($efficient_layout^)? attr-dict `:` type($src) `->` type($result)",
          effects=NO_EFFECTS),
    *(
        OpDef(f"tt.{n}", operands=(ValueSpec("lhs"), ValueSpec("rhs")), results=(_RESULT,),
              format="$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)", infer=_both_operands_like_lhs,
              effects=NO_EFFECTS)
        for n in ("cat", "join")
    ),
    OpDef("tt.split", operands=(_SRC,), results=(ValueSpec("outLHS"), ValueSpec("outRHS")),
          format="$src attr-dict `:` type($src) `->` type($outLHS)", infer=_split, effects=NO_EFFECTS),
    OpDef("tt.gather", operands=(_SRC, ValueSpec("indices")), results=(_RESULT,), inherent=("axis", "efficient_layout"),
          format="$src `[` $indices `]` attr-dict `:` functional-type($_operands, $_results)", effects=NO_EFFECTS),
    # SPMD
    OpDef("tt.make_range", results=(_RESULT,), inherent=("start", "end"), format="attr-dict `:` type($result)",
          effects=NO_EFFECTS),
    OpDef("tt.get_program_id", results=(_RESULT,), attribute_kinds={"axis": PROGRAM_ID_DIM},
          format="$axis attr-dict `:` type($result)", effects=NO_EFFECTS),
    OpDef("tt.get_num_programs", results=(_RESULT,), attribute_kinds={"axis": PROGRAM_ID_DIM},
          format="$axis attr-dict `:` type($result)", effects=NO_EFFECTS),
    # dot products, reductions
    OpDef("tt.dot", operands=(ValueSpec("a"), ValueSpec("b"), ValueSpec("c")), results=(ValueSpec("d"),),
          attribute_kinds={"inputPrecision": INPUT_PRECISION}, inherent=("maxNumImpreciseAcc",),
          format="$a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:` type($a) `*` type($b) `->` type($d)",
          infer=_dot, effects=NO_EFFECTS),
    OpDef("tt.dot_scaled",
          operands=(ValueSpec("a"), ValueSpec("b"), ValueSpec("c"), ValueSpec("a_scale", optional=True),
                    ValueSpec("b_scale", optional=True)),
          results=(ValueSpec("d"),), attribute_kinds={"a_elem_type": SCALE_DOT_ELEM_TYPE, "b_elem_type": SCALE_DOT_ELEM_TYPE},
          inherent=("fastMath", "lhs_k_pack", "rhs_k_pack"), custom_syntax=True,
          segmented=True, effects=NO_EFFECTS),
    OpDef("tt.reduce", operands=(ValueSpec("srcs", variadic=True),), results=(ValueSpec("result", variadic=True),),
          regions=("combineOp",), inherent=("axis",), effects=NO_EFFECTS),
    OpDef("tt.scan", operands=(ValueSpec("srcs", variadic=True),), results=(ValueSpec("result", variadic=True),),
          regions=("combineOp",), inherent=("axis", "reverse"), effects=NO_EFFECTS),
    *(
        OpDef(f"tt.{n}.return", operands=(ValueSpec("result", variadic=True),),
              format="$result attr-dict `:` type($result)", effects=NO_EFFECTS)
        for n in ("reduce", "scan")
    ),
    # debugging, inline code
    OpDef("tt.print", operands=(ValueSpec("args", variadic=True),), attribute_kinds={"prefix": StringValue()},
          inherent=("hex", "isSigned"), format="$prefix attr-dict (`:` $args^ `:` type($args))?", effects=READ_WRITE),
    OpDef("tt.assert", operands=(ValueSpec("condition"),), attribute_kinds={"message": StringValue()},
          format="$condition `,` $message attr-dict `:` type($condition)", effects=READ_WRITE),
    OpDef("tt.elementwise_inline_asm", operands=(ValueSpec("args", variadic=True),),
          results=(ValueSpec("result", variadic=True),), attribute_kinds={"asm_string": StringValue()},
          inherent=("constraints", "pure", "packed_element"),
          format="$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)", effects=READ_WRITE),
    OpDef("tt.extern_elementwise", operands=(ValueSpec("srcs", variadic=True),), results=(_RESULT,),
          inherent=("libname", "libpath", "symbol", "pure"),
          format="$srcs attr-dict `:` functional-type($srcs, $result)", effects=READ_WRITE),
)
