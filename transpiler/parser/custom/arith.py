"""Custom parse hooks of the ``arith`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.arith`."""

from __future__ import annotations

from ...ir.dialect import OpDetail
from ...ir.types import I1
from ..detail.format_reader import Cursor, finish




def _parse_select(op, items) -> OpDetail:
    """``%c, %a, %b : T`` or ``%c, %a, %b : C, T`` (a shaped condition is printed)."""
    cur = Cursor(items)
    location = cur.trailing_location()
    names = [str(cur.expect("VALUE_USE", "an SSA value"))]
    for _ in range(2):
        cur.expect("COMMA", "','")
        names.append(str(cur.expect("VALUE_USE", "an SSA value")))
    attributes = dict(cur.next().entries) if cur.kind() == "ATTR_DICT" else {}
    cur.expect("COLON", "':'")
    types = cur.type_list()
    cond, value = (types[0], types[1]) if len(types) == 2 else (I1, types[0])
    detail = OpDetail(operand_names=names, operand_type_hints=[cond, value, value], attributes=attributes, result_types=[value])
    return finish(op, cur, location, detail)
