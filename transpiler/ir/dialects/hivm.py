"""``hivm.hir.custom`` (AscendNPU-IR): a call of a device-library symbol in DPS form.

Printed form (SPEC.md section 2.6, accepted by ``bishengir-opt`` 1.2.0)::

    hivm.hir.custom {<sorted attributes>} "dist.<symbol>" ins(%a, %b : Ta, Tb) outs(%e : Te) -> R

``ins``/``outs`` are omitted when empty, ``-> R`` when there are no results, and several
results are parenthesised (``-> (i32, i64)``).  The quoted name is kept as the ``name``
property; the attribute dictionary holds everything else.
"""

from __future__ import annotations

from typing import Callable, List

from ..attributes import StringAttr, UnitAttr, format_attr_dict, unquote_string
from ..dialect import NO_EFFECTS, READ_WRITE, OpDef, OpDetail, ValueSpec, all_attributes, register
from ..format import Cursor, FormatError, finish
from ..types import Type

CUSTOM = "hivm.hir.custom"


def _effects(op):
    """No effects with ``no_side_effect`` (an attribute or, in generic form, a property)."""
    return NO_EFFECTS if isinstance(all_attributes(op).get("no_side_effect"), UnitAttr) else READ_WRITE


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


def print_custom(op, name_of: Callable) -> str:
    """The text after ``hivm.hir.custom`` for an op (print hook)."""
    detail = op.detail()
    operands = op.operands
    n_in = dict(detail.operand_groups).get("inputs", len(operands))
    types = op.operand_types
    parts = [format_attr_dict(op.attributes), str(detail.properties["name"])]
    for keyword, vals, tys in (("ins", operands[:n_in], types[:n_in]), ("outs", operands[n_in:], types[n_in:])):
        if vals:
            parts.append(f"{keyword}({', '.join(map(name_of, vals))} : {', '.join(map(str, tys))})")
    results = op.result_types
    if len(results) == 1:
        parts.append(f"-> {results[0]}")
    elif results:
        parts.append("-> (" + ", ".join(map(str, results)) + ")")
    return " " + " ".join(parts)


register(
    OpDef(
        CUSTOM,
        operands=(ValueSpec("inputs", variadic=True), ValueSpec("outputs", variadic=True)),
        results=(ValueSpec("results", variadic=True),),
        effects=_effects,
        parse_hook=parse_custom,
        print_hook=print_custom,
    )
)
