"""Custom parse hooks of the ``tt`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.tt`."""

from __future__ import annotations

from typing import List, Optional, Tuple

from ...ir.attributes import ArrayAttr, DictAttr, StringAttr, TypeAttr, unquote_string
from ...ir.dialect import OpDetail
from ...ir.dialects.tt import SCALE_DOT_ELEM_TYPE
from ...ir.format import FormatError
from ...ir.types import FunctionType, Type
from ..detail.format_reader import Cursor, finish




def parse_function(op, items) -> OpDetail:
    """``[visibility] @name(%a: T {attrs} loc(..), ...) [-> results] [attributes {..}] {region}``.

    A declaration (no body) lists types only: ``@name(T {attrs}, ...)``.
    """
    cur = Cursor(items)
    location = cur.trailing_location()
    attributes = {}
    if cur.kind() == "BARE_ID" and str(cur.peek()) in ("public", "private", "nested"):
        attributes["sym_visibility"] = StringAttr(str(cur.next()))
    sym = str(cur.expect("SYMBOL_REF", "the function's @name"))
    attributes["sym_name"] = StringAttr(unquote_string(sym[1:]) if sym[1:2] == '"' else sym[1:])
    cur.expect("LPAR", "'('")
    args: List[Tuple[str, Type, Optional[str]]] = []
    arg_attrs = []
    while cur.kind() in ("VALUE_USE", "TYPE"):
        name = str(cur.next()) if cur.kind() == "VALUE_USE" else None
        if name is not None:
            cur.expect("COLON", "':'")
        t = cur.type()
        arg_attrs.append(cur.next() if cur.kind() == "ATTR_DICT" else DictAttr(()))
        loc = str(cur.next()) if cur.kind() == "LOC" else None
        args.append((name, t, loc))
        if not cur.accept("COMMA"):
            break
    cur.expect("RPAR", "')'")
    results: List[Type] = []
    res_attrs = []
    if cur.accept("ARROW"):
        if cur.kind() == "LPAR":
            cur.next()
            while cur.kind() == "TYPE":
                results.append(cur.type())
                res_attrs.append(cur.next() if cur.kind() == "ATTR_DICT" else DictAttr(()))
                if not cur.accept("COMMA"):
                    break
            cur.expect("RPAR", "')'")
        else:
            results.append(cur.type())
            res_attrs.append(DictAttr(()))
    if cur.accept_keyword("attributes"):
        attributes.update(cur.expect("ATTR_DICT", "an attribute dictionary").entries)
    region_args = {}
    if op.regions:
        cur.expect("REGION_SLOT", "the function body")
        if any(name is None for name, _, _ in args):
            raise FormatError("a function with a body names its arguments (%name: type)")
        region_args[0] = args
    attributes["function_type"] = TypeAttr(FunctionType(tuple(t for _, t, _ in args), tuple(results)))
    if any(d.entries for d in arg_attrs):
        attributes["arg_attrs"] = ArrayAttr(tuple(arg_attrs))
    if any(d.entries for d in res_attrs):
        attributes["res_attrs"] = ArrayAttr(tuple(res_attrs))
    return finish(op, cur, location, OpDetail(attributes=attributes, region_args=region_args))


def parse_dot_scaled(op, items) -> OpDetail:
    cur = Cursor(items)
    location = cur.trailing_location()
    names = {}
    for operand in ("a", "b"):
        names[operand] = str(cur.expect("VALUE_USE", f"the '{operand}' operand"))
        if cur.accept_keyword("scale"):
            names[operand + "_scale"] = str(cur.expect("VALUE_USE", f"the '{operand}_scale' operand"))
        cur.expect("COMMA", "','")
    names["c"] = str(cur.expect("VALUE_USE", "the 'c' operand"))
    attributes = {}
    for side, name in (("lhs", "a_elem_type"), ("rhs", "b_elem_type")):
        cur.expect_keyword(side)
        cur.expect("EQUAL", "'='")
        attributes[name] = SCALE_DOT_ELEM_TYPE.parse(cur)
    if cur.kind() == "ATTR_DICT":
        attributes.update(cur.next().entries)
    cur.expect("COLON", "':'")
    types = {}
    for operand, separator in (("a", "STAR"), ("b", "ARROW")):
        types[operand] = cur.type()
        if operand + "_scale" in names:
            cur.expect("COMMA", "','")
            types[operand + "_scale"] = cur.type()
        cur.expect(separator, "'*'" if separator == "STAR" else "'->'")
    d = cur.type()
    order = [n for n in ("a", "b", "c", "a_scale", "b_scale") if n in names]
    hints = {**types, "c": d}
    detail = OpDetail(operand_names=[names[n] for n in order], operand_type_hints=[hints[n] for n in order],
                      attributes=attributes, result_types=[d],
                      operand_groups=[(n, int(n in names)) for n in ("a", "b", "c", "a_scale", "b_scale")])
    return finish(op, cur, location, detail)
