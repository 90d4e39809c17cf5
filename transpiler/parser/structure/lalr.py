"""The two LALR(1) parsers of ``grammars/ttir.lark``.

* :func:`parse_structure` - start ``file``: the tokens of
  :class:`~transpiler.parser.structure.lexer.StructureLexer` driven through the grammar's LALR(1) tables,
  which :mod:`transpiler.parser.structure.gen_tables` generates from the grammar with Lark at development
  time (``structure/_tables.py``, committed; a test regenerates it).  The IR is built at each
  reduction by :class:`~transpiler.parser.structure.builder.StructureBuilder`.  No Lark at run time.
* :func:`detail_parser` - starts ``custom_body``, ``generic_body``, ``type``, ``attribute``,
  ``location``, ``block_label``, ``alias_definition``: Lark's contextual lexer and LALR(1)
  parser replayed over tables that :mod:`transpiler.parser.detail.gen_tables` generates from
  the grammar with Lark at development time (``detail/_tables.py``, committed; a test
  regenerates it), see :mod:`transpiler.parser.detail.lalr`.  The IR pieces are built at each
  reduction by :class:`~transpiler.parser.detail.builder.DetailBuilder`.  No Lark at run time either.
"""

from __future__ import annotations

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
    transformer would be (children of inlined rules spliced in place); ``builder.SHIFTED``
    maps a terminal to the name of the method that makes its value when it is shifted (the
    token itself otherwise), as Lark's lexer callbacks would.

    Raises:
        UnexpectedToken: a token the grammar does not allow there (or the input ends early).
        LexError: from the lexer.
    """
    from ._tables import ACTIONS, END_STATE, RULES, START_STATE

    rules = [(name, size, getattr(builder, callback) if callback else None, spliced)
             for name, size, callback, spliced in RULES]
    states = [START_STATE]
    values: list = []
    token = None
    shifted = {kind: getattr(builder, method) for kind, method in getattr(builder, "SHIFTED", {}).items()}

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
