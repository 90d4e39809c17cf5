"""Reading an op's text by its declared assembly format (:mod:`transpiler.ir.format`).

:class:`Cursor` walks the item list of one op body (``custom_body`` of the grammar: tokens and
attribute dictionaries); :func:`parse_format` reads it by the op's compiled format into a
:class:`Parsed` record.  Custom parse hooks (``transpiler/parser/custom/``) use the same cursor.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import attrs

from ...ir.attributes import Attribute
from ...ir.dialect import ALL_OPERANDS, ALL_RESULTS, OpDef, OpDetail
from ...ir.format import FormatError
from ...ir.types import Type
from .cursor import Cursor, _describe, _kind, _read_type
from .errors import Token
from .format_plan import ATTR_DICT, ATTRIBUTE, FUNCTIONAL, LITERAL, OPERAND, OPTIONAL, REGION, START_ATTR_DICT, START_ATTRIBUTE, START_KIND, START_LITERAL, SUCCESSOR, TYPES, plan_of
from .text import parse_type

# ---- parsing --------------------------------------------------------------------------------------


def finish(op, cur: "Cursor", location: Optional[str], detail):
    """End of a parse hook: no items may be left; record the op's trailing location."""
    cur.expect_end()
    if location is not None and op.location is None:
        op.location = location
    return detail


@attrs.define
class Parsed:
    """What a format read from an op's items.

    ``operands`` maps an operand name to its SSA names (a list, for variadic ones);
    ``types`` maps an operand or result name to its types; ``attributes`` holds the
    attr-dict entries and the attributes read by ``$attr`` elements; ``location`` is the
    trailing ``loc(...)`` text.
    """

    operands: Dict[str, List[str]] = attrs.Factory(dict)
    types: Dict[str, List[Type]] = attrs.Factory(dict)
    attributes: Dict[str, Attribute] = attrs.Factory(dict)
    regions: int = 0
    successors: List[str] = attrs.Factory(list)
    location: Optional[str] = None

    @staticmethod
    def parse_type(text: str) -> Type:
        """A type's text as a type (for ``OpDef.infer`` callbacks that meet a type in text)."""
        return parse_type(text)


def parse_format(opdef: "OpDef", items: Sequence) -> Parsed:
    """Read ``items`` (tokens and attribute dictionaries) by ``opdef.format``.

    Raises:
        FormatError: the items do not follow the format.
    """
    cur = Cursor(items)
    out = Parsed()
    out.location = cur.trailing_location()  # belongs to the op, not to the format
    _run(opdef, plan_of(opdef), cur, out)
    cur.expect_end()
    return out


def _item_kind(item) -> Optional[str]:
    return item.type if type(item) is Token else _kind(item)


def _parse_type_list(cur: Cursor, count: Optional[int]) -> List[Type]:
    types: List[Type] = []
    if count == 0:
        return types
    items = cur.items
    while True:
        tok = cur.expect("TYPE", "a type")
        types.append(_read_type(tok))
        if count is not None and len(types) == count:
            return types
        if count is None:
            i = cur.i
            if i + 1 < len(items) and _item_kind(items[i]) == "COMMA" and _item_kind(items[i + 1]) == "TYPE":
                cur.i = i + 1
                continue
            return types
        cur.expect("COMMA", "','")


def _starts(opdef: "OpDef", start, item) -> bool:
    """Whether ``item`` can start the element ``start`` describes (see ``format_plan``)."""
    code = start[0]
    if code == START_KIND:
        return _item_kind(item) == start[1]
    if code == START_LITERAL:
        return _spells(start[1], start[2], item)
    if code == START_ATTRIBUTE:
        return opdef.attribute_kinds[start[1]].can_start(item)
    if code == START_ATTR_DICT:
        kind = _item_kind(item)
        return kind == "ATTR_DICT" if not start[1] else (kind == "BARE_ID" and str(item) == "attributes")
    return False


def _spells(text: str, punctuation: Optional[str], item) -> bool:
    """``literal_matches(text, item)``, the literal's punctuation token type looked up already."""
    kind = _item_kind(item)
    if punctuation is not None:
        return kind == punctuation
    return kind in ("BARE_ID", "TYPE") and str(item) == text


def _run(opdef, steps, cur: Cursor, out: Parsed) -> None:
    items = cur.items
    for step in steps:
        code = step[0]
        if code == LITERAL:
            item = items[cur.i] if cur.i < len(items) else None
            if not _spells(step[1], step[2], item):
                raise FormatError(f"expected '{step[1]}', found {_describe(item)}", item)
            cur.i += 1
        elif code == OPERAND:
            _read_operand(cur, out, step)
        elif code == TYPES:
            name = step[1]
            count = len(out.operands[name]) if name in out.operands else step[2]
            out.types[name] = _parse_type_list(cur, count)
        elif code == ATTRIBUTE:
            name = step[1]
            if name in out.attributes:
                raise FormatError(f"attribute '{name}' is given twice", cur.peek())
            out.attributes[name] = step[2].parse(cur)
        elif code == ATTR_DICT:
            if step[1]:
                item = cur.peek()
                if _item_kind(item) == "BARE_ID" and str(item) == "attributes":
                    cur.next()
                    _add_attributes(out, cur.expect("ATTR_DICT", "an attribute dictionary"))
            elif _item_kind(cur.peek()) == "ATTR_DICT":
                _add_attributes(out, cur.next())
        elif code == OPTIONAL:
            if step[1] is not None and _starts(opdef, step[1], cur.peek()):
                _run(opdef, step[2], cur, out)
        elif code == FUNCTIONAL:
            _read_functional_type(cur, out, step[1], step[2])
        elif code == REGION:
            cur.expect("REGION_SLOT", "a region")
            out.regions += 1
        elif code == SUCCESSOR:
            out.successors.append(str(cur.expect("CARET_ID", "a block name")))
        else:  # UNKNOWN_REF
            raise FormatError(f"format of '{opdef.name}' names unknown '${step[1]}'")


def _read_functional_type(cur: Cursor, out: Parsed, inputs: str, results: str) -> None:
    cur.expect("LPAR", "'('")
    ins: List[Type] = []
    if _kind(cur.peek()) != "RPAR":
        ins = _parse_type_list(cur, None)
    cur.expect("RPAR", "')'")
    cur.expect("ARROW", "'->'")
    if _kind(cur.peek()) == "LPAR":
        cur.next()
        outs = [] if _kind(cur.peek()) == "RPAR" else _parse_type_list(cur, None)
        cur.expect("RPAR", "')'")
    else:
        outs = _parse_type_list(cur, 1)
    if inputs in out.operands and len(out.operands[inputs]) != len(ins):
        raise FormatError(f"{len(out.operands[inputs])} operands but {len(ins)} operand types", cur.peek(-1))
    out.types[inputs] = ins
    out.types[results] = outs


def _add_attributes(out: Parsed, dictionary) -> None:
    for name, value in dictionary.entries:
        if name in out.attributes:
            raise FormatError(f"attribute '{name}' is given twice", dictionary)
        out.attributes[name] = value


def _read_operand(cur: Cursor, out: Parsed, step) -> None:
    _, name, variadic, optional = step
    items = cur.items
    names: List[str] = []
    if variadic:
        while cur.i < len(items) and _item_kind(items[cur.i]) == "VALUE_USE":
            names.append(items[cur.i])  # the token: a str that knows where it stands
            cur.i += 1
            i = cur.i
            if i + 1 < len(items) and _item_kind(items[i]) == "COMMA" and _item_kind(items[i + 1]) == "VALUE_USE":
                cur.i = i + 1
            else:
                break
    elif optional:
        if cur.i < len(items) and _item_kind(items[cur.i]) == "VALUE_USE":
            names.append(items[cur.i])  # the token: a str that knows where it stands
            cur.i += 1
    else:
        names.append(cur.expect("VALUE_USE", f"an SSA value for '{name}'"))
    out.operands[name] = names


@attrs.define
class FormatResult:
    """What :func:`detail_from_format` gives: the op's detail and its trailing location text."""


    detail: OpDetail
    location: Optional[str]


def detail_from_format(opdef: OpDef, parsed) -> "FormatResult":
    """Build an :class:`OpDetail` from what :func:`parse_format` read, in declaration order."""
    names: List[str] = []
    hints: List[Optional[Type]] = []
    groups: List[Tuple[str, int]] = []
    for spec in opdef.operands:
        got = parsed.operands.get(spec.name, [])
        types = parsed.types.get(spec.name)
        names.extend(got)
        groups.append((spec.name, len(got)))
        for k in range(len(got)):
            if types is not None and k < len(types):
                hints.append(types[k])
            else:
                hints.append(spec.type)
    result_types: List[Type] = []
    for spec in opdef.results:
        result_types.extend(parsed.types.get(spec.name, []))
    if ALL_OPERANDS in parsed.types:
        hints = list(parsed.types[ALL_OPERANDS])
    if ALL_RESULTS in parsed.types:
        result_types = list(parsed.types[ALL_RESULTS])
    detail = OpDetail(operand_names=names, operand_type_hints=hints, attributes=dict(parsed.attributes),
                      result_types=result_types, successors=list(parsed.successors), operand_groups=groups)
    if opdef.infer is not None:
        opdef.infer(detail, parsed)
    return FormatResult(detail, parsed.location)
