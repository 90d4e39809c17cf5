"""Custom parse hooks of the ``hivm`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.hivm`."""

from __future__ import annotations

from typing import List

from ...ir.attributes import StringAttr, unquote_string
from ...ir.dialect import OpDetail
from ...ir.format import FormatError
from ...ir.types import Type
from ..detail.format_reader import Cursor, finish




def _values(cur: Cursor, keyword: str):
    names: List[str] = []
    types: List[Type] = []
    if not cur.accept_keyword(keyword):
        return names, types
    cur.expect("LPAR", "'('")
    while cur.kind() == "VALUE_USE":
        names.append(str(cur.next()))
        if not cur.accept("COMMA"):
            break
    if names:
        cur.expect("COLON", "':'")
        types = cur.type_list()
    cur.expect("RPAR", "')'")
    if len(types) != len(names):
        raise FormatError(f"{keyword} has {len(names)} values but {len(types)} types", cur.peek())
    return names, types


def parse_custom(op, items) -> OpDetail:
    """Read ``{attrs} "name" ins(...) outs(...) -> types`` (parse hook)."""
    cur = Cursor(items)
    location = cur.trailing_location()
    attributes = {}
    if cur.kind() == "ATTR_DICT":
        attributes = dict(cur.next().entries)
    name = unquote_string(str(cur.expect("STRING", "the custom op's name string")))
    ins, in_types = _values(cur, "ins")
    outs, out_types = _values(cur, "outs")
    results: List[Type] = []
    if cur.accept("ARROW"):
        results = cur.paren_type_list() if cur.kind() == "LPAR" else [cur.type()]
    detail = OpDetail(
        operand_names=ins + outs,
        operand_type_hints=in_types + out_types,
        attributes=attributes,
        properties={"name": StringAttr(name)},
        result_types=results,
        operand_groups=[("inputs", len(ins)), ("outputs", len(outs))],
    )
    return finish(op, cur, location, detail)
