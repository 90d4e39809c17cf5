"""``--strip-debuginfo`` on faithful output: drop debug locations, keep locations that are data.

As ``mlir-opt`` without ``--mlir-print-debuginfo``: the trailing ``loc(...)`` of ops, block
arguments and function arguments goes, and so do the ``#name = loc(...)`` aliases that only
those used.  A location written as an attribute *value* (``{where = loc("x":1:2)}``,
``[loc(...), ...]``, ``#dialect<loc(...)>``) is data, not debug info: it stays, with every alias
it needs (SPEC.md section 3).  String literals and comments are never touched.
"""

from __future__ import annotations

import re
from typing import List, Set, Tuple

# strings and comments first (skipped), then a `loc(` that is not part of a longer name
_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n\r]*|(?<![\w$.@^%#!\-])loc\(')
_LOC_ALIAS = re.compile(r"^[ \t]*(#[\w$.\-]+)[ \t]*=[ \t]*loc\(", re.M)
_ALIAS_USE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n\r]*|(#[\w$.\-]+)')
_DATA_BEFORE = set("=[,<({")  # a loc(...) after one of these is an attribute value


_PAREN_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|[()]')


def _balanced_end(text: str, start: int) -> int:
    """End offset of the balanced ``loc(...)`` starting at ``start`` (-1 if unbalanced)."""
    depth = 0
    for m in _PAREN_OR_STRING.finditer(text, start + 3):
        c = m.group()
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return m.end()
    return -1


def _locations(text: str) -> List[Tuple[int, int, bool]]:
    """Every top-level ``loc(...)``: (start, end, is_data)."""
    out = []
    pos = 0
    while True:
        m = _SCAN.search(text, pos)
        if m is None:
            return out
        if m.group()[0] in '"/':
            pos = m.end()
            continue
        start = m.start()
        end = _balanced_end(text, start)
        if end < 0:
            return out
        k = start - 1
        while k >= 0 and text[k] in " \t\r\n":
            k -= 1
        out.append((start, end, k >= 0 and text[k] in _DATA_BEFORE))
        pos = end


def strip_locations(text: str) -> str:
    """``text`` without debug locations (see the module docstring)."""
    aliases = {}
    for m in _LOC_ALIAS.finditer(text):
        end = _balanced_end(text, m.end() - 4)
        if end > 0:
            line_end = text.find("\n", end)
            aliases[m.group(1)] = (m.start(), len(text) if line_end < 0 else line_end + 1)
    alias_spans = sorted(aliases.values())
    out: List[str] = []
    cursor = 0
    for start, end, is_data in _locations(text):
        if is_data or any(a <= start < b for a, b in alias_spans):
            continue
        cut = start
        while cut > cursor and text[cut - 1] in " \t":
            cut -= 1
        out.append(text[cursor:cut])
        cursor = end
    out.append(text[cursor:])
    stripped = "".join(out)
    return _drop_unused_aliases(stripped, aliases.keys())


def _drop_unused_aliases(text: str, names) -> str:
    """Remove the definitions of the location aliases in ``names`` that nothing left uses
    (an alias used by a kept alias is kept too)."""
    spans = {}
    for m in _LOC_ALIAS.finditer(text):
        end = _balanced_end(text, m.end() - 4)
        line_end = text.find("\n", end)
        spans[m.group(1)] = (m.start(), len(text) if line_end < 0 else line_end + 1)
    inside = sorted(spans.values())

    def uses(segment: str) -> Set[str]:
        return {m.group(1) for m in _ALIAS_USE.finditer(segment) if m.group(1)}

    outside, cursor = [], 0
    for a, b in inside:
        outside.append(text[cursor:a])
        cursor = b
    outside.append(text[cursor:])
    keep = uses("".join(outside))
    work = [n for n in keep if n in spans]
    while work:
        name = work.pop()
        a, b = spans[name]
        value = text[a:b].split("=", 1)[1]
        for used in uses(value):
            if used in spans and used not in keep:
                keep.add(used)
                work.append(used)
    drop = sorted(span for name, span in spans.items() if name in names and name not in keep)
    out, cursor = [], 0
    for a, b in drop:
        out.append(text[cursor:a])
        cursor = b
    out.append(text[cursor:])
    return "".join(out)
