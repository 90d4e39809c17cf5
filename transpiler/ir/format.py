"""Declarative assembly formats: the format strings of op declarations, compiled (as MLIR's ODS).

An op declares its custom syntax once, as an ODS format string::

    "$input `,` $token `,` attr-dict `:` type($input) `,` type($token) `->` type($result)"

Elements: `` `literal` `` (keyword or punctuation), ``$name`` (an operand, attribute, region
or successor of the op), ``type($x)``, ``functional-type($ins, $outs)``, ``attr-dict``,
``attr-dict-with-keyword``, and optional groups ``( ... $anchor^ ... )?``.

:func:`compile_format` turns the string into elements once per op declaration.  One engine
interprets them in both directions: :mod:`transpiler.parser.detail.format_reader` reads an op's text
by them, :mod:`transpiler.emit.format_printer` prints an op by them.
"""

from __future__ import annotations

import re
from typing import List, Optional, Set, Tuple

from .. import records


class FormatError(ValueError):
    """The op text does not follow the op's format; ``item`` is where it went wrong (or None)."""

    def __init__(self, message: str, item=None):
        super().__init__(message)
        self.item = item


# ---- format elements ----------------------------------------------------------------------------


@records.frozen
class Literal:
    text: str


@records.frozen
class Ref:
    name: str


@records.frozen
class TypeOf:
    name: str


@records.frozen
class FunctionalType:
    inputs: str
    results: str


@records.frozen
class AttrDictDirective:
    with_keyword: bool


@records.frozen
class OptionalGroup:
    elements: Tuple
    anchor: str


_FORMAT_TOKEN = re.compile(
    r"\s*(?:`(?P<lit>[^`]*)`|(?P<fn>functional-type)\(\s*\$(?P<a>\w+)\s*,\s*\$(?P<b>\w+)\s*\)"
    r"|type\(\s*\$(?P<ty>\w+)\s*\)|(?P<ad>attr-dict-with-keyword|attr-dict)|\$(?P<ref>\w+)(?P<anchor>\^)?"
    r"|(?P<open>\()|(?P<close>\)\?))"
)


def compile_format(text: str) -> Tuple:
    """Compile an ODS format string into a tuple of elements.

    Raises:
        ValueError: on a malformed format string (a bug in a dialect declaration).
    """
    pos = 0
    stack: List[List] = [[]]
    anchors: List[Optional[str]] = [None]
    text = text.strip()
    while pos < len(text):
        m = _FORMAT_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"bad format near {text[pos:]!r}")
        pos = m.end()
        g = m.groupdict()
        if g["lit"] is not None:
            stack[-1].append(Literal(g["lit"]))
        elif g["fn"]:
            stack[-1].append(FunctionalType(g["a"], g["b"]))
        elif g["ty"]:
            stack[-1].append(TypeOf(g["ty"]))
        elif g["ad"]:
            stack[-1].append(AttrDictDirective(g["ad"].endswith("keyword")))
        elif g["ref"]:
            stack[-1].append(Ref(g["ref"]))
            if g["anchor"]:
                anchors[-1] = g["ref"]
        elif g["open"]:
            stack.append([])
            anchors.append(None)
        elif g["close"]:
            elements = stack.pop()
            anchor = anchors.pop()
            if anchor is None:
                raise ValueError(f"optional group without anchor in {text!r}")
            stack[-1].append(OptionalGroup(tuple(elements), anchor))
        text_rest = text[pos:]
        if not text_rest.strip():
            break
    if len(stack) != 1:
        raise ValueError(f"unbalanced optional group in {text!r}")
    return tuple(stack[0])


def format_names(elements) -> Set[str]:
    """The ``$name`` of every :class:`Ref` among ``elements``, optional groups included."""
    names: Set[str] = set()
    for e in elements:
        if isinstance(e, Ref):
            names.add(e.name)
        elif isinstance(e, OptionalGroup):
            names |= format_names(e.elements)
    return names
