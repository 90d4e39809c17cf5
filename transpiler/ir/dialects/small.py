"""Small dialects the lowering creates or meets: ``builtin``, ``tensor``, ``annotation``.

Formats from MLIR's ``BuiltinOps.td`` (``module``, generic name ``builtin.module``;
``builtin.unrealized_conversion_cast``) and ``TensorOps.td`` (``tensor.empty``).

``tensor.empty`` is the destination of a tensor result (SPEC.md section 2.5) and
``annotation.mark ... {ContinuousMemAccess}`` follows a tensor ``consume_token`` (section 2.4
item 9).
"""

from __future__ import annotations

from ..attributes import Attribute, StringAttr
from ..dialect import NO_EFFECTS, READ_WRITE, AttrKind, OpDef, ValueSpec, register
from ..format import FormatError


class SymbolName(AttrKind):
    """``@name`` stored as a string (``module @name``)."""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) == "SYMBOL_REF"

    def parse(self, cursor) -> Attribute:
        item = cursor.next()
        if getattr(item, "type", None) != "SYMBOL_REF":
            raise FormatError(f"expected a symbol name, found '{item}'", item)
        return StringAttr(str(item)[1:])

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
