"""Custom parse hooks of the ``scf`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.scf`."""

from __future__ import annotations

from typing import List

from ...ir.attributes import UNIT
from ...ir.dialect import OpDetail
from ...ir.types import I1, IndexType
from ..detail.format_reader import Cursor, finish




def _assignments(cur: Cursor):
    """``(%a = %x, %b = %y)``: region argument names and the values that initialise them."""
    names: List[str] = []
    inits: List[str] = []
    cur.expect("LPAR", "'('")
    while cur.kind() == "VALUE_USE":
        names.append(str(cur.next()))
        cur.expect("EQUAL", "'='")
        inits.append(str(cur.expect("VALUE_USE", "an initial value")))
        if not cur.accept("COMMA"):
            break
    cur.expect("RPAR", "')'")
    return names, inits


def parse_for(op, items) -> OpDetail:
    """``[unsigned] %iv = %lb to %ub step %s [iter_args(%a = %x) -> (T)] [: T] {..} [{attrs}]``."""
    cur = Cursor(items)
    location = cur.trailing_location()
    unsigned = cur.accept_keyword("unsigned")
    iv = str(cur.expect("VALUE_USE", "the induction variable"))
    cur.expect("EQUAL", "'='")
    bounds = [str(cur.expect("VALUE_USE", "the lower bound"))]
    cur.expect_keyword("to")
    bounds.append(str(cur.expect("VALUE_USE", "the upper bound")))
    cur.expect_keyword("step")
    bounds.append(str(cur.expect("VALUE_USE", "the step")))
    names: List[str] = []
    inits: List[str] = []
    types = []
    if cur.accept_keyword("iter_args"):
        names, inits = _assignments(cur)
        cur.expect("ARROW", "'->'")
        types = cur.paren_type_list() if cur.kind() == "LPAR" else [cur.type()]
    iv_type = cur.type() if cur.accept("COLON") else IndexType()
    cur.expect("REGION_SLOT", "the loop body")
    attributes = dict(cur.next().entries) if cur.kind() == "ATTR_DICT" else {}
    if unsigned:
        attributes["unsignedCmp"] = UNIT
    return finish(op, cur, location, OpDetail(
        operand_names=bounds + inits,
        operand_type_hints=[iv_type] * 3 + list(types),
        attributes=attributes,
        result_types=list(types),
        region_args={0: [(iv, iv_type, None)] + [(n, t, None) for n, t in zip(names, types)]},
        operand_groups=[("lowerBound", 1), ("upperBound", 1), ("step", 1), ("initArgs", len(inits))],
    ))


def parse_if(op, items) -> OpDetail:
    """``%cond [-> (T, ...)] {..} [else {..}] [{attrs}]``."""
    cur = Cursor(items)
    location = cur.trailing_location()
    cond = str(cur.expect("VALUE_USE", "the condition"))
    types = []
    if cur.accept("ARROW"):
        types = cur.paren_type_list() if cur.kind() == "LPAR" else [cur.type()]
    cur.expect("REGION_SLOT", "the 'then' region")
    if cur.accept_keyword("else"):
        cur.expect("REGION_SLOT", "the 'else' region")
    attributes = dict(cur.next().entries) if cur.kind() == "ATTR_DICT" else {}
    return finish(op, cur, location, OpDetail(operand_names=[cond], operand_type_hints=[I1],
                                              attributes=attributes, result_types=list(types)))


def parse_while(op, items) -> OpDetail:
    """``[(%a = %x, ...)] : (T, ...) -> (R, ...) {before} do {after} [attributes {..}]``."""
    cur = Cursor(items)
    location = cur.trailing_location()
    names, inits = _assignments(cur) if cur.kind() == "LPAR" else ([], [])
    cur.expect("COLON", "':'")
    ins = cur.paren_type_list()
    cur.expect("ARROW", "'->'")
    outs = cur.paren_type_list() if cur.kind() == "LPAR" else [cur.type()]
    cur.expect("REGION_SLOT", "the 'before' region")
    cur.expect_keyword("do")
    cur.expect("REGION_SLOT", "the 'after' region")
    attributes = {}
    if cur.accept_keyword("attributes"):
        attributes = dict(cur.expect("ATTR_DICT", "an attribute dictionary").entries)
    return finish(op, cur, location, OpDetail(operand_names=inits, operand_type_hints=list(ins), attributes=attributes,
                                              result_types=list(outs),
                                              region_args={0: [(n, t, None) for n, t in zip(names, ins)]}))
