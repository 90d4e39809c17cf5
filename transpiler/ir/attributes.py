"""Attributes of the typed IR: frozen ``attrs`` classes that print as MLIR prints them.

Structured classes exist for what passes read or build (integers, booleans, strings, unit,
dense i32 arrays, arrays, dictionaries, types, symbol references).  Everything else
(``dense<...>``, ``#ttg.blocked<...>``, ``#hivm.pipe<...>``, aliases, locations) is an
:class:`OpaqueAttr` holding its exact text.

:func:`format_attr_dict` prints a dictionary the way MLIR's printer does: entries sorted by
name, unit attributes as a bare name, names that are not bare identifiers quoted.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional, Tuple

from .. import records
from .types import IntegerType, Type

_BARE_ID = re.compile(r"[A-Za-z_][\w$.]*\Z")


class Attribute:
    """Base class of all attributes.  ``str(a)`` is the attribute's canonical MLIR text."""

    __slots__ = ()


@records.frozen(repr=False)
class IntegerAttr(Attribute):
    """``<value> : <type>``; ``type`` None prints the value alone (as inside ``array<>``)."""

    value: int
    type: Optional[Type] = IntegerType(64)

    def __str__(self) -> str:
        if isinstance(self.type, IntegerType) and self.type.width == 1:
            return "true" if self.value else "false"
        return str(self.value) if self.type is None else f"{self.value} : {self.type}"

    __repr__ = __str__


@records.frozen(repr=False)
class BoolAttr(Attribute):
    """``true`` / ``false``."""

    value: bool

    def __str__(self) -> str:
        return "true" if self.value else "false"

    __repr__ = __str__


@records.frozen(repr=False)
class FloatAttr(Attribute):
    """A float literal kept as written (``1.500000e+00 : f32``, ``0xFF800000 : f32``).

    The text is kept so that the bits stay the same at the type's width: never re-printed
    through a Python float (SPEC.md section 3).
    """

    text: str
    type: Optional[Type] = None

    def __str__(self) -> str:
        return self.text if self.type is None else f"{self.text} : {self.type}"

    __repr__ = __str__


@records.frozen(repr=False)
class StringAttr(Attribute):
    """A string; ``value`` is the decoded string, ``str()`` the escaped MLIR literal."""

    value: str

    def __str__(self) -> str:
        return quote_string(self.value)

    __repr__ = __str__


@records.frozen(repr=False)
class UnitAttr(Attribute):
    """The unit attribute: printed as a bare name inside a dictionary."""

    def __str__(self) -> str:
        return "unit"

    __repr__ = __str__


@records.frozen(repr=False)
class DenseI32ArrayAttr(Attribute):
    """``array<i32: 0, 1>`` (``array<i32>`` when empty)."""

    values: Tuple[int, ...]

    def __str__(self) -> str:
        if not self.values:
            return "array<i32>"
        return "array<i32: " + ", ".join(map(str, self.values)) + ">"

    __repr__ = __str__


@records.frozen(repr=False)
class ArrayAttr(Attribute):
    """``[a, b, ...]``."""

    elements: Tuple[Attribute, ...]

    def __str__(self) -> str:
        return nested_text(self)

    __repr__ = __str__


@records.frozen(repr=False)
class DictAttr(Attribute):
    """``{name = value, ...}``, entries kept as an ordered tuple of pairs."""

    entries: Tuple[Tuple[str, Attribute], ...]

    def as_dict(self) -> dict:
        return dict(self.entries)

    def __str__(self) -> str:
        return nested_text(self)

    __repr__ = __str__


@records.frozen(repr=False)
class TypeAttr(Attribute):
    """A type used as an attribute."""

    type: Type

    def __str__(self) -> str:
        return str(self.type)

    __repr__ = __str__


@records.frozen(repr=False)
class SymbolRefAttr(Attribute):
    """``@name`` as written (quoted names keep their quotes)."""

    text: str

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


@records.frozen(repr=False)
class OpaqueAttr(Attribute):
    """Any other attribute, kept as the exact text it was written with."""

    text: str

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


UNIT = UnitAttr()


def i32_attr(value: int) -> IntegerAttr:
    """``value : i32``."""
    return IntegerAttr(value, IntegerType(32))


def quote_string(value: str) -> str:
    """Escape ``value`` as MLIR prints a string literal (``\\22`` for a quote, ``\\0A`` ...)."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return '"' + value + '"'  # nothing to escape (the usual symbol or name)
    out = []
    for ch in value:
        code = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append("\\22")
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        else:
            out.extend(f"\\{b:02X}" for b in ch.encode("utf-8", "surrogateescape"))  # bytes kept
    return '"' + "".join(out) + '"'


def unquote_string(literal: str) -> str:
    """Decode an MLIR string literal (with its quotes) into a Python string.

    Raises:
        ValueError: on a malformed escape.
    """
    body = literal[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in ('"', "\\"):
            out += nxt.encode()
            i += 2
        elif nxt == "n":
            out += b"\n"
            i += 2
        elif nxt == "t":
            out += b"\t"
            i += 2
        else:
            hex2 = body[i + 1 : i + 3]
            if len(hex2) != 2 or not all(c in "0123456789abcdefABCDEF" for c in hex2):
                raise ValueError(f"invalid escape '\\{hex2}' in string literal")
            out.append(int(hex2, 16))
            i += 3
    return out.decode("utf-8", errors="surrogateescape")


def nested_text(attr: Attribute) -> str:
    """``str(attr)`` for arrays and dictionaries nested to any depth: an explicit stack of the
    pieces still to print, not one Python call per level (MLIR reads ``[[[...]]]`` 3 000 deep,
    issue 25).  Dictionaries print as :func:`format_attr_dict` prints them."""
    out = []
    stack: list = [attr]  # attributes, and text to print as it is
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            out.append(item)
        elif kind is ArrayAttr:
            pieces: list = ["["]
            for i, element in enumerate(item.elements):
                pieces += [", ", element] if i else [element]
            stack += reversed(pieces + ["]"])
        elif kind is DictAttr:
            stack += reversed(_dict_pieces(sorted(dict(item.entries).items())))
        else:
            out.append(str(item))
    return "".join(out)


def format_attr_name(name: str) -> str:
    """An attribute name as MLIR prints it: bare when it is an identifier, else quoted."""
    return name if _BARE_ID.match(name) else quote_string(name)


def format_attr_dict(attributes: Mapping[str, Attribute], sort: bool = True) -> str:
    """``{a = 1 : i32, b}``: MLIR's dictionary print, sorted by name as MLIR's printer does.

    Unit attributes print as the bare name.  An empty mapping prints as ``{}``.
    """
    parts = []
    for name, value in (sorted(attributes.items()) if sort else attributes.items()):
        name = name if _BARE_ID.match(name) else quote_string(name)
        parts.append(name if isinstance(value, UnitAttr) else f"{name} = {value}")
    return "{" + ", ".join(parts) + "}"


def _dict_pieces(items) -> list:
    """A dictionary's text as pieces: text, and the values (attributes) in their places."""
    pieces: list = ["{"]
    for i, (name, value) in enumerate(items):
        if i:
            pieces.append(", ")
        pieces += [format_attr_name(name)] if isinstance(value, UnitAttr) else [format_attr_name(name) + " = ", value]
    pieces.append("}")
    return pieces
