"""The quoted source line and caret under a diagnostic, made safe and short for a terminal.

A diagnostic quotes its source line (MLIR's ``SourceMgr`` does, through LLVM's
``SMDiagnostic::print``).  The line is the input's, and the input may be anything: a binary
file read by mistake has control bytes and escape sequences that a terminal would execute, and
a line thousands of characters long.  As clang's ``TextDiagnostic`` does:

* a character that is not printable (control characters, ``DEL``, C1 controls, format and
  separator characters such as a bidirectional override; a tab stays a tab) is shown as
  ``<U+XXXX>``;
* a line wider than :data:`MAX_WIDTH` columns is cut to a window of that many columns around
  the caret, with ``...`` where text was left out on either side;
* the caret line mirrors what is shown (a tab for a tab, two columns for a wide character),
  so the caret stays under the character it points at.
"""

from __future__ import annotations

from typing import List, Tuple

MAX_WIDTH = 160
"""Columns of the quoted line; a wider line is cut to a window around the caret."""
_BEFORE = 60  # columns kept before the caret in a cut line
_ELLIPSIS = "..."


def _piece(ch: str) -> Tuple[str, str]:
    """(how ``ch`` is shown, what stands under it in the caret line)."""
    if ch == "\t":
        return ch, ch
    if not ch.isprintable():
        shown = f"<U+{ord(ch):04X}>"
        return shown, " " * len(shown)
    if ord(ch) < 0x1100:  # below the first wide (Hangul Jamo) block: one column, no look-up
        return ch, " "
    import unicodedata

    if unicodedata.combining(ch):
        return ch, ""
    return ch, "  " if unicodedata.east_asian_width(ch) in ("W", "F") else " "


def printable(text: str) -> str:
    """``text`` with ``\\r``, ``\\n`` and every other character that is not printable escaped
    (``<U+XXXX>``), for a message that quotes the input: one diagnostic, one line."""
    if text.isprintable():
        return text
    special = {"\n": "\\n", "\r": "\\r", "\t": "\t"}
    return "".join(special.get(ch) or (ch if ch.isprintable() else f"<U+{ord(ch):04X}>") for ch in text)


def quote_line(line: str, col: int) -> List[str]:
    """The two lines that quote ``line`` with a caret under its 1-based column ``col``.

    ``line`` is the source line without its newline; ``col`` may be one past its end (a
    diagnostic at the end of the line).
    """
    if line.isascii() and line.isprintable() and len(line) <= MAX_WIDTH:  # the common case: as it is
        return [line, " " * (col - 1) + "^"]
    pieces = [_piece(ch) for ch in line]
    caret = min(max(col - 1, 0), len(pieces))
    widths = [len(under.expandtabs(1)) for _shown, under in pieces]  # a tab counts as one column
    total = sum(widths)
    if total <= MAX_WIDTH:
        lo, hi = 0, len(pieces)
    else:  # a window of MAX_WIDTH columns that holds the caret
        lo, used = caret, 0
        while lo > 0 and used + widths[lo - 1] <= _BEFORE:
            lo -= 1
            used += widths[lo]
        hi, used = lo, 0
        while hi < len(pieces) and used + widths[hi] <= MAX_WIDTH:
            used += widths[hi]
            hi += 1
        hi = max(hi, caret)
    head = _ELLIPSIS if lo > 0 else ""
    tail = _ELLIPSIS if hi < len(pieces) else ""
    shown = head + "".join(p[0] for p in pieces[lo:hi]) + tail
    under = " " * len(head) + "".join(p[1] for p in pieces[lo:caret]) + "^"
    return [shown, under]
