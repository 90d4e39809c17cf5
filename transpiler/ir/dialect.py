"""Op declarations (one :class:`OpDef` per op name) and the lazy parse of an op's detail.

A dialect module (``transpiler/ir/dialects/*.py``) declares each op once: operands, results,
the attributes its format reads, regions, the ODS assembly format (or parse/print hooks for
the few ops whose syntax is not declarative), memory effects and result-type rules.  The
parser, the printers and the passes all read these declarations (DESIGN.md: "declare each op
once").  An op nobody declared keeps its text; its operands are then guessed from the SSA
names it mentions, and its types are unknown.
"""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

import attrs

from .attributes import Attribute, IntegerAttr
from .core import Operation, Value
from .format import FormatError, compile_format, parse_format
from .types import FunctionType, I32, IntegerType, Type

READ = "read"
WRITE = "write"
NO_EFFECTS: FrozenSet[str] = frozenset()
READ_ONLY: FrozenSet[str] = frozenset({READ})
READ_WRITE: FrozenSet[str] = frozenset({READ, WRITE})

RegionArg = Tuple[str, Type, Optional[str]]  # (SSA name, type, loc text)


@attrs.define(frozen=True)
class ValueSpec:
    """An operand or result of an op: name, arity, and its type when the op fixes it (e.g. i32)."""

    name: str
    variadic: bool = False
    optional: bool = False
    type: Optional[Type] = None


class AttrKind:
    """How an attribute named in a format (``$scope``) is written and stored."""

    def can_start(self, item) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def parse(self, cursor) -> Attribute:  # pragma: no cover - interface
        raise NotImplementedError

    def print(self, attr: Attribute) -> str:  # pragma: no cover - interface
        raise NotImplementedError


class TokenAttrKind(AttrKind):
    """An attribute written as exactly one token of the custom-form tokenizer.

    Subclasses set ``token`` (the token type, e.g. ``"STRING"``) and ``what`` (its name in
    errors) and convert between the token's text and the stored attribute.

    Raises:
        FormatError: from :meth:`parse` when the next item is not a ``token``.
    """

    token: str = ""
    what: str = ""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) == self.token

    def parse(self, cursor) -> Attribute:
        return self.decode(str(cursor.expect(self.token, self.what)))

    def decode(self, text: str) -> Attribute:  # pragma: no cover - interface
        raise NotImplementedError

    def print(self, attr: Attribute) -> str:
        return str(attr)


@attrs.define(frozen=True)
class EnumKeyword(AttrKind):
    """An i32 enum printed as a keyword (``scope = gpu``), stored as ``N : i32``.

    ``values`` maps keyword to number (SPEC.md section 1 enum tables).
    """

    enum_name: str
    values: Tuple[Tuple[str, int], ...]
    storage: IntegerType = I32

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) in ("BARE_ID", "TYPE") and str(item) in dict(self.values)

    def parse(self, cursor) -> Attribute:
        item = cursor.peek()
        table = dict(self.values)
        if getattr(item, "type", None) not in ("BARE_ID", "TYPE") or str(item) not in table:
            words = ", ".join(k for k, _ in self.values)
            raise FormatError(f"expected {self.enum_name} keyword ({words}), found '{item}'", item)
        cursor.next()
        return IntegerAttr(table[str(item)], self.storage)

    def print(self, attr: Attribute) -> str:
        for k, v in self.values:
            if isinstance(attr, IntegerAttr) and attr.value == v:
                return k
        return str(attr)

    def keyword(self, value: int) -> Optional[str]:
        return next((k for k, v in self.values if v == value), None)


@attrs.define(frozen=True)
class TypedValue(AttrKind):
    """A literal with its type (``3 : i64``, ``dense<0.0> : tensor<4xf32>``, ``true``)."""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) in ("INTEGER", "FLOAT", "ATTR", "BARE_ID")

    def parse(self, cursor) -> Attribute:
        from ..parser.attributes import parse_attribute

        item = cursor.next()
        if getattr(item, "type", None) not in ("INTEGER", "FLOAT", "ATTR", "BARE_ID", "STRING"):
            raise FormatError(f"expected a literal value, found '{item}'", item)
        text = str(item)
        if getattr(cursor.peek(), "type", None) == "COLON" and getattr(cursor.peek(1), "type", None) == "TYPE":
            cursor.next()
            text = f"{text} : {cursor.next()}"
        return parse_attribute(text)

    def print(self, attr: Attribute) -> str:
        return str(attr)


@attrs.define(frozen=True)
class SymbolRef(AttrKind):
    """A symbol reference (``@callee``)."""

    def can_start(self, item) -> bool:
        return getattr(item, "type", None) == "SYMBOL_REF"

    def parse(self, cursor) -> Attribute:
        from .attributes import SymbolRefAttr

        return SymbolRefAttr(str(cursor.expect("SYMBOL_REF", "a symbol (@name)")))

    def print(self, attr: Attribute) -> str:
        return str(attr)


@attrs.define(eq=False)
class OpDef:
    """The declaration of one op (see the module docstring).

    Attributes:
        name: full op name.
        operands / results: value specs in order.
        attribute_kinds: attributes that the format reads with ``$name``.
        regions / successors: names used in the format.
        format: ODS format string, or None (generic form only, or hooks).
        effects: memory effects, or a function of the op returning them.
        infer: fills result (and implied operand) types a format does not print:
            ``infer(detail)`` with ``detail.types`` by format name.
        parse_hook / print_hook: for syntax that is not declarative (``tt.func``, ``scf.for``).
        verify: ``verify(op) -> [message, ...]``: the op's own rules (empty list when fine).
        inherent: names of the op's own (ODS ``arguments``) attributes, printed as properties
            ``<{...}>`` in generic form; attributes read by the format are inherent too.
        segmented: the op has ``AttrSizedOperandSegments`` (generic form carries
            ``operandSegmentSizes``).
        generic_name: the name in generic form when it differs (``module`` ->
            ``builtin.module``).
        implicit_terminator: the terminator MLIR adds to the op's regions when their text
            leaves it out (``SingleBlockImplicitTerminator``: ``scf.yield`` for ``scf.for``);
            the generic form prints it.
        stripped_types: types the format prints without their dialect prefix, by position
            after the format's last ``:`` (``{0: "!tt.ptr"}``: ``: <tensor<4xf16>>``; ODS
            strips the prefix of a type of the op's own dialect).
        elided: attributes the format does not print (owned by a custom directive we do not
            read).

    Formats may name ``$_operands`` / ``$_results`` (all operands / results), as in
    ``functional-type($_operands, $_results)``: their types are then every operand's and
    result's type, in order.
    """

    name: str
    operands: Sequence[ValueSpec] = ()
    results: Sequence[ValueSpec] = ()
    attribute_kinds: Dict[str, AttrKind] = attrs.Factory(dict)
    regions: Sequence[str] = ()
    successors: Sequence[str] = ()
    format: Optional[str] = None
    effects: object = READ_WRITE
    infer: Optional[Callable] = None
    parse_hook: Optional[Callable] = None
    print_hook: Optional[Callable] = None
    verify: Optional[Callable] = None
    isolated: bool = False
    inherent: Sequence[str] = ()
    segmented: bool = False
    generic_name: Optional[str] = None
    implicit_terminator: Optional[str] = None
    stripped_types: Dict[int, str] = attrs.Factory(dict)
    elided: Sequence[str] = ()
    compiled_format: Tuple = attrs.field(init=False, default=())

    def __attrs_post_init__(self) -> None:
        if self.format is not None:
            self.compiled_format = compile_format(self.format)

    def role(self, name: str) -> Optional[str]:
        if any(s.name == name for s in self.operands):
            return "operand"
        if name in self.attribute_kinds:
            return "attribute"
        if name in self.regions:
            return "region"
        if name in self.successors:
            return "successor"
        if any(s.name == name for s in self.results):
            return "result"
        return None

    def value_spec(self, name: str) -> Optional[ValueSpec]:
        for s in list(self.operands) + list(self.results):
            if s.name == name:
                return s
        return None

    def memory_effects(self, op: Operation) -> FrozenSet[str]:
        return self.effects(op) if callable(self.effects) else self.effects

    def is_inherent(self, attribute: str) -> bool:
        return attribute in self.inherent or attribute in self.attribute_kinds


_REGISTRY: Dict[str, OpDef] = {}


def register(*opdefs: OpDef) -> None:
    """Add declarations to the registry (a dialect module calls this at import)."""
    for d in opdefs:
        _REGISTRY[d.name] = d
        if d.generic_name:
            _REGISTRY[d.generic_name] = d


def lookup(name: str) -> Optional[OpDef]:
    """The declaration of ``name``, or None for an op nobody declared."""
    if not _REGISTRY:
        from . import dialects  # noqa: F401  (registers every dialect)
    return _REGISTRY.get(name)


def registered_names() -> List[str]:
    lookup("")
    return sorted(_REGISTRY)


@attrs.define(eq=False)
class OpDetail:
    """Operands, attributes, properties, types and region arguments of one op.

    For source ops, operands are SSA names resolved to values on first use
    (:mod:`transpiler.ir.scope`); ``operand_type_hints`` holds each operand's type as far as
    the op's own text or declaration says (None where it does not).
    """

    operands: Optional[List[Value]] = None
    operand_names: List[str] = attrs.Factory(list)
    operand_type_hints: List[Optional[Type]] = attrs.Factory(list)
    attributes: Dict[str, Attribute] = attrs.Factory(dict)
    properties: Dict[str, Attribute] = attrs.Factory(dict)
    result_types: List[Type] = attrs.Factory(list)
    successors: List[str] = attrs.Factory(list)
    region_args: Dict[int, List[RegionArg]] = attrs.Factory(dict)
    operand_groups: List[Tuple[str, int]] = attrs.Factory(list)
    operand_offsets: List[Optional[int]] = attrs.Factory(list)  # where each operand is written
    known: bool = True

    def resolved_operands(self, op: Operation) -> List[Value]:
        if self.operands is None:
            from .scope import resolve

            n = len(self.operand_names)
            hints = self.operand_type_hints + [None] * (n - len(self.operand_type_hints))
            offsets = self.operand_offsets + [None] * (n - len(self.operand_offsets))
            self.operands = [resolve(op, name, t, i, at) for i, (name, t, at) in
                             enumerate(zip(self.operand_names, hints, offsets))]
        return self.operands

    def operand_types(self, op: Operation) -> List[Optional[Type]]:
        values = self.resolved_operands(op)
        hints = self.operand_type_hints
        out = []
        for i, v in enumerate(values):
            hint = hints[i] if i < len(hints) else None
            out.append(hint if hint is not None else known_type(v))
        return out


def known_type(v: Value) -> Optional[Type]:
    """The type of ``v`` if it can be known without failing: None when its producer is an op
    nobody declared, or its text cannot be read (the type is then not needed, SPEC.md section 3)."""
    from ..diagnostics import DiagnosticError

    try:
        return v.type
    except (LookupError, DiagnosticError):
        return None


def parse_detail(op: Operation) -> OpDetail:
    """Parse a source op's detail by its declaration (or generically).

    Raises:
        DiagnosticError: the op's text does not fit its declared syntax.
    """
    from ..diagnostics import ERROR, Diagnostic, DiagnosticError
    from ..parser.detail import GenericBody, body_text, parse_body

    body = parse_body(op)
    opdef = lookup(op.name)
    if isinstance(body, GenericBody):
        detail = _generic_detail(op, body, opdef)
    elif opdef is None or (opdef.format is None and opdef.parse_hook is None):
        detail = _unknown_detail(op, body)
    else:
        try:
            if opdef.parse_hook is not None:
                detail = opdef.parse_hook(op, body)
            else:
                items = unstrip_types(list(body), opdef.stripped_types)
                detail = detail_from_format(opdef, parse_format(opdef, items))
                if detail.location is not None and op.location is None:
                    op.location = detail.location
                detail = detail.detail
        except (FormatError, ValueError) as e:  # ValueError: a malformed attribute or escape
            text = body_text(op)
            pos = getattr(getattr(e, "item", None), "start_pos", None)
            offset = text.source_offset(pos) if pos is not None else None
            if offset is None:
                offset = op.span[0] if op.span else None
            raise DiagnosticError([Diagnostic(ERROR, f"custom op '{op.name}' {e}", op.source, offset)]) from None
    _check_result_count(op, detail)
    _record_operand_offsets(op, detail)
    return detail


def _record_operand_offsets(op: Operation, detail: OpDetail) -> None:
    """Keep where each operand is written (diagnostics about one operand point at it)."""
    from ..parser.detail import body_text

    if any(getattr(n, "start_pos", None) is not None for n in detail.operand_names):
        text = body_text(op)
        detail.operand_offsets = [text.source_offset(n.start_pos) if getattr(n, "start_pos", None) is not None
                                  else None for n in detail.operand_names]
    detail.operand_names = [str(n) for n in detail.operand_names]


def _check_result_count(op: Operation, detail: OpDetail) -> None:
    from ..diagnostics import DiagnosticError, op_error

    if op.def_text is None or not detail.known:
        return
    n = len(op.results)
    if n != len(detail.result_types):
        raise DiagnosticError([op_error(op, f"defines {len(detail.result_types)} results but was provided {n} to bind")])


def _generic_detail(op: Operation, body, opdef: Optional[OpDef]) -> OpDetail:
    from ..diagnostics import DiagnosticError, op_error

    fn: FunctionType = body.function_type
    if len(body.operands) != len(fn.inputs):
        raise DiagnosticError([op_error(op, f"has {len(body.operands)} operands but {len(fn.inputs)} operand types")])
    if body.region_count != len(op.regions):
        raise DiagnosticError([op_error(op, "region list does not match the op's regions")])
    twice = sorted(set(body.properties) & set(body.attributes))
    if twice:
        raise DiagnosticError([op_error(op, f"attribute '{twice[0]}' is given both as a property and in the "
                                            f"attribute dictionary")])
    if body.location is not None and op.location is None:
        op.location = body.location
    return OpDetail(
        operand_names=list(body.operands),
        operand_type_hints=list(fn.inputs),
        attributes=dict(body.attributes),
        properties=dict(body.properties),
        result_types=list(fn.results),
        successors=list(body.successors),
    )


def _unknown_detail(op: Operation, items) -> OpDetail:
    names = [i for i in items if getattr(i, "type", None) == "VALUE_USE"]
    if items and getattr(items[-1], "type", None) == "LOC" and op.location is None:
        op.location = str(items[-1])
    return OpDetail(operand_names=names, known=False)


ALL_OPERANDS, ALL_RESULTS = "_operands", "_results"


def all_attributes(op: Operation) -> Dict[str, Attribute]:
    """The op's properties and attributes in one mapping (an op written in generic form keeps
    its inherent attributes as properties, one written in custom form in its attributes)."""
    merged = dict(op.properties)
    merged.update(op.attributes)
    merged.pop("operandSegmentSizes", None)
    return merged


def operand_groups(op: Operation, opdef: OpDef) -> List[Tuple[str, int]]:
    """``[(operand name, count), ...]`` of ``op``: from its parse, its ``operandSegmentSizes``,
    or its declaration (at most one variadic or optional group then)."""
    detail = op.detail()
    if detail.operand_groups:
        return list(detail.operand_groups)
    segments = {**detail.properties, **detail.attributes}.get("operandSegmentSizes")
    specs = list(opdef.operands)
    if segments is not None and len(getattr(segments, "values", ())) == len(specs):
        return [(s.name, n) for s, n in zip(specs, segments.values)]
    rest, groups = len(op.operands), []
    for k, spec in enumerate(specs):
        fixed_after = sum(1 for s in specs[k + 1 :] if not s.variadic and not s.optional)
        if spec.variadic:
            count = max(rest - fixed_after, 0)
        elif spec.optional:
            count = 1 if rest > fixed_after else 0
        else:
            count = 1
        groups.append((spec.name, count))
        rest -= count
    return groups


def unstrip_types(items: list, stripped: Dict[int, str]) -> list:
    """Give the dialect prefix back to types a format prints without it (``<tensor<..>>``
    after the last ``:`` becomes the TYPE ``!tt.ptr<tensor<..>>``), see ``OpDef.stripped_types``."""
    if not stripped:
        return items
    from lark import Token

    colon = max((i for i, it in enumerate(items) if getattr(it, "type", None) == "COLON"), default=None)
    if colon is None:
        return items
    position = 0
    for i in range(colon + 1, len(items)):
        kind = getattr(items[i], "type", None)
        if kind not in ("TYPE", "ANGLE"):
            continue
        if kind == "ANGLE" and position in stripped:
            items[i] = Token.new_borrow_pos("TYPE", stripped[position] + str(items[i]), items[i])
        position += 1
    return items


@attrs.define
class _FormatResult:
    detail: OpDetail
    location: Optional[str]


def detail_from_format(opdef: OpDef, parsed) -> _FormatResult:
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
    return _FormatResult(detail, parsed.location)
