"""On-demand parsing of an op's text (level 2 of ``grammars/ttir.lark``).

:func:`parse_body` turns the BODY pieces of one source op into either a flat item list
(custom form: read next by the op's declared assembly format) or a :class:`GenericBody`
(generic form).  Region positions are marked with REGION_SLOT.  Errors become located
diagnostics pointing into the op's line.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import attrs

from ..diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.attributes import Attribute, DictAttr
from ..ir.core import Operation, Source
from ..ir.types import FunctionType, Type
from . import grammar
from .attributes import AttributeBuilder, unique_entries
from .detail_errors import UnexpectedInput
from .detail_lexers import COMPILED_FROM
from .types import TypeBuilder, parse_type

REGION_SLOT = "\x00"

_TOKEN_WORDS = {
    "VALUE_USE": "an SSA value",
    "CARET_ID": "a block name",
    "SYMBOL_REF": "a symbol",
    "BARE_ID": "a keyword",
    "TYPE": "a type",
    "ATTR": "an attribute",
    "STRING": "a string",
    "INTEGER": "an integer",
    "FLOAT": "a float",
    "LOC": "a location",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "ARROW": "'->'",
    "PROP_OPEN": "'<{'",
    "PROP_CLOSE": "'}>'",
    "REGION_SLOT": "a region",
    "$END": "the end of the op",
}


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


@attrs.define
class BodyText:
    """An op's BODY pieces joined (regions as REGION_SLOT) with the source offset of each piece."""

    text: str
    pieces: List[Tuple[int, int]]  # (offset in text, offset in source)
    source: Optional[Source]

    def source_offset(self, pos: int) -> Optional[int]:
        best = None
        for joined, src in self.pieces:
            if joined <= pos:
                best = src + (pos - joined)
        return best


def body_text(op: Operation) -> BodyText:
    parts: List[str] = []
    pieces: List[Tuple[int, int]] = []
    pos = 0
    for piece in op.body or ():
        if piece is None:  # line breaks around the slot: a piece may end in a comment
            parts.append("\n" + REGION_SLOT + "\n")
            pos += 3
        else:
            pieces.append((pos, piece.start_pos))
            parts.append(piece.value)
            pos += len(piece.value)
    return BodyText("".join(parts), pieces, op.source)


def parse_body(op: Operation):
    """Parse a source op's text: a list of items (custom form) or a :class:`GenericBody`.

    Raises:
        DiagnosticError: the op's text is not valid at the reported position.
    """
    return read_body(op)[1]


def read_body(op: Operation):
    """``(body_text(op), parse_body(op))``.

    Raises:
        DiagnosticError: the op's text is not valid at the reported position.
    """
    body = body_text(op)
    start = "generic_body" if op.generic else "custom_body"
    source = op.source
    compiled = source is not None and len(source.text) >= COMPILED_FROM  # decided by the input alone
    try:
        return body, grammar.parse_detail_text(body.text, start, compiled)
    except UnexpectedInput as e:
        raise DiagnosticError([_syntax_diagnostic(op, body, e)]) from None
    except ValueError as e:  # bad escapes, malformed types inside the body
        offset = body.source_offset(0)
        raise DiagnosticError([Diagnostic(ERROR, f"'{op.name}' op {e}", op.source, offset)]) from None


def _syntax_diagnostic(op: Operation, body: BodyText, e) -> Diagnostic:
    token = getattr(e, "token", None)
    if token is not None:
        pos = token.start_pos if token.type != "$END" else len(body.text.rstrip())
        found = _TOKEN_WORDS["$END"] if token.type == "$END" else f"'{token}'"
        expected = sorted({_TOKEN_WORDS.get(t, t) for t in (e.expected or ()) if not t.startswith("__")})
        message = f"unexpected {found}"
        if expected and len(expected) <= 6:
            message += "; expected " + ", ".join(expected)
    else:
        pos = getattr(e, "pos_in_stream", 0) or 0
        message = f"unexpected character '{body.text[pos:pos + 1]}'"
    offset = body.source_offset(pos)
    if offset is None and op.span is not None:
        offset = op.span[0]
    return Diagnostic(ERROR, f"custom op '{op.name}': {message}" if not op.generic else f"'{op.name}' op {message}", op.source, offset)


class DetailBuilder(TypeBuilder, AttributeBuilder):
    """Parse-time callbacks for level 2: bodies, block labels, aliases, types, attributes
    (:class:`~transpiler.parser.detail_lalr.DetailParser` calls one per reduction)."""

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
                target.append(parse_type(str(t)))
        return FunctionType(tuple(inputs), tuple(results))

    def location(self, c):
        return _Location(str(c[0]))

    def block_label(self, c):
        name = str(c[0])
        return name, [a for a in c[1:] if isinstance(a, tuple)]

    def block_arg(self, c):
        loc = str(c[3]) if len(c) > 3 else None
        return (str(c[0]), parse_type(str(c[2])), loc)

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


def parse_block_label(label: str) -> Tuple[str, List[Tuple[str, Type, Optional[str]]]]:
    """``^bb1(%x: f32 loc(#l)):`` to ``("^bb1", [("%x", f32, "loc(#l)")])``.

    Raises:
        ValueError: if the label is malformed (the message says where).
    """
    try:
        return grammar.parse_detail_text(label, "block_label")
    except UnexpectedInput as e:
        raise ValueError(f"malformed block label '{label}'") from e
    except ValueError as e:
        raise ValueError(f"malformed block label '{label}': {e}") from None
