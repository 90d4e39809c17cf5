"""Builds the IR while the structure level of the grammar is parsed (called at each reduction).

Each rule reduction makes one IR object: ``op`` an :class:`Operation` (name, results text, body
pieces, regions, span), ``block`` a :class:`Block`, ``region`` a :class:`Region`, ``alias`` an
:class:`Alias`, ``file`` the :class:`Module`.  No tree is built (DESIGN.md: "IR built while
parsing").
"""

from __future__ import annotations

import re
from typing import List

from ...ir.core import Alias, Block, Module, Operation, Region, Source
from ...ir.attributes import unquote_string
from .boundary import ALIAS_DEF
from .tokens import AliasRun, LexError, LineRun, TextTok, Tok


_ALIAS_NAME = re.compile(r"[#!][\w$.\-]+")


class StructureBuilder:
    """Parse-time callbacks of :func:`transpiler.parser.structure.lalr.parse_structure`, one builder
    per parse: ``source`` is the text being parsed."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.distributed_starts: List[int] = []  # where each distributed.* op read so far begins
        self._names: dict = {}  # op names read so far: one string per name

    # terminals whose value the builder makes when they are shifted (the method's name): their
    # ops (and aliases) exist from then on, and the run's offsets are dropped at once
    SHIFTED = {"OP_LINES": "ops_of_run", "ALIAS_LINES": "aliases_of_run"}

    def op(self, children: list) -> Operation:
        first = children[0]
        if first.type == "OP_LINE":  # a whole op without regions, in one token
            name = first.value
            body = first.body
            generic = name[0] == '"'
            if generic:
                name = _op_name(name, self.source.text, first.start_pos)
            if name.startswith("distributed."):
                self.distributed_starts.append(first.start_pos)
            return Operation(name, regions=[], source=self.source,
                             span=(first.start_pos, first.end_pos), def_text=first.def_text,
                             body=[body] if body is not None else [], generic=generic)
        i = 1 if first.type == "DEF" else 0
        name_tok: Tok = children[i]
        name = name_tok.value
        generic = name[0] == '"'
        if generic:
            name = _op_name(name, self.source.text, name_tok.start_pos)
        if name.startswith("distributed."):
            self.distributed_starts.append(first.start_pos)
        body = []
        regions: List[Region] = []
        for piece in children[i + 1 :]:
            if isinstance(piece, Region):
                regions.append(piece)
                body.append(None)
            else:
                body.append(piece)
        last = children[-1]
        end = last.end_pos if isinstance(last, Tok) else last.span[1] + 1
        op = Operation(
            name,
            regions=regions,
            source=self.source,
            span=(first.start_pos, end),
            def_text=first.value if i else None,
            body=body,
            generic=generic,
        )
        for region in regions:
            region.parent = op
        return op

    def ops_of_run(self, run: LineRun) -> "_Ops":
        """The ops of an ``OP_LINES`` token, one per line (none is a distributed op:
        :mod:`~transpiler.parser.structure.line_runs` keeps those out of runs)."""
        source = self.source
        text = source.text
        names = self._names
        ops = _Ops()
        append = ops.append
        for start, d0, n0, n1, b0, end in run.lines:
            name = text[n0:n1]
            name = names.setdefault(name, name)
            # Operation(name, regions, parent, location, source, span, def_text, body, generic)
            append(Operation(name, [], None, None, source, (start, end), text[d0:n0] if d0 >= 0 else None,
                             [TextTok(text, b0, end)] if b0 >= 0 else [], False))
        return ops

    @staticmethod
    def _items(children: list, run_type: type = None) -> list:
        """``children`` with the ops of each ``OP_LINES`` token (or the items of each value of
        ``run_type``) in its place."""
        run_type = run_type or _Ops
        items = []
        for c in children:
            if type(c) is run_type:
                items += c
            else:
                items.append(c)
        return items

    def region(self, children: list) -> Region:
        open_tok, close_tok = children[0], children[-1]
        region = Region(span=(open_tok.start_pos, close_tok.start_pos))
        blocks = region.blocks
        entry_ops: List[Operation] = []
        for item in self._items(children[1:-1]):
            if isinstance(item, Block):
                blocks.append(item)
            else:
                entry_ops.append(item)
        if entry_ops:
            entry = Block(ops=entry_ops)
            for op in entry_ops:
                op.parent = entry
            blocks.insert(0, entry)
        for block in blocks:
            block.parent = region
        return region

    def block(self, children: list) -> Block:
        label: Tok = children[0]
        block = Block(ops=self._items(children[1:]), label=label.value, label_offset=label.start_pos)
        for op in block.ops:
            op.parent = block
        return block

    def alias(self, children: list) -> Alias:
        tok: Tok = children[0]
        name = _ALIAS_NAME.match(tok.value).group()
        value = tok.value[ALIAS_DEF.match(tok.value).end():]
        return Alias(name, value.strip(), (tok.start_pos, tok.end_pos))

    def metadata(self, children: list) -> None:
        return None  # `{-# ... #-}`: kept as written by the faithful printer

    def aliases_of_run(self, run: AliasRun) -> "_Aliases":
        """The aliases of an ``ALIAS_LINES`` token, one per line."""
        text = self.source.text
        # the value stripped as the per-line path strips it (form feeds, no-break spaces...)
        return _Aliases(Alias(text[start:name_end], text[v0:v1].strip(), (start, v1))
                        for start, name_end, v0, v1 in run.lines)

    def file(self, children: list) -> Module:
        children = self._items(self._items(children, _Aliases))
        ops = [c for c in children if isinstance(c, Operation)]
        aliases = [c for c in children if isinstance(c, Alias)]
        return Module(ops=ops, aliases=aliases, source=self.source, names_distributed=bool(self.distributed_starts))


class _Ops(list):
    """The ops of one ``OP_LINES`` token, spliced into the rule that holds the token."""

    __slots__ = ()


class _Aliases(list):
    """The aliases of one ``ALIAS_LINES`` token, spliced into the file's items."""

    __slots__ = ()


def _op_name(quoted: str, text: str, start: int) -> str:
    """The name of a generic op: its string literal decoded (``"tt\\2Edot"`` is ``tt.dot``).

    Raises:
        LexError: at the literal (found from ``start``, where its op begins in ``text``) when
            an escape in it is malformed (``"foo.b\\q"``).
    """
    if "\\" not in quoted:
        return quoted[1:-1]
    try:
        return unquote_string(quoted)
    except ValueError as e:
        raise LexError(max(text.find(quoted, start), start), str(e)) from None
