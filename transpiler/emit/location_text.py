"""A ``loc(...)`` trailer as the printer writes it: on one line.

A source op's location is kept as written, and people write long ones over several lines
(``loc(fused[...,`` then the next location on the next line), with comments between the
tokens.  Printed after a new op (the ``hivm.hir.custom`` that replaces the source op), it must
not break that op's line (SPEC.md section 2.6: each custom op on one line; the downstream
checks read a custom op line by line).  To MLIR's lexer a line break or a comment between
tokens is a blank, so the location means the same on one line.
"""

from __future__ import annotations

import re

# a string (kept as it is), or blanks and comments that hold a line break or a comment
_STRING_OR_BREAK = re.compile(r'"(?:[^"\\\n]|\\.)*"|[ \t]*(?:(?://[^\n\r]*)?[\r\n][ \t\r\n]*)+|[ \t]*//[^\n\r]*')


def one_line_location(text: str) -> str:
    """``text`` (a ``loc(...)`` trailer) with every run of blanks that holds a line break or a
    comment replaced by one blank, or by nothing after ``(``/``[`` and before ``)``/``]``/``,``
    (``loc(\\n  "c.py":5:6)`` is ``loc("c.py":5:6)``).  Strings are left as they are."""
    if "\n" not in text and "\r" not in text and "//" not in text:
        return text

    def replace(m: "re.Match[str]") -> str:
        piece = m.group()
        if piece.startswith('"'):
            return piece
        before = text[m.start() - 1] if m.start() > 0 else ""
        after = text[m.end()] if m.end() < len(text) else ""
        return "" if before in "([" or after in ")],:" else " "

    return _STRING_OR_BREAK.sub(replace, text)
