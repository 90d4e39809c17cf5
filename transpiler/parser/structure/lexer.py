"""Structure lexer for level 1 of ``grammars/ttir.lark``: coarse tokens over the whole buffer.

It emits a few coarse tokens per op (``DEF``, ``OP_NAME``, ``BODY``, ``REGION_OPEN``,
``REGION_CLOSE``, ``BLOCK_LABEL``, ``ALIAS``, ``METADATA``) so that the LALR parser does a handful
of steps per op (DESIGN.md, "coarse tokens").  Where an op ends is decided from the tokens
around each line break, never from the line break alone (:mod:`transpiler.parser.structure.boundary`), so
an op may span lines and comments may stand anywhere.  A ``BODY`` may therefore hold line
breaks and comments; the detail level skips them.

Three paths give the same ops:

* the fastest path takes a run of consecutive lines that each hold one whole op in one
  ``OP_LINES`` token, and a run of one-line alias definitions in one ``ALIAS_LINES`` token
  (:mod:`transpiler.parser.structure.line_runs`);
* the fast path takes a whole line with one regex when the text proves the line holds one
  whole op: brackets balanced, no region inside it, and the next line begins an item;
* every other op goes through :func:`~transpiler.parser.structure.token_walk.scan_body`, which walks
  its tokens.

Errors are raised as :class:`LexError` with the offset of the offending character.
"""

from __future__ import annotations

from typing import Iterator, List, Tuple

from ..._compat import re  # possessive quantifiers before Python 3.11
from . import boundary as b
from .line_runs import RunReader, balanced
from .tokens import AliasRun, LexError, LineOp, LineRun, Tok
from .token_walk import _another_alias, _not_an_op, scan_body


# One whole op on one line: results, name, a body without line breaks whose braces balance
# (dictionaries), an optional `{` opening a region, a trailing comment.
_STR = r'"(?:[^"\\\n\r]|\\[^\n\r])*+"'  # a string on one line (no escape of a line break, no CR)
_TEXT = r'[^"{}\n\r/]++|/(?!/)|' + _STR
_LINE_BODY = r'(?:' + _TEXT + r'|\{(?:' + _TEXT + r'|\{(?:' + _TEXT + r'|\{(?:' + _TEXT + r')*+\})*+\})*+\})++'
# the end of an op's line: a comment (which a CR ends), the line break
_EOL = r'[ \t\r]*(?://[^\n\r]*+\r?)?(?=\n|\Z)'
_OP_LINE = re.compile(
    r'(%[\w$.\-]+(?::[0-9]+)?(?:[ \t]*,[ \t]*%[\w$.\-]+(?::[0-9]+)?)*[ \t]*=(?!=)[ \t]*)?'
    r'(' + _STR + r'|[A-Za-z_][\w$.]*)[ \t]*+(' + _LINE_BODY + r')?(\{)?' + _EOL
)
# a `{` in a one-line body that may open a region (not `{}` and not `{key =`, `{key,`, `{key}`)
_MAYBE_REGION = r'\{(?![ \t]*\}|[ \t]*(?:[A-Za-z_][\w$.\-]*|' + _STR + r')[ \t]*[=,}])'
# text in a one-line body that may be the start of a second op (the careful path decides):
# `= "op"`, `= dialect.op`, `%y = name` (results of a custom op of any name), `"op"(` (a
# string directly after a `(`, such as a named location's `loc("x"(#loc3))`, is inside
# brackets, so it cannot begin a generic op), `distributed.`, `tt.dot`, a CR
_SUSPECT = (r'=[ \t]*(?:"|[A-Za-z_][\w$]*\.[A-Za-z_])|%[\w$.\-]+(?::[0-9]+)?[ \t]*=(?!=)[ \t]*[A-Za-z_"]'
            r'|(?<!\()' + _STR + r'[ \t]*\(|distributed\.|tt\.dot|\r')
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
# the rest of an op's line after the `}` that closes its region (` loc(#loc3)`, or nothing),
# and the next item's start (group 3: the blanks and comments before it)
_REST_LINE_NEXT = re.compile(r'[ \t]*+(' + _LINE_BODY + r')?(\{)?' + _EOL
                             + r"(?=(" + _WS_P + r")" + _NEXT_ITEM.pattern[len(_WS_P):] + r")")
# the same at the top level, where an alias definition (`#loc3 = ...`) begins an item too
_NEXT_TOP_ITEM = re.compile(_NEXT_ITEM.pattern[:-1] + r'|[#!][\w$.\-]+' + _WS_P + r'=(?!=))')
# an alias definition on one line: its name and `=`, then a value as an op's one-line body
_ALIAS_LINE = re.compile(r'[#!][\w$.\-]+[ \t]*=(?!=)(' + _LINE_BODY + r')?' + _EOL)


class StructureLexer:
    """The lexer of the ``file`` start rule (its tokens feed :func:`~transpiler.parser.structure.lalr.parse_structure`)."""

    def tokens(self, text: str) -> Iterator[Tok]:
        """Yield the structure tokens of ``text``; raise :class:`LexError` on bad structure."""
        if text.startswith("\ufeff"):
            raise LexError(0, "the text starts with a byte-order mark (U+FEFF): MLIR text has none, remove it")
        n = len(text)
        regions: List[Tuple[int, list, bool]] = []  # (offset of `{`, brackets and generic form of its op)
        slow_until = -1  # the fast path failed on a line up to here: ops sharing it go the careful way
        next_item = _next_item
        runs = RunReader(text)
        runs_from = 0  # no run begins before here
        skip = b.skip
        op_line = _OP_LINE.match
        rest_line_next = _REST_LINE_NEXT.match
        not_fast = _NOT_FAST.search
        continues = b.continues
        trim_end = b.trim_end
        p = skip(text, 0)
        while p < n:
            c = text[p]
            if c not in "}^#!{":  # an op: on the fast path when its line proves it whole
                if p > slow_until and p >= runs_from:
                    lines, runs_from = runs.ops(p, next_item)
                    if lines is not None:
                        yield LineRun(lines)
                        p = skip(text, runs_from)
                        continue
                m = op_line(text, p) if p > slow_until else None
                if m is not None and m.start(4) < 0:
                    found = _line_op(text, p, m, not regions)
                    if found is not None:
                        yield found[0]
                        p = found[1]
                        continue
                if m is not None:
                    slow_until = m.end()
                p = yield from self._op(text, p, regions, m)
                p = skip(text, p)
                continue
            if c == "}":
                if not regions:
                    raise LexError(p, "unexpected '}': no region is open here")
                _open, brackets, generic = regions.pop()
                yield Tok("REGION_CLOSE", "}", p, p + 1)
                if not brackets:  # the op's rest may be one line that the next item's start ends
                    m = rest_line_next(text, p + 1)
                    if m is not None and m.start(2) < 0:
                        b0, b1 = m.span(1)
                        if b0 < 0:
                            p = m.end(3)
                            continue
                        if (not_fast(text, b0, b1) is None and balanced(text, b0, b1)
                                and not (generic and _hides_op_name(text, b0, b1))):
                            end = trim_end(text, b0, b1)
                            if not continues(text, b0, end):
                                yield Tok("BODY", text[b0:end], b0, end)
                                p = m.end(3)
                                continue
                p = yield from self._op_rest(text, p + 1, brackets, regions, generic, generic)
            elif c == "^":
                p = yield from self._block_label(text, p)
            elif (c == "#" or c == "!") and not regions and b.ALIAS_DEF.match(text, p):
                if p >= runs_from:
                    lines, runs_from = runs.aliases(p, _next_top_item)
                    if lines is not None:
                        yield AliasRun(lines)
                        p = skip(text, runs_from)
                        continue
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
        if m is not None and m.start(4) >= 0:  # a region opens at the end of the line
            (n0, n1), (b0, b1), o0 = m.regs[2], m.regs[3], m.start(4)
            body = text[b0:b1] if b0 >= 0 else ""
            word = text[n0:n1]
            if word[0] != '"' and "." not in word and word not in b.DEFAULT_DIALECT_OPS:
                pass  # the careful path reports it
            elif (not _NOT_FAST.search(body) and (b0 < 0 or balanced(text, b0, b1))
                    and not b.continues(text, b0, b.trim_end(text, b0, b1))
                    and b.opens_region(text, o0 + 1, generic=word[0] == '"')):
                if n0 > p:
                    yield Tok("DEF", text[p:n0], p, n0)
                yield Tok("OP_NAME", text[n0:n1], n0, n1)
                if b0 >= 0:
                    b0, end = b.skip(text, b0), b.trim_end(text, b0, b1)
                    if end > b0:
                        yield Tok("BODY", text[b0:end], b0, end)
                regions.append((o0, [], word[0] == '"'))
                yield Tok("REGION_OPEN", "{", o0, o0 + 1)
                return o0 + 1
        if m is not None:  # the line's match already found the results and the name (the same spans)
            has_def, (q, name_end) = m.start(1) >= 0, m.span(2)
        else:
            d = b.DEF.match(text, p)
            has_def, q = d is not None, d.end() if d else p
            name = b.OP_NAME.match(text, q)
            if name is None:
                if d is not None:
                    raise LexError(q, "expected an op name after the result names and '='")
                raise LexError(p, _not_an_op(text, p))
            name_end = name.end()
        word = text[q:name_end]
        if word[0] != '"' and "." not in word and word not in b.DEFAULT_DIALECT_OPS:
            raise LexError(q, f"custom op '{word}' is unknown: an op name has a dialect prefix (dialect.op)")
        if has_def:
            yield Tok("DEF", text[p:q], p, q)
        yield Tok("OP_NAME", word, q, name_end)
        return (yield from self._op_rest(text, name_end, [], regions, word[0] == '"', b.ends_before_op_name(word)))

    def _op_rest(self, text: str, p: int, brackets: list, regions: list, generic: bool, exact: bool):
        """The rest of an op from ``p``: BODY, then either a region's ``{`` or the op's end
        (``exact``: before a bare op name too, :func:`~transpiler.parser.structure.boundary.ends_before_op_name`)."""
        kind, body_end, pos = scan_body(text, p, brackets, top_level=not regions, generic=generic, exact=exact)
        start = b.skip(text, p) if body_end > p else p
        if body_end > start:
            yield Tok("BODY", text[start:body_end], start, body_end)
        if kind == "region":
            regions.append((pos, brackets, generic))
            yield Tok("REGION_OPEN", "{", pos, pos + 1)
            return pos + 1
        return body_end

    def _block_label(self, text: str, p: int):
        m = b.BARE_ID.match(text, p + 1)
        q = m.end() if m else p + 1
        if text.startswith("(", q):
            kind, q, _ = scan_body(text, q, [], top_level=False, stop_at_colon=True)
        q = b.skip(text, q)
        if not text.startswith(":", q) or m is None:
            raise LexError(p, "expected a block label such as '^bb0(%arg0: i32):'")
        yield Tok("BLOCK_LABEL", text[p : q + 1], p, q + 1)
        return q + 1

    def _alias(self, text: str, p: int):
        m = _ALIAS_LINE.match(text, p)
        if m is not None:  # a one-line value the line proves whole, as for an op's body
            b0, b1 = m.span(1)
            if (b0 >= 0 and _NOT_FAST.search(text, b0, b1) is None and balanced(text, b0, b1)
                    and not _another_alias(text, b0, b1)):
                end = b.trim_end(text, b0, b1)
                if end > b.skip(text, b0) and not b.continues(text, b0, end) and (
                        _NEXT_TOP_ITEM.match(text, m.end()) is not None
                        or b.starts_item(text, b.skip(text, m.end()), True)):
                    yield Tok("ALIAS", text[p:end], p, end)
                    return end
        eq = b.ALIAS_DEF.match(text, p).end() - 1  # its own `=` (not one in a comment before it)
        _kind, end, _ = scan_body(text, eq + 1, [], top_level=True, regions=False)
        m = _another_alias(text, eq + 1, end)  # `#a = 1 : i32#b = 2 : i64`: the next one begins
        if m is not None:
            end = b.trim_end(text, eq + 1, m.start(1))
        if b.skip(text, eq + 1) >= end:
            raise LexError(end, "expected the alias's value after '=' (a truncated file?)")
        yield Tok("ALIAS", text[p:end], p, end)
        return end


def _next_item(text: str, pos: int) -> bool:
    """Whether the next token after ``pos`` begins an item of a region (for a run's last op;
    an alias definition, which begins an item only at the top level, does not count)."""
    return _NEXT_ITEM.match(text, pos) is not None or b.starts_item(text, b.skip(text, pos), False)


def _next_top_item(text: str, pos: int) -> bool:
    """Whether the next token after ``pos`` begins an item at the top level (after an alias)."""
    return _NEXT_TOP_ITEM.match(text, pos) is not None or b.starts_item(text, b.skip(text, pos), True)


def _line_token(text: str, p: int, m):
    """The ``OP_LINE`` token of the op at ``p`` when its line ``m`` (an ``_OP_LINE`` match
    without a region) holds the whole op: a name the careful path need not report, a body whose
    brackets balance, that hides no second op and does not end in a continuing token; else None."""
    (n0, n1), (b0, b1) = m.regs[2], m.regs[3]
    word = text[n0:n1]
    if word[0] != '"' and "." not in word and word not in b.DEFAULT_DIALECT_OPS:
        return None  # the careful path reports it
    def_text = text[p:n0] if n0 > p else None
    if b0 < 0:
        return LineOp(word, p, n1, def_text, None)
    if _NOT_FAST.search(text, b0, b1) is not None or not balanced(text, b0, b1):
        return None
    if b.ends_before_op_name(word) and _hides_op_name(text, b0, b1):
        return None  # `... : i32 tt.return`: the careful path ends the op before the name
    end = b.trim_end(text, b0, b1)
    if b.continues(text, b0, end):
        return None
    return LineOp(word, p, end, def_text, Tok("BODY", text[b0:end], b0, end))


# a string (skipped), or a bare op name (group 1)
_STRING_OR_OP_NAME = re.compile(_STR + r"|(" + b.BARE_OP_NAME + r")")
_OP_NAME = re.compile(b.BARE_OP_NAME)


def _hides_op_name(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (one line of an op's body) holds a bare op name outside
    strings (at any bracket depth: the careful path then decides; no string: one search)."""
    if text.find('"', start, end) < 0:
        return _OP_NAME.search(text, start, end) is not None
    return any(m.group(1) for m in _STRING_OR_OP_NAME.finditer(text, start, end))


def _line_op(text: str, p: int, m, top_level: bool):
    """(the ``OP_LINE`` token, the offset of the next token) for the op at ``p`` whose line
    ``m`` proves it whole (:func:`_line_token`) and whose next line begins an item; None for the
    careful path."""
    token = _line_token(text, p, m)
    if token is None:
        return None
    nxt = _NEXT_ITEM.match(text, m.end())
    if nxt is not None:
        return token, nxt.end()
    q = b.skip(text, m.end())
    return (token, q) if b.starts_item(text, q, top_level) else None
