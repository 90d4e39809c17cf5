"""Declarative assembly formats, read and printed by one engine (as MLIR's ODS does).

An op declares its custom syntax once, as an ODS format string::

    "$input `,` $token `,` attr-dict `:` type($input) `,` type($token) `->` type($result)"

Elements: `` `literal` `` (keyword or punctuation), ``$name`` (an operand, attribute, region
or successor of the op), ``type($x)``, ``functional-type($ins, $outs)``, ``attr-dict``,
``attr-dict-with-keyword``, and optional groups ``( ... $anchor^ ... )?``.

:func:`parse_format` reads an op's item list (from ``custom_body`` of the grammar) into a
:class:`Parsed` record; :func:`print_format` prints an op back with MLIR's spacing rules
(``shouldEmitSpaceBefore`` of mlir-tblgen's OpFormatGen).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

import attrs

from .attributes import Attribute, DictAttr, format_attr_dict
from .types import Type

if TYPE_CHECKING:  # pragma: no cover
    from .dialect import OpDef


class FormatError(ValueError):
    """The op text does not follow the op's format; ``item`` is where it went wrong (or None)."""

    def __init__(self, message: str, item=None):
        super().__init__(message)
        self.item = item


# ---- format elements ----------------------------------------------------------------------------


@attrs.frozen
class Literal:
    text: str


@attrs.frozen
class Ref:
    name: str


@attrs.frozen
class TypeOf:
    name: str


@attrs.frozen
class FunctionalType:
    inputs: str
    results: str


@attrs.frozen
class AttrDictDirective:
    with_keyword: bool


@attrs.frozen
class OptionalGroup:
    elements: Tuple
    anchor: str


_FORMAT_TOKEN = re.compile(
    r"\s*(?:`(?P<lit>[^`]*)`|(?P<fn>functional-type)\(\s*\$(?P<a>\w+)\s*,\s*\$(?P<b>\w+)\s*\)"
    r"|type\(\s*\$(?P<ty>\w+)\s*\)|(?P<ad>attr-dict-with-keyword|attr-dict)|\$(?P<ref>\w+)(?P<anchor>\^)?"
    r"|(?P<open>\()|(?P<close>\)\?))"
)


def compile_format(text: str) -> Tuple:
    """Compile an ODS format string into a tuple of elements.

    Raises:
        ValueError: on a malformed format string (a bug in a dialect declaration).
    """
    pos = 0
    stack: List[List] = [[]]
    anchors: List[Optional[str]] = [None]
    text = text.strip()
    while pos < len(text):
        m = _FORMAT_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"bad format near {text[pos:]!r}")
        pos = m.end()
        g = m.groupdict()
        if g["lit"] is not None:
            stack[-1].append(Literal(g["lit"]))
        elif g["fn"]:
            stack[-1].append(FunctionalType(g["a"], g["b"]))
        elif g["ty"]:
            stack[-1].append(TypeOf(g["ty"]))
        elif g["ad"]:
            stack[-1].append(AttrDictDirective(g["ad"].endswith("keyword")))
        elif g["ref"]:
            stack[-1].append(Ref(g["ref"]))
            if g["anchor"]:
                anchors[-1] = g["ref"]
        elif g["open"]:
            stack.append([])
            anchors.append(None)
        elif g["close"]:
            elements = stack.pop()
            anchor = anchors.pop()
            if anchor is None:
                raise ValueError(f"optional group without anchor in {text!r}")
            stack[-1].append(OptionalGroup(tuple(elements), anchor))
        text_rest = text[pos:]
        if not text_rest.strip():
            break
    if len(stack) != 1:
        raise ValueError(f"unbalanced optional group in {text!r}")
    return tuple(stack[0])


# ---- parsing --------------------------------------------------------------------------------------


def finish(op, cur: "Cursor", location: Optional[str], detail):
    """End of a parse hook: no items may be left; record the op's trailing location."""
    cur.expect_end()
    if location is not None and op.location is None:
        op.location = location
    return detail


_PUNCT_TOKENS = {
    ",": "COMMA",
    ":": "COLON",
    "=": "EQUAL",
    "->": "ARROW",
    "(": "LPAR",
    ")": "RPAR",
    "[": "LSQB",
    "]": "RSQB",
    "*": "STAR",
    "?": "QMARK",
    "+": "PLUS",
}


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


class Cursor:
    """A position in an op's item list, with the small reads parse hooks need."""

    def __init__(self, items: Sequence):
        self.items = list(items)
        self.i = 0

    def peek(self, k: int = 0):
        j = self.i + k
        return self.items[j] if j < len(self.items) else None

    def next(self):
        item = self.peek()
        self.i += 1
        return item

    def at_end(self) -> bool:
        return self.i >= len(self.items)

    def kind(self, k: int = 0) -> Optional[str]:
        return _kind(self.peek(k))

    def expect(self, kind: str, what: str):
        """Take the next item, which must be of ``kind``; else :class:`FormatError`."""
        item = self.peek()
        if _kind(item) != kind:
            raise FormatError(f"expected {what}, found {_describe(item)}", item)
        return self.next()

    def accept(self, kind: str):
        """Take the next item if it is of ``kind`` (else None)."""
        if _kind(self.peek()) == kind:
            return self.next()
        return None

    def accept_keyword(self, word: str) -> bool:
        if literal_matches(word, self.peek()):
            self.next()
            return True
        return False

    def expect_keyword(self, word: str) -> None:
        if not self.accept_keyword(word):
            raise FormatError(f"expected '{word}', found {_describe(self.peek())}", self.peek())

    def type(self) -> Type:
        return _read_type(self.expect("TYPE", "a type"))

    def type_list(self) -> List[Type]:
        """``T, T, ...`` (one or more)."""
        types = [self.type()]
        while self.kind() == "COMMA" and self.kind(1) == "TYPE":
            self.next()
            types.append(self.type())
        return types

    def paren_type_list(self) -> List[Type]:
        """``(T, ...)`` or ``()``."""
        self.expect("LPAR", "'('")
        types = [] if self.kind() == "RPAR" else self.type_list()
        self.expect("RPAR", "')'")
        return types

    def trailing_location(self) -> Optional[str]:
        if self.items and _kind(self.items[-1]) == "LOC":
            return str(self.items.pop())
        return None

    def expect_end(self) -> None:
        if not self.at_end():
            item = self.peek()
            raise FormatError(f"expected the end of the op, found {_describe(item)}", item)


def _kind(item) -> Optional[str]:
    if isinstance(item, DictAttr):
        return "ATTR_DICT"
    return getattr(item, "type", None)


def _describe(item) -> str:
    if item is None:
        return "the end of the op"
    if isinstance(item, DictAttr):
        return "an attribute dictionary"
    return f"'{item}'"


def literal_matches(lit: str, item) -> bool:
    """Does the item spell the literal (a keyword may lex as a type, e.g. ``tf32``)."""
    kind = _kind(item)
    if lit in _PUNCT_TOKENS:
        return kind == _PUNCT_TOKENS[lit]
    return kind in ("BARE_ID", "TYPE") and str(item) == lit


def parse_format(opdef: "OpDef", items: Sequence) -> Parsed:
    """Read ``items`` (tokens and attribute dictionaries) by ``opdef.format``.

    Raises:
        FormatError: the items do not follow the format.
    """
    from ..parser.types import parse_type

    cur = Cursor(items)
    out = Parsed()
    out.location = cur.trailing_location()  # belongs to the op, not to the format
    _parse_elements(opdef, opdef.compiled_format, cur, out, parse_type)
    cur.expect_end()
    return out


def _read_type(tok) -> Type:
    """The type a TYPE token spells; a malformed one is a :class:`FormatError` at the token."""
    from ..parser.types import parse_type

    try:
        return parse_type(str(tok))
    except ValueError as e:
        raise FormatError(str(e), tok) from None


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


# ---- printing -----------------------------------------------------------------------------------


def _space_before(text: str, last_was_punct: bool) -> bool:
    # mlir-tblgen OpFormatGen: shouldEmitSpaceBefore
    if len(text) != 1 and text != "->":
        return True
    if last_was_punct:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


class Printer:
    """Accumulates an op's text with ODS spacing rules; starts with the op's name."""

    def __init__(self, head: str) -> None:
        self.parts: List[str] = [head]
        self.last_was_punct = False
        self.no_space_next = False

    def literal(self, text: str) -> None:
        if not self.no_space_next and _space_before(text, self.last_was_punct):
            self.parts.append(" ")
        self.parts.append(text)
        self.last_was_punct = not (text[0] == "_" or text[0].isalpha())
        self.no_space_next = len(text) == 1 and text in "<({["

    def word(self, text) -> None:
        """An element (operand, type, attribute) or a region object (rendered by the caller)."""
        if not self.no_space_next:
            self.parts.append(" ")
        self.parts.append(text)
        self.last_was_punct = False
        self.no_space_next = False

    def pieces(self) -> list:
        """The text, as strings and the region objects between them."""
        out: list = []
        for part in self.parts:
            if isinstance(part, str) and out and isinstance(out[-1], str):
                out[-1] += part
            else:
                out.append(part)
        return out

    def text(self) -> str:
        pieces = self.pieces()
        if len(pieces) != 1 or not isinstance(pieces[0], str):
            raise ValueError("this op has regions: print it with the module printer")
        return pieces[0]


def print_format(opdef: "OpDef", view, printer: Printer) -> None:
    """Print the op seen through ``view`` (names, types, attributes by format name)."""
    _print_elements(opdef, opdef.compiled_format, view, printer)


def _print_elements(opdef, elements, view, p: Printer) -> None:
    for element in elements:
        if isinstance(element, Literal):
            p.literal(element.text)
        elif isinstance(element, Ref):
            role = opdef.role(element.name)
            if role == "operand":
                names = view.operand_names(element.name)
                for i, n in enumerate(names):
                    if i:
                        p.literal(",")
                    p.word(n)
            elif role == "region":
                p.word(view.region(element.name))
            elif role == "successor":
                p.word(view.successor(element.name))
            else:
                p.word(opdef.attribute_kinds[element.name].print(view.attribute(element.name)))
        elif isinstance(element, TypeOf):
            for i, t in enumerate(view.types(element.name)):
                if i:
                    p.literal(",")
                p.word(str(t))
        elif isinstance(element, FunctionalType):
            ins = ", ".join(map(str, view.types(element.inputs)))
            outs = view.types(element.results)
            res = str(outs[0]) if len(outs) == 1 else "(" + ", ".join(map(str, outs)) + ")"
            p.word(f"({ins}) -> {res}")
        elif isinstance(element, AttrDictDirective):
            attrs_ = view.dict_attributes()
            if attrs_:
                if element.with_keyword:
                    p.word("attributes")
                p.word(format_attr_dict(attrs_))
        elif isinstance(element, OptionalGroup):
            if view.present(element.anchor):
                _print_elements(opdef, element.elements, view, p)
