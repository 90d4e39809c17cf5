"""SSA name resolution for source ops, following MLIR's scoping rules.

Within an isolated region (a function), a name is defined once: values of enclosing regions
are visible in nested ones, sibling regions may reuse names, and blocks of one region see each
other's values (dominance is the verifier's business, not the parser's).  So a use resolves to
the first definition found walking out from the use's region to the enclosing function.

A name that resolves to nothing is an error ("use of undeclared SSA value", as MLIR says),
except inside a region of an op nobody declared: its region arguments are not known, so the
name becomes an :class:`UnresolvedValue`, an error only if a pass needs to know more about it.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..diagnostics import ERROR, Diagnostic, DiagnosticError, Note, op_error, op_location
from . import core as _core, dialect as _dialect
from .core import Block, BlockArgument, Operation, OpResult, Region, Value
from .dialect import lookup
from .types import Type


class UnresolvedValue(Value):
    """A use whose definition is not known; ``type_hint`` is what the using op says, if anything."""

    __slots__ = ("type_hint",)

    def __init__(self, name: str, type_hint: Optional[Type] = None):
        self.name = name
        self.type_hint = type_hint

    @property
    def type(self) -> Type:
        if self.type_hint is None:
            raise LookupError(f"the type of {self.name} is not known")
        return self.type_hint

    def __repr__(self) -> str:
        return f"<unresolved {self.name}>"


def is_isolated(op: Operation) -> bool:
    """Ops whose regions do not see values from outside (functions, modules)."""
    return op.name.endswith(".func") or op.name in ("module", "builtin.module")


_TWICE = "__defined_twice__"  # key of the set of names a region defines more than once


def region_defs(region: Region) -> Dict[str, Value]:
    """Name -> value for every block argument and op result of ``region`` (cached).  The names
    defined more than once are under ``_TWICE`` (see :func:`check_redefinitions`)."""
    defs = region._defs
    if defs is None:
        defs = {}
        twice = set()

        def define(name, value):
            if name in defs:
                twice.add(name)
            defs[name] = value

        for block in region.blocks:
            for arg in block.arguments:
                if arg.name:
                    define(arg.name, arg)
            for op in block.ops:
                results = op.results
                for r in results:
                    if r.name:
                        define(r.name, r)
                if len(results) > 1 and results[0].name and "#" in results[0].name:
                    defs.setdefault(results[0].name.split("#")[0], results[0])
        defs[_TWICE] = twice
        region._defs = defs
    return defs


def check_redefinitions(op: Operation) -> None:
    """The names of ``op``'s results are defined once in their scope (MLIR: "redefinition of
    SSA value"): not twice in one region, not again in an enclosing one up to the function.

    Raises:
        DiagnosticError: at ``op``, naming the value.
    """
    names = [r.name.split("#")[0] for r in op.results if r.name]
    block = op.parent
    inner: Optional[Operation] = None  # the op of the enclosing region that holds `op`
    while names and block is not None and block.parent is not None:
        region = block.parent
        defs = region_defs(region)
        for name in names:
            if (inner is None and name in defs[_TWICE]) or (inner is not None and _visible_at(defs.get(name), inner)):
                raise DiagnosticError([op_error(op, f"redefinition of SSA value '{name}'")])
        parent = region.parent
        if parent is None or is_isolated(parent):
            break
        inner = parent
        block = parent.parent


def _visible_at(value: Optional[Value], op: Operation) -> bool:
    """Whether ``value`` of an enclosing region is already defined where ``op`` begins: a name
    defined there *after* ``op``'s regions closed is a new name (MLIR drops a region's names
    when the region closes)."""
    if value is None:
        return False
    if isinstance(value, OpResult) and value.op.span is not None and op.span is not None \
            and value.op.source is op.source:
        return value.op.span[0] < op.span[0]
    return True


def define_results(block: Block, op: Operation) -> None:
    """Make the named results of ``op``, newly put in ``block``, visible to name lookups (the
    name table is built once per region and updated as the rewriter inserts names, never
    rebuilt: lowering stays linear in the ops, DESIGN.md "Where an op ends")."""
    region = block.parent
    defs = region._defs if region is not None else block._defs
    if defs is None:
        return
    for r in op.results:
        if r.name:
            defs.setdefault(r.name, r)


def _top_level_defs(block: Block) -> Dict[str, Value]:
    """Name -> value of the ops at the top level (MLIR's implicit module), built once."""
    if block._defs is None:
        block._defs = {r.name: r for o in block.ops for r in o.results if r.name}
    return block._defs


def resolve(op: Operation, name: str, type_hint: Optional[Type] = None, index: int = 0,
            offset: Optional[int] = None) -> Value:
    """The value that ``name`` denotes where ``op`` uses it (as operand ``index``, written at
    ``offset`` in the source when known).

    Raises:
        DiagnosticError: no definition is visible and every enclosing region's arguments are
            known ("use of undeclared SSA value"), or the definition comes after the use in the
            same block of an SSACFG region ("does not dominate this use").
    """
    block = op.parent
    known = True
    while block is not None:
        region = block.parent
        if region is None:  # the top level (MLIR's implicit module)
            value = _find(_top_level_defs(block), name)
            if value is not None:
                return _dominating(value, op, index, offset)
            break
        value = _find(region_defs(region), name)
        if value is not None:
            return _dominating(value, op, index, offset)
        parent = region.parent
        if parent is None:
            break
        known = known and _region_arguments_known(parent)
        if is_isolated(parent):
            break
        block = parent.parent
    if known and op.source is not None:
        raise DiagnosticError([op_error(op, f"use of undeclared SSA value '{name}'", at=offset)])
    return UnresolvedValue(name, type_hint)


def _find(defs: Dict[str, Value], name: str) -> Optional[Value]:
    """``defs[name]``; ``%x#N`` also names result N of the op that defines ``%x`` (MLIR lets
    ``%x#0`` name the only result of ``%x = ...``)."""
    value = defs.get(name)
    if value is None and "#" in name:
        base, _, number = name.partition("#")
        first = defs.get(base)
        if isinstance(first, OpResult) and number.isdigit() and first.index == 0:
            results = first.op.results
            k = int(number)
            value = results[k] if k < len(results) else None
    return value


def _dominating(value: Value, user: Operation, index: int, offset: Optional[int]) -> Value:
    """``value``, checked to be defined before ``user`` when both are in one block (MLIR's
    dominance rule for ops of one block; across blocks the CFG decides, which is left to the
    verifier downstream).  Positions are source offsets (an op a rewrite made stands where its
    source op stood), so the check is O(1) however long the block is."""
    if not isinstance(value, OpResult) or value.op.parent is None or user.source is None:
        return value
    block = value.op.parent
    if _in_graph_region(block):
        return value
    node = user
    while node is not None and node.parent is not block:
        node = node.parent_op
    if node is None or node is value.op:
        return value
    defined, used = _position(value.op), _position(node)
    if defined is not None and used is not None and defined > used:
        diag = op_error(user, f"operand #{index} does not dominate this use", at=offset)
        where = op_location(value.op)
        diag.notes.append(Note("operand defined here (op in the same block)", *where))
        raise DiagnosticError([diag])
    return value


def _in_graph_region(block: Block) -> bool:
    """Whether ``block`` is the body of a module (also the implicit one at the top level):
    ``builtin.module`` has only graph regions (MLIR's ``ModuleOp`` carries
    ``GraphRegionNoTerminator``: ``RegionKindInterface`` with ``RegionKind::Graph``), where
    dominance is not required, so an op there may use a value defined after it, also inside
    its regions.  Every other region is taken as an SSACFG region."""
    region = block.parent
    return region is None or (region.parent is not None and region.parent.name in ("module", "builtin.module"))


def _position(op: Operation) -> Optional[int]:
    span = op.span if op.span is not None else op.origin
    return span[0] if span is not None else None


def _region_arguments_known(op: Operation) -> bool:
    """Whether the arguments of ``op``'s regions are known: written in block labels (generic
    form), or defined by a declared syntax."""
    if op.generic or op.source is None:
        return True
    opdef = lookup(op.name)
    return opdef is not None and (opdef.custom_syntax or bool(opdef.compiled_format))


def block_arguments(block: Block) -> List[BlockArgument]:
    """Arguments of a source block: from its label, or, for a region's unlabeled entry block,
    from the syntax of the op that holds the region (``tt.func`` arguments, ``scf.for``
    induction variable and iter_args, ...)."""
    if block.label is not None:
        op = block.parent.parent if block.parent is not None else None
        source = op.source if op is not None else None
        if source is None or source.reader is None:
            raise LookupError("the arguments of a block label without its source text are not known")
        try:
            _name, args = source.reader.block_label(block.label)
        except ValueError as e:
            raise DiagnosticError([Diagnostic(ERROR, str(e), source, block.label_offset)]) from None
        return [BlockArgument(block, i, n, t, loc) for i, (n, t, loc) in enumerate(args)]
    region = block.parent
    if region is None or region.parent is None or not region.blocks or region.blocks[0] is not block:
        return []
    op = region.parent
    if op.source is None:
        return []
    index = next(i for i, r in enumerate(op.regions) if r is region)
    args = op.detail().region_args.get(index, [])  # a malformed header is reported, not guessed
    return [BlockArgument(block, i, n, t, loc) for i, (n, t, loc) in enumerate(args)]


_core.UPPER["block_arguments"] = block_arguments
_dialect.RESOLVE["resolve"] = resolve
