"""``--strip-debuginfo`` on faithful output: drop ``loc(...)`` trailers and ``#loc`` aliases.

Works on the text, one line at a time, skipping string literals, so that a string containing
``loc(`` is never touched.  Block-argument and function-argument locations go too (as with
``mlir-opt`` without ``--mlir-print-debuginfo``).
"""

from __future__ import annotations

import re

from ..parser.scan import closing_quote

_LOC_ALIAS = re.compile(r"^#[\w$.\-]+[ \t]*=[ \t]*loc\(.*$\n?", re.M)


def _loc_end(line: str, start: int) -> int:
    """End offset of the balanced ``loc(...)`` starting at ``start`` (-1 if unbalanced)."""
    depth = 0
    i = start + 3
    while i < len(line):
        ch = line[i]
        if ch == '"':
            i = closing_quote(line, i) + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _strip_line(line: str) -> str:
    if "loc(" not in line:
        return line
    out = []
    i = 0
    start = 0
    while i < len(line):
        if line[i] == '"':
            i = closing_quote(line, i) + 1
            continue
        if line.startswith("loc(", i) and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] in "_$.@^%#!-")):
            end = _loc_end(line, i)
            if end > 0:
                cut = i
                while cut > start and line[cut - 1] == " ":
                    cut -= 1
                out.append(line[start:cut])
                start = i = end
                continue
        i += 1
    out.append(line[start:])
    return "".join(out)


def strip_locations(text: str) -> str:
    """``text`` without locations: every ``loc(...)`` outside strings, and ``#x = loc(...)`` lines."""
    text = _LOC_ALIAS.sub("", text)
    return "\n".join(_strip_line(line) for line in text.split("\n"))
