"""Attribute text to :mod:`transpiler.ir.attributes` objects (the ``attribute`` rules).

Integers, booleans, strings, unit, ``array<i32: ...>``, arrays, dictionaries, types and symbol
references become structured attributes; anything else keeps its text (:class:`OpaqueAttr`),
so that ``dense<0xFC00>``, ``#ttg.blocked<...>`` or a float keep their exact bits.
"""

from __future__ import annotations

import re

from ...ir.attributes import UNIT, ArrayAttr, Attribute, BoolAttr, DenseI32ArrayAttr, DictAttr, FloatAttr, IntegerAttr, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, unquote_string
from ...ir.types import FloatType, IntegerType, Type

_I32_ARRAY = re.compile(r"array<i32(?::\s*(-?\d+(?:\s*,\s*-?\d+)*))?>\Z")


class AttributeSyntaxError(ValueError):
    """Attribute text that the grammar rejects."""


def _typed(literal: str, type_: Type = None):
    if isinstance(type_, FloatType) or (type_ is None and "." in literal):
        return FloatAttr(literal, type_)
    if type_ is None:
        return IntegerAttr(int(literal, 0), IntegerType(64))
    if isinstance(type_, IntegerType) and type_.width == 1:
        return BoolAttr(int(literal, 0) != 0)
    value = int(literal, 0)
    if isinstance(type_, IntegerType):
        value = integer_at_width(value, type_)
    return IntegerAttr(value, type_)


def integer_at_width(value: int, type_: IntegerType) -> int:
    """An integer literal read at its type's width, as MLIR reads it (SPEC.md section 3): a
    signless integer is its bits, stored signed (``18446744073709551615 : i64`` and
    ``0xFFFFFFFFFFFFFFFF : i64`` are both -1); ``si``/``ui`` keep their own range.

    Raises:
        ValueError: the literal does not fit in the type ("integer constant out of range").
    """
    width = type_.width
    if type_.signedness == "u":
        low, high = 0, (1 << width) - 1
    elif type_.signedness == "s":
        low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    else:
        low, high = -(1 << (width - 1)), (1 << width) - 1
    if not low <= value <= high:
        raise ValueError(f"integer constant {value} out of range for {type_}")
    if type_.signedness == "" and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def coarse_attribute(text: str):
    """A single ATTR token (``array<i32: 1, 0>``, ``dense<...>``, ``#alias``) as an attribute."""
    m = _I32_ARRAY.match(text)
    if m:
        values = m.group(1)
        return DenseI32ArrayAttr(tuple(int(v) for v in values.split(",")) if values else ())
    return OpaqueAttr(text)


def unique_entries(entries) -> tuple:
    """Dictionary entries, refusing a name given twice (MLIR: "duplicate key").

    Raises:
        ValueError: a duplicate name.
    """
    out = tuple(entries)
    seen = set()
    for name, _ in out:
        if name in seen:
            raise ValueError(f"duplicate key '{name}' in the attribute dictionary")
        seen.add(name)
    return out


class AttributeBuilder:
    """Parse-time callbacks of the ``attribute`` rules (mixed into the detail transformer);
    ``self.parse_type`` reads a type token's text (see :class:`~.types.TypeBuilder`)."""

    def typed_literal(self, c):
        type_ = self.parse_type(str(c[2])) if len(c) > 2 else None
        return _typed(str(c[0]), type_)

    def coarse_attribute(self, c):
        if len(c) > 1:
            return OpaqueAttr(f"{c[0]} : {c[2]}")
        return coarse_attribute(str(c[0]))

    def string_attribute(self, c):
        if len(c) > 1:
            return OpaqueAttr(f"{c[0]} : {c[2]}")
        return StringAttr(unquote_string(str(c[0])))

    def type_attribute(self, c):
        return TypeAttr(self.parse_type(str(c[0])))

    def function_type_attribute(self, c):
        """``function_type = (i32) -> ()`` of a generic ``tt.func`` (what ``--mlir-print-op-generic``
        prints): the ``function_type`` rule's FunctionType, as a type attribute."""
        return TypeAttr(c[0])

    def symbol_attribute(self, c):
        return SymbolRefAttr(str(c[0]))

    def keyword_attribute(self, c):
        word = str(c[0])
        if word in ("true", "false"):
            return BoolAttr(word == "true")
        if word == "unit":
            return UNIT
        return OpaqueAttr(word)

    def array_attribute(self, c):
        return ArrayAttr(tuple(x for x in c if isinstance(x, Attribute)))

    def dictionary_attribute(self, c):
        return c[0]

    def location_attribute(self, c):
        return OpaqueAttr(str(c[0]))

    def attr_entry(self, c):
        key = c[0]
        name = unquote_string(str(key)) if key.type == "STRING" else str(key)
        return (name, c[2] if len(c) > 2 else UNIT)

    def attr_dict(self, c):
        return DictAttr(unique_entries(x for x in c if isinstance(x, tuple)))

    def attribute(self, c):
        return c[0]
