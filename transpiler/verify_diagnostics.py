"""``--verify-diagnostics``: check ``// expected-error {{...}}`` comments, as ``mlir-opt`` does.

An expectation is a comment ``// expected-<severity>[@<where>] {{<text>}}`` where severity is
error, warning, note or remark; ``<where>`` is ``+N`` / ``-N`` (lines below / above the
comment), ``above`` / ``below`` (the previous / next line); without it, the comment's own line.
A diagnostic matches an expectation of its severity on its line whose text is a substring of
the message.  Every error, warning and remark must be expected (notes only when an
``expected-note`` asks for them, as notes merely add context) and every expectation must be
met; each mismatch is reported as an error at the place concerned.
"""

from __future__ import annotations

import re
from typing import List

import attrs

from .diagnostics import ERROR, Diagnostic
from .ir.core import Source

_DIRECTIVE = re.compile(r"expected-(?:error|warning|note|remark)\b")
_EXPECTATION = re.compile(
    r"//\s*expected-(?P<severity>error|warning|note|remark)(?:@(?P<where>[+-]\d+|above|below))?\s*\{\{(?P<text>.*?)\}\}"
)


@attrs.define
class Expectation:
    severity: str
    text: str
    line: int  # 1-based, in the chunk
    offset: int  # of the comment, for reporting
    met: bool = False


def malformed(source: Source) -> List[Diagnostic]:
    """``expected-...`` directives that are not ``// expected-<severity>[@where] {{text}}``."""
    good = {m.start("severity") - len("expected-") for m in _EXPECTATION.finditer(source.text)}
    return [Diagnostic(ERROR, "malformed directive: expected '// expected-<severity>[@+N|@-N|@above|@below] {{text}}'",
                       source, m.start())
            for m in _DIRECTIVE.finditer(source.text) if m.start() not in good]


def expectations(source: Source) -> List[Expectation]:
    """The expectations written in ``source``'s text."""
    out = []
    for m in _EXPECTATION.finditer(source.text):
        line, _ = source.line_col(m.start())
        where = m.group("where")
        if where == "above":
            line -= 1
        elif where == "below":
            line += 1
        elif where:
            line += int(where)
        out.append(Expectation(m.group("severity"), m.group("text"), line, m.start()))
    return out


def _flatten(diagnostics: List[Diagnostic]):
    for d in diagnostics:
        yield d.severity, d.message, d.source, d.offset
        for n in d.notes:
            yield "note", n.message, n.source, n.offset


def check(source: Source, diagnostics: List[Diagnostic]) -> List[Diagnostic]:
    """Mismatches between ``diagnostics`` and the expectations of ``source`` (empty: all good)."""
    expected = expectations(source)
    problems: List[Diagnostic] = malformed(source)
    for severity, message, dsource, offset in _flatten(diagnostics):
        same_text = dsource is not None and dsource.text == source.text and dsource.split_line == source.split_line
        line = dsource.line_col(offset)[0] if same_text and offset is not None else None
        match = next((e for e in expected if not e.met and e.severity == severity and e.line == line
                      and e.text in message), None)
        if match is None:
            match = next((e for e in expected if e.severity == severity and e.line == line and e.text in message), None)
        if match is not None:
            match.met = True
        elif severity != "note":
            problems.append(Diagnostic(ERROR, f"unexpected {severity}: {message}", dsource, offset))
    for e in expected:
        if not e.met:
            problems.append(Diagnostic(ERROR, f'expected {e.severity} "{e.text}" at line {e.line} was not produced',
                                       source, e.offset))
    return problems
