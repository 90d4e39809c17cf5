"""Def-use helpers of the protocol lint (issue 17): producers, constants, loop-carried values
and a memoised backward derivation.

Everything here reads the IR through its public API only (``op.name``, ``op.operands``,
``op.attributes`` / ``op.properties``, ``op.regions``, ``block.ops``, ``value.type``) and parses an
op's detail only when a rule asks about that op: the lint follows use-def chains backwards from
the distributed ops, so that the ops nobody asks about stay unparsed (issue 17: "linear in the
ops").  An op whose text cannot be read is *unknown*: the rules then stay silent about it.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from ..diagnostics import DiagnosticError
from ..ir.attributes import IntegerAttr
from ..ir.core import BlockArgument, Operation, OpResult, Value
from ..ir.types import FloatType, IntegerType, PointerType

UNREADABLE = (DiagnosticError, LookupError, ValueError, IndexError)
FUNCTION_OPS = ("tt.func", "func.func", "llvm.func", "func")
CALL_OPS = ("tt.call", "func.call", "call", "llvm.call")
RETURN_OPS = ("tt.return", "func.return", "return", "llvm.return")
POINTER_STEPS = ("tt.addptr", "tt.splat", "tt.broadcast")  # issue 17, rule 1: how a pointer is derived


def is_function(op: Operation) -> bool:
    """A function op: the unit the lint works in (issue 17: "in one function")."""
    return op.name in FUNCTION_OPS


def operands(op: Operation) -> Optional[List[Value]]:
    """``op``'s operands, or None when its text cannot be read (the rules then stay silent)."""
    try:
        return list(op.operands)
    except UNREADABLE:
        return None


def operand(op: Operation, index: int) -> Optional[Value]:
    """Operand ``index`` of ``op`` (SPEC.md section 1 gives the distributed ops' order), or None."""
    values = operands(op)
    return values[index] if values is not None and index < len(values) else None


def attribute(op: Operation, name: str):
    """An attribute of ``op``, from its properties or its attribute dictionary (None if absent)."""
    try:
        found = op.properties.get(name)
        return found if found is not None else op.attributes.get(name)
    except UNREADABLE:
        return None


def producer(value: Optional[Value]) -> Optional[Operation]:
    """The op that defines ``value`` (None for a block argument): one step up a use-def chain."""
    return value.op if isinstance(value, OpResult) else None


def int_constant(value: Optional[Value]) -> Optional[int]:
    """The integer of a scalar ``arith.constant`` that produces ``value``, else None."""
    op = producer(value)
    if op is None or op.name != "arith.constant":
        return None
    attr = attribute(op, "value")
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType) and attr.type.width > 1:
        return attr.value
    return None


def value_type(value: Value):
    """``value``'s type, or None when it cannot be known (an undeclared producer)."""
    try:
        return value.type
    except UNREADABLE:
        return None


def byte_size(t) -> Optional[int]:
    """sizeof of a scalar element type (None when not known)."""
    if isinstance(t, IntegerType) and t.width % 8 == 0:
        return t.width // 8
    if isinstance(t, FloatType):
        if t.name.startswith("f8"):
            return 1
        return {"f16": 2, "bf16": 2, "f32": 4, "tf32": 4, "f64": 8}.get(t.name)
    return None


def pointee(value: Value):
    """The element type of a scalar ``!tt.ptr`` value (SPEC.md section 1), else None."""
    t = value_type(value)
    return t.pointee if isinstance(t, PointerType) else None


def wrap(value: int, width: int) -> int:
    """``value`` as a signed integer of ``width`` bits (what a store of that width keeps)."""
    half = 1 << (width - 1)
    return (value + half) % (1 << width) - half


def terminator(block, name: str) -> Optional[Operation]:
    """The last op of ``block`` when it is named ``name`` (``scf.yield``), else None."""
    ops = block.ops
    return ops[-1] if ops and ops[-1].name == name else None


def loop_carried_sources(arg: BlockArgument) -> Optional[List[Value]]:
    """The values a loop-carried block argument takes: its initial value and what the loop
    yields for it (``scf.for`` iter_args, ``scf.while`` ``before`` arguments), or what
    ``scf.condition`` forwards (``scf.while`` ``after`` arguments); else None."""
    block = arg.block
    region = block.parent if block is not None else None
    loop = region.parent if region is not None else None
    if loop is None or loop.name not in ("scf.for", "scf.while") or region.blocks[0] is not block:
        return None
    inits = operands(loop)
    if inits is None:
        return None
    if loop.name == "scf.for" and arg.index >= 1:
        index = arg.index - 1
        inits, yielder = inits[3:], terminator(block, "scf.yield")
    elif loop.name == "scf.while" and loop.regions[0] is region and len(loop.regions) > 1 and loop.regions[1].blocks:
        index = arg.index
        yielder = terminator(loop.regions[1].blocks[-1], "scf.yield")
    elif loop.name == "scf.while" and len(loop.regions) > 1 and loop.regions[1] is region and loop.regions[0].blocks:
        condition = terminator(loop.regions[0].blocks[-1], "scf.condition")  # (cond, forwarded...)
        values = operands(condition) if condition is not None else None
        return None if values is None else values[1 + arg.index : 2 + arg.index]
    else:
        return None
    out = [inits[index]] if index < len(inits) else []
    yielded = operands(yielder) if yielder is not None else None
    if yielded is not None and index < len(yielded):
        out.append(yielded[index])
    return out


def region_result_sources(result: OpResult) -> Optional[List[Value]]:
    """What the regions of ``scf.for`` / ``scf.if`` / ``scf.while`` yield for one of its results."""
    op, index = result.op, result.index
    if op.name in ("scf.for", "scf.if"):
        names = ("scf.yield",)
    elif op.name == "scf.while":
        names = ("scf.condition",)
    else:
        return None
    out: List[Value] = []
    regions = op.regions if op.name != "scf.while" else op.regions[:1]
    for region in regions:
        for block in region.blocks:
            term = block.ops[-1] if block.ops else None
            if term is None or term.name not in names:
                continue
            values = operands(term)
            if values is None:
                return None
            values = values[1:] if term.name == "scf.condition" else values
            if index < len(values):
                out.append(values[index])
    return out


class Derivation:
    """Which *source* each value derives from, following ``edges`` backwards; memoised.

    ``source(v)`` returns what a value itself comes from (e.g. a ``symm_at`` and a note) or None;
    ``edges(v)`` the values ``v`` is derived from.  A query explores only values no earlier
    query settled, and settles every value it explores, so all queries together visit each
    value once (linear in the values of the function).
    """

    def __init__(self, edges: Callable[[Value], List[Value]], source: Callable[[Value], Optional[object]]):
        self._edges, self._source = edges, source
        self._memo: Dict[Value, Optional[object]] = {}

    def __call__(self, value: Value) -> Optional[object]:
        memo = self._memo
        if value in memo:
            return memo[value]
        order: List[Value] = []
        preds: Dict[Value, List[Value]] = {}
        found: Dict[Value, object] = {}
        seen = {value}
        stack = [value]
        while stack:
            v = stack.pop()
            order.append(v)
            src = self._source(v)
            if src is not None:
                found[v] = src
                continue
            preds[v] = self._edges(v)
            for p in preds[v]:
                if p not in seen and p not in memo:
                    seen.add(p)
                    stack.append(p)
        result: Dict[Value, object] = dict(found)
        users: Dict[Value, List[Value]] = {}
        queue = list(found)
        for v in order:
            for p in preds.get(v, ()):
                if p in memo:
                    if memo[p] is not None and v not in result:
                        result[v] = memo[p]
                        queue.append(v)
                else:
                    users.setdefault(p, []).append(v)
        while queue:
            v = queue.pop()
            for u in users.get(v, ()):
                if u not in result:
                    result[u] = result[v]
                    queue.append(u)
        for v in order:
            memo[v] = result.get(v)
        return memo[value]


def follow(value: Optional[Value], memo: dict, step: Callable[[Value], tuple], default=None):
    """Follow a chain of values from ``value``: ``step(v)`` returns ``(next, None)`` to go on to
    ``next`` or ``(None, answer)`` to stop; every value on the chain gets the answer (memoised
    in ``memo``: a later query stops where an earlier one went, so all are linear together;
    a cycle gets ``default``)."""
    chain: List[Value] = []
    answer = default
    while value is not None:
        if value in memo:
            answer = memo[value]
            break
        chain.append(value)
        memo[value] = default  # provisional, for cycles
        value, answer = step(value)
    for v in chain:
        memo[v] = answer
    return answer


def reached(starts: List[Value], edges: Callable[[Value], Optional[List[Value]]]) -> set:
    """Every value reachable backwards from ``starts`` through ``edges`` (one linear search)."""
    seen = set(starts)
    stack = list(starts)
    while stack:
        for p in edges(stack.pop()) or ():
            if p not in seen:
                seen.add(p)
                stack.append(p)
    return seen
