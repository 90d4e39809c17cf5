"""The typed IR: values, operations, blocks, regions and the module.

Two kinds of operations live in the same classes:

* ops read from text (``source`` is set): they keep their span in the text and the raw text of
  their results (``def_text``) and body (``body``: BODY pieces with region slots between).
  Their operands, attributes and types are parsed only when someone asks for them
  (:meth:`Operation.detail`), through the op's declaration (``transpiler/ir/dialect.py``).
  Nothing about an op a pass never looks at is ever parsed.
* ops built in memory (by a builder or a rewrite pattern): all fields are given directly.

A rewrite keeps the meaning of names: :meth:`Operation.adopt_results` moves the result values
of a replaced op to its replacement, so every use, by reference or by name, stays valid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterator, List, Optional, Sequence, Tuple

import attrs

from .attributes import Attribute
from .source import Alias, Source  # noqa: F401 (re-exported: the IR's text)
from .types import Type
from .values import BlockArgument, OpResult, Value, results_from_def  # noqa: F401 (re-exported)

if TYPE_CHECKING:  # pragma: no cover
    from .dialect import OpDetail


@attrs.define(eq=False, repr=False)
class Operation:
    """One op.  See the module docstring for source-backed versus in-memory ops.

    Attributes:
        name: the op name, e.g. ``"tt.splat"``.
        regions: nested regions, in order.
        parent: the block that holds this op (None for a top-level op or a detached op).
        location: the op's ``loc(...)`` text, or None.
        source / span: the text and [start, end) offsets the op was read from.
        def_text: the results prefix as written (``"%0:2 = "``), for source ops.
        body: the op text pieces after the name: BODY strings and ``None`` for each region.
        generic: True when the op was written in generic form (``"tt.reduce"(...)``).
        origin: for an op created by a rewrite, the span of the source op it was made for.
        verified: the ``ttir`` stage verified the op and found nothing (the lowering, which
            verifies the ops it lowers, need not verify it again).
    """

    name: str
    regions: List["Region"] = attrs.Factory(list)
    parent: Optional["Block"] = None
    location: Optional[str] = None
    source: Optional[Source] = None
    span: Optional[Tuple[int, int]] = None
    def_text: Optional[str] = None
    body: Optional[list] = None
    generic: bool = False
    origin: Optional[Tuple[int, int]] = None  # span of the source op a rewrite made this op for
    _results: Optional[List[OpResult]] = None
    _detail: Optional["OpDetail"] = None
    verified: bool = attrs.field(default=False, init=False)  # verify_op found nothing (the ``ttir`` stage)

    # ---- construction of in-memory ops ----------------------------------------------------------
    @classmethod
    def create(
        cls,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: Optional[Dict[str, Attribute]] = None,
        properties: Optional[Dict[str, Attribute]] = None,
        regions: Sequence["Region"] = (),
        location: Optional[str] = None,
        result_names: Sequence[Optional[str]] = (),
        operand_types: Optional[Sequence[Type]] = None,
    ) -> "Operation":
        """Build an in-memory op; results get the given names (or None).

        ``operand_types`` are needed only where an operand's own type cannot be known (a
        value produced by an op nobody declared); by default each operand's type is used.
        """
        op = cls(name, regions=list(regions), location=location)
        names = list(result_names) + [None] * (len(result_types) - len(result_names))
        op._results = [OpResult(op, i, names[i], t) for i, t in enumerate(result_types)]
        op._detail = UPPER["OpDetail"](
            operands=list(operands),
            operand_type_hints=list(operand_types or ()),
            attributes=dict(attributes or {}),
            properties=dict(properties or {}),
            result_types=list(result_types),
        )
        for region in op.regions:
            region.parent = op
        return op

    # ---- lazily parsed parts --------------------------------------------------------------------
    def detail(self) -> "OpDetail":
        """Operands, attributes, properties and types of this op (parsed on first use).

        Raises:
            transpiler.diagnostics.DiagnosticError: if the op's text does not match its
                declared assembly format.
        """
        if self._detail is None:
            if self.source is None or self.source.reader is None:
                raise LookupError(f"the detail of '{self.name}' is not known (no source text to read it from)")
            self._detail = self.source.reader.detail(self)
        return self._detail

    @property
    def results(self) -> List[OpResult]:
        if self._results is None:
            self._results = results_from_def(self)
        return self._results

    @property
    def operands(self) -> List[Value]:
        return self.detail().resolved_operands(self)

    @property
    def attributes(self) -> Dict[str, Attribute]:
        return self.detail().attributes

    @property
    def properties(self) -> Dict[str, Attribute]:
        return self.detail().properties

    @property
    def result_types(self) -> List[Type]:
        return self.detail().result_types

    @property
    def operand_types(self) -> List[Type]:
        return self.detail().operand_types(self)

    # ---- structure ---------------------------------------------------------------------------------
    @property
    def parent_op(self) -> Optional["Operation"]:
        block = self.parent
        region = block.parent if block is not None else None
        return region.parent if region is not None else None

    def ancestors(self) -> Iterator["Operation"]:
        """The enclosing ops, innermost first."""
        op = self.parent_op
        while op is not None:
            yield op
            op = op.parent_op

    def walk(self) -> Iterator["Operation"]:
        """This op and every op nested in it, in program (pre-)order (no recursion: any depth)."""
        stack = [self]
        while stack:
            op = stack.pop()
            yield op
            if op.regions:  # most ops have none
                for region in reversed(op.regions):
                    for block in reversed(region.blocks):
                        stack.extend(reversed(block.ops))

    def adopt_results(self, other: "Operation") -> None:
        """Take over ``other``'s result values (so all their uses now refer to this op).

        Raises:
            ValueError: if the result counts or types differ.
        """
        theirs = other.results
        mine = self.results
        if len(theirs) != len(mine):
            raise ValueError(f"{self.name} has {len(mine)} results, {other.name} has {len(theirs)}")
        for new, old in zip(mine, theirs):
            if new.type != old.type:
                raise ValueError(f"result type {new.type} differs from {old.type}")
            old.op = self
            old.index = new.index
            old._type = new.type
        self._results = list(theirs)
        other._results = []

    def offset(self) -> Optional[int]:
        """Start offset of the op's text (None for in-memory ops)."""
        return self.span[0] if self.span else None

    def __repr__(self) -> str:
        return f"<op {self.name}>"


@attrs.define(eq=False, repr=False)
class Block:
    """A list of ops with arguments.  ``label`` is the source label text (``^bb1(%x: f32):``)."""

    ops: List[Operation] = attrs.Factory(list)
    parent: Optional["Region"] = None
    label: Optional[str] = None
    label_offset: Optional[int] = None
    _arguments: Optional[List[BlockArgument]] = None
    _defs: Optional[dict] = None  # name -> Value at the top level of a module (scope.py)

    @property
    def arguments(self) -> List[BlockArgument]:
        if self._arguments is None:
            self._arguments = UPPER["block_arguments"](self)
        return self._arguments

    @arguments.setter
    def arguments(self, args: List[BlockArgument]) -> None:
        for i, a in enumerate(args):
            a.block, a.index = self, i
        self._arguments = list(args)

    def index_of(self, op: Operation) -> int:
        for i, o in enumerate(self.ops):
            if o is op:
                return i
        raise ValueError(f"{op!r} is not in this block")

    def insert(self, index: int, op: Operation) -> None:
        op.parent = self
        self.ops.insert(index, op)

    def __repr__(self) -> str:
        return f"<block {self.label or '^entry'} ({len(self.ops)} ops)>"


@attrs.define(eq=False, repr=False)
class Region:
    """A list of blocks.  ``span`` is the offsets of its ``{`` and ``}`` in the source."""

    blocks: List[Block] = attrs.Factory(list)
    parent: Optional[Operation] = None
    span: Optional[Tuple[int, int]] = None
    _defs: Optional[dict] = None  # name -> Value of the values defined in this region (scope.py)

    @property
    def entry(self) -> Block:
        if not self.blocks:
            self.blocks.append(Block(parent=self))
        return self.blocks[0]


@attrs.define(eq=False, repr=False)
class Module:
    """A parsed file: its top-level ops (usually one ``module``) and alias definitions.

    When the text has no ``module`` op around its functions, ``ops`` holds them directly
    (MLIR's implicit module).  The top-level ops live in ``body``, a block without a region,
    so that rewrites can insert next to them like anywhere else.
    """

    ops: List[Operation]
    aliases: List[Alias] = attrs.Factory(list)
    source: Optional[Source] = None
    erased: set = attrs.Factory(set)  # spans of source ops a rewrite removed
    warnings: list = attrs.Factory(list)  # non-fatal diagnostics the stages reported (in order)
    names_distributed: bool = True  # False: the parser read no distributed.* op (nothing to lower)
    body: Block = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.body = Block(ops=self.ops)
        for op in self.ops:
            op.parent = self.body

    def walk(self) -> Iterator[Operation]:
        """Every op of the module, in program order (``Operation.walk`` of each top-level op,
        inlined: one generator, not one per top-level op)."""
        for top in self.ops:
            stack = [top]
            while stack:
                op = stack.pop()
                yield op
                if op.regions:
                    for region in reversed(op.regions):
                        for block in reversed(region.blocks):
                            stack.extend(reversed(block.ops))


#: What the modules built on this one provide to it: ``"OpDetail"`` (the class, from
#: ``dialect``) and ``"block_arguments"`` (from ``scope``).  Each of them binds its entry when it
#: is imported, and ``transpiler/ir/__init__.py`` imports both, so any use of the IR finds
#: them; this module imports neither (issue 30: no import circle).
UPPER: Dict[str, object] = {}


def enclosing_function(op: Operation) -> Optional[Operation]:
    """The nearest enclosing function-like op (``tt.func``, ``func.func``, ``llvm.func``)."""
    for anc in op.ancestors():
        if anc.name.endswith(".func") or anc.name == "func":
            return anc
    return None
