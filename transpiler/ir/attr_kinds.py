"""How an attribute named in an assembly format (``$scope``) is written and stored: one
:class:`AttrKind` per spelling (a token, an enum keyword, a typed literal, a symbol).

The reading side gets a cursor from the parser (``parse(cursor)``), which also parses the text
of a type or attribute for it, so that ``ir/`` never imports the parser.
"""

from __future__ import annotations

from typing import Optional, Tuple

from .. import records
from .attributes import Attribute, IntegerAttr
from .format import FormatError
from .types import I32, IntegerType


class AttrKind:
    """How an attribute named in a format (``$scope``) is written and stored."""

    def can_start(self, item) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def parse(self, cursor) -> Attribute:  # pragma: no cover - interface
        raise NotImplementedError

    def print(self, attr: Attribute) -> str:  # pragma: no cover - interface
        raise NotImplementedError


class TokenAttrKind(AttrKind):
    """An attribute written as exactly one token of the custom-form tokenizer.

    Subclasses set ``token`` (the token type, e.g. ``"STRING"``) and ``what`` (its name in
    errors) and convert between the token's text and the stored attribute.

    Raises:
        FormatError: from :meth:`parse` when the next item is not a ``token``.
    """

    token: str = ""
    what: str = ""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) == self.token

    def parse(self, cursor) -> Attribute:
        return self.decode(str(cursor.expect(self.token, self.what)), cursor)

    def decode(self, text: str, cursor) -> Attribute:  # pragma: no cover - interface
        raise NotImplementedError

    def print(self, attr: Attribute) -> str:
        return str(attr)


@records.frozen
class EnumKeyword(AttrKind):
    """An i32 enum printed as a keyword (``scope = gpu``), stored as ``N : i32``.

    ``values`` maps keyword to number (SPEC.md section 1 enum tables).
    """

    enum_name: str
    values: Tuple[Tuple[str, int], ...]
    storage: IntegerType = I32

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) in ("BARE_ID", "TYPE") and str(item) in dict(self.values)

    def parse(self, cursor) -> Attribute:
        item = cursor.peek()
        table = dict(self.values)
        if getattr(item, "type", None) not in ("BARE_ID", "TYPE") or str(item) not in table:
            words = ", ".join(k for k, _ in self.values)
            raise FormatError(f"expected {self.enum_name} keyword ({words}), found '{item}'", item)
        cursor.next()
        return IntegerAttr(table[str(item)], self.storage)

    def print(self, attr: Attribute) -> str:
        for k, v in self.values:
            if isinstance(attr, IntegerAttr) and attr.value == v:
                return k
        return str(attr)

    def keyword(self, value: int) -> Optional[str]:
        return next((k for k, v in self.values if v == value), None)


@records.frozen
class TypedValue(AttrKind):
    """A literal with its type (``3 : i64``, ``dense<0.0> : tensor<4xf32>``, ``true``)."""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) in ("INTEGER", "FLOAT", "ATTR", "BARE_ID")

    def parse(self, cursor) -> Attribute:
        item = cursor.next()
        if getattr(item, "type", None) not in ("INTEGER", "FLOAT", "ATTR", "BARE_ID", "STRING"):
            raise FormatError(f"expected a literal value, found '{item}'", item)
        text = str(item)
        if getattr(cursor.peek(), "type", None) == "COLON" and getattr(cursor.peek(1), "type", None) == "TYPE":
            cursor.next()
            text = f"{text} : {cursor.next()}"
        return cursor.parse_attribute(text)

    def print(self, attr: Attribute) -> str:
        return str(attr)


@records.frozen
class SymbolRef(AttrKind):
    """A symbol reference (``@callee``)."""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) == "SYMBOL_REF"

    def parse(self, cursor) -> Attribute:
        from .attributes import SymbolRefAttr

        return SymbolRefAttr(str(cursor.expect("SYMBOL_REF", "a symbol (@name)")))

    def print(self, attr: Attribute) -> str:
        return str(attr)
