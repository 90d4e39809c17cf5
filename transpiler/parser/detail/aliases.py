"""Attribute aliases read where they are used, as ``mlir-opt`` reads them: ``#add = 2 : i32``
at the top of a file makes ``sigOp = #add`` the attribute ``2 : i32`` (MLIR LangRef,
"Attribute Value Aliases"; SPEC.md section 3).  An op's attributes and properties are
substituted once its detail is read, inside arrays and dictionaries too; the op's own text is
not touched (an op copied through keeps ``#add``)."""

from __future__ import annotations

import re
from typing import Dict

from ...ir.attributes import ArrayAttr, Attribute, DictAttr, OpaqueAttr
from .text import parse_attribute

#: An attribute that is a bare alias use, ``#name`` (not ``#dialect<...>`` or ``#dialect.x``).
_ALIAS_REF = re.compile(r"#[A-Za-z_][\w$]*\Z")

#: How many aliases may name one another in a chain (``#a = #b``, ``#b = #c``...): MLIR
#: requires a definition before its use, so a longer chain is a cycle.
MAX_CHAIN = 64


def substitute(attr: Attribute, aliases: Dict[str, str], depth: int = 0) -> Attribute:
    """``attr`` with every alias use replaced by the alias's value (``aliases``: name with its
    ``#`` -> value text, as defined at the top of the file).

    Raises:
        ValueError: a chain of aliases longer than :data:`MAX_CHAIN` (a cycle), or an alias
            whose value is not an attribute (the message names the alias).
    """
    if isinstance(attr, OpaqueAttr) and _ALIAS_REF.match(attr.text) and attr.text in aliases:
        if depth >= MAX_CHAIN:
            raise ValueError(f"alias '{attr.text}' is defined through more than {MAX_CHAIN} aliases (a cycle?)")
        try:
            value = parse_attribute(aliases[attr.text])
        except ValueError as e:
            raise ValueError(f"alias '{attr.text}' is not an attribute: {e}") from None
        return substitute(value, aliases, depth + 1)
    if isinstance(attr, ArrayAttr):
        elements = tuple(substitute(a, aliases, depth) for a in attr.elements)
        return attr if elements == attr.elements else ArrayAttr(elements)
    if isinstance(attr, DictAttr):
        entries = tuple((k, substitute(v, aliases, depth)) for k, v in attr.entries)
        return attr if entries == attr.entries else DictAttr(entries)
    return attr


def substitute_all(values: Dict[str, Attribute], aliases: Dict[str, str]) -> None:
    """Substitute the aliases in each value of an op's ``attributes`` or ``properties``, in place.

    Raises:
        ValueError: see :func:`substitute`.
    """
    for name, attr in values.items():
        new = substitute(attr, aliases)
        if new is not attr:
            values[name] = new
