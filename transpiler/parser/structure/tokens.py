"""The tokens of the structure level (``Tok``, ``LineOp``, ``LineRun``, ``AliasRun``) and the
lexer's error (``LexError``)."""

from __future__ import annotations



class LexError(Exception):
    """Text that is not MLIR's structure (an unbalanced bracket, a stray ``}``, ...).

    Attributes:
        offset: character offset (0-based) in the parsed text where the problem is.
        message: what was expected, in MLIR's wording where MLIR has one.
    """

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


class Tok:
    """A token as the LALR parser sees it: kind, text and [start_pos, end_pos) in the text.

    Lighter than ``lark.Token`` (no line/column bookkeeping: positions are turned into lines
    only when a diagnostic needs one).
    """

    __slots__ = ("type", "value", "start_pos", "end_pos")

    def __init__(self, type_: str, value: str, start_pos: int, end_pos: int):
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r}@{self.start_pos})"


class TextTok:
    """A ``BODY`` token whose text is read from the source only when asked for (``value``):
    the ops of a run keep two offsets instead of a copy of their text (issue 16: memory)."""

    __slots__ = ("text", "start_pos", "end_pos")
    type = "BODY"

    def __init__(self, text: str, start_pos: int, end_pos: int):
        self.text = text
        self.start_pos = start_pos
        self.end_pos = end_pos

    @property
    def value(self) -> str:
        """The token's text."""
        return self.text[self.start_pos:self.end_pos]

    def __repr__(self) -> str:
        return f"TextTok(BODY, {self.value!r}@{self.start_pos})"


class LineOp:
    """An ``OP_LINE`` token: a whole op without regions that its line proves complete.

    ``value`` is the op's name as written, ``def_text`` its results prefix (or None), ``body``
    its BODY token (or None); [start_pos, end_pos) the op's text, as the tokens DEF, OP_NAME
    and BODY of the same op would give.
    """

    __slots__ = ("value", "start_pos", "end_pos", "def_text", "body")
    type = "OP_LINE"

    def __init__(self, value: str, start_pos: int, end_pos: int, def_text, body):
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos
        self.def_text = def_text
        self.body = body

    def __repr__(self) -> str:
        return f"LineOp({self.value!r}@{self.start_pos})"


class LineRun:
    """An ``OP_LINES`` token: consecutive whole ops without regions, one per line, that the
    text proves complete (:mod:`transpiler.parser.structure.line_runs`).

    ``lines`` holds one ``(op start, results start or -1, name start, name end, body start or
    -1, op end)`` per op; [start_pos, end_pos) runs from the first op's start to the last one's
    end.
    """

    __slots__ = ("lines", "start_pos", "end_pos")
    type = "OP_LINES"

    def __init__(self, lines: list):
        self.lines = lines
        self.start_pos = lines[0][0]
        self.end_pos = lines[-1][5]

    def __repr__(self) -> str:
        return f"LineRun({len(self.lines)} ops@{self.start_pos})"


class AliasRun(LineRun):
    """An ``ALIAS_LINES`` token: consecutive alias definitions, one per line, that the text
    proves whole; ``lines`` holds one ``(start, name end, value start, value end)`` each."""

    __slots__ = ()
    type = "ALIAS_LINES"

    def __init__(self, lines: list):
        self.lines = lines
        self.start_pos = lines[0][0]
        self.end_pos = lines[-1][3]
