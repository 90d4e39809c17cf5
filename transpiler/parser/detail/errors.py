"""The tokens and the syntax errors of the detail parser (:mod:`transpiler.parser.detail.lalr`).

:class:`Token` is what the detail builders receive for a terminal: a ``str`` (its text) with
``type``, ``value``, ``start_pos``, ``end_pos`` and, computed when asked, ``line``, ``column``,
``end_line``, ``end_column`` (1-based), as Lark's ``Token`` has them.

The errors carry what the callers build their diagnostics from, with Lark's names and
values: ``pos_in_stream``, ``line``, ``column``; :class:`UnexpectedToken` the ``token`` (type
``$END`` at the end of the text, placed at the last token) and the ``expected`` terminals;
:class:`UnexpectedCharacters` the ``char`` no terminal of the state matches and the
``allowed`` terminals.  Their messages read as Lark's do (expected terminals sorted).
"""

from __future__ import annotations

from typing import Callable, Optional, Set


class Token(str):
    """A terminal of the detail level: its text, kind and [start_pos, end_pos) in the parsed text."""

    __slots__ = ("type", "value", "start_pos", "end_pos", "_text")

    def __new__(cls, type_: str, value: str, start_pos: Optional[int] = None, end_pos: Optional[int] = None,
                text: Optional[str] = None):
        self = str.__new__(cls, value)
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos
        self._text = text
        return self

    @classmethod
    def new_borrow_pos(cls, type_: str, value: str, borrow: "Token") -> "Token":
        """A token of another kind and text standing where ``borrow`` stands."""
        return cls(type_, value, borrow.start_pos, borrow.end_pos, getattr(borrow, "_text", None))

    def _line_column(self, pos: Optional[int]):
        if pos is None or self._text is None:
            return (1, 1) if pos == 0 else (None, None)
        return line_column(self._text, pos)

    @property
    def line(self):
        return self._line_column(self.start_pos)[0]

    @property
    def column(self):
        return self._line_column(self.start_pos)[1]

    @property
    def end_line(self):
        return self._line_column(self.end_pos)[0]

    @property
    def end_column(self):
        return self._line_column(self.end_pos)[1]

    def __eq__(self, other):
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__

    def __repr__(self) -> str:
        return "Token(%r, %r)" % (self.type, self.value)

    def __reduce__(self):
        return (Token, (self.type, self.value, self.start_pos, self.end_pos, self._text))

    def __deepcopy__(self, memo):
        return Token(self.type, self.value, self.start_pos, self.end_pos, self._text)


def line_column(text: str, pos: int):
    """(line, column), both 1-based, of offset ``pos`` in ``text``."""
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


class UnexpectedInput(Exception):
    """The text does not fit the grammar at ``pos_in_stream`` (``line``, ``column``)."""

    line: Optional[int] = None
    column: Optional[int] = None
    pos_in_stream: Optional[int] = None
    token_history = None
    _names: Optional[dict] = None  # terminal name -> how messages name it (None: the name)

    def _format_expected(self, expected) -> str:
        names = self._names
        shown = sorted(names.get(t, t) for t in expected) if names else sorted(expected)
        return "Expected one of: \n\t* %s\n" % "\n\t* ".join(shown)

    @staticmethod
    def get_context(text: str, pos: int, span: int = 40) -> str:
        """The line around ``pos`` with a caret under it (Lark's ``get_context``)."""
        start = max(pos - span, 0)
        before = text[start:pos].rsplit("\n", 1)[-1]
        after = text[pos:pos + span].split("\n", 1)[0]
        return before + after + "\n" + " " * len(before.expandtabs()) + "^\n"


class UnexpectedCharacters(UnexpectedInput):
    """No terminal the parser state accepts matches the text at ``pos_in_stream``."""

    def __init__(self, text: str, pos: int, allowed: Set[str], token_history, names: dict):
        super().__init__()
        self.pos_in_stream = pos
        self.line, self.column = line_column(text, pos)
        self.char = text[pos]
        self.allowed = allowed
        self.token_history = token_history
        self._names = names
        self._context = self.get_context(text, pos)

    def __str__(self) -> str:
        message = "No terminal matches '%s' in the current parser context, at line %d col %d" % (
            self.char, self.line, self.column)
        message += "\n\n" + self._context
        if self.allowed:
            message += self._format_expected(self.allowed)
        if self.token_history:
            message += "\nPrevious tokens: %s\n" % ", ".join(repr(t) for t in self.token_history)
        return message


class UnexpectedToken(UnexpectedInput):
    """A token the grammar does not allow where it stands (``$END``: the text ends early).

    ``accepts``: the terminals that the parser would shift there (computed when asked).
    """

    def __init__(self, token: Token, expected: Set[str], accepts: Callable[[], Set[str]],
                 token_history=None, names: Optional[dict] = None):
        super().__init__()
        self.token = token
        self.expected = expected
        self.line = token.line
        self.column = token.column
        self.pos_in_stream = token.start_pos
        self.token_history = token_history
        self._names = names
        self._accepts_of = accepts
        self._accepts = None

    @property
    def accepts(self) -> Set[str]:
        if self._accepts is None:
            self._accepts = self._accepts_of()
        return self._accepts

    def __str__(self) -> str:
        message = "Unexpected token %r at line %s, column %s.\n%s" % (
            self.token, self.line, self.column, self._format_expected(self.accepts or self.expected))
        if self.token_history:
            message += "Previous tokens: %r\n" % self.token_history
        return message


#: How deep ``<...>`` may nest in one type (``tensor<4x!tt.ptr<f32>>`` is 2): the TYPE terminal
#: of ``grammars/ttir.lark`` is a regular expression, which nests a fixed number of levels
#: (``tests/test_nesting_limits.py`` checks the figure against the grammar).
TYPE_NESTING_LIMIT = 5


def _depths(text: str, start: int, opener: str, closer: str):
    """``(index, depth)`` at each ``opener``/``closer`` of ``text`` from ``start``, outside
    strings (a ``closer`` after ``-`` is an arrow, not a bracket)."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == opener:
            depth += 1
            yield i, depth
        elif c == closer and text[i - 1:i] != "-":
            depth = max(depth - 1, 0)
            yield i, depth
        i += 1


def angle_depth(text: str) -> int:
    """The deepest nesting of ``<...>`` in ``text``, outside strings and not counting ``->``."""
    return max((depth for _, depth in _depths(text, 0, "<", ">")), default=0)


#: How deep ``(...)`` may nest in one ``loc(...)``, ``loc(`` included (``loc(callsite("a":1:2 at
#: "b":3:4))`` is 2): the LOC terminal of ``grammars/ttir.lark`` nests that many levels.
LOC_NESTING_LIMIT = 16


def loc_depth(text: str) -> int:
    """The deepest nesting of ``(...)`` inside any ``loc(...)`` of ``text`` (``loc(`` counts
    one), outside strings; 0 without a location."""
    deepest = 0
    start = text.find("loc(")
    while start >= 0:
        end = len(text)
        for end, depth in _depths(text, start + 3, "(", ")"):
            deepest = max(deepest, depth)
            if depth == 0:
                break
        start = text.find("loc(", end + 1)
    return deepest


def nesting_note(text: str) -> str:
    """What to add to a syntax error in ``text`` (an op's body) when it nests deeper than the
    reader's terminals can: a type's ``<...>`` beyond :data:`TYPE_NESTING_LIMIT`, a location's
    ``(...)`` beyond :data:`LOC_NESTING_LIMIT`; else the empty string."""
    notes = []
    depth = angle_depth(text)
    if depth > TYPE_NESTING_LIMIT:
        notes.append(f"its text nests '<...>' {depth} deep; ttd-lower reads types nested up to "
                     f"{TYPE_NESTING_LIMIT} deep (the TYPE terminal of grammars/ttir.lark)")
    depth = loc_depth(text)
    if depth > LOC_NESTING_LIMIT:
        notes.append(f"a location nests '(...)' {depth} deep; ttd-lower reads locations nested up to "
                     f"{LOC_NESTING_LIMIT} deep (the LOC terminal of grammars/ttir.lark)")
    return f" ({'; '.join(notes)})" if notes else ""
