"""The contextual lexers of the detail parser (:mod:`transpiler.parser.detail.lalr`), in two modes.

Each parser state reads its next token with the lexer of its set of terminals (``LEXERS[i]``
of the generated tables), which tries them in Lark's order, the first that matches winning:

* plain: one regex per terminal, tried in turn (each compiled on first use), only those that
  can start with the character at the position (``FIRST_CHARS`` of the generated tables);
* compiled: the alternation of the lexer's terminals in one regex (the same first match), its
  skipping scanner where :func:`~transpiler.parser.detail.scan.scanner` can show that skipping
  the ignored text inside the regex reads the same tokens, and the item lanes of the parser
  states that read with it (:mod:`transpiler.parser.detail.lanes`).  Compiling a lexer costs
  ~0.1-1 ms of Python's regex compiler, so a parse asks for this mode only when its input is
  big enough to pay for it, or once the process has read enough op text for it to pay
  (:func:`compiled_mode`, decided by the caller before each parse, never switched within one).

Thread safety: the lexers are made at import and never change, but for two write-once fields
made under :data:`_LOCK` the first time a parse needs them (``tries``, ``compiled``, and the
lanes of :data:`LANES` with the latter): a thread sees None (and makes it, under the lock) or
the finished value, never a half-made one; plain and compiled modes give the same tokens
(``tests/test_generated_parser.py``), so which thread made a value does not matter.
"""

from __future__ import annotations

import threading

from . import _tables as tables
from .lanes import lane_of
from .scan import scanner

#: The size (characters of the source text an op comes from) from which the detail parser
#: reads with compiled lexers: a module of this size reads enough tokens to pay for compiling
#: the lexers it uses; a typical kernel (~8k characters) does not (benchmarks/lexer_paths.py).
#: So many characters of op bodies read by the process make the compiled mode pay as well.
COMPILED_FROM = 65536


class _Count:
    """Characters of op bodies the detail parser has read in this process (``count``)."""

    __slots__ = ("count",)

    def __init__(self):
        self.count = 0


#: What :func:`compiled_mode` counts.  Threads may lose an update (``+=`` is not atomic): that
#: only delays the switch, and both modes read the same tokens.
BODY_CHARACTERS_READ = _Count()


def compiled_mode(source_size: int, body_size: int) -> bool:
    """Whether the parse of an op body of ``body_size`` characters, from a source text of
    ``source_size``, reads with the compiled lexers: its source is :data:`COMPILED_FROM`
    characters or more, or the process has read that many characters of op bodies before (a
    long-lived process, such as triton-ascend's compiler lowering kernel after kernel, pays for
    the compiling once).  Decided once, before the parse starts: a parse never changes mode."""
    read = BODY_CHARACTERS_READ.count
    BODY_CHARACTERS_READ.count = read + body_size
    return source_size >= COMPILED_FROM or read >= COMPILED_FROM

PATTERNS = {row[0]: row[1] for row in tables.TERMINALS}
NAMES = {row[0]: row[4] for row in tables.TERMINALS}  # how messages name a terminal
IGNORE = frozenset(tables.IGNORE)
_LOCK = threading.Lock()  # guards the making of the write-once fields below


def _blanks():
    """(the characters, the ``match`` of the regex) of the ignored blanks: the ``%ignore``
    terminal of blanks, which every lexer tries; that no other terminal starts with one of them
    (``FIRST_CHARS``) lets a parser skip them before asking any lexer (the same tokens)."""
    from ..._compat import re

    (name,) = (n for n in IGNORE if PATTERNS[n] == "[ \t\r\n]+")
    chars = tables.FIRST_CHARS[name]
    others = [n for n, first in tables.FIRST_CHARS.items()
              if n not in IGNORE and (first is None or set(first) & set(chars))]
    assert not others and all(name in row[0] for row in tables.LEXERS), others
    return frozenset(chars), re.compile(PATTERNS[name]).match


BLANK_CHARS, skip_blanks = _blanks()


class Compiled:
    """A lexer's compiled mode: ``match`` (the alternation's ``match``; ``lastgroup`` is the
    terminal) and ``scan`` (its skipping scanner, or None)."""

    __slots__ = ("match", "scan")

    def __init__(self, match, scan):
        self.match, self.scan = match, scan


class Lexer:
    """The lexer of one set of terminals (``LEXERS[i]``): ``next(text, pos)`` is (kind, text) or None.

    ``names``: the terminals in the order they are tried; ``unless``: Lark's keyword handling
    ({regex terminal: {text: string terminal}}); ``allowed``: what an error says it expected;
    ``states``: the parser states that read with it.
    """

    __slots__ = ("names", "unless", "allowed", "states", "tries", "by_char", "compiled")

    def __init__(self, row):
        self.names, self.unless = row
        self.allowed = {n for n in self.names if n not in IGNORE} or {"<END-OF-FILE>"}
        self.states = []
        self.tries = None  # write-once: [(terminal, its regex's match)]
        self.by_char = None  # write-once with tries: {first character: the tries that can match}
        self.compiled = None  # write-once: a Compiled

    def next(self, text: str, pos: int):
        """The plain mode: the first terminal whose regex matches at ``pos`` (kind, text), or None."""
        by_char = self.by_char or self._make_tries()
        tries = by_char.get(text[pos:pos + 1], by_char[None])
        for kind, match in tries:
            m = match(text, pos)
            if m is not None:
                break
        else:
            return None
        value = m.group()
        if kind in self.unless:
            kind = self.unless[kind].get(value, kind)
        return kind, value

    def next_compiled(self, text: str, pos: int):
        """:meth:`next` with the compiled alternation (the lexer must be compiled)."""
        m = self.compiled.match(text, pos)
        if m is None:
            return None
        kind, value = m.lastgroup, m.group()
        if kind in self.unless:
            kind = self.unless[kind].get(value, kind)
        return kind, value

    def _make_tries(self) -> dict:
        """Make ``tries`` and ``by_char`` (under the lock; ``by_char`` published last):
        ``by_char[c]`` the tries, in order, of the terminals that can start with ``c``, and
        ``by_char[None]`` those that may start with anything (for every other character)."""
        with _LOCK:
            if self.by_char is None:
                tries = [(n, _match_of(n)) for n in self.names]
                first = tables.FIRST_CHARS
                chars = {c for n in self.names if first[n] is not None for c in first[n]}
                by_char = {c: [t for t in tries if first[t[0]] is None or c in first[t[0]]] for c in chars}
                by_char[None] = [t for t in tries if first[t[0]] is None]
                self.tries = tries
                self.by_char = by_char
        return self.by_char

    def compile(self) -> Compiled:
        """This lexer's :class:`Compiled` mode (made once, with the lanes of its states)."""
        compiled = self.compiled
        if compiled is not None:
            return compiled
        from ..._compat import re

        with _LOCK:
            if self.compiled is None:
                match = re.compile("|".join("(?P<%s>%s)" % (n, PATTERNS[n]) for n in self.names)).match
                scan = scanner(self.names, PATTERNS, IGNORE)
                if scan is not None:
                    for state in self.states:
                        LANES[state] = lane_of(state, tables.ACTIONS, STATE_LEXER, tables.RULES, scan)
                self.compiled = Compiled(match, scan)  # published last: its lanes are there
        return self.compiled


def _match_of(name: str):
    """The ``match`` of terminal ``name``'s regex, compiled once (called under :data:`_LOCK`)."""
    match = _MATCHES.get(name)
    if match is None:
        from ..._compat import re

        match = _MATCHES[name] = re.compile(PATTERNS[name]).match
    return match


_MATCHES: dict = {}  # terminal -> its regex's match, written once each under _LOCK
LEXERS = tuple(Lexer(row) for row in tables.LEXERS)
STATE_LEXER = tuple(LEXERS[i] for i in tables.STATE_LEXER)
for _state, _lexer in enumerate(STATE_LEXER):
    _lexer.states.append(_state)
ROOT = LEXERS[tables.ROOT_LEXER]
#: A state's item lane (compiled mode only), written once when its lexer is compiled.
LANES: list = [None] * len(tables.ACTIONS)
#: What the plain mode reads instead of LANES: no lane anywhere.
NO_LANES = (None,) * len(tables.ACTIONS)


def compile_all() -> None:
    """Compile every lexer (tests; a parse compiles only the lexers it meets)."""
    for lexer in LEXERS:
        lexer.compile()
