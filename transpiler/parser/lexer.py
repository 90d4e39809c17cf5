"""Structure lexer for level 1 of ``grammars/ttir.lark``: coarse tokens over the whole buffer.

It emits a few coarse tokens per op (``DEF``, ``OP_NAME``, ``BODY``, ``REGION_OPEN``,
``REGION_CLOSE``, ``BLOCK_LABEL``, ``ALIAS``, ``METADATA``) so that the LALR parser does a handful
of steps per op (DESIGN.md, "coarse tokens").  Where an op ends is decided from the tokens
around each line break, never from the line break alone (:mod:`transpiler.parser.boundary`), so
an op may span lines and comments may stand anywhere.  A ``BODY`` may therefore hold line
breaks and comments; the detail level skips them.

Two paths give the same tokens:

* the fast path takes a whole line with one regex when the text proves the line holds one
  whole op: brackets balanced, no region inside it, and the next line begins an item;
* every other op goes through :meth:`StructureLexer._scan_body`, which walks its tokens.

Errors are raised as :class:`LexError` with the offset of the offending character.
"""

from __future__ import annotations

from typing import Iterator, List, Tuple

from .._compat import re  # possessive quantifiers before Python 3.11
from . import boundary as b


class LexError(Exception):
    """Text that is not MLIR's structure (an unbalanced bracket, a stray ``}``, ...).

    Attributes:
        offset: character offset (0-based) in the parsed text where the problem is.
        message: what was expected, in MLIR's wording where MLIR has one.
    """

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


class Tok:
    """A token as the LALR parser sees it: kind, text and [start_pos, end_pos) in the text.

    Lighter than ``lark.Token`` (no line/column bookkeeping: positions are turned into lines
    only when a diagnostic needs one).
    """

    __slots__ = ("type", "value", "start_pos", "end_pos")

    def __init__(self, type_: str, value: str, start_pos: int, end_pos: int):
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r}@{self.start_pos})"


class LineOp:
    """An ``OP_LINE`` token: a whole op without regions that its line proves complete.

    ``value`` is the op's name as written, ``def_text`` its results prefix (or None), ``body``
    its BODY token (or None); [start_pos, end_pos) the op's text, as the tokens DEF, OP_NAME
    and BODY of the same op would give.
    """

    __slots__ = ("value", "start_pos", "end_pos", "def_text", "body")
    type = "OP_LINE"

    def __init__(self, value: str, start_pos: int, end_pos: int, def_text, body):
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos
        self.def_text = def_text
        self.body = body

    def __repr__(self) -> str:
        return f"LineOp({self.value!r}@{self.start_pos})"


# One whole op on one line: results, name, a body without line breaks whose braces balance
# (dictionaries), an optional `{` opening a region, a trailing comment.
_LINE_BODY = r'(?:[^"{}\n\r/]++|/(?!/)|"(?:[^"\\\n]|\\.)*+"|\{(?:[^"{}\n]++|"(?:[^"\\\n]|\\.)*+"|\{(?:[^"{}\n]++|"(?:[^"\\\n]|\\.)*+"|\{(?:[^"{}\n]++|"(?:[^"\\\n]|\\.)*+")*+\})*+\})*+\})++'
_OP_LINE = re.compile(
    r'(%[\w$.\-]+(?::[0-9]+)?(?:[ \t]*,[ \t]*%[\w$.\-]+(?::[0-9]+)?)*[ \t]*=(?!=)[ \t]*)?'
    r'("(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w$.]*)[ \t]*+(' + _LINE_BODY + r')?(\{)?[ \t\r]*(?://[^\n]*)?(?=\n|\Z)'
)
_STRINGS = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# a `{` in a one-line body that may open a region (not `{}` and not `{key =`, `{key,`, `{key}`)
_MAYBE_REGION = r'\{(?![ \t]*\}|[ \t]*(?:[A-Za-z_][\w$.\-]*|"(?:[^"\\\n]|\\.)*")[ \t]*[=,}])'
_BODY_STOP = re.compile(r'->|>=|//|(?<![\w$.@#!%^])(?:distributed\.|tt\.dot)|["(){}\[\]<>\n\r%]')
# text in a one-line body that may be the start of a second op (the careful path decides)
# (a string directly after a `(`, such as a named location's `loc("x"(#loc3))`, is inside
# brackets, so it cannot begin a generic op)
_SUSPECT = r'=[ \t]*(?:"|[A-Za-z_][\w$]*\.[A-Za-z_])|"(?<!\(")(?:[^"\\\n]|\\.)*"[ \t]*\(|distributed\.|tt\.dot|\r'
# either of the two: the body is not for the fast path
_NOT_FAST = re.compile(_MAYBE_REGION + "|" + _SUSPECT)
# What follows an op's line when the next token begins an item, for most lines: blanks and
# comments (possessive: never a position inside them), then `}`, the end, `%x = ` and a quoted
# or dotted name, or a dotted name not followed by `=` (a `key = value` line).  A subset of
# `boundary.starts_item`, which decides every other case.
_WS_P = r"(?:[ \t\r\n]++|//[^\n\r]*+)*+"
_NEXT_ITEM = re.compile(
    _WS_P + r'(?=\}|\Z|%[\w$.\-]+(?::[0-9]+)?(?:[ \t]*,[ \t]*%[\w$.\-]+(?::[0-9]+)?)*[ \t]*=(?!=)[ \t]*(?:"|[A-Za-z_][\w$]*\.)'
    r'|[A-Za-z_][\w$]*\.[\w$.]*(?![\w$.])(?!' + _WS_P + r'=(?!=)))'
)
# an op's line and, in a lookahead, the start of the next item (group 5: the blanks and
# comments before it): the fast path's one regex for most lines
_OP_LINE_NEXT = re.compile(_OP_LINE.pattern + r"(?=(" + _WS_P + r")" + _NEXT_ITEM.pattern[len(_WS_P):] + r")")
# the rest of an op's line after the `}` that closes its region (` loc(#loc3)`, or nothing),
# and the next item's start (group 3: the blanks and comments before it)
_REST_LINE_NEXT = re.compile(r'[ \t]*+(' + _LINE_BODY + r')?(\{)?[ \t\r]*(?://[^\n]*)?(?=\n|\Z)'
                             + r"(?=(" + _WS_P + r")" + _NEXT_ITEM.pattern[len(_WS_P):] + r")")
# the same at the top level, where an alias definition (`#loc3 = ...`) begins an item too
_NEXT_TOP_ITEM = re.compile(_NEXT_ITEM.pattern[:-1] + r'|[#!][\w$.\-]+' + _WS_P + r'=(?!=))')
# an alias definition on one line: its name and `=`, then a value as an op's one-line body
_ALIAS_LINE = re.compile(r'[#!][\w$.\-]+[ \t]*=(?!=)(' + _LINE_BODY + r')?[ \t\r]*(?://[^\n]*)?(?=\n|\Z)')
_CLOSER = {")": "(", "]": "[", ">": "<"}
_OPENER_NAME = {"(": "')'", "[": "']'", "<": "'>'", "{": "'}'"}


def _balanced(text: str, start: int, end: int) -> bool:
    """Whether ``()``, ``[]`` and ``<>`` balance in ``text[start:end]`` (strings left out; a
    ``>`` of ``->`` or ``>=`` is an operator)."""
    if text.find('"', start, end) >= 0:
        text, start, end = _STRINGS.sub("", text[start:end]), 0, None
    count = text.count
    return (count("(", start, end) == count(")", start, end) and count("[", start, end) == count("]", start, end)
            and count("<", start, end) == count(">", start, end) - count("->", start, end) - count(">=", start, end))


class StructureLexer:
    """The lexer of the ``file`` start rule (its tokens feed :func:`~transpiler.parser.grammar.parse_structure`)."""

    def tokens(self, text: str) -> Iterator[Tok]:
        """Yield the structure tokens of ``text``; raise :class:`LexError` on bad structure."""
        if text.startswith("\ufeff"):
            raise LexError(0, "the text starts with a byte-order mark (U+FEFF): MLIR text has none, remove it")
        n = len(text)
        regions: List[Tuple[int, list]] = []  # (offset of `{`, brackets of the op owning it)
        skip = b.skip
        op_line = _OP_LINE.match
        op_line_next = _OP_LINE_NEXT.match
        rest_line_next = _REST_LINE_NEXT.match
        balanced = _balanced
        not_fast = _NOT_FAST.search
        continues = b.continues
        trim_end = b.trim_end
        default_ops = b.DEFAULT_DIALECT_OPS
        p = skip(text, 0)
        while p < n:
            c = text[p]
            if c not in "}^#!{":  # an op: on the fast path when its line proves it whole
                m = op_line_next(text, p)
                if m is not None and m.start(4) < 0:  # a line that the next item's start ends
                    (n0, n1), (b0, b1) = m.regs[2], m.regs[3]
                    word = text[n0:n1]
                    if ((word[0] == '"' or "." in word or word in default_ops)
                            and (b0 < 0 or (not_fast(text, b0, b1) is None and balanced(text, b0, b1)
                                            and not continues(text, b0, trim_end(text, b0, b1))))):
                        if b0 >= 0:
                            end = trim_end(text, b0, b1)
                            yield LineOp(word, p, end, text[p:n0] if n0 > p else None, Tok("BODY", text[b0:end], b0, end))
                        else:
                            yield LineOp(word, p, n1, text[p:n0] if n0 > p else None, None)
                        p = m.end(5)
                        continue
                if m is None:
                    m = op_line(text, p)
                if m is not None and m.start(4) < 0:
                    found = _line_op(text, p, m, not regions)
                    if found is not None:
                        yield found[0]
                        p = found[1]
                        continue
                p = yield from self._op(text, p, regions, m)
                p = skip(text, p)
                continue
            if c == "}":
                if not regions:
                    raise LexError(p, "unexpected '}': no region is open here")
                _open, brackets = regions.pop()
                yield Tok("REGION_CLOSE", "}", p, p + 1)
                if not brackets:  # the op's rest may be one line that the next item's start ends
                    m = rest_line_next(text, p + 1)
                    if m is not None and m.start(2) < 0:
                        b0, b1 = m.span(1)
                        if b0 < 0:
                            p = m.end(3)
                            continue
                        if not_fast(text, b0, b1) is None and balanced(text, b0, b1):
                            end = trim_end(text, b0, b1)
                            if not continues(text, b0, end):
                                yield Tok("BODY", text[b0:end], b0, end)
                                p = m.end(3)
                                continue
                p = yield from self._op_rest(text, p + 1, brackets, regions)
            elif c == "^":
                p = yield from self._block_label(text, p)
            elif (c == "#" or c == "!") and not regions and b.ALIAS_DEF.match(text, p):
                p = yield from self._alias(text, p)
            elif c == "{" and text.startswith("{-#", p) and not regions:
                end = text.find("#-}", p)
                if end < 0:
                    raise LexError(p, "file metadata '{-#' is not closed by '#-}'")
                yield Tok("METADATA", text[p : end + 3], p, end + 3)
                p = end + 3
            else:
                p = yield from self._op(text, p, regions)
            p = skip(text, p)
        if regions:
            raise LexError(regions[-1][0], "region is not closed: expected '}' before the end of the input")

    # ---- items ---------------------------------------------------------------------------------
    def _op(self, text: str, p: int, regions: list, m=None):
        if m is None:
            m = _OP_LINE.match(text, p)
        if m is not None and m.start(4) >= 0:  # a region opens at the end of the line
            (n0, n1), (b0, b1), o0 = m.regs[2], m.regs[3], m.start(4)
            body = text[b0:b1] if b0 >= 0 else ""
            word = text[n0:n1]
            if word[0] != '"' and "." not in word and word not in b.DEFAULT_DIALECT_OPS:
                pass  # the careful path reports it
            elif (not _NOT_FAST.search(body) and (b0 < 0 or _balanced(text, b0, b1))
                    and not b.continues(text, b0, b.trim_end(text, b0, b1))
                    and b.opens_region(text, o0 + 1)):
                if n0 > p:
                    yield Tok("DEF", text[p:n0], p, n0)
                yield Tok("OP_NAME", text[n0:n1], n0, n1)
                if b0 >= 0:
                    b0, end = b.skip(text, b0), b.trim_end(text, b0, b1)
                    if end > b0:
                        yield Tok("BODY", text[b0:end], b0, end)
                regions.append((o0, []))
                yield Tok("REGION_OPEN", "{", o0, o0 + 1)
                return o0 + 1
        d = b.DEF.match(text, p)
        q = d.end() if d else p
        name = b.OP_NAME.match(text, q)
        if name is None:
            if d is not None:
                raise LexError(q, "expected an op name after the result names and '='")
            raise LexError(p, _not_an_op(text, p))
        word = name.group()
        if word[0] != '"' and "." not in word and word not in b.DEFAULT_DIALECT_OPS:
            raise LexError(q, f"custom op '{word}' is unknown: an op name has a dialect prefix (dialect.op)")
        if d is not None:
            yield Tok("DEF", text[p:q], p, q)
        yield Tok("OP_NAME", name.group(), q, name.end())
        return (yield from self._op_rest(text, name.end(), [], regions))

    def _op_rest(self, text: str, p: int, brackets: list, regions: list):
        """The rest of an op from ``p``: BODY, then either a region's ``{`` or the op's end."""
        kind, body_end, pos = self._scan_body(text, p, brackets, top_level=not regions)
        start = b.skip(text, p) if body_end > p else p
        if body_end > start:
            yield Tok("BODY", text[start:body_end], start, body_end)
        if kind == "region":
            regions.append((pos, brackets))
            yield Tok("REGION_OPEN", "{", pos, pos + 1)
            return pos + 1
        return body_end

    def _block_label(self, text: str, p: int):
        m = b.BARE_ID.match(text, p + 1)
        q = m.end() if m else p + 1
        if text.startswith("(", q):
            kind, q, _ = self._scan_body(text, q, [], top_level=False, stop_at_colon=True)
        q = b.skip(text, q)
        if not text.startswith(":", q) or m is None:
            raise LexError(p, "expected a block label such as '^bb0(%arg0: i32):'")
        yield Tok("BLOCK_LABEL", text[p : q + 1], p, q + 1)
        return q + 1

    def _alias(self, text: str, p: int):
        m = _ALIAS_LINE.match(text, p)
        if m is not None:  # a one-line value the line proves whole, as for an op's body
            b0, b1 = m.span(1)
            if b0 >= 0 and _NOT_FAST.search(text, b0, b1) is None and _balanced(text, b0, b1):
                end = b.trim_end(text, b0, b1)
                if end > b.skip(text, b0) and not b.continues(text, b0, end) and (
                        _NEXT_TOP_ITEM.match(text, m.end()) is not None
                        or b.starts_item(text, b.skip(text, m.end()), True)):
                    yield Tok("ALIAS", text[p:end], p, end)
                    return end
        eq = text.index("=", p)
        _kind, end, _ = self._scan_body(text, eq + 1, [], top_level=True, regions=False)
        if b.skip(text, eq + 1) >= end:
            raise LexError(end, "expected the alias's value after '=' (a truncated file?)")
        yield Tok("ALIAS", text[p:end], p, end)
        return end

    # ---- the token walk of one op ----------------------------------------------------------------
    def _scan_body(self, text: str, p: int, brackets: list, top_level: bool, regions: bool = True,
                   stop_at_colon: bool = False) -> Tuple[str, int, int]:
        """Walk an op's text from ``p`` with the open ``brackets`` (updated in place).

        Returns ``("end", body_end, -1)`` when the op ends (``body_end``: after its last token)
        or ``("region", body_end, offset_of_brace)`` at a ``{`` that opens a region.  With
        ``stop_at_colon`` (block arguments), returns at the ``)`` that closes the list.

        Raises:
            LexError: an unbalanced bracket or an unterminated string.
        """
        n = len(text)
        search = _BODY_STOP.search
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
                if (not brackets and s > start and text[s - 1] != "@"
                        and text.startswith("(", b.skip(text, end))):  # `"name"(`: a generic op begins
                    return "end", b.trim_end(text, start, s), -1
                p = end
            elif tok == "%":
                if not brackets and b.starts_op_after_def(text, s):  # `%x = name`: the next op
                    return "end", b.trim_end(text, start, s), -1
                p = s + 1
            elif tok[0] in "dt" and len(tok) > 1:  # `distributed.` / `tt.dot` outside brackets
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
                if regions and b.opens_region(text, s + 1):
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


def _line_op(text: str, p: int, m, top_level: bool):
    """(the ``OP_LINE`` token, the offset of the next token) for the op at ``p`` whose line
    ``m`` (an ``_OP_LINE`` match without a region) proves it whole; None for the careful path.

    The same checks as the fast path of :meth:`StructureLexer._op` for a region's opener.
    """
    (n0, n1), (b0, b1) = m.regs[2], m.regs[3]
    word = text[n0:n1]
    if word[0] != '"' and "." not in word and word not in b.DEFAULT_DIALECT_OPS:
        return None  # the careful path reports it
    if b0 >= 0:
        if _NOT_FAST.search(text, b0, b1) is not None or not _balanced(text, b0, b1):
            return None
        end = b.trim_end(text, b0, b1)
        if b.continues(text, b0, end):
            return None
    nxt = _NEXT_ITEM.match(text, m.end())
    if nxt is not None:
        q = nxt.end()
    else:
        q = b.skip(text, m.end())
        if not b.starts_item(text, q, top_level):
            return None
    body = Tok("BODY", text[b0:end], b0, end) if b0 >= 0 else None  # the body starts after the blanks
    return LineOp(word, p, end if body is not None else n1, text[p:n0] if n0 > p else None, body), q


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
