"""The detail-level parser: Lark's contextual lexer and LALR(1) parser, over generated tables.

:class:`DetailParser` parses a text from one of the detail start rules of
``grammars/ttir.lark`` with the tables :mod:`transpiler.parser.gen_detail_tables` makes from
the grammar with Lark at development time (``_generated_detail_tables.py``, committed; a test
regenerates it and another checks that this parser and Lark's give the same results and the
same errors).  No Lark at run time.  It behaves as Lark's parser with ``lexer="contextual"``,
``maybe_placeholders=False`` and a parse-time transformer:

* lexing is interleaved with parsing: each token is read by the lexer of the parser state
  reached so far, which tries the terminals that state accepts in Lark's order (the first
  that matches wins), skips the ``%ignore`` terminals and gives a regex match whose text is
  a keyword of the grammar (``tensor``, ``x``...) the keyword's type;
* at each reduction the builder method named by the rule (or its ``-> alias``) is called with
  the rule's children: anonymous string tokens left out, the children of ``_rule`` results
  spliced in place, a ``?rule``'s only child handed back as it is.

Terminal regexes are compiled on first use (with :mod:`transpiler._compat`'s ``re``: the
``regex`` module before Python 3.11); a lexer that has read ``_COMPILE_AFTER`` tokens compiles
the alternation of its terminals, which gives the same tokens faster, and its scanner
(:mod:`transpiler.parser.detail_scan`: the ignored text skipped in the same match), and the
parser states that read with it their lanes (:mod:`transpiler.parser.detail_lane`: a run of
``custom_body`` items read without the parser's general steps).

Errors (:mod:`transpiler.parser.detail_errors`): :class:`UnexpectedToken` (a token the grammar
does not allow there; ``$END`` when the text ends early) and :class:`UnexpectedCharacters` (no
terminal of any state matches there; when a terminal of another state matches, that token is
reported as an UnexpectedToken, as Lark does).  Exceptions of the builder methods propagate.
"""

from __future__ import annotations

from . import _generated_detail_tables as tables
from .detail_errors import Token, UnexpectedCharacters, UnexpectedToken
from .detail_lane import JOINED, SINGLE, TAKEN, inline_kind, lane_of, run_lane
from .detail_scan import scanner

# tokens a lexer reads before it compiles its terminals' alternation (~1-3 ms): more than a
# kernel's worth, so that only a process that compiles kernel after kernel pays for it
_COMPILE_AFTER = 2048
_PATTERNS = {row[0]: row[1] for row in tables.TERMINALS}
_NAMES = {row[0]: row[4] for row in tables.TERMINALS}  # how messages name a terminal
_IGNORE = frozenset(tables.IGNORE)
_compiled: dict = {}
_new = str.__new__  # a Token made inline (Token.__new__ without its call): str.__new__, then its slots


def _match_of(name: str):
    """The ``match`` method of terminal ``name``'s regex, compiled once."""
    match = _compiled.get(name)
    if match is None:
        from .._compat import re

        match = _compiled[name] = re.compile(_PATTERNS[name]).match
    return match


class _Lexer:
    """The scanner of one set of terminals (``LEXERS[i]``): ``next(text, pos)`` is (kind, text) or None.

    Once compiled, ``scan`` (when not None) is its :func:`~transpiler.parser.detail_scan.scanner`:
    the ignored text skipped and the next token matched in one call.
    """

    __slots__ = ("names", "unless", "allowed", "tries", "uses", "alternation", "scan", "states")

    def __init__(self, row):
        self.names, self.unless = row
        self.allowed = {n for n in self.names if n not in _IGNORE} or {"<END-OF-FILE>"}
        self.tries = None
        self.uses = 0
        self.alternation = None
        self.scan = None
        self.states = []  # the parser states that read with this lexer

    def next(self, text: str, pos: int):
        alternation = self.alternation
        if alternation is not None:
            m = alternation(text, pos)
            kind = m.lastgroup if m is not None else None
        else:
            self.uses += 1
            if self.uses > _COMPILE_AFTER:
                from .._compat import re

                self.alternation = re.compile("|".join("(?P<%s>%s)" % (n, _PATTERNS[n]) for n in self.names)).match
                self.scan = scanner(self.names, _PATTERNS, _IGNORE)
                if self.scan is not None:
                    for state in self.states:
                        _LANES[state] = lane_of(state, _ACTIONS, _STATE_LEXER, tables.RULES)
                return self.next(text, pos)
            tries = self.tries
            if tries is None:
                tries = self.tries = [(n, _match_of(n)) for n in self.names]
            for kind, match in tries:
                m = match(text, pos)
                if m is not None:
                    break
            else:
                return None
        if m is None:
            return None
        value = m.group()
        if kind in self.unless:
            kind = self.unless[kind].get(value, kind)
        return kind, value


_LEXERS = [_Lexer(row) for row in tables.LEXERS]
_STATE_LEXER = [_LEXERS[i] for i in tables.STATE_LEXER]
for _state, _lexer in enumerate(_STATE_LEXER):
    _lexer.states.append(_state)
_ROOT = _LEXERS[tables.ROOT_LEXER]
_ACTIONS = tables.ACTIONS
_LANES: list = [None] * len(_ACTIONS)  # a state's _Lane, made when the state's lexer gets its scanner


class DetailParser:
    """``parse(text, start)``: what ``builder`` makes of ``text`` read from rule ``start``.

    ``builder`` has one method per rule callback of the detail level (a ``DetailBuilder``).
    """

    def __init__(self, builder):
        self.builder = builder
        self.rules = [(name, size, getattr(builder, callback) if callback else None, kept, spliced, expand1,
                       inline_kind(size, callback, kept, spliced))
                      for name, size, callback, kept, spliced, expand1 in tables.RULES]

    def parse(self, text: str, start: str):
        """Raises:
            UnexpectedToken, UnexpectedCharacters: the text does not fit the grammar.
            KeyError: ``start`` is not a detail start rule.
        """
        start_state, end_state = tables.STARTS[start]
        rules = self.rules
        actions = _ACTIONS
        lanes = _LANES
        states = [start_state]
        values: list = []
        ignore = _IGNORE
        new = _new
        pos, end, last = 0, len(text), None
        while pos < end:
            lexer = _STATE_LEXER[states[-1]]
            scan = lexer.scan
            if scan is not None:  # a busy lexer: the ignored text and the token in one match
                m = scan(text, pos)
                kind = m.lastgroup
                if kind is None:  # only ignored text is left, or no terminal matches after it
                    pos = m.end()
                    if pos < end:
                        _lex_error(text, pos, lexer, last, states, end_state)
                    break
                value = m.group(kind)
                if kind in lexer.unless:
                    kind = lexer.unless[kind].get(value, kind)
                stop = m.end()
                pos = stop - len(value)
            else:
                lexed = lexer.next(text, pos)
                if lexed is None:
                    _lex_error(text, pos, lexer, last, states, end_state)
                kind, value = lexed
                stop = pos + len(value)
                if kind in ignore:
                    pos = stop
                    continue
            token = new(Token, value)  # Token(kind, value, pos, stop, text), inline
            token.type = kind
            token.value = value
            token.start_pos = pos
            token.end_pos = stop
            token._text = text
            pos = stop
            while True:  # feed the token: reduce as needed, then shift it
                top = states[-1]
                action = actions[top].get(kind)
                if action is None:
                    raise _token_error(token, states, end_state)
                if action >= 0:
                    lane = lanes[top]
                    if (lane is not None and action in lane.follows and len(states) > 1
                            and actions[states[-2]].get(lane.name) == top):
                        pos, token, action = run_lane(text, pos, end, lane, values[-1], token, action)
                    states.append(action)
                    values.append(token)
                    break
                rule = rules[~action]
                inline = rule[6]
                if inline == SINGLE:
                    states.pop()
                    value = [values.pop()]
                elif inline == JOINED:
                    del states[-2:]
                    right = values.pop()
                    value = values.pop()
                    value.extend(right)
                elif inline == TAKEN:
                    states.pop()
                    value = values.pop()
                else:
                    _reduce(rule, states, values)
                    continue
                states.append(actions[states[-1]][rule[0]])
                values.append(value)
            last = token
        if last is not None:  # the end, placed at the last token (as Lark places it)
            token = Token("$END", "", last.start_pos, last.end_pos, text)
        else:
            token = Token("$END", "", 0, None, text)
        while True:
            action = actions[states[-1]].get("$END")
            if action is None or action >= 0:
                raise _token_error(token, states, end_state)
            _reduce(rules[~action], states, values)
            if states[-1] == end_state:
                return values[-1]


def _reduce(rule, states: list, values: list) -> None:
    name, size, callback, kept, spliced, expand1, inline = rule
    if inline:  # what the general steps below would do, in short
        if inline == SINGLE:
            values.append([values.pop()])
        elif inline == JOINED:
            right = values.pop()
            values[-1].extend(right)
        del states[-size:]
        states.append(_ACTIONS[states[-1]][name])
        return
    if size:
        children = values[-size:]
        del values[-size:]
        del states[-size:]
    else:
        children = []
    if kept is not None:
        children = [children[i] for i in kept]
    if spliced:
        flat: list = []
        for i, child in enumerate(children):
            if i not in spliced:
                flat.append(child)
            elif flat:
                flat.extend(child)
            else:  # a left-recursive repetition: take over its list
                flat = child
        children = flat
    if callback is None:
        value = children
    elif expand1 and len(children) == 1:
        value = children[0]
    else:
        value = callback(children)
    states.append(_ACTIONS[states[-1]][name])
    values.append(value)


def _token_error(token: Token, states: list, end_state: int, history=None, names=None,
                 expected=None) -> UnexpectedToken:
    snapshot = list(states)
    row = _ACTIONS[snapshot[-1]]
    if expected is None:
        expected = {symbol for symbol in row if symbol.isupper()}
    return UnexpectedToken(token, expected, lambda: _accepts(snapshot, end_state), history, names)


def _accepts(states: list, end_state: int) -> set:
    """The terminals the parser would take in the state stack ``states`` (Lark's ``accepts``:
    a shift, or for ``$END`` reductions up to ``end_state``)."""
    out = set()
    for symbol in _ACTIONS[states[-1]]:
        if not symbol.isupper():
            continue
        stack = list(states)
        while True:
            action = _ACTIONS[stack[-1]].get(symbol)
            if action is None:
                break
            if action >= 0:
                out.add(symbol)
                break
            name, size = tables.RULES[~action][:2]
            if size:
                del stack[-size:]
            stack.append(_ACTIONS[stack[-1]][name])
            if symbol == "$END" and stack[-1] == end_state:
                out.add(symbol)
                break
    return out


def _lex_error(text: str, pos: int, lexer: _Lexer, last, states: list, end_state: int):
    """Raise the error of a text no terminal of ``lexer`` matches at ``pos``: an
    :class:`UnexpectedToken` when a terminal of the grammar matches there, else an
    :class:`UnexpectedCharacters`."""
    error = UnexpectedCharacters(text, pos, set(lexer.allowed), last and [last], _NAMES)
    at = pos
    while at < len(text):
        lexed = _ROOT.next(text, at)
        if lexed is None:
            break
        kind, value = lexed
        if kind in _IGNORE:
            at += len(value)
            continue
        token = Token(kind, value, at, at + len(value), text)
        raise _token_error(token, states, end_state, [last], _NAMES, set(lexer.allowed)) from None
    raise error
