"""The detail-level parser: Lark's contextual lexer and LALR(1) parser, over generated tables.

:class:`DetailParser` parses a text from one of the detail start rules of
``grammars/ttir.lark`` with the tables :mod:`transpiler.parser.detail.gen_tables` makes from
the grammar with Lark at development time (``detail/_tables.py``, committed; a test
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

The lexers (:mod:`transpiler.parser.detail.lexers`) read in one of two modes that give the
same tokens: plain, or compiled (one alternation per lexer, ignored text skipped inside its
regex, runs of ``custom_body`` items read in a lane, :mod:`transpiler.parser.detail.lanes`).
The caller chooses the mode for each parse (``compiled=``); it never changes within a parse.

Errors (:mod:`transpiler.parser.detail.errors`): :class:`UnexpectedToken` (a token the grammar
does not allow there; ``$END`` when the text ends early) and :class:`UnexpectedCharacters` (no
terminal of any state matches there; when a terminal of another state matches, that token is
reported as an UnexpectedToken, as Lark does).  Exceptions of the builder methods propagate.
"""

from __future__ import annotations

from . import _tables as tables
from .errors import Token, UnexpectedCharacters, UnexpectedToken
from .lanes import JOINED, SINGLE, TAKEN, inline_kind, run_lane
from .lexers import BLANK_CHARS, IGNORE, LANES, NAMES, NO_LANES, ROOT, STATE_LEXER, Lexer, skip_blanks

_ACTIONS = tables.ACTIONS
_new = str.__new__  # a Token made inline (Token.__new__ without its call): str.__new__, then its slots


class DetailParser:
    """``parse(text, start)``: what ``builder`` makes of ``text`` read from rule ``start``.

    ``builder`` has one method per rule callback of the detail level (a ``DetailBuilder``).
    """

    def __init__(self, builder):
        self.builder = builder
        self.rules = [(name, size, getattr(builder, callback) if callback else None, kept, spliced, expand1,
                       inline_kind(size, callback, kept, spliced))
                      for name, size, callback, kept, spliced, expand1 in tables.RULES]

    def parse(self, text: str, start: str, compiled: bool = False):
        """``compiled``: read with the compiled lexers (the same result, faster once they are
        compiled: for big inputs, see ``detail_lexers.COMPILED_FROM``).

        Raises:
            UnexpectedToken, UnexpectedCharacters: the text does not fit the grammar.
            KeyError: ``start`` is not a detail start rule.
        """
        start_state, end_state = tables.STARTS[start]
        rules = self.rules
        actions = _ACTIONS
        lanes = LANES if compiled else NO_LANES
        state_lexer = STATE_LEXER
        states = [start_state]
        values: list = []
        ignore = IGNORE
        new = _new
        pos, end, last = 0, len(text), None
        scan = None
        while pos < end:
            lexer = state_lexer[states[-1]]
            if compiled:
                scan = (lexer.compiled or lexer.compile()).scan
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
                if text[pos] in BLANK_CHARS:  # ignored blanks, skipped at once (no terminal starts with one)
                    pos = skip_blanks(text, pos).end()
                    if pos == end:
                        break
                lexed = lexer.next_compiled(text, pos) if compiled else lexer.next(text, pos)
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
                    if lane is None and compiled and state_lexer[top].compiled is None:
                        lane = lanes[top] if state_lexer[top].compile() else None  # its lane too
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


def _lex_error(text: str, pos: int, lexer: Lexer, last, states: list, end_state: int):
    """Raise the error of a text no terminal of ``lexer`` matches at ``pos``: an
    :class:`UnexpectedToken` when a terminal of the grammar matches there, else an
    :class:`UnexpectedCharacters`."""
    error = UnexpectedCharacters(text, pos, set(lexer.allowed), last and [last], NAMES)
    at = pos
    while at < len(text):
        lexed = ROOT.next(text, at)
        if lexed is None:
            break
        kind, value = lexed
        if kind in IGNORE:
            at += len(value)
            continue
        token = Token(kind, value, at, at + len(value), text)
        raise _token_error(token, states, end_state, [last], NAMES, set(lexer.allowed)) from None
    raise error
