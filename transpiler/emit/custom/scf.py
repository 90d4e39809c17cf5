"""Custom print hooks of the ``scf`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.scf`."""

from __future__ import annotations

from ...ir.dialect import all_attributes
from ...ir.dialects.common import print_attr_dict
from ..op_view import RegionPiece
from ...ir.types import FunctionType, IndexType




def print_for(op, name_of) -> list:
    """`` %iv = %lb to %ub step %s iter_args(%a = %x) -> (T)  : i32 {..} {attrs}``."""
    lb, ub, step, *inits = op.operands
    body = op.regions[0]
    args = body.entry.arguments  # the induction variable, then the iter_args
    iv_type = args[0].type
    attributes = all_attributes(op)
    text = " unsigned" if "unsignedCmp" in attributes else ""
    text += f" {name_of(args[0])} = {name_of(lb)} to {name_of(ub)} step {name_of(step)}"
    if inits:
        pairs = ", ".join(f"{name_of(a)} = {name_of(v)}" for a, v in zip(args[1:], inits))
        text += f" iter_args({pairs}) -> (" + ", ".join(map(str, op.operand_types[3:])) + ")"
    text += " "
    if not isinstance(iv_type, IndexType):
        text += f" : {iv_type} "
    return [text, _region(body), print_attr_dict(attributes, skip=("unsignedCmp",))]


def print_if(op, name_of) -> list:
    """`` %cond -> (T) {..} else {..} {attrs}``."""
    text = " " + name_of(op.operands[0])
    if op.result_types:
        text += " -> (" + ", ".join(map(str, op.result_types)) + ")"
    pieces = [text + " ", _region(op.regions[0])]
    if len(op.regions) > 1 and op.regions[1].blocks:
        pieces += [" else ", _region(op.regions[1])]
    pieces.append(print_attr_dict(all_attributes(op)))
    return pieces


def print_while(op, name_of) -> list:
    """`` (%a = %x) : (T) -> R {before} do {after} attributes {..}``."""
    before, after = op.regions
    text = ""
    if op.operands:
        args = before.entry.arguments
        text = " (" + ", ".join(f"{name_of(a)} = {name_of(v)}" for a, v in zip(args, op.operands)) + ")"
    signature = FunctionType(tuple(op.operand_types), tuple(op.result_types))
    return [f"{text} : {signature} ", _region(before), " do ", _region(after, entry_args=True),
            print_attr_dict(all_attributes(op), keyword=True)]


def _region(region, entry_args: bool = False) -> RegionPiece:
    return RegionPiece(region, entry_args=entry_args)
