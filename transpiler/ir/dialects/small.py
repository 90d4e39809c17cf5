"""Small dialects the lowering creates or meets: ``builtin``, ``tensor``, ``annotation``.

Formats from MLIR's ``BuiltinOps.td`` (``module``, generic name ``builtin.module``;
``builtin.unrealized_conversion_cast``) and ``TensorOps.td`` (``tensor.empty``).

``tensor.empty`` is the destination of a tensor result (SPEC.md section 2.5) and
``annotation.mark ... {ContinuousMemAccess}`` follows a tensor ``consume_token`` (section 2.4
item 9).
"""

from __future__ import annotations

from ..attributes import Attribute, StringAttr
from ..dialect import NO_EFFECTS, READ_WRITE, OpDef, TokenAttrKind, ValueSpec, register


class SymbolName(TokenAttrKind):
    """``@name`` stored as a string (``module @name``)."""

    token, what = "SYMBOL_REF", "a symbol name"

    def decode(self, text: str, cursor) -> Attribute:
        return StringAttr(text[1:])

    def print(self, attr: Attribute) -> str:
        return "@" + attr.value


register(
    OpDef("module", attribute_kinds={"sym_name": SymbolName()}, regions=("bodyRegion",),
          format="($sym_name^)? attr-dict-with-keyword $bodyRegion", isolated=True, effects=NO_EFFECTS,
          inherent=("sym_name", "sym_visibility"), generic_name="builtin.module"),
    OpDef("builtin.unrealized_conversion_cast", operands=(ValueSpec("inputs", variadic=True),),
          results=(ValueSpec("outputs", variadic=True),),
          format="($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict", effects=NO_EFFECTS),
    OpDef("tensor.empty", operands=(ValueSpec("dynamicSizes", variadic=True),), results=(ValueSpec("result"),),
          format="`(` $dynamicSizes `)` attr-dict `:` type($result)", effects=NO_EFFECTS),
    OpDef("annotation.mark", operands=(ValueSpec("src"),), format="$src attr-dict `:` type($src)", effects=READ_WRITE),
)
