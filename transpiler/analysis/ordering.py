"""Lint rules 1 and 2 of issue 17: loads of symmetric memory that nothing orders after a
``wait``, and ``wait`` tokens that order nothing.

Why (issue 17, seed ``000_...`` memory effects, SPEC.md section 1): ``distributed.wait`` only
reads its flag; the one thing that keeps a later load of the data below it is a data dependency
on its token, made by ``distributed.consume_token`` (which returns its input).  Without it the
compiler may move the load above the wait and read the buffer before the peers wrote it.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..ir.core import BlockArgument, Operation, OpResult, Value
from .dataflow import (POINTER_STEPS, Derivation, follow, int_constant, loop_carried_sources, operand, operands,
                       producer, reached, region_result_sources)
from .facts import FunctionFacts
from .report import Finding, describe

UNORDERED_REMOTE_LOAD = "unordered-remote-load"
UNUSED_WAIT_TOKEN = "unused-wait-token"


def _orders(consume: Operation) -> bool:
    """A ``consume_token`` orders its input unless its token is surely no wait token (a constant)."""
    return int_constant(operand(consume, 1)) is None


class SymmetricPointers:
    """For each pointer value, the ``symm_at`` of the symmetric buffer it derives from without
    passing through a ``consume_token`` (issue 17, rule 1), or None.

    A symmetric buffer is a ``symm_at`` result or a value the function also passes to
    ``symm_at``; derivations are ``tt.addptr``, ``tt.splat``, ``tt.broadcast`` (operand 0) and
    loop-carried block arguments (initial value and yielded value).
    """

    def __init__(self, facts: FunctionFacts):
        self.passed: Dict[Value, Operation] = {}
        for op in facts.symm_ats:
            value = operand(op, 0)
            if value is not None:
                self.passed.setdefault(value, op)
        self._ordered: Dict[Value, bool] = {}
        self.source_of = Derivation(self._edges, self._source)
        self.consume_in_cone = Derivation(_cone_edges, _consume_result)

    def _source(self, value: Value) -> Optional[Tuple[Operation, str]]:
        """(the symm_at, a note about it) when ``value`` is a symmetric buffer not yet ordered."""
        if isinstance(value, OpResult) and value.op.name == "distributed.symm_at":
            found = (value.op, "the symmetric buffer comes from this 'distributed.symm_at'")
        elif value in self.passed:
            found = (self.passed[value], f"{describe(value)} is a symmetric buffer: this 'distributed.symm_at' takes it")
        else:
            return None
        return None if self._is_ordered(value) else found

    def _edges(self, value: Value) -> List[Value]:
        if isinstance(value, BlockArgument):
            return loop_carried_sources(value) or []
        op = value.op if isinstance(value, OpResult) else None
        if op is None:
            return []
        if op.name in POINTER_STEPS or (op.name == "distributed.consume_token" and not _orders(op)):
            first = operand(op, 0)
            return [first] if first is not None else []
        return []

    def _is_ordered(self, value: Value) -> bool:
        """True when ``value`` derives from a ``consume_token`` (then what derives from it,
        including a ``symm_at`` of it, depends on the token)."""
        return follow(value, self._ordered, self._ordered_step, False)

    def _ordered_step(self, v: Value):
        if isinstance(v, BlockArgument):
            return None, any(self._is_ordered(s) for s in loop_carried_sources(v) or ())
        op = producer(v)
        if op is None:
            return None, False
        if op.name == "distributed.consume_token" and _orders(op):
            return None, True
        if op.name in POINTER_STEPS + ("distributed.symm_at",):
            return operand(op, 0), False
        return None, False


def _consume_result(value: Value) -> Optional[Operation]:
    op = value.op if isinstance(value, OpResult) else None
    return op if op is not None and op.name == "distributed.consume_token" and _orders(op) else None


def _cone_edges(value: Value) -> List[Value]:
    """Everything a value is computed from (every operand, loop-carried and yielded values)."""
    if isinstance(value, BlockArgument):
        return loop_carried_sources(value) or []
    sources = region_result_sources(value)
    if sources is None:
        sources = operands(value.op)
    return sources or []


def unordered_remote_loads(facts: FunctionFacts) -> List[Finding]:
    """Rule ``unordered-remote-load`` (issue 17, rule 1): after a wait (that dominates it, with
    no barrier ``extern_call`` between them), a ``tt.load`` / ``tt.atomic_*`` through a pointer
    derived from a symmetric buffer through no ``consume_token`` of a wait token.

    Silent when the address depends on a ``consume_token`` some other way (an offset computed
    from a consumed value): the load then cannot move above the wait either."""
    if not facts.waits or not facts.loads or not facts.symm_ats:
        return []  # no wait to order after, nothing loaded, or no symmetric buffer
    pointers = SymmetricPointers(facts)
    findings = []
    for load in facts.loads:
        if load.wait is None:
            continue
        ptr = operand(load.op, 0)
        found = pointers.source_of(ptr) if ptr is not None else None
        if found is None or pointers.consume_in_cone(ptr) is not None:
            continue  # not symmetric, or the address depends on a token some other way (an offset)
        findings.append(Finding(
            UNORDERED_REMOTE_LOAD, load.op,
            f"reads symmetric memory after a 'distributed.wait', but its pointer {describe(ptr)} does not depend on "
            f"the wait's token (no 'distributed.consume_token' on its derivation), so the load may be moved above "
            f"the wait and read the buffer before the peers wrote it",
            [(load.wait, "the wait it must be ordered after"), found]))
    return findings


class _TokenSources:
    """Where a token value may come from: through loops, ``scf`` results and any other op.
    ``unknown`` turns True when a value's origin cannot be followed (a block argument of an
    unstructured branch, an op that cannot be read): a rule then cannot be sure."""

    def __init__(self, entry_arguments):
        self.entry = set(entry_arguments)
        self.unknown = False

    def __call__(self, value: Value) -> Optional[List[Value]]:
        if isinstance(value, BlockArgument):
            sources = loop_carried_sources(value)
            if sources is None and value not in self.entry and not _is_induction_variable(value):
                self.unknown = True
            return sources
        if not isinstance(value, OpResult) or value.op.name == "distributed.wait":
            return None
        sources = region_result_sources(value)
        if sources is None:
            sources = operands(value.op)
            self.unknown = self.unknown or sources is None
        return sources


def _is_induction_variable(arg: BlockArgument) -> bool:
    region = arg.block.parent if arg.block is not None else None
    loop = region.parent if region is not None else None
    return arg.index == 0 and loop is not None and loop.name == "scf.for"


def unused_wait_tokens(facts: FunctionFacts) -> List[Finding]:
    """Rule ``unused-wait-token`` (issue 17, rule 2): a wait whose token no ``consume_token`` uses.

    Silent for a token that may leave the function (a call, a return, an ``extern_call``
    operand may derive from it: a consume_token elsewhere may use it), and when the origin of a
    consume_token's token cannot be followed.
    """
    if not facts.waits:
        return []
    edges = _TokenSources(facts.entry_arguments)
    used = reached([v for v in (operand(op, 1) for op in facts.consumes) if v is not None], edges)
    starts: List[Value] = []
    for op in facts.escapes:
        values = operands(op)
        if values is None:
            return []
        starts.extend(values)
    used |= reached(starts, edges)
    if edges.unknown:
        return []
    findings = []
    for wait in facts.waits:
        token = wait.results[0] if wait.results else None
        if token is None or token in used:
            continue
        findings.append(Finding(
            UNUSED_WAIT_TOKEN, wait,
            f"token {describe(token)} is used by no 'distributed.consume_token': nothing orders the accesses that "
            f"depend on this wait after it", []))
    return findings
