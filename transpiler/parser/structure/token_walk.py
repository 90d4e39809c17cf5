"""The careful path of the structure lexer: the token walk of one op's text (:func:`scan_body`),
for every op whose line does not prove it whole (DESIGN.md, "Where an op ends")."""

from __future__ import annotations

import re
from typing import Tuple

from . import boundary as b
from .tokens import LexError


_BODY_STOP = re.compile(r'->|>=|//|(?<![\w$.@#!%^\-])(?:distributed\.|tt\.dot)|["(){}\[\]<>\n\r%]')
# the same, and a bare op name, for an op that ends before one (boundary.ends_before_op_name)
_BODY_STOP_EXACT = re.compile(_BODY_STOP.pattern.replace("//|", "//|" + b.BARE_OP_NAME + "|", 1))


_CLOSER = {")": "(", "]": "[", ">": "<"}


# strings first (skipped), then the start of another alias definition inside an alias's text
_NEXT_ALIAS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n\r]*|([#!][\w$.\-]+[ \t]*=(?!=))')


_OPENER_NAME = {"(": "')'", "[": "']'", "<": "'>'", "{": "'}'"}


def _another_alias(text: str, start: int, end: int):
    """The match of the next alias definition inside ``text[start:end]`` (None if none)."""
    if text.find("#", start, end) < 0 and text.find("!", start, end) < 0:
        return None
    return next((m for m in _NEXT_ALIAS.finditer(text, start, end) if m.group(1) is not None), None)


def _after_comma(text: str, start: int, s: int) -> bool:
    k = b.trim_end(text, start, s)
    return k > start and text[k - 1] == ","


def _comment_end(text: str, s: int) -> int:
    m = b.COMMENT_END.search(text, s)
    return m.start() if m else -1


def _not_an_op(text: str, p: int) -> str:
    c = text[p]
    if ord(c) < 0x20 and c not in "\t\r\n":
        return f"unexpected control character U+{ord(c):04X}"
    if c == '"':
        return "unterminated string" if b.string_end(text, p) < 0 else "expected an operation"
    return f"expected an operation, found '{text[p:p + 20].split()[0] if text[p:p + 20].split() else c}'"


# ---- the token walk of one op ----------------------------------------------------------------
def scan_body(text: str, p: int, brackets: list, top_level: bool, regions: bool = True,
               stop_at_colon: bool = False, generic: bool = False,
               exact: bool = False) -> Tuple[str, int, int]:
    """Walk an op's text from ``p`` with the open ``brackets`` (updated in place).

    Returns ``("end", body_end, -1)`` when the op ends (``body_end``: after its last token)
    or ``("region", body_end, offset_of_brace)`` at a ``{`` that opens a region.  With
    ``stop_at_colon`` (block arguments), returns at the ``)`` that closes the list.

    Raises:
        LexError: an unbalanced bracket or an unterminated string.
    """
    n = len(text)
    search = (_BODY_STOP_EXACT if exact else _BODY_STOP).search
    start = p
    while True:
        m = search(text, p)
        if m is None:
            if brackets:
                opener, at = brackets[-1]
                raise LexError(at, f"unbalanced '{opener}': expected {_OPENER_NAME[opener]} before the end of the input")
            return "end", b.trim_end(text, start, n), -1
        s = m.start()
        tok = m.group()
        if tok == '"':
            end = b.string_end(text, s)
            if end < 0:
                raise LexError(s, "unterminated string: expected '\"' before the end of the line")
            if (not brackets and b.skip(text, start) < s and text[s - 1] != "@"
                    and text.startswith("(", b.skip(text, end))):  # `"name"(` after the op's text: a generic op
                # (first in the op's text it is a callee: `emitc.call_opaque "f"(%x)`)
                return "end", b.trim_end(text, start, s), -1
            p = end
        elif tok == "%":
            if not brackets and not _after_comma(text, start, s) and b.starts_op_after_def(text, s):
                # `%x = name`: the next op (a `%` after `,` is in a list that began before)
                return "end", b.trim_end(text, start, s), -1
            p = s + 1
        elif tok[0].isalpha() or tok[0] == "_":  # `distributed.`, `tt.dot`, an op name (exact)
            if not brackets:
                return "end", b.trim_end(text, start, s), -1
            p = s + len(tok)
        elif tok == "->" or tok == ">=":
            p = s + 2
        elif tok in "([<":
            brackets.append((tok, s))
            p = s + 1
        elif tok in ")]>":
            if brackets and brackets[-1][0] == _CLOSER[tok]:
                brackets.pop()
                if stop_at_colon and not brackets:
                    return "end", s + 1, -1
            elif tok != ">":  # a `>` outside `<...>` is an operator of an expression
                raise LexError(s, f"unexpected '{tok}'" + (f": expected {_OPENER_NAME[brackets[-1][0]]}"
                                                             if brackets else ""))
            p = s + 1
        elif tok == "{":
            if regions and b.opens_region(text, s + 1, generic=generic, in_parens=bool(brackets)):
                return "region", b.trim_end(text, start, s), s
            brackets.append(("{", s))
            p = s + 1
        elif tok == "}":
            if brackets and brackets[-1][0] == "{":
                brackets.pop()
                p = s + 1
            elif not brackets:
                return "end", b.trim_end(text, start, s), -1  # the enclosing region closes
            else:
                opener, at = brackets[-1]
                raise LexError(s, f"unexpected '}}': expected {_OPENER_NAME[opener]} (opened here before)")
        else:  # a comment or a line break (`\r` alone ends a line too, as in MLIR's lexer)
            eol = _comment_end(text, s) if tok == "//" else s
            if eol < 0:
                eol = n
            if not brackets:
                cut = b.trim_end(text, start, s)
                if not b.continues(text, start, cut) and b.starts_item(text, b.skip(text, eol), top_level):
                    return "end", cut, -1
            p = eol + 1 if eol < n else n
