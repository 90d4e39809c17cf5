"""The inline reductions and the item lanes of the detail parser (:mod:`transpiler.parser.detail.lalr`).

Almost every token of an op body is an item of ``custom_body: _item*``.  For each one the LALR
parser would shift it, then, at the next token, reduce ``_item`` and the repetition that takes
it, and shift that next token.  :func:`inline_kind` names the two reductions the parser makes
without its general :func:`~transpiler.parser.detail.lalr._reduce`; a :class:`Lane`, found in
the tables by :func:`lane_of`, lets :func:`run_lane` read a run of items with none of the
parser's general steps and the same outcome: tokens, lists, and where anything else happens
(a dictionary, an error, the end), the general loop takes over from the pending token.
"""

from __future__ import annotations

from .errors import Token

SINGLE, JOINED, TAKEN = 1, 2, 3
_new = str.__new__  # a Token made inline (Token.__new__ without its call): str.__new__, then its slots


def inline_kind(size: int, callback, kept, spliced) -> int:
    """``SINGLE``: ``_item: TOKEN`` (one child, kept as a list for the parent to splice);
    ``JOINED``: a repetition that takes one more (``__custom_body_star_4: __custom_body_star_4
    _item``: both lists joined); ``TAKEN``: a repetition's first (``__custom_body_star_4:
    _item``: the child's list taken over); 0: any other reduction."""
    if callback is not None or kept is not None:
        return 0
    if size == 1:
        return SINGLE if spliced == () else TAKEN if spliced == (0,) else 0
    if size == 2 and spliced == (0, 1):
        return JOINED
    return 0


class Lane:
    """A state S of a list of single-token items (``custom_body``'s ``_item*``).

    From S, an item terminal ``k`` shifts to a state q (``shifts[k]``) that reduces ``_item``
    (a ``SINGLE``) on every terminal it accepts; the ``_item`` goto of S reduces the repetition
    ``name`` (a ``JOINED``) on every terminal it accepts, back to S when the state under S goes
    to S on ``name``.  So while the next token is in ``follows[q]`` (what both reductions
    accept) and is an item terminal again, the parser appends the pending token to S's list
    and shifts the next one (the lexers of S and of every q are the same: ``lexer``, which
    reads with its skipping scanner ``scan``).
    """

    __slots__ = ("lexer", "scan", "shifts", "follows", "name")

    def __init__(self, lexer, scan, shifts, follows, name):
        self.lexer, self.scan, self.shifts, self.follows, self.name = lexer, scan, shifts, follows, name


def _all_one_reduction(row):
    """The rule index when every action of ``row`` reduces it (all on terminals), else None."""
    actions = set(row.values())
    if len(actions) != 1 or not all(symbol.isupper() or symbol == "$END" for symbol in row):
        return None
    action = actions.pop()
    return ~action if action < 0 else None


def lane_of(state: int, actions, state_lexer, rules, scan):
    """The :class:`Lane` of ``state`` in the tables (``ACTIONS``, the lexer of each state,
    ``RULES``; ``scan``: the skipping scanner of the state's lexer), or None."""
    row = actions[state]
    lexer = state_lexer[state]
    shifts, follows, name = {}, {}, None
    for kind, q in row.items():
        if q < 0 or not kind.isupper() or state_lexer[q] is not lexer:
            continue
        r = _all_one_reduction(actions[q])
        if r is None or inline_kind(*rules[r][1:5]) != SINGLE:
            continue
        goto = row.get(rules[r][0])
        r2 = _all_one_reduction(actions[goto]) if goto is not None and goto >= 0 else None
        if r2 is None or inline_kind(*rules[r2][1:5]) != JOINED or name not in (None, rules[r2][0]):
            continue
        name = rules[r2][0]
        shifts[kind] = q
        follows[q] = frozenset(actions[q]) & frozenset(actions[goto])
    return Lane(lexer, scan, shifts, follows, name) if shifts else None


def run_lane(text: str, pos: int, end: int, lane: Lane, items: list, token, q: int):
    """Read the items of ``lane`` from ``pos``, ``token`` pending (shifted to ``q``): each next
    item appends the pending token to ``items`` (S's list) and becomes the pending one.  The
    lane's ``scan`` reads them.  Returns (where the general loop goes on, the pending
    token, its state)."""
    scan = lane.scan
    unless = lane.lexer.unless
    shifts = lane.shifts
    follows = lane.follows
    follow = follows[q]
    new = _new
    while pos < end:
        m = scan(text, pos)
        kind = m.lastgroup
        if kind is None:
            if m.end() == end:  # only ignored text was left
                pos = end
            break
        value = m.group(kind)
        if kind in unless:
            kind = unless[kind].get(value, kind)
        shifted = shifts.get(kind)
        if shifted is None or kind not in follow:
            break
        items.append(token)
        stop = m.end()
        token = new(Token, value)
        token.type = kind
        token.value = value
        token.start_pos = stop - len(value)
        token.end_pos = stop
        token._text = text
        q = shifted
        follow = follows[q]
        pos = stop
    return pos, token, q
