"""``--verify-diagnostics``: check the diagnostics against ``expected-*`` designators, as ``mlir-opt`` does.

The rules are those of MLIR's ``SourceMgrDiagnosticVerifierHandler`` (``mlir/lib/IR/Diagnostics.cpp``):

* a designator is ``expected-<kind>[-re] [@<where>] {{<message>}}`` at the end of a line, with
  kind ``error``, ``warning``, ``note`` or ``remark``; ``<where>`` is ``+N`` / ``-N`` (lines
  below / above), ``above`` (the last line that is not a designator), ``below`` (the next
  such line) or ``unknown`` (a diagnostic without a file location); by default, its own line;
* the message runs to the last ``}}`` of the line; a diagnostic matches when its text
  *contains* it, or, with ``-re``, when the message (whose ``{{...}}`` parts are regular
  expressions and the rest literal text) is found in it;
* one designator matches every diagnostic of its kind, line and text (MLIR has no counts);
* a diagnostic that matches a designator of another kind is reported as ``'warning'
  diagnostic emitted when expecting a 'error'``; one that matches nothing as ``unexpected
  error: <message>``; a designator never matched as ``expected error "<message>" was not
  produced``; ``only_expected`` (``--verify-diagnostics=only-expected``) ignores the
  unexpected ones.

One difference, on purpose: ttd-lower attaches notes (``in @f, defined here``) to most op
errors, which MLIR's passes do not, so a note that no ``expected-note`` asks for is accepted.
A line that names ``expected-<kind>`` but is not a designator is ignored, as by MLIR, with a
warning (a misspelt expectation would otherwise pass silently).
"""

from __future__ import annotations

import re
from typing import Iterator, List, Optional, Tuple

from . import records
from .diagnostics import ERROR, NOTE, WARNING, Diagnostic
from .ir.core import Source

_DESIGNATOR = re.compile(r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$")
_MENTION = re.compile(r"expected-(?:error|note|remark|warning)\b")


@records.define
class Expectation:
    """One designator: kind, message, the file line it applies to (None: ``@unknown``), the
    file offset of its ``expected-`` and, for ``-re``, the compiled pattern."""

    kind: str
    text: str
    line: Optional[int]
    offset: int
    pattern: Optional["re.Pattern[str]"] = None
    matched: bool = False

    def match(self, message: str) -> bool:
        """Does ``message`` hold this expectation's text (or pattern)?"""
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


def _pattern(text: str) -> "re.Pattern[str]":
    """The regex of a ``-re`` message: ``{{...}}`` parts as regexes, the rest literal.

    Raises:
        ValueError: a ``{{`` without ``}}``, or an invalid regex (the message says which).
    """
    out, rest = [], text
    while rest:
        start = rest.find("{{")
        if start < 0:
            out.append(re.escape(rest))
            break
        out.append(re.escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            raise ValueError("found start of regex with no end '}}'")
        try:
            re.compile(rest[:end])
        except re.error as e:
            raise ValueError(f"invalid regex: {e}") from None
        out.append(f"({rest[:end]})")
        rest = rest[end + 2 :]
    return re.compile("".join(out))


def expectations(source: Source, start: int = 0, end: Optional[int] = None) -> Tuple[List[Expectation], List[Diagnostic]]:
    """The designators of ``source.text[start:end]`` (one split chunk, or the whole file), and
    the problems found reading them (bad regexes: errors; lines that only look like
    designators: warnings)."""
    text = source.text[start:end]
    found: List[Expectation] = []
    problems: List[Diagnostic] = []
    first_line = source.line_col(start)[0]
    lines = text.split("\n")
    last_plain = first_line
    waiting: List[Expectation] = []  # @below designators, for the next line that is not one
    pos = start
    for index, raw in enumerate(lines):
        line_no = first_line + index
        m = _DESIGNATOR.search(raw.rstrip())
        if m is None:
            for e in waiting:
                e.line = line_no
            waiting.clear()
            last_plain = line_no
            mention = _MENTION.search(raw)
            if mention is not None:
                problems.append(Diagnostic(
                    WARNING, f"'{mention.group(0)}' is not a designator (expected-<kind>[-re][@+N|@-N|@above|@below|"
                             f"@unknown] {{{{message}}}} at the end of the line): ignored", source, pos + mention.start()))
        else:
            e = Expectation(m.group(1), m.group(5), line_no, pos + m.start())
            if m.group(2):
                try:
                    e.pattern = _pattern(e.text)
                except ValueError as err:
                    problems.append(Diagnostic(ERROR, str(err), source, e.offset))
                    pos += len(raw) + 1
                    continue
            where = m.group(4)
            if where == "unknown":
                e.line = None
            elif where == "above":
                e.line = last_plain
            elif where == "below":
                e.line = first_line + len(lines) - 1  # if no line follows
                waiting.append(e)
            elif where:
                e.line = line_no + int(where)
            found.append(e)
        pos += len(raw) + 1
    return found, problems


def _flatten(diagnostics: List[Diagnostic]) -> Iterator[Tuple[str, str, Optional[Source], Optional[int], bool]]:
    for d in diagnostics:
        yield d.severity, d.message, d.source, d.offset, d.severity == NOTE
        for n in d.notes:
            yield NOTE, n.message, n.source, n.offset, True


def check(source: Source, diagnostics: List[Diagnostic], start: int = 0, end: Optional[int] = None,
          only_expected: bool = False) -> List[Diagnostic]:
    """The mismatches between ``diagnostics`` and the designators of ``source.text[start:end]``
    (empty: all good), worded as ``mlir-opt`` words them; errors, and warnings for lines that
    are not designators."""
    expected, problems = expectations(source, start, end)
    located = [e for e in expected if e.line is not None]
    unknown = [e for e in expected if e.line is None]
    for kind, message, dsource, offset, is_note in _flatten(diagnostics):
        known = dsource is not None and offset is not None
        if known:
            candidates = located if dsource.filename == source.filename else []
            line = dsource.line_col(offset)[0]
        else:
            candidates, line = unknown, None
        near: Optional[Expectation] = None
        hit = False
        for e in candidates:
            if known and e.line != line:
                continue
            if e.match(message):
                if e.kind == kind:
                    e.matched = hit = True
                    break
                near = e
        if hit or is_note or only_expected:
            continue
        if near is not None:
            problems.append(Diagnostic(ERROR, f"'{kind}' diagnostic emitted when expecting a '{near.kind}'",
                                       source, near.offset))
        else:
            problems.append(Diagnostic(ERROR, f"unexpected {kind}: {message}", dsource, offset))
    for e in expected:
        if not e.matched:
            problems.append(Diagnostic(ERROR, f'expected {e.kind} "{e.text}" was not produced', source, e.offset))
    return problems
