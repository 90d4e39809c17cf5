"""A cursor over the item list of one op body (tokens and attribute dictionaries), for the
format reader and the custom parse hooks."""

from __future__ import annotations

from typing import List, Optional, Sequence
from ...ir.attributes import Attribute, DictAttr
from ...ir.format import FormatError
from ...ir.types import Type
from .text import parse_attribute as _parse_attribute
from .errors import Token
from .text import parse_type as _parse_type


_PUNCT_TOKENS = {
    ",": "COMMA",
    ":": "COLON",
    "=": "EQUAL",
    "->": "ARROW",
    "(": "LPAR",
    ")": "RPAR",
    "[": "LSQB",
    "]": "RSQB",
    "*": "STAR",
    "?": "QMARK",
    "+": "PLUS",
}


class Cursor:
    """A position in an op's item list, with the small reads parse hooks need."""

    def __init__(self, items: Sequence):
        self.items = list(items)
        self.i = 0

    def peek(self, k: int = 0):
        j = self.i + k
        return self.items[j] if j < len(self.items) else None

    def next(self):
        i = self.i
        self.i = i + 1
        return self.items[i] if i < len(self.items) else None

    def at_end(self) -> bool:
        return self.i >= len(self.items)

    def kind(self, k: int = 0) -> Optional[str]:
        return _kind(self.peek(k))

    def expect(self, kind: str, what: str):
        """Take the next item, which must be of ``kind``; else :class:`FormatError`."""
        i = self.i
        item = self.items[i] if i < len(self.items) else None
        if (item.type if type(item) is Token else _kind(item)) != kind:
            raise FormatError(f"expected {what}, found {_describe(item)}", item)
        self.i = i + 1
        return item

    def accept(self, kind: str):
        """Take the next item if it is of ``kind`` (else None)."""
        if _kind(self.peek()) == kind:
            return self.next()
        return None

    def accept_keyword(self, word: str) -> bool:
        if literal_matches(word, self.peek()):
            self.next()
            return True
        return False

    def expect_keyword(self, word: str) -> None:
        if not self.accept_keyword(word):
            raise FormatError(f"expected '{word}', found {_describe(self.peek())}", self.peek())

    def type(self) -> Type:
        return _read_type(self.expect("TYPE", "a type"))

    def type_list(self) -> List[Type]:
        """``T, T, ...`` (one or more)."""
        types = [self.type()]
        while self.kind() == "COMMA" and self.kind(1) == "TYPE":
            self.next()
            types.append(self.type())
        return types

    def paren_type_list(self) -> List[Type]:
        """``(T, ...)`` or ``()``."""
        self.expect("LPAR", "'('")
        types = [] if self.kind() == "RPAR" else self.type_list()
        self.expect("RPAR", "')'")
        return types

    def trailing_location(self) -> Optional[str]:
        if self.items and _kind(self.items[-1]) == "LOC":
            return str(self.items.pop())
        return None

    @staticmethod
    def parse_attribute(text: str) -> Attribute:
        """An attribute's text as an attribute (for attribute kinds that read a token).

        Raises:
            ValueError: the text is not an attribute.
        """
        return _parse_attribute(text)

    @staticmethod
    def parse_type(text: str) -> Type:
        """A type's text as a type (interned).

        Raises:
            ValueError: the text is not a type.
        """
        return _parse_type(text)

    def expect_end(self) -> None:
        if not self.at_end():
            item = self.peek()
            raise FormatError(f"expected the end of the op, found {_describe(item)}", item)


def _kind(item) -> Optional[str]:
    if type(item) is Token:
        return item.type
    if isinstance(item, DictAttr):
        return "ATTR_DICT"
    return getattr(item, "type", None)


def _describe(item) -> str:
    if item is None:
        return "the end of the op"
    if isinstance(item, DictAttr):
        return "an attribute dictionary"
    return f"'{item}'"


def literal_matches(lit: str, item) -> bool:
    """Does the item spell the literal (a keyword may lex as a type, e.g. ``tf32``)."""
    kind = _kind(item)
    if lit in _PUNCT_TOKENS:
        return kind == _PUNCT_TOKENS[lit]
    return kind in ("BARE_ID", "TYPE") and str(item) == lit


def _read_type(tok) -> Type:
    """The type a TYPE token spells; a malformed one is a :class:`FormatError` at the token."""
    try:
        return _parse_type(str(tok))
    except ValueError as e:
        raise FormatError(str(e), tok) from None
