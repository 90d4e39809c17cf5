"""Custom print hooks of the ``tt`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.tt`."""

from __future__ import annotations

from ...ir.dialect import all_attributes, operand_groups
from ...ir.dialects.common import print_attr_dict
from ..op_view import RegionPiece
from ...ir.dialects.tt import FUNCTION_ATTRIBUTES, SCALE_DOT_ELEM_TYPE, _dicts, symbol_name
from ...ir.types import FunctionType




def print_function(op, name_of) -> list:
    """`` public @name(%arg0: T {attrs} loc(..)) -> R attributes {..} {body}`` (MLIR's
    ``printFunctionOp``: the body's entry arguments are printed in the signature)."""
    attributes = all_attributes(op)
    fn = attributes["function_type"].type
    arg_attrs = _dicts(attributes.get("arg_attrs"), len(fn.inputs))
    res_attrs = _dicts(attributes.get("res_attrs"), len(fn.results))
    body = op.regions[0] if op.regions and op.regions[0].blocks else None
    text = " "
    if "sym_visibility" in attributes:
        text += attributes["sym_visibility"].value + " "
    text += symbol_name(attributes["sym_name"].value) + "("
    params = []
    for i, t in enumerate(fn.inputs):
        param = str(t)
        if body is not None:
            arg = body.entry.arguments[i]
            param = f"{name_of(arg)}: {t}"
        if arg_attrs[i]:
            param += " " + str(arg_attrs[i])
        if body is not None and body.entry.arguments[i].location:
            param += " " + body.entry.arguments[i].location
        params.append(param)
    text += ", ".join(params) + ")"
    if fn.results:
        outs = [str(t) + (" " + str(a) if a else "") for t, a in zip(fn.results, res_attrs)]
        single = len(outs) == 1 and not res_attrs[0] and not isinstance(fn.results[0], FunctionType)
        text += " -> " + (outs[0] if single else "(" + ", ".join(outs) + ")")
    text += print_attr_dict(attributes, skip=FUNCTION_ATTRIBUTES, keyword=True)
    if body is None:
        return [text]
    return [text + " ", RegionPiece(body, entry_args=False)]


def print_dot_scaled(op, name_of) -> str:
    from ...ir.dialect import lookup

    attributes = all_attributes(op)
    present = [name for name, count in operand_groups(op, lookup(op.name)) if count]
    values, types = dict(zip(present, op.operands)), dict(zip(present, op.operand_types))
    text = ""
    for operand in ("a", "b"):
        text += " " + name_of(values[operand])
        if operand + "_scale" in values:
            text += " scale " + name_of(values[operand + "_scale"])
        text += ","
    text += f" {name_of(values['c'])} lhs = {SCALE_DOT_ELEM_TYPE.print(attributes['a_elem_type'])}"
    text += f" rhs = {SCALE_DOT_ELEM_TYPE.print(attributes['b_elem_type'])}"
    text += print_attr_dict(attributes, skip=("a_elem_type", "b_elem_type", "operandSegmentSizes"))
    sides = []
    for operand in ("a", "b"):
        scale = f", {types[operand + '_scale']}" if operand + "_scale" in types else ""
        sides.append(f"{types[operand]}{scale}")
    return text + " : " + " * ".join(sides) + f" -> {op.result_types[0]}"
