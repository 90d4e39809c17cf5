"""Runs of whole-op lines: the structure lexer's fastest path (one ``OP_LINES`` token).

Most lines of real TTIR hold one whole op without regions.  Where the text itself proves
that for consecutive lines, one regex match per line takes each of them and the checks that
need the whole line are made once for the run, on the run's text (issue 16: throughput).  A
line belongs to a run when (DESIGN.md "Where an op ends"; SPEC.md section 3):

* it begins an item: ``%x = `` then a dotted op name (or ``return``, ``call``...: ops of a
  default dialect), or such a name not followed by ``=`` (not a ``key = value`` line);
* it hides no second op (no ``= "..."``, ``= dialect.op``, ``"..."(`` except right after a
  ``(``) and does not end in a token after which an op cannot end (``,``, ``=``, ``:``,
  ``->``);
* the run's text holds no ``distributed.`` or ``tt.dot`` (the lowering must see those ops as
  ops of their own), no ``\\r`` and no ``{`` that may open a region (only ``{}``, ``{key =``,
  ``{key,``, ``{key}``: attribute dictionaries);
* on each line, ``()``, ``[]``, ``{}`` and ``<>`` balance kind by kind, strings and comments
  left out, ``->`` and ``>=`` being operators;
* the next line begins an item too (the next line of the run, or after the run what
  :data:`NEXT_ITEM` accepts; otherwise the run ends one line earlier).

A line that fails a check ends the run before it and takes the per-line path (which reports
what is wrong with it, if anything).  Blank lines, comment lines and a comment after an op
stand between the lines of a run.
"""

from __future__ import annotations

import sys
from typing import List, Optional, Tuple

from .._compat import re  # possessive quantifiers before Python 3.11

_STR = r'"(?:[^"\\\n]|\\.)*+"'
# a body: text, blanks that a token follows on the line, a lone `/`, a `{` that opens an
# attribute dictionary (`{}`, `{key =`, `{key,`, `{key}`: never a region), an `=` not
# followed by an op name, a string that does not begin a generic op (the brackets are
# checked for the whole run at once, :func:`_bad_line`)
_BODY = (r'(?:[^"=\n\r/ \t{]++|[ \t]++(?=[^\n/]|/(?!/))|/(?!/)|\{(?=[ \t]*\}|[ \t]*(?:[A-Za-z_][\w$.\-]*|' + _STR
         + r')[ \t]*[=,}])|=(?![ \t]*+(?:"|[A-Za-z_][\w$]*\.[A-Za-z_]))|(?<=\()' + _STR + r'|' + _STR
         + r'(?![ \t]*+\())++')
_DEF = r"%[\w$.\-]+(?::[0-9]+)?(?:[ \t]*,[ \t]*%[\w$.\-]+(?::[0-9]+)?)*[ \t]*=(?!=)[ \t]*"
_NAME = r"(?:[A-Za-z_][\w$]*\.[\w$.]*|return|call_indirect|call|module|func)(?![\w$.\-])"
# one line of a run from the end of the line before it (or the run's first op): the line
# break, blank and comment lines and the indentation, then results, name, body (not ending in
# `,` `=` `:` `->`), a comment, the line's end
_LINE = re.compile(r"(?:\n(?:[ \t]*+(?://[^\n]*+)?\n)*+[ \t]*+)?(" + _DEF + r")?(" + _NAME + r")(?![ \t]*=(?!=))"
                   r"(?:[ \t]*+(" + _BODY + r")(?<![,:=])(?<!->))?[ \t]*+(?://[^\n]*+)?(?=\n|\Z)")
# an alias definition at the top level: `#name = value` / `!name = value`, the value as a
# body where a `#` or `!` does not begin another definition (`#a = 1 : i32 #b = 2 : i64`)
_VALUE = _BODY.replace(r'[^"=\n\r/ \t{]++|', r'[^"=\n\r/ \t{#!]++|[#!](?![\w$.\-]+[ \t]*=(?!=))|', 1)
_ALIAS_LINE = re.compile(r"(?:\n(?:[ \t]*+(?://[^\n]*+)?\n)*+[ \t]*+)?([#!][\w$.\-]+)[ \t]*=(?!=)[ \t]*+(" + _VALUE
                         + r")(?<![,:=])(?<!->)[ \t]*+(?://[^\n]*+)?(?=\n|\Z)")
# text that keeps a run out: ops the lowering reads
_KEEP_OUT = ("distributed.", "tt.dot")


class KeepOut:
    """Where the text that keeps a run out stands (``distributed.``, ``tt.dot``): each word's
    next occurrence is searched for again only once the lexer has passed the last one, so
    each character is searched once per word in all."""

    def __init__(self, text: str):
        self._text = text
        self._next = [-1] * len(_KEEP_OUT)  # each word's next offset (-1: not searched yet)

    def next_after(self, pos: int) -> Tuple[int, int]:
        """(offset, start of its line) of the first keep-out word at or after ``pos``, or
        (``sys.maxsize``, ``sys.maxsize``) when there is none."""
        text, found = self._text, self._next
        for i, word in enumerate(_KEEP_OUT):
            if 0 <= found[i] < pos or found[i] == -1:
                at = text.find(word, pos)
                found[i] = at if at >= 0 else sys.maxsize
        at = min(found)
        if at == sys.maxsize:
            return at, at
        return at, text.rfind("\n", 0, at) + 1


_STRINGS_AND_COMMENTS = re.compile(_STR + r"|//[^\n]*+")
# every byte but the brackets and the line break, for bytes.translate (non-ASCII characters,
# encoded, go too)
_NOT_BRACKETS = bytes(c for c in range(256) if chr(c) not in "()[]{}<>\n")


def _bad_line(segment: str) -> int:
    """The index of the first line of ``segment`` whose brackets do not balance kind by kind
    (``(`` alone, ``(]``), or -1 when every line's do.

    Strings and comments are left out, ``->`` and ``>=`` are operators.  On the bytes of the
    brackets and line breaks alone, adjacent pairs are removed until none is left: a line
    break stands between the brackets of two lines, so each line is reduced on its own, and
    a bracket that remains stands on a line that does not balance.
    """
    if '"' in segment or "//" in segment:
        segment = _STRINGS_AND_COMMENTS.sub("", segment)
    brackets = segment.encode("utf-8").replace(b"->", b"").replace(b">=", b"").translate(None, _NOT_BRACKETS)
    while True:
        fewer = brackets.replace(b"()", b"").replace(b"[]", b"").replace(b"<>", b"").replace(b"{}", b"")
        if len(fewer) == len(brackets):
            break
        brackets = fewer
    rest = brackets.lstrip(b"\n")
    if not rest.strip(b"\n"):
        return -1
    return len(brackets) - len(rest)  # the line breaks before the first bracket left


def take_alias_run(text: str, pos: int, next_item) -> Tuple[Optional[List[tuple]], int]:
    """The run of alias definitions, one per line, that starts at ``pos`` (a top-level ``#``
    or ``!``), as :func:`take_run` takes ops: (its lines, the end of its last value), or (None,
    end).  Each line is ``(start, name end, value start, value end)``."""
    lines = []
    append = lines.append
    match = _ALIAS_LINE.match
    p = pos
    while True:
        m = match(text, p)
        if m is None:
            break
        (a0, a1), (v0, v1) = m.regs[1:3]
        append((a0, a1, v0, v1))
        p = m.end()
    if not lines:
        return None, pos
    bad = _bad_line(text[pos:lines[-1][3]])
    if bad == 0:
        return None, lines[0][3]
    if bad > 0:
        cut = _line_start(text, pos, bad)
        lines = [line for line in lines if line[3] < cut]
    while lines and not next_item(text, lines[-1][3]):
        lines.pop()
    if not lines:
        return None, pos
    return lines, lines[-1][3]


def _line_start(text: str, pos: int, count: int) -> int:
    """The start of the line ``count`` lines after the one holding ``pos``."""
    for _ in range(count):
        pos = text.index("\n", pos) + 1
    return pos


def take_run(text: str, pos: int, limit: int, next_item) -> Tuple[Optional[List[tuple]], int]:
    """The run of whole-op lines that starts at ``pos`` (an op's first character) and ends
    before ``limit`` (the start of the line of the next keep-out text): (its lines, the end of
    its last op), or (None, end) when the line at ``pos`` begins no run (no run is tried again
    before ``end``).  A line whose brackets do not balance kind by kind (an op over several
    lines, ``(]``) ends a run and takes the per-line path, which reads or reports it.

    Each line is ``(op start, results start or -1, name start, name end, body start or -1,
    op end)``.  ``next_item(text, end)`` says whether what follows the run's last op begins
    an item.
    """
    lines = []
    append = lines.append
    match = _LINE.match
    p = pos
    while True:
        m = match(text, p)
        if m is None or m.end() >= limit:
            break
        (d0, _d1), (n0, n1), (b0, b1) = m.regs[1:4]
        append((d0 if d0 >= 0 else n0, d0, n0, n1, b0, b1 if b0 >= 0 else n1))
        p = m.end()
    if not lines:
        return None, pos
    bad = _bad_line(text[pos:lines[-1][5]])
    if bad == 0:
        return None, lines[0][5]
    if bad > 0:
        cut = _line_start(text, pos, bad)
        lines = [line for line in lines if line[5] < cut]
    while lines and not next_item(text, lines[-1][5]):
        lines.pop()  # `tt.x` before a `= ...` line, a generic op after it: per line
    if not lines:
        return None, pos
    return lines, lines[-1][5]
