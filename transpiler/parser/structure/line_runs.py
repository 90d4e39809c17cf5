"""Runs of whole-op lines: the structure lexer's fastest path (``OP_LINES``, ``ALIAS_LINES``).

Most lines of real TTIR hold one whole op without regions, and its aliases one definition
each.  Where the text itself proves that for consecutive lines, one regex match per line
takes each of them, and the checks that need the whole line are made once for the run, on
the run's text (issue 16: throughput).  A line belongs to a run of ops when (DESIGN.md
"Where an op ends"; SPEC.md section 3):

* it begins an item: ``%x = `` then a dotted op name (or ``return``, ``call``...: ops of a
  default dialect), or such a name not followed by ``=`` (not a ``key = value`` line);
* it hides no second op (no ``= "..."``, ``= dialect.op``, ``%y = name``, ``"..."(`` except
  right after a ``(``) and does not end in a token after which an op cannot end (``,``,
  ``=``, ``:``, ``->``);
* it holds no ``\\r`` (comments end there in MLIR), no ``distributed.`` or ``tt.dot`` (the
  lowering must see those ops as ops of their own) and no ``{`` that may open a region (only
  ``{}``, ``{key =``, ``{key,``, ``{key}``: attribute dictionaries);
* its ``()``, ``[]``, ``{}`` and ``<>`` balance kind by kind, strings and comments left out,
  ``->`` and ``>=`` being operators;
* the next line begins an item too (the next line of the run, or what follows the run,
  as the lexer's ``next_item`` says; otherwise the run ends one line earlier).

A run of aliases (``#name = value``, ``!name = value`` at the top level) follows the same
rules, a ``#`` or ``!`` that begins another definition ending a value.  A line that fails a
check ends the run before it and takes the per-line path, which reads or reports it.  Blank
lines, comment lines and a comment after an op stand between the lines of a run.

Every line is matched at most twice and every character searched once per check, whatever
the text (:class:`RunReader` remembers what it found).
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from typing import List, Optional, Tuple

from ..._compat import re  # possessive quantifiers before Python 3.11

# a string as MLIR reads it on one line (no escape of a line break, no CR)
_STR = r'"(?:[^"\\\n\r]|\\[^\n\r])*+"'
_COMMENT = r"//[^\n\r]*+"
# a body: text, blanks that a token follows on the line, a lone `/`, a `{` that opens an
# attribute dictionary (never a region), a value name not followed by `= name` (a second op's
# results), an `=` not followed by an op name, a string that does not begin a generic op
# (the brackets are checked for the whole run at once, :func:`_bad_lines`)
_BODY = (r'(?:[^"=\n\r/ \t{%]++|[ \t]++(?=[^\n\r/]|/(?!/))|/(?!/)|\{(?=[ \t]*\}|[ \t]*(?:[A-Za-z_][\w$.\-]*|'
         + _STR + r')[ \t]*[=,}])|%[\w$.\-]*+(?::[0-9]+)?(?![ \t]*=(?!=)[ \t]*[A-Za-z_"])'
         r'|=(?![ \t]*+(?:"|[A-Za-z_][\w$]*\.[A-Za-z_]))|(?<=\()' + _STR + r'|' + _STR + r'(?![ \t]*+\())++')
_DEF = r"%[\w$.\-]+(?::[0-9]+)?(?:[ \t]*,[ \t]*%[\w$.\-]+(?::[0-9]+)?)*[ \t]*=(?!=)[ \t]*"
_NAME = r"(?:[A-Za-z_][\w$]*\.[\w$.]*|return|call_indirect|call|module|func)(?![\w$.\-])"
# from the end of the line before (or the run's first op): the line break, blank and comment
# lines, the indentation
_SEP = r"(?:\n(?:[ \t]*+(?:" + _COMMENT + r")?\n)*+[ \t]*+)?"
# the end of a line of a run: blanks, a comment, the line break
_EOL = r"[ \t]*+(?:" + _COMMENT + r")?(?=\n|\Z)"
# one op line: results, name, body (not ending in `,` `=` `:` `->`)
_LINE = re.compile(_SEP + r"(" + _DEF + r")?(" + _NAME + r")(?![ \t]*=(?!=))(?:[ \t]*+(" + _BODY
                   + r")(?<![,:=])(?<!->))?" + _EOL)
# one alias line: the value as a body where a `#` or `!` does not begin another definition
_VALUE = _BODY.replace(r'[^"=\n\r/ \t{%]++|', r'[^"=\n\r/ \t{%#!]++|[#!](?![\w$.\-]+[ \t]*=(?!=))|', 1)
_ALIAS_LINE = re.compile(_SEP + r"([#!][\w$.\-]+)[ \t]*=(?!=)[ \t]*+(" + _VALUE + r")(?<![,:=])(?<!->)" + _EOL)
# text that keeps a run out: ops the lowering reads
_KEEP_OUT = ("distributed.", "tt.dot")
_STRINGS_AND_COMMENTS = re.compile(_STR + r"|" + _COMMENT)
# every byte but the brackets and the line break, for bytes.translate (non-ASCII characters,
# encoded, go too)
_NOT_BRACKETS = bytes(c for c in range(256) if chr(c) not in "()[]{}<>\n")
_MAX_DEPTH = 16  # brackets nested deeper on a line: that line takes the per-line path


def _bad_lines(segment: str) -> List[int]:
    """The indices of the lines of ``segment`` whose brackets do not balance kind by kind
    (``(`` alone, ``(]``), or nest deeper than ``_MAX_DEPTH``.

    Strings and comments are left out, ``->`` and ``>=`` are operators.  On the bytes of the
    brackets and line breaks alone, adjacent pairs are removed, innermost first: a line break
    stands between the brackets of two lines, so each line is reduced on its own, and a
    bracket that remains stands on a line that does not balance.
    """
    if '"' in segment or "//" in segment:
        segment = _STRINGS_AND_COMMENTS.sub("", segment)
    brackets = segment.encode("utf-8").replace(b"->", b"").replace(b">=", b"").translate(None, _NOT_BRACKETS)
    for _ in range(_MAX_DEPTH):
        fewer = brackets.replace(b"()", b"").replace(b"[]", b"").replace(b"<>", b"").replace(b"{}", b"")
        if len(fewer) == len(brackets):
            break
        brackets = fewer
    if len(brackets) == brackets.count(b"\n"):
        return []
    return [i for i, rest in enumerate(brackets.split(b"\n")) if rest]


def balanced(text: str, start: int, end: int) -> bool:
    """Whether the brackets of ``text[start:end]`` (one line) balance kind by kind."""
    return not _bad_lines(text[start:end])


class RunReader:
    """Takes the runs of one text, for the structure lexer (which asks with growing offsets).

    It remembers where the next keep-out text is (each word searched for again only once the
    lexer has passed it) and which lines of the last run it read do not balance (so that the
    lines after such a line are not matched and checked again for each of them).
    """

    def __init__(self, text: str):
        self._text = text
        self._next_word = [-1] * len(_KEEP_OUT)  # each keep-out word's next offset (-1: not searched)
        self._keep_out = (-1, -1)  # (offset, start of its line) of the next keep-out text
        self._checked = (-1, -1)  # [start, end) of the last run whose brackets were checked
        self._bad: List[int] = []  # the starts of its lines that do not balance, in order

    def ops(self, pos: int, next_item) -> Tuple[Optional[List[tuple]], int]:
        """The run of op lines at ``pos`` (an op's first character): (its lines, the end of
        its last op), or (None, end): no run, and none begins before ``end``.  Each line is
        ``(op start, results start or -1, name start, name end, body start or -1, op end)``.
        ``next_item(text, end)`` says whether what follows an op begins an item."""
        return self._take(pos, _LINE.match, next_item, 5)

    def aliases(self, pos: int, next_item) -> Tuple[Optional[List[tuple]], int]:
        """The run of alias lines at ``pos`` (a top-level ``#`` or ``!``), as :meth:`ops`;
        each line is ``(start, name end, value start, value end)``."""
        return self._take(pos, _ALIAS_LINE.match, next_item, 3)

    def _take(self, pos: int, match, next_item, end_at: int):
        text = self._text
        at, limit = self._keep_out_after(pos)
        if limit <= pos <= at:
            return None, pos  # the keep-out text is on this line
        checked_start, checked_end = self._checked
        known = checked_start <= pos < checked_end
        if known:
            # the line's start, or the run's if its first line began after another item
            line_start = max(text.rfind("\n", 0, pos) + 1, checked_start)
            bad = self._bad
            i = bisect_left(bad, line_start)
            if i < len(bad) and bad[i] == line_start:
                return None, pos  # this line does not balance
            if i < len(bad):
                limit = min(limit, bad[i])
        lines = []
        append = lines.append
        p = pos
        while True:
            m = match(text, p)
            if m is None or m.end() >= limit:
                break
            regs = m.regs
            if end_at == 5:
                (d0, _d1), (n0, n1), (b0, b1) = regs[1:4]
                append((d0 if d0 >= 0 else n0, d0, n0, n1, b0, b1 if b0 >= 0 else n1))
            else:
                (a0, a1), (v0, v1) = regs[1:3]
                append((a0, a1, v0, v1))
            p = m.end()
        if not lines:
            return None, pos
        if not known:  # the brackets from the run's first op on (not of an item before it)
            end = lines[-1][end_at]
            self._checked = (pos, end)
            self._bad = self._line_starts(pos, end, _bad_lines(text[pos:end]))
            if self._bad:
                cut = self._bad[0]
                if cut == pos:
                    return None, pos
                lines = [line for line in lines if line[end_at] < cut]
        while lines and not next_item(text, lines[-1][end_at]):
            lines.pop()  # `tt.x` before a `= ...` line, a generic op after it: per line
        if not lines:
            return None, pos
        return lines, lines[-1][end_at]

    def _keep_out_after(self, pos: int) -> Tuple[int, int]:
        """(offset, start of its line) of the first keep-out word at or after ``pos``, or
        (``sys.maxsize``, ``sys.maxsize``)."""
        if pos <= self._keep_out[0]:
            return self._keep_out
        text, found = self._text, self._next_word
        for i, word in enumerate(_KEEP_OUT):
            if found[i] < pos:
                at = text.find(word, pos)
                found[i] = at if at >= 0 else sys.maxsize
        at = min(found)
        self._keep_out = (at, at) if at == sys.maxsize else (at, text.rfind("\n", 0, at) + 1)
        return self._keep_out

    def _line_starts(self, start: int, end: int, indices: List[int]) -> List[int]:
        """The offsets of the lines ``indices`` (in order) of ``text[start:end]`` (line 0
        starts at ``start``)."""
        starts = []
        find = self._text.find
        line, p = 0, start
        for index in indices:
            while line < index:
                p = find("\n", p, end) + 1
                line += 1
            starts.append(p)
        return starts
