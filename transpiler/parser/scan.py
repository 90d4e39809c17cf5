"""Character-level scanning shared by the lexer, the parser's alias check and the
debug-info stripper: where an MLIR string literal ends.

MLIR string literals are double-quoted, with ``\\`` escaping the next character
(MLIR LangRef, "String literals").
"""

from __future__ import annotations


def closing_quote(text: str, i: int, end: int | None = None) -> int:
    """Offset of the ``"`` that closes the string literal opened at ``text[i] == '"'``.

    Args:
        text: the source text.
        i: offset of the opening quote.
        end: where to stop looking (default: the end of ``text``).

    Returns:
        The closing quote's offset, or a value ``>= end`` when the literal is not closed
        before ``end``.
    """
    stop = len(text) if end is None else end
    j = i + 1
    while j < stop and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return j
