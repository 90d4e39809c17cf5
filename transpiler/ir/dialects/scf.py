"""``scf`` ops: structured control flow, with the region arguments their syntax defines.

``scf.for``, ``scf.if`` and ``scf.while`` have hand-written syntax in MLIR (``SCF.cpp``); their
hooks read it, report the induction variable / iter_args / ``before`` arguments as entry-block
arguments (so that names used inside the loops resolve; SPEC.md section 2.4: loop-carried values
are not function arguments), and print it back with MLIR's spacing (``ForOp::print``,
``IfOp::print``, ``WhileOp::print``).  ``scf.yield`` and ``scf.condition`` have ODS formats
(``SCFOps.td``).
"""

from __future__ import annotations

from typing import List

from ..attributes import UNIT
from ..dialect import NO_EFFECTS, OpDef, OpDetail, ValueSpec, all_attributes, register
from ..format import Cursor, finish
from ..types import I1, FunctionType, IndexType
from .common import print_attr_dict


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


def _region(region, entry_args: bool = False):
    from ...emit.printer import RegionPiece

    return RegionPiece(region, entry_args=entry_args)


register(
    OpDef("scf.for", operands=(ValueSpec("lowerBound"), ValueSpec("upperBound"), ValueSpec("step"),
                               ValueSpec("initArgs", variadic=True)),
          results=(ValueSpec("results", variadic=True),), regions=("region",),
          parse_hook=parse_for, print_hook=print_for, inherent=("unsignedCmp",), implicit_terminator="scf.yield",
          effects=NO_EFFECTS),
    OpDef("scf.if", operands=(ValueSpec("condition", type=I1),), results=(ValueSpec("results", variadic=True),),
          regions=("thenRegion", "elseRegion"), parse_hook=parse_if, print_hook=print_if,
          implicit_terminator="scf.yield", effects=NO_EFFECTS),
    OpDef("scf.while", operands=(ValueSpec("inits", variadic=True),), results=(ValueSpec("results", variadic=True),),
          regions=("before", "after"), parse_hook=parse_while, print_hook=print_while, effects=NO_EFFECTS),
    OpDef("scf.yield", operands=(ValueSpec("results", variadic=True),),
          format="attr-dict ($results^ `:` type($results))?", effects=NO_EFFECTS),
    OpDef("scf.condition", operands=(ValueSpec("condition", type=I1), ValueSpec("args", variadic=True)),
          format="`(` $condition `)` attr-dict ($args^ `:` type($args))?", effects=NO_EFFECTS),
)
