"""A small pattern-rewrite engine: patterns, a rewriter and a greedy driver.

Shaped like MLIR's (and xDSL's): a :class:`RewritePattern` matches one op name and rewrites
through a :class:`PatternRewriter`, which inserts, replaces and erases ops and records what it
did so that the faithful emitter can splice the new text where the old op stood.  Every op a
pattern creates remembers the source op it was created for (``origin``), and takes that op's
location.

:func:`apply_patterns` walks the module once in program order and applies the first pattern
registered for each op's name (the distributed ops lower to ops no pattern matches, so one
sweep reaches the fixed point).
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set

from ..diagnostics import DiagnosticEngine, DiagnosticError
from ..ir.core import Block, Module, Operation, Value, enclosing_function
from ..ir.scope import define_results

_SSA_NAME = re.compile(r"%[\w$.\-]+")
_HINT = re.compile(r"[A-Za-z_$.\-][\w$.\-]*|[0-9]+")


class RewritePattern:
    """Rewrites ops named :attr:`op_name`; subclasses implement :meth:`match_and_rewrite`."""

    op_name: str = ""

    def match_and_rewrite(self, op: Operation, rewriter: "PatternRewriter") -> bool:  # pragma: no cover
        """Rewrite ``op`` and return True, or return False to leave it alone."""
        raise NotImplementedError


class ValueNamer:
    """Fresh SSA names, unique where they are visible (SPEC.md section 3).

    Inside a function (an isolated-from-above op), a name must be new in the whole function:
    MLIR forbids a name that an enclosing region already defines, and sibling regions are
    simplest kept apart too.  Outside any function (ops at the top level of a module, or of an
    implicit module) the scope is the whole module.  The names of a scope are collected once,
    from its source text, and every name handed out is added, so naming costs O(1) per name.
    """

    def __init__(self, module: Optional[Module] = None) -> None:
        self.module = module
        self._used: Dict[int, Set[str]] = {}
        self._next: Dict[tuple, int] = {}

    def _names_of(self, function: Optional[Operation], anchor: Operation) -> Set[str]:
        key = id(function)
        used = self._used.get(key)
        if used is None:
            used = set()
            if function is not None:
                if function.source is not None and function.span is not None:
                    used.update(_SSA_NAME.findall(function.source.text, *function.span))
                ops = function.walk()
            else:
                source = self.module.source if self.module is not None else anchor.source
                if source is not None:
                    used.update(_SSA_NAME.findall(source.text))
                ops = self.module.walk() if self.module is not None else anchor.walk()
            for op in ops:
                if op.source is None:
                    used.update(r.name.split("#")[0] for r in op.results if r.name)
            self._used[key] = used
        return used

    def fresh(self, anchor: Operation, hint: str) -> str:
        """A name based on ``hint`` (``c1_i32``) not used in ``anchor``'s function."""
        function = enclosing_function(anchor)
        used = self._names_of(function, anchor)
        if not _HINT.fullmatch(hint):
            hint = "v"
        name = f"%{hint}"
        key = (id(function), hint)
        n = self._next.get(key, 0)  # the suffixes tried before are taken: start after them
        while name in used:
            name = f"%{hint}_{n}"
            n += 1
        self._next[key] = n
        used.add(name)
        return name


class PatternRewriter:
    """Mutates the IR for patterns and keeps the record the faithful emitter needs.

    Insertions and erasures are recorded per anchor op and applied to each block's op list in
    one pass by :meth:`commit` (called by :func:`apply_patterns` at the end of its sweep), so a
    rewrite costs O(1) however long the block is (MLIR keeps ops in linked lists for the same
    reason).  Until then, a new op already has its ``parent``, and the names of its results are
    visible to name lookups (``region_defs``), but ``block.ops`` still lists the old ops.

    Attributes:
        module: the module being rewritten; its ``erased`` set receives the spans of source
            ops that were removed.
        current: the source op being rewritten (new ops take its location and span as origin).
    """

    def __init__(self, module: Module, namer: Optional[ValueNamer] = None):
        self.module = module
        self.namer = namer or ValueNamer(module)
        self.current: Optional[Operation] = None
        self._before: Dict[int, List[Operation]] = {}
        self._after: Dict[int, List[Operation]] = {}
        self._erased: Set[int] = set()
        self._blocks: Dict[int, Block] = {}

    # ---- creation -----------------------------------------------------------------------------
    def create(self, name: str, operands: Sequence[Value] = (), result_types=(), attributes=None, properties=None,
               name_hints: Sequence[str] = (), operand_types=None, regions: Sequence = ()) -> Operation:
        """A new op at the current source op's location; results get fresh names from ``name_hints``."""
        anchor = self.current
        op = Operation.create(name, operands, result_types, attributes, properties, regions=regions,
                              location=anchor.location if anchor is not None else None, operand_types=operand_types)
        op.origin = anchor.span if anchor is not None else None
        if anchor is not None:
            for r, hint in zip(op.results, name_hints):
                r.name = self.namer.fresh(anchor, hint)
        return op

    def create_value_before(self, before: Operation, name: str, operands: Sequence[Value], result_type,
                            attributes=None, hint: str = "v", operand_types=None) -> Value:
        """Create a one-result op (``arith.constant``, ``arith.extsi`` ...) right before
        ``before`` and return its result (named from ``hint``)."""
        new = self.create(name, operands, [result_type], attributes, name_hints=[hint], operand_types=operand_types)
        self.insert_before(before, new)
        return new.results[0]

    # ---- mutation -----------------------------------------------------------------------------
    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        self._place(anchor, op, self._before)
        return op

    def insert_after(self, anchor: Operation, op: Operation) -> Operation:
        self._place(anchor, op, self._after)
        return op

    def _place(self, anchor: Operation, op: Operation, where: Dict[int, List[Operation]]) -> None:
        block = anchor.parent
        if block is None:
            raise ValueError(f"{anchor!r} is not in a block")
        op.parent = block
        where.setdefault(id(anchor), []).append(op)
        self._blocks[id(block)] = block
        define_results(block, op)

    def erase_op(self, op: Operation) -> None:
        block = op.parent
        if block is not None:
            self._blocks[id(block)] = block
        self._erased.add(id(op))
        op.parent = None
        if op.span is not None and op.source is self.module.source:
            self.module.erased.add(op.span)

    def replace_op(self, op: Operation, new_op: Operation) -> Operation:
        """Put ``new_op`` where ``op`` is; ``new_op`` takes over ``op``'s result values (so
        every use refers to it, under the same names)."""
        if new_op.parent is None:
            self.insert_before(op, new_op)
        if op.results:
            new_op.adopt_results(op)
        else:  # results the source left unbound (valid MLIR): still printed with names
            for r in new_op.results:
                if r.name is None:
                    r.name = self.namer.fresh(op, "unused")
        self.erase_op(op)
        return new_op

    def commit(self) -> None:
        """Apply the recorded insertions and erasures to the op lists (one pass per block)."""
        before, after, erased = self._before, self._after, self._erased
        for block in self._blocks.values():
            ops: List[Operation] = []
            for op in block.ops:
                _emit(op, before, after, erased, ops)
            block.ops[:] = ops
        self._before, self._after, self._erased, self._blocks = {}, {}, set(), {}


def _emit(op: Operation, before: Dict[int, List[Operation]], after: Dict[int, List[Operation]], erased: Set[int],
          out: List[Operation]) -> None:
    """Append to ``out`` the ops inserted before ``op``, ``op`` unless erased, the ops inserted
    after it (each with its own insertions).  A function, not a closure of ``commit``: a
    recursive closure is a reference cycle, garbage for the collector on every commit."""
    key = id(op)
    if before:
        for new in before.get(key, ()):
            _emit(new, before, after, erased, out)
    if key not in erased:
        out.append(op)
    if after:
        for new in after.get(key, ()):
            _emit(new, before, after, erased, out)


def apply_patterns(module: Module, patterns: Iterable[RewritePattern], diagnostics: DiagnosticEngine,
                   rewriter: Optional[PatternRewriter] = None, on_op: Optional[Callable] = None,
                   ops: Optional[Iterable[Operation]] = None) -> int:
    """Apply ``patterns`` to every op of ``module`` (``ops``: the module's ops in program order,
    when the caller has walked it already); returns the number of rewrites.

    A pattern reports problems through ``diagnostics`` and leaves the op alone; the sweep goes
    on so that all errors of a module are reported in one run (up to the engine's limit).
    """
    by_name: Dict[str, List[RewritePattern]] = {}
    for p in patterns:
        by_name.setdefault(p.op_name, []).append(p)
    rewriter = rewriter or PatternRewriter(module)
    worklist = [op for op in (module.walk() if ops is None else ops) if op.name in by_name]
    count = 0
    try:
        count = _sweep(worklist, by_name, rewriter, diagnostics)
    finally:
        rewriter.commit()
    return count


def _sweep(worklist, by_name, rewriter: PatternRewriter, diagnostics: DiagnosticEngine) -> int:
    count = 0
    for op in worklist:
        rewriter.current = op
        for pattern in by_name[op.name]:
            try:
                if pattern.match_and_rewrite(op, rewriter):
                    count += 1
                    break
            except DiagnosticError as e:
                for d in e.diagnostics:
                    diagnostics.emit(d)
                break
        rewriter.current = None
    return count
