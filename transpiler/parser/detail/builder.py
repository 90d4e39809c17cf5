"""The detail level's parse-time callbacks (:class:`DetailBuilder`): what each reduction of
the detail rules of ``grammars/ttir.lark`` builds (op bodies, block labels, aliases, types,
attributes), and :class:`GenericBody`, the parts of an op in generic form."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

import attrs

from ...ir.attributes import Attribute, DictAttr
from ...ir.types import FunctionType, Type
from .attributes import AttributeBuilder, unique_entries
from .types import TypeBuilder


@attrs.define
class GenericBody:
    """The parts of an op written in generic form (``"name"(operands) ... : (T) -> T``)."""

    operands: List[str]
    successors: List[str]
    properties: Dict[str, Attribute]
    attributes: Dict[str, Attribute]
    function_type: FunctionType
    location: Optional[str]
    region_count: int


class DetailBuilder(TypeBuilder, AttributeBuilder):
    """Parse-time callbacks for level 2: bodies, block labels, aliases, types, attributes
    (:class:`~transpiler.parser.detail.lalr.DetailParser` calls one per reduction).

    Args:
        parse_type: reads a type token's text (``str -> Type``, raising ``ValueError``): the
            level's entry :func:`transpiler.parser.detail.text.parse_type`, which itself runs
            the parser this builder serves (given here, not imported, so that no module of
            the level imports one that imports it back; issue 30).
    """

    def __init__(self, parse_type: Callable[[str], Type]):
        self.parse_type = parse_type

    def custom_body(self, c):
        return list(c)

    def generic_body(self, c):
        operands: List[str] = []
        successors: List[str] = []
        properties: Dict[str, Attribute] = {}
        attributes: Dict[str, Attribute] = {}
        function_type = None
        location = None
        regions = 0
        for item in c:
            kind = getattr(item, "type", None)
            if kind == "VALUE_USE":
                operands.append(item)  # the token: a str that knows where it stands
            elif isinstance(item, _Successors):
                successors = item.names
            elif isinstance(item, _Properties):
                properties = item.values
            elif isinstance(item, _Regions):
                regions = item.count
            elif isinstance(item, DictAttr):
                attributes = dict(item.entries)
            elif isinstance(item, FunctionType):
                function_type = item
            elif isinstance(item, _Location):
                location = item.text
        return GenericBody(operands, successors, properties, attributes, function_type, location, regions)

    def successors(self, c):
        return _Successors([str(t) for t in c if t.type == "CARET_ID"])

    def properties(self, c):
        return _Properties(dict(unique_entries(x for x in c if isinstance(x, tuple))))

    def regions(self, c):
        return _Regions(sum(1 for t in c if t.type == "REGION_SLOT"))

    def function_type(self, c):
        inputs: List[Type] = []
        results: List[Type] = []
        target = inputs
        for t in c:
            if t.type == "ARROW":
                target = results
            elif t.type == "TYPE":
                target.append(self.parse_type(str(t)))
        return FunctionType(tuple(inputs), tuple(results))

    def location(self, c):
        return _Location(str(c[0]))

    def block_label(self, c):
        name = str(c[0])
        return name, [a for a in c[1:] if isinstance(a, tuple)]

    def block_arg(self, c):
        loc = str(c[3]) if len(c) > 3 else None
        return (str(c[0]), self.parse_type(str(c[2])), loc)

    def alias_definition(self, c):
        return str(c[0]), c[-1]


@attrs.define
class _Successors:
    names: List[str]


@attrs.define
class _Properties:
    values: Dict[str, Attribute]


@attrs.define
class _Regions:
    count: int


@attrs.define
class _Location:
    text: str
