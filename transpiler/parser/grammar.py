"""The two LALR(1) parsers of ``grammars/ttir.lark``.

* :func:`parse_structure` - start ``file``: the tokens of
  :class:`~transpiler.parser.lexer.StructureLexer` driven through the grammar's LALR(1) tables,
  which :mod:`transpiler.parser.gen_tables` generates from the grammar with Lark at development
  time (``_structure_tables.py``, committed; a test regenerates it).  The IR is built at each
  reduction by :class:`~transpiler.parser.structure.StructureBuilder`.  No Lark at run time.
* :func:`detail_parser` - starts ``custom_body``, ``generic_body``, ``type``, ``attribute``,
  ``location``, ``block_label``, ``alias_definition``; Lark's contextual lexer; trees turned
  into IR pieces by :class:`~transpiler.parser.detail.DetailBuilder`.

Building the detail tables takes a few hundred milliseconds; Lark's cache (``cache=<file>``)
brings a reload down to milliseconds.  The cache lives in ``$TTD_CACHE_DIR`` or
``~/.cache/ttd-lower`` (falling back to no cache when that is not writable).
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Optional

from .. import resources
from .._compat import LARK_OPTIONS

DETAIL_STARTS = ["custom_body", "generic_body", "type", "attribute", "location", "block_label", "alias_definition"]


def _cache_file(kind: str, grammar: str) -> Optional[str]:
    """The cache file of one grammar, Lark and Python: named by all three, so that installs of
    other versions sharing the folder (other checkouts, other venvs) never overwrite each
    other's tables and rebuild them on every run (Lark keeps one table per file)."""
    from ..resources import cache_dir

    base = os.environ.get("TTD_CACHE_DIR") or str(cache_dir())  # TTD_CACHE_DIR: the older name
    try:
        Path(base).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(base, os.W_OK):
        return None
    import hashlib

    from lark import __version__ as lark_version

    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    python = "%d%d" % sys.version_info[:2]
    return os.path.join(base, f"lark-{kind}-{digest}-lark{lark_version}-py{python}.cache")


def _lark(**options):
    from lark import Lark

    grammar = resources.grammar_text()
    cache = _cache_file(options.pop("kind"), grammar)
    return Lark(grammar, parser="lalr", maybe_placeholders=False, cache=cache or False, **LARK_OPTIONS, **options)


class UnexpectedToken(Exception):
    """A structure token the grammar does not allow where it stands.

    Attributes:
        token: the token (``type`` ``$END`` at the end of the input, placed at the last token).
        expected: the terminals the grammar allows there.
    """

    def __init__(self, token, expected):
        super().__init__(f"unexpected {token.type}")
        self.token = token
        self.expected = expected


class _Inlined(list):
    """The children of a rule Lark inlines (``__file_star_0``...): spliced into the parent's."""

    __slots__ = ()


def parse_structure(tokens, builder):
    """Run the ``file`` rule's LALR(1) tables over ``tokens``; return what ``builder.file`` makes.

    ``builder`` has one method per rule (``op``, ``region``, ``block``, ``alias``, ``metadata``,
    ``file``), called with the rule's children at each reduction, as a Lark parse-time
    transformer would be (children of inlined rules spliced in place); ``builder.shifted``
    maps a terminal to the function that makes its value when it is shifted (the token
    itself otherwise), as Lark's lexer callbacks would.

    Raises:
        UnexpectedToken: a token the grammar does not allow there (or the input ends early).
        LexError: from the lexer.
    """
    from ._structure_tables import ACTIONS, END_STATE, RULES, START_STATE

    rules = [(name, size, getattr(builder, callback) if callback else None, spliced)
             for name, size, callback, spliced in RULES]
    states = [START_STATE]
    values: list = []
    token = None
    shifted = getattr(builder, "shifted", {})

    def reduce(rule_index: int) -> None:
        name, size, callback, spliced = rules[rule_index]
        if size:
            children = values[-size:]
            del values[-size:]
            del states[-size:]
        else:
            children = []
        if spliced:
            if spliced[0] == 0:  # a left-recursive repetition: extend its list in place
                flat = children[0]
                for i in range(1, size):
                    if i in spliced:
                        flat.extend(children[i])
                    else:
                        flat.append(children[i])
            else:
                flat = []
                for i, child in enumerate(children):
                    if i in spliced:
                        flat.extend(child)
                    else:
                        flat.append(child)
            children = flat
        if callback is None:
            value = children if type(children) is _Inlined else _Inlined(children)
        else:
            value = callback(list(children) if type(children) is _Inlined else children)
        states.append(ACTIONS[states[-1]][name])
        values.append(value)

    for token in tokens:
        kind = token.type
        while True:
            action = ACTIONS[states[-1]].get(kind)
            if action is None:
                raise UnexpectedToken(token, _expected(ACTIONS[states[-1]]))
            if action >= 0:
                states.append(action)
                make = shifted.get(kind)
                values.append(make(token) if make is not None else token)
                break
            # the two reductions of almost every op, inline: `op: OP_LINE` (one child) and a
            # repetition that takes one more item (`__region_star_2: __region_star_2 op`)
            name, size, callback, spliced = rules[~action]
            if size == 1 and not spliced:
                states.pop()
                child = values.pop()
                value = callback([child]) if callback is not None else _Inlined((child,))
            elif size == 2 and callback is None and spliced == (0,):
                del states[-2:]
                child = values.pop()
                value = values.pop()
                value.append(child)
            else:
                reduce(~action)
                continue
            states.append(ACTIONS[states[-1]][name])
            values.append(value)
    end = _EndToken(token.start_pos if token is not None else 0)
    while True:
        row = ACTIONS[states[-1]]
        action = row.get("$END")
        if action is None or action >= 0:
            raise UnexpectedToken(end, _expected(row))
        reduce(~action)
        if states[-1] == END_STATE:
            return values[-1]


class _EndToken:
    """The end of the input, as the parser sees it (at the last token, as Lark places it)."""

    __slots__ = ("start_pos",)
    type = "$END"
    value = ""

    def __init__(self, start_pos: int):
        self.start_pos = start_pos


def _expected(row) -> set:
    return {symbol for symbol in row if symbol.isupper()}


@functools.lru_cache(maxsize=None)
def detail_parser():
    """The parser of op bodies, types, attributes, locations, block labels and aliases.

    Lark's contextual lexer, with one change of how its per-state scanners match
    (:func:`_contextual_lexer_class`): same tokens, no regex compiled per parser state.
    """
    from .detail import DetailBuilder

    return _lark(kind="detail", start=DETAIL_STARTS, lexer="contextual", transformer=DetailBuilder(),
                 _plugins={"ContextualLexer": _contextual_lexer_class()})


_COMPILE_AFTER = 256  # tokens a detail-parser state scans before its alternation is compiled


@functools.lru_cache(maxsize=None)
def _contextual_lexer_class():
    """Lark's ``ContextualLexer`` whose per-state scanners try the state's terminals one by one.

    Lark's contextual lexer gives each parser state a scanner: one regex, the alternation of
    the terminals that state accepts, compiled on the state's first token.  The grammar's
    terminals are long (a whole type, attribute or location in one token), so a typical kernel
    compiled 26 such alternations, about 30 ms of its start-up.  Here each terminal is compiled
    once (``re``'s cache shares it between states) and a state's scanner tries its terminals in
    the order Lark puts them in the alternation (priority, then width, length and name).  A
    Python alternation matches its first alternative that matches, so the token (kind and
    text) is the same; Lark's keyword handling (``_create_unless``) is kept as it is.  A state
    that has scanned ``_COMPILE_AFTER`` tokens in this process (the API called again and again)
    compiles Lark's alternation after all, which is faster per token.
    """
    from lark.lexer import BasicLexer, ContextualLexer, Scanner, _create_unless

    class OrderedScanner(Scanner):
        _uses = 0

        def _build_mres(self, terminals, max_size):
            compile_ = self.re_.compile
            flags = self.g_regex_flags
            return [(t.name, compile_(t.pattern.to_regexp(), flags)) for t in terminals]

        def match(self, text, pos):
            if isinstance(text, str):  # lark < 1.2 passes the text itself
                string, end = text, len(text)
            else:
                string, end = text.text, text.end
            self._uses += 1
            if self._uses > _COMPILE_AFTER:  # a busy state: Lark's own alternation from now on
                compiled = Scanner.__new__(Scanner)  # a scanner of its own: a thread still in
                compiled.__dict__.update(self.__dict__)  # this method keeps the ordered list
                compiled._mres = Scanner._build_mres(compiled, self.terminals, len(self.terminals))
                self.fullmatch = compiled.fullmatch
                self.match = compiled.match
                return compiled.match(text, pos)
            for name, pattern in self._mres:
                m = pattern.match(string, pos, end)
                if m is not None:
                    return m.group(0), name
            return None

        def fullmatch(self, text):
            for name, pattern in self._mres:
                if pattern.fullmatch(text) is not None:
                    return name
            return None

    class OrderedBasicLexer(BasicLexer):
        def _build_scanner(self):
            assert not self.user_callbacks  # the grammar has no lexer callbacks
            terminals, self.callback = _create_unless(self.terminals, self.g_regex_flags, self.re, self.use_bytes)
            self._scanner = OrderedScanner(terminals, self.g_regex_flags, self.re, self.use_bytes)
            return self._scanner  # lark >= 1.2 assigns the result, older versions read _scanner

    class OrderedContextualLexer(ContextualLexer):
        BasicLexer = OrderedBasicLexer

    return OrderedContextualLexer


def parse_detail_text(text: str, start: str):
    """Parse ``text`` from the level-2 rule ``start``.

    Raises:
        lark.exceptions.UnexpectedInput: the text does not fit the grammar.
        ValueError: a callback rejected a piece (a malformed type, escape or number); Lark's
            ``VisitError`` wrapper is removed so callers see the real problem.
    """
    from lark.exceptions import VisitError

    try:
        return detail_parser().parse(text, start=start)
    except VisitError as e:
        if isinstance(e.orig_exc, ValueError):
            raise e.orig_exc from None
        raise
