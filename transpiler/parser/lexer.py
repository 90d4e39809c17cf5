"""Coarse, line-aware lexer for the structure level of ``grammars/ttir.lark``.

MLIR's printer puts every op on its own line; a line that ends in ``{`` opens a region whose
ops follow on the next lines until a line starting with ``}``.  This lexer reads one line at a
time and emits a few coarse tokens per line (``DEF``, ``OP_NAME``, ``BODY``, ``REGION_OPEN``,
``REGION_CLOSE``, ``BLOCK_LABEL``, ``ALIAS``), using the regexes of those terminals
from the grammar, so that the LALR parser does a handful of steps per op (DESIGN.md, "coarse
tokens").  The detail of a ``BODY`` is parsed later, only if a pass asks for it.

Errors are raised as :class:`LexError` with the offset of the offending character; the parse
driver turns them into ``file:line:col: error:`` diagnostics.
"""

from __future__ import annotations

from .._compat import re  # possessive quantifiers before Python 3.11
from typing import Iterator

from lark.lexer import Lexer

from .scan import closing_quote


class LexError(Exception):
    """A line that fits none of MLIR's line shapes.

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
    line = column = end_line = end_column = None  # read by Lark only to build its $END token

    def __init__(self, type_: str, value: str, start_pos: int, end_pos: int):
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r}@{self.start_pos})"


_TRAIL = r"[ \t\r]*(?://[^\n]*)?"  # trailing blanks and a comment (`// pred: ^bb0`)


class StructureLexer(Lexer):
    """Lark custom lexer (``Lark(..., lexer=StructureLexer)``) for the ``file`` start rule."""

    def __init__(self, lexer_conf) -> None:
        pattern = {t.name: t.pattern.to_regexp() for t in lexer_conf.terminals}
        body = f"(?:{pattern['BODY']})"
        self._op_line = re.compile(
            f"(?:{pattern['DEF']})?({pattern['OP_NAME']})({body})?(\\{{)?{_TRAIL}"
        )
        self._def = re.compile(pattern["DEF"])
        self._close_line = re.compile(f"\\}}({body})?(\\{{)?{_TRAIL}")
        self._label_line = re.compile(f"({pattern['BLOCK_LABEL']}){_TRAIL}")
        self._alias_line = re.compile(f"({pattern['ALIAS']})")
        self._indent = re.compile(r"[ \t\r]*")

    def lex(self, text: str) -> Iterator[Tok]:  # Lark's custom-lexer interface 0: the whole text
        return self.tokens(text)

    def tokens(self, text: str) -> Iterator[Tok]:
        """Yield the structure tokens of ``text``; raise :class:`LexError` on a bad line."""
        op_line, close_line = self._op_line.fullmatch, self._close_line.fullmatch
        indent = self._indent.match
        opens: list[int] = []  # offsets of the `{` of the regions still open
        n = len(text)
        pos = 0
        if text.startswith("\ufeff"):
            raise LexError(0, "the text starts with a byte-order mark (U+FEFF): MLIR text has none, remove it")
        while pos < n:
            eol = text.find("\n", pos)
            if eol < 0:
                eol = n
            s = indent(text, pos, eol).end()
            if s == eol or text.startswith("//", s):
                pos = eol + 1
                continue
            c = text[s]
            if c == "}":
                if not opens:
                    raise LexError(s, "unexpected '}': no region is open here")
                opens.pop()
                m = close_line(text, s, eol)
                if m is None:
                    raise LexError(_bad_column(text, s, eol), "expected an op's text, '{' or the end of the line after '}'")
                yield Tok("REGION_CLOSE", "}", s, s + 1)
                (b0, b1), (o0, _o1) = m.regs[1], m.regs[2]
                yield from _body_and_region(text, b0, b1, o0, opens)
            elif c == "^":
                m = self._label_line.fullmatch(text, s, eol)
                if m is None:
                    raise LexError(s, "expected a block label such as '^bb0(%arg0: i32):'")
                b0, b1 = m.regs[1]
                yield Tok("BLOCK_LABEL", text[b0:b1], b0, b1)
            elif c == "#" or c == "!":
                if opens:
                    raise LexError(s, "alias definitions are only allowed at the top level")
                m = self._alias_line.match(text, s, eol)
                if m is None:
                    raise LexError(s, "expected an alias definition such as '#loc1 = loc(...)'")
                value = text[s:eol].rstrip("\r")
                if not value.partition("=")[2].strip():
                    raise LexError(eol, "expected the alias's value after '=' (a truncated file?)")
                yield Tok("ALIAS", value, s, s + len(value))
            else:
                m = op_line(text, s, eol)
                if m is None:
                    raise LexError(_bad_column(text, s, eol), _op_line_problem(text, s, eol))
                (n0, n1), (b0, b1), (o0, _o1) = m.regs[1], m.regs[2], m.regs[3]
                if "." not in text[n0:n1] and text[n0:n1] != "module":
                    raise LexError(n0, f"expected an operation (dialect.op), found '{text[n0:n1]}': does this line "
                                       f"continue the previous op? ttd-lower reads one op per line, as MLIR prints them")
                if n0 > s:
                    yield Tok("DEF", text[s:n0], s, n0)
                yield Tok("OP_NAME", text[n0:n1], n0, n1)
                yield from _body_and_region(text, b0, b1, o0, opens)
            pos = eol + 1
        if opens:
            raise LexError(opens[-1], "region is not closed: expected '}' before the end of the input")


def _body_and_region(text: str, b0: int, b1: int, o0: int, opens: list) -> Iterator[Tok]:
    """The rest of an op's line: its BODY (``b0:b1``, -1 when absent) and the ``{`` opening a
    region (at ``o0``, -1 when absent, pushed on ``opens``)."""
    if b0 >= 0:
        b1 = _body_end(text, b0, b1)
        check_single_op(text, b0, b1)
        if b1 > b0:
            yield Tok("BODY", text[b0:b1], b0, b1)
    if o0 >= 0:
        opens.append(o0)
        yield Tok("REGION_OPEN", "{", o0, o0 + 1)


def _body_end(text: str, start: int, end: int) -> int:
    """Where a BODY really ends: before its trailing blanks (and the ``\r`` of CRLF files), so
    that an op's span is its text alone."""
    while end > start and text[end - 1] in " \t\r":
        end -= 1
    return end


# Cheap test for a BODY that may hide a second op (the careful scan below runs only then).
_SUSPECT = re.compile(r'distributed\.|tt\.dot|\{[^}]*%|=\s*(?:"|[A-Za-z_][\w$]*\.[A-Za-z_])|\r')
# `%x = dialect.op` or `%x = "dialect.op"`: an op's definition, never the inside of another op.
_SECOND_OP = re.compile(r'%[\w$.\-]+(?::[0-9]+)?(?:\s*,\s*%[\w$.\-]+(?::[0-9]+)?)*\s*=\s*(?:"|[A-Za-z_][\w$]*\.[A-Za-z_])')
# An op name the lowering must see (not an attribute name such as `distributed.core_type =`).
_KEY_OP = re.compile(r'(?:distributed\.[A-Za-z_]\w*|tt\.dot(?:_scaled)?)(?![\w$.])(?!\s*=)')


def check_single_op(text: str, start: int, end: int) -> None:
    """Refuse a line that holds more than one op, a whole region, or a stray ``\r``.

    ttd-lower reads MLIR as its printer writes it: one op per line, a region opened at the end
    of a line and closed on a line of its own.  Text that breaks this would otherwise be kept
    as the inside of the first op, and a distributed op or a ``tt.dot`` hidden there would be
    missed.

    Raises:
        LexError: at the second op, the ``{`` of the region or the ``\r``.
    """
    if not _SUSPECT.search(text, start, end):
        return
    i = start
    depth = 0
    while i < end:
        ch = text[i]
        if ch == '"':
            j = closing_quote(text, i, end)
            if text.startswith("(", j + 1) and _KEY_OP.match(text, i + 1, j):  # "distributed.x"(...)
                raise LexError(i, "a second op on this line: ttd-lower reads MLIR as its printer writes it, "
                                  "one op per line")
            i = j + 1
            continue
        if ch == "\r":
            raise LexError(i, "a carriage return inside a line: line endings must be LF or CRLF")
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == "%" and depth and text.find("}", i, end) > i:
            brace = text.rfind("{", start, i)
            raise LexError(brace, "a region written on one line: ttd-lower reads MLIR as its printer writes it "
                                  "(a region opens at the end of a line and closes on a line of its own)")
        elif ch == "%" or ch == "d" or ch == "t":
            m = _SECOND_OP.match(text, i, end) if ch == "%" else None
            k = None if m else _KEY_OP.match(text, i, end)
            if (m or k) and (i == start or not (text[i - 1].isalnum() or text[i - 1] in "_$.%")):
                raise LexError(i, "a second op on this line: ttd-lower reads MLIR as its printer writes it, "
                                  "one op per line")
        i += 1


def _bad_column(text: str, start: int, eol: int) -> int:
    """Best guess at where a line that fits no shape goes wrong: a control character, an
    unbalanced quote or brace."""
    for i in range(start, eol):
        if ord(text[i]) < 0x20 and text[i] not in "\t\r":
            return i
    depth = 0
    i = start
    while i < eol:
        ch = text[i]
        if ch == '"':
            j = closing_quote(text, i, eol)
            if j >= eol:
                return i
            i = j
        elif ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return start


def _op_line_problem(text: str, start: int, eol: int) -> str:
    line = text[start:eol]
    control = next((ch for ch in line if ord(ch) < 0x20 and ch not in "\t\r"), None)
    if control is not None:
        return f"unexpected control character U+{ord(control):04X}"
    if line.count('"') % 2:
        return "unterminated string"
    if line[:1] == "%":
        return "expected '=' and an op name after the result names"
    if line.count("{") != line.count("}"):
        return "unbalanced '{' in this op"
    return "expected an operation"
