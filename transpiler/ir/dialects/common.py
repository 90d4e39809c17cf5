"""Attribute kinds shared by several dialects, and a dictionary printer for print hooks.

The kinds are ODS spellings: a unit attribute written as a keyword (``tt.reshape ...
allow_reorder``), a dialect attribute written as a keyword and its angle-bracket body
(``arith.addf ... fastmath<fast>`` for ``#arith.fastmath<fast>``), and an attribute written in
angle brackets (``ub.poison <#ub.poison>``).
"""

from __future__ import annotations

from typing import Dict

from ..attributes import UNIT, Attribute, OpaqueAttr, UnitAttr, format_attr_dict
from ..dialect import AttrKind, TokenAttrKind
from ..format import FormatError


def operands_like_result(detail, parsed) -> None:
    """Type rule of ops whose one printed type is the result's and every operand's
    (ODS ``SameOperandsAndResultType`` with ``type($result)`` in the format)."""
    (t,) = parsed.types["result"]
    detail.operand_type_hints = [t] * len(detail.operand_names)


class UnitKeyword(AttrKind):
    """A unit attribute spelled as a keyword, present or absent (``allow_reorder``).

    Another value under that name (Triton 3.0's ``{allow_reorder = false}``) is not the
    keyword: the printer leaves it in the attribute dictionary (``spells`` says which is which).
    """

    def __init__(self, word: str):
        self.word = word

    def spells(self, attr: Attribute) -> bool:
        return isinstance(attr, UnitAttr)

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) in ("BARE_ID", "TYPE") and str(item) == self.word

    def parse(self, cursor) -> Attribute:
        if not self.can_start(cursor.peek()):
            raise FormatError(f"expected '{self.word}', found '{cursor.peek()}'", cursor.peek())
        cursor.next()
        return UNIT

    def print(self, attr: Attribute) -> str:
        return self.word


class KeywordAngle(AttrKind):
    """``keyword<body>`` standing for the dialect attribute ``#dialect.mnemonic<body>``
    (``fastmath<fast>`` is ``#arith.fastmath<fast>``)."""

    def __init__(self, keyword: str, attr_prefix: str):
        self.keyword = keyword
        self.attr_prefix = attr_prefix

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) == "BARE_ID" and str(item) == self.keyword

    def parse(self, cursor) -> Attribute:
        if not self.can_start(cursor.peek()):
            raise FormatError(f"expected '{self.keyword}<...>', found '{cursor.peek()}'", cursor.peek())
        cursor.next()
        body = cursor.expect("ANGLE", f"'<...>' after '{self.keyword}'")
        return OpaqueAttr(self.attr_prefix + str(body))

    def print(self, attr: Attribute) -> str:
        text = str(attr)
        if text.startswith(self.attr_prefix + "<"):
            return self.keyword + text[len(self.attr_prefix):]
        return f"{self.keyword}<{text}>"  # not a #prefix<...> attribute: cannot be shortened


class AngleAttr(TokenAttrKind):
    """An attribute written inside angle brackets (``<#ub.poison>``)."""

    token, what = "ANGLE", "'<attribute>'"

    def decode(self, text: str, cursor) -> Attribute:
        return cursor.parse_attribute(text[1:-1].strip())

    def print(self, attr: Attribute) -> str:
        return f"<{attr}>"


def print_attr_dict(attributes: Dict[str, Attribute], skip=(), keyword: bool = False) -> str:
    """`` {a = 1}`` (or `` attributes {a = 1}``) without the ``skip`` names; empty if nothing left."""
    rest = {k: v for k, v in attributes.items() if k not in skip}
    if not rest:
        return ""
    return (" attributes " if keyword else " ") + format_attr_dict(rest)
