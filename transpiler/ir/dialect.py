"""Op declarations (one :class:`OpDef` per op name) and the record of an op's detail.

A dialect module (``transpiler/ir/dialects/*.py``) declares each op once: operands, results,
the attributes its format reads, regions, the ODS assembly format (or parse/print hooks for
the few ops whose syntax is not declarative), memory effects and result-type rules.  The
parser, the printers and the passes all read these declarations (DESIGN.md: "declare each op
once").  An op nobody declared keeps its text; its operands are then guessed from the SSA
names it mentions, and its types are unknown.
"""

from __future__ import annotations

import threading
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import attrs

from .. import records
from .attributes import Attribute
from . import core as _core
from .core import Operation, Value
from .format import compile_format, format_names
from .types import Type
from .attr_kinds import AttrKind, EnumKeyword, SymbolRef, TokenAttrKind, TypedValue  # noqa: F401 (declarations use them)

READ = "read"
WRITE = "write"
NO_EFFECTS: FrozenSet[str] = frozenset()
READ_ONLY: FrozenSet[str] = frozenset({READ})
READ_WRITE: FrozenSet[str] = frozenset({READ, WRITE})

RegionArg = Tuple[str, Type, Optional[str]]  # (SSA name, type, loc text)


@records.frozen
class ValueSpec:
    """An operand or result of an op: name, arity, and its type when the op fixes it (e.g. i32)."""

    name: str
    variadic: bool = False
    optional: bool = False
    type: Optional[Type] = None


@records.define(eq=False)
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
        custom_syntax: the op's syntax is not (only) declarative (``tt.func``, ``scf.for``): the
            parser and the printer have hooks for it (``parser/custom/``, ``emit/custom/``).
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
    custom_syntax: bool = False
    verify: Optional[Callable] = None
    isolated: bool = False
    inherent: Sequence[str] = ()
    segmented: bool = False
    generic_name: Optional[str] = None
    implicit_terminator: Optional[str] = None
    stripped_types: Dict[int, str] = attrs.Factory(dict)
    elided: Sequence[str] = ()
    _compiled_format: Optional[Tuple] = attrs.field(init=False, default=None, repr=False)
    _name_tables: Optional[Tuple] = attrs.field(init=False, default=None, repr=False)
    _format_names: Optional[FrozenSet[str]] = attrs.field(init=False, default=None, repr=False)

    @property
    def compiled_format(self) -> Tuple:
        """The format's elements (``()`` without a format), compiled on first use: a run
        compiles the formats of the ops it meets, not those of every declared op.

        Raises:
            FormatError: the format string is malformed.
        """
        compiled = self._compiled_format
        if compiled is None:
            compiled = self._compiled_format = compile_format(self.format) if self.format is not None else ()
        return compiled

    @property
    def format_names(self) -> FrozenSet[str]:
        """Every ``$name`` of the format, optional groups included (made on first use)."""
        names = self._format_names
        if names is None:
            names = self._format_names = frozenset(format_names(self.compiled_format))
        return names

    def role(self, name: str) -> Optional[str]:
        """What format name ``name`` is: ``operand``, ``attribute``, ``region``, ``successor``,
        ``result`` (in that precedence), or None."""
        return self._names()[0].get(name)

    def value_spec(self, name: str) -> Optional[ValueSpec]:
        """The operand (else result) spec named ``name``, or None."""
        return self._names()[1].get(name)

    def _names(self) -> Tuple[Dict[str, str], Dict[str, ValueSpec]]:
        """``(role by name, value spec by name)``, made on first use (the declaration is fixed;
        the parser and the printers ask about every name of a format)."""
        tables = self._name_tables
        if tables is None:
            roles: Dict[str, str] = {}
            for role, names in (("operand", [s.name for s in self.operands]), ("attribute", self.attribute_kinds),
                                ("region", self.regions), ("successor", self.successors),
                                ("result", [s.name for s in self.results])):
                for name in names:
                    roles.setdefault(name, role)
            specs: Dict[str, ValueSpec] = {}
            for spec in list(self.operands) + list(self.results):
                specs.setdefault(spec.name, spec)
            tables = self._name_tables = (roles, specs)
        return tables

    def memory_effects(self, op: Operation) -> FrozenSet[str]:
        return self.effects(op) if callable(self.effects) else self.effects

    def is_inherent(self, attribute: str) -> bool:
        return attribute in self.inherent or attribute in self.attribute_kinds


_REGISTRY: Dict[str, OpDef] = {}
_LOADED: Set[str] = set()  # dialect prefixes whose modules were imported (or that have none)
_LOADING = threading.RLock()  # one thread imports a dialect's modules; the others wait for them


def register(*opdefs: OpDef) -> None:
    """Add declarations to the registry (a dialect module calls this at import)."""
    for d in opdefs:
        _REGISTRY[d.name] = d
        if d.generic_name:
            _REGISTRY[d.generic_name] = d


def lookup(name: str) -> Optional[OpDef]:
    """The declaration of ``name``, or None for an op nobody declared.

    A dialect's module (``transpiler/ir/dialects/``) is imported on the first look-up of one of
    its op names (``transpiler.ir.dialects.load``), so a run declares only the dialects its
    module uses.
    """
    opdef = _REGISTRY.get(name)
    if opdef is None:
        prefix = name.partition(".")[0]
        if prefix not in _LOADED:
            from .dialects import load

            with _LOADING:  # a prefix is in _LOADED only once all its ops are registered
                if prefix not in _LOADED:
                    load(prefix)
                    _LOADED.add(prefix)
        # again: another thread may have registered the name's dialect since the first look
        opdef = _REGISTRY.get(name)
    return opdef


def registered_names() -> List[str]:
    """Every declared op name (all dialect modules imported)."""
    from .dialects import load_all

    load_all()
    return sorted(_REGISTRY)


@records.define(eq=False)
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
            resolve = RESOLVE["resolve"]
            n = len(self.operand_names)
            hints = self.operand_type_hints + [None] * (n - len(self.operand_type_hints))
            offsets = self.operand_offsets + [None] * (n - len(self.operand_offsets))
            self.operands = [resolve(op, name, t, i, at) for i, (name, t, at) in
                             enumerate(zip(self.operand_names, hints, offsets))]
        return self.operands

    def operand_types(self, op: Operation) -> List[Optional[Type]]:
        values = self.resolved_operands(op)
        hints = self.operand_type_hints
        if len(hints) < len(values):
            hints = hints + [None] * (len(values) - len(hints))
        return [known_type(v) if hint is None else hint for v, hint in zip(values, hints)]


def known_type(v: Value) -> Optional[Type]:
    """The type of ``v`` if it can be known without failing: None when its producer is an op
    nobody declared, or its text cannot be read (the type is then not needed, SPEC.md section 3)."""
    try:
        return v.type
    except LookupError:
        return None
    except Exception as e:  # the diagnostics module is imported only on this path (it is rare)
        from ..diagnostics import DiagnosticError

        if isinstance(e, DiagnosticError):
            return None
        raise


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


#: ``scope.resolve``, bound by ``scope`` when it is imported (it imports this module; see
#: :data:`transpiler.ir.core.UPPER`).
RESOLVE: Dict[str, Callable] = {}
_core.UPPER["OpDetail"] = OpDetail
