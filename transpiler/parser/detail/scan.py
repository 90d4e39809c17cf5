"""The scanners of the detail parser's busy lexers: ignored text skipped inside the regex.

A lexer of :mod:`transpiler.parser.detail.lalr` reads one token per call; the ``%ignore``
terminals (blanks, ``//`` comments) then cost a whole turn of the parser's loop each.
:func:`scanner` builds, for a lexer's terminals, one regex that skips the ignored text first
and then matches the terminals in the lexer's order::

    (?:IGNORE_1|IGNORE_2|...)*+(?:(?P<A>...)|(?P<B>...)|...)?

``lastgroup`` is the terminal read (None: only ignored text was left, or no terminal matches
after it: ``end()`` is where).  This reads the same tokens as the lexer only when no other
terminal can match where an ignored one can (the lexer tries the terminals in an order that
mixes both, and the first that matches wins): :func:`scanner` checks that on the terminals'
regexes (:func:`first_chars`, :func:`may_start_with`, over the regex parser's tree) and gives
None when it cannot show it, and the lexer then keeps reading one token per call.
"""

from __future__ import annotations

import functools
import sys
from typing import Dict, FrozenSet, Optional, Sequence

if sys.version_info >= (3, 11):
    from re import _constants as _c, _parser as _sre
else:  # pragma: no cover - exercised by the 3.9 CI run
    import sre_constants as _c
    import sre_parse as _sre

_CATEGORY_CLASSES = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
                     "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}
_SMALL_RANGE = 256  # a class range wider than this makes a first-character set "unknown"


class _Unknown(Exception):
    """A regex construct the analysis does not read (the answer is then the safe one)."""


@functools.lru_cache(maxsize=None)
def first_chars(pattern: str) -> Optional[FrozenSet[str]]:
    """The characters a match of ``pattern`` can start with, when they are few and the pattern
    cannot match the empty string; else None."""
    try:
        tree = _sre.parse(pattern)
        if tree.state.flags & (_c.SRE_FLAG_IGNORECASE | _c.SRE_FLAG_VERBOSE):
            return None
        chars, nullable = _first_of_sequence(list(tree))
    except (_Unknown, _c.error, AttributeError, TypeError, ValueError):
        return None
    return None if nullable else frozenset(chars)


def _first_of_sequence(items) -> tuple:
    chars: set = set()
    for op, av in items:
        got, nullable = _first_of_item(op, av)
        chars |= got
        if not nullable:
            return chars, False
    return chars, True


def _first_of_item(op, av) -> tuple:
    name = str(op)
    if name == "LITERAL":
        return {chr(av)}, False
    if name == "IN":
        chars: set = set()
        for kind, value in av:
            kind = str(kind)
            if kind == "LITERAL":
                chars.add(chr(value))
            elif kind == "RANGE" and value[1] - value[0] < _SMALL_RANGE:
                chars.update(chr(c) for c in range(value[0], value[1] + 1))
            else:
                raise _Unknown(kind)
        return chars, False
    if name == "SUBPATTERN":
        if av[1] or av[2]:  # inline flags
            raise _Unknown(name)
        return _first_of_sequence(list(av[3]))
    if name == "ATOMIC_GROUP":
        return _first_of_sequence(list(av))
    if name == "BRANCH":
        chars, nullable = set(), False
        for branch in av[1]:
            got, empty = _first_of_sequence(list(branch))
            chars |= got
            nullable = nullable or empty
        return chars, nullable
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        got, empty = _first_of_sequence(list(av[2]))
        return got, empty or av[0] == 0
    raise _Unknown(name)


@functools.lru_cache(maxsize=None)
def may_start_with(pattern: str, chars: FrozenSet[str]) -> bool:
    """Whether a match of ``pattern`` might start with one of ``chars`` (True when unsure)."""
    try:
        tree = _sre.parse(pattern)
        if tree.state.flags & (_c.SRE_FLAG_IGNORECASE | _c.SRE_FLAG_VERBOSE):
            return True
        return any(_sequence_may_start(list(tree), c) for c in chars)
    except (_Unknown, _c.error, AttributeError, TypeError, ValueError):
        return True


def _sequence_may_start(items, c: str) -> bool:
    """Whether the sequence may start with ``c`` (or match the empty string: True, safe)."""
    for op, av in items:
        may, nullable = _item_may_start(op, av, c)
        if may:
            return True
        if not nullable:
            return False
    return True


def _item_may_start(op, av, c: str) -> tuple:
    """(may the item's match start with ``c``, may the item match the empty string)."""
    from ..._compat import re

    name = str(op)
    if name == "LITERAL":
        return av == ord(c), False
    if name == "NOT_LITERAL":
        return av != ord(c), False
    if name == "ANY":
        return True, False
    if name == "IN":
        hit, negate = False, False
        for kind, value in av:
            kind = str(kind)
            if kind == "NEGATE":
                negate = True
            elif kind == "LITERAL":
                hit = hit or value == ord(c)
            elif kind == "RANGE":
                hit = hit or value[0] <= ord(c) <= value[1]
            elif kind == "CATEGORY" and str(value) in _CATEGORY_CLASSES:
                hit = hit or re.match(_CATEGORY_CLASSES[str(value)], c) is not None
            else:
                return True, False
        return hit != negate, False
    if name in ("AT", "ASSERT", "ASSERT_NOT"):  # zero-width: the items after it decide
        return False, True
    if name == "SUBPATTERN":
        if av[1] or av[2]:
            return True, True
        return _sequence_may_start(list(av[3]), c), _nullable(list(av[3]))
    if name == "ATOMIC_GROUP":
        return _sequence_may_start(list(av), c), _nullable(list(av))
    if name == "BRANCH":
        return (any(_sequence_may_start(list(b), c) for b in av[1]),
                any(_nullable(list(b)) for b in av[1]))
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return _sequence_may_start(list(av[2]), c), av[0] == 0 or _nullable(list(av[2]))
    return True, True


def _nullable(items) -> bool:
    """Whether the sequence may match the empty string (True when unsure)."""
    for op, av in items:
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        if name in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
            return False
        if name == "SUBPATTERN" and not (av[1] or av[2]):
            if not _nullable(list(av[3])):
                return False
        elif name == "ATOMIC_GROUP":
            if not _nullable(list(av)):
                return False
        elif name == "BRANCH":
            if not any(_nullable(list(b)) for b in av[1]):
                return False
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if av[0] > 0 and not _nullable(list(av[2])):
                return False
        else:
            return True
    return True


def scanner(names: Sequence[str], patterns: Dict[str, str], ignore: FrozenSet[str]):
    """The ``match`` of the skipping scanner of a lexer trying ``names`` in that order, or
    None when the lexer ignores nothing or the skip cannot be shown to read the same tokens."""
    from ..._compat import re

    skipped = [n for n in names if n in ignore]
    kept = [n for n in names if n not in ignore]
    if not skipped or not kept:
        return None
    starts: set = set()
    for n in skipped:
        chars = first_chars(patterns[n])
        if chars is None:
            return None
        starts |= chars
    if any(may_start_with(patterns[n], frozenset(starts)) for n in kept):
        return None
    return re.compile("(?:%s)*+(?:%s)?" % ("|".join("(?:%s)" % patterns[n] for n in skipped),
                                           "|".join("(?P<%s>%s)" % (n, patterns[n]) for n in kept))).match
