"""Reading an op's text by its declared assembly format (:mod:`transpiler.ir.format`).

:class:`Cursor` walks the item list of one op body (``custom_body`` of the grammar: tokens and
attribute dictionaries); :func:`parse_format` reads it by the op's compiled format into a
:class:`Parsed` record.  Custom parse hooks (``transpiler/parser/custom/``) use the same cursor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Sequence

import attrs

from ..ir.attributes import Attribute
from ..ir.format import AttrDictDirective, FormatError, FunctionalType, Literal, OptionalGroup, Ref, TypeOf
from ..ir.types import Type
from .cursor import Cursor, _describe, _kind, _read_type, literal_matches

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.dialect import OpDef


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
        from .types import parse_type

        return parse_type(text)


def parse_format(opdef: "OpDef", items: Sequence) -> Parsed:
    """Read ``items`` (tokens and attribute dictionaries) by ``opdef.format``.

    Raises:
        FormatError: the items do not follow the format.
    """
    from .types import parse_type

    cur = Cursor(items)
    out = Parsed()
    out.location = cur.trailing_location()  # belongs to the op, not to the format
    _parse_elements(opdef, opdef.compiled_format, cur, out, parse_type)
    cur.expect_end()
    return out


def _parse_type_list(cur: Cursor, parse_type, count: Optional[int]) -> List[Type]:
    types: List[Type] = []
    if count == 0:
        return types
    while True:
        tok = cur.expect("TYPE", "a type")
        types.append(_read_type(tok))
        if count is not None and len(types) == count:
            return types
        if count is None and _kind(cur.peek()) == "COMMA" and _kind(cur.peek(1)) == "TYPE":
            cur.next()
            continue
        if count is not None:
            cur.expect("COMMA", "','")
            continue
        return types


def _starts(opdef: "OpDef", element, cur: Cursor) -> bool:
    """Whether the next item can start ``element`` (used to decide optional groups)."""
    item = cur.peek()
    kind = _kind(item)
    if isinstance(element, Literal):
        return literal_matches(element.text, item)
    if isinstance(element, Ref):
        role = opdef.role(element.name)
        if role == "operand":
            return kind == "VALUE_USE"
        if role == "region":
            return kind == "REGION_SLOT"
        if role == "successor":
            return kind == "CARET_ID"
        return opdef.attribute_kinds[element.name].can_start(item)
    if isinstance(element, TypeOf):
        return kind == "TYPE"
    if isinstance(element, AttrDictDirective):
        return kind == "ATTR_DICT" if not element.with_keyword else (kind == "BARE_ID" and str(item) == "attributes")
    if isinstance(element, FunctionalType):
        return kind == "LPAR"
    return False


def _parse_elements(opdef, elements, cur: Cursor, out: Parsed, parse_type) -> None:
    for element in elements:
        if isinstance(element, Literal):
            item = cur.peek()
            if not literal_matches(element.text, item):
                raise FormatError(f"expected '{element.text}', found {_describe(item)}", item)
            cur.next()
        elif isinstance(element, Ref):
            _parse_ref(opdef, element.name, cur, out)
        elif isinstance(element, TypeOf):
            count = _type_count(opdef, element.name, out)
            out.types[element.name] = _parse_type_list(cur, parse_type, count)
        elif isinstance(element, FunctionalType):
            cur.expect("LPAR", "'('")
            ins: List[Type] = []
            if _kind(cur.peek()) != "RPAR":
                ins = _parse_type_list(cur, parse_type, None)
            cur.expect("RPAR", "')'")
            cur.expect("ARROW", "'->'")
            if _kind(cur.peek()) == "LPAR":
                cur.next()
                outs = [] if _kind(cur.peek()) == "RPAR" else _parse_type_list(cur, parse_type, None)
                cur.expect("RPAR", "')'")
            else:
                outs = _parse_type_list(cur, parse_type, 1)
            if element.inputs in out.operands and len(out.operands[element.inputs]) != len(ins):
                raise FormatError(f"{len(out.operands[element.inputs])} operands but {len(ins)} operand types",
                                  cur.peek(-1))
            out.types[element.inputs] = ins
            out.types[element.results] = outs
        elif isinstance(element, AttrDictDirective):
            if element.with_keyword:
                item = cur.peek()
                if _kind(item) == "BARE_ID" and str(item) == "attributes":
                    cur.next()
                    _add_attributes(out, cur.expect("ATTR_DICT", "an attribute dictionary"))
            elif _kind(cur.peek()) == "ATTR_DICT":
                _add_attributes(out, cur.next())
        elif isinstance(element, OptionalGroup):
            if element.elements and _starts(opdef, element.elements[0], cur):
                _parse_elements(opdef, element.elements, cur, out, parse_type)
        else:  # pragma: no cover
            raise AssertionError(element)


def _add_attributes(out: Parsed, dictionary) -> None:
    for name, value in dictionary.entries:
        if name in out.attributes:
            raise FormatError(f"attribute '{name}' is given twice", dictionary)
        out.attributes[name] = value


def _type_count(opdef: "OpDef", name: str, out: Parsed) -> Optional[int]:
    if name in out.operands:
        return len(out.operands[name])
    spec = opdef.value_spec(name)
    if spec is not None and not spec.variadic and not spec.optional:
        return 1
    return None


def _parse_ref(opdef: "OpDef", name: str, cur: Cursor, out: Parsed) -> None:
    role = opdef.role(name)
    if role == "operand":
        spec = opdef.value_spec(name)
        names: List[str] = []
        if spec.variadic:
            while _kind(cur.peek()) == "VALUE_USE":
                names.append(cur.next())  # the token: a str that knows where it stands
                if _kind(cur.peek()) == "COMMA" and _kind(cur.peek(1)) == "VALUE_USE":
                    cur.next()
                else:
                    break
        elif spec.optional:
            if _kind(cur.peek()) == "VALUE_USE":
                names.append(cur.next())  # the token: a str that knows where it stands
        else:
            names.append(cur.expect("VALUE_USE", f"an SSA value for '{name}'"))
        out.operands[name] = names
    elif role == "region":
        cur.expect("REGION_SLOT", "a region")
        out.regions += 1
    elif role == "successor":
        out.successors.append(str(cur.expect("CARET_ID", "a block name")))
    elif role == "attribute":
        kind = opdef.attribute_kinds[name]
        if name in out.attributes:
            raise FormatError(f"attribute '{name}' is given twice", cur.peek())
        out.attributes[name] = kind.parse(cur)
    else:
        raise FormatError(f"format of '{opdef.name}' names unknown '${name}'")


