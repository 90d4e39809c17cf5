"""One walk over a function: the ops the lint rules look at, in program order, with the
``distributed.wait`` that dominates each load (issue 17: "def-use chains and dominance in one
function").

Dominance is that of structured control flow: an op is dominated by the waits that come before
it in its own block or before one of its enclosing ops in theirs.  A wait inside a loop or an
``scf.if`` does not dominate what follows that op, and a wait in one block of a multi-block
region dominates only the rest of that block (stricter than MLIR's dominance, never looser: a
rule that cannot be sure stays silent).  The walk only looks at op names; it parses nothing.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import attrs

from .. import records
from ..ir.core import Operation
from .dataflow import CALL_OPS, RETURN_OPS, attribute, is_function

BARRIER_PREFIXES = ("aclshmem_barrier", "aclshmemx_barrier")
WRITERS = ("tt.store", "tt.elementwise_inline_asm", "distributed.extern_call") + CALL_OPS


def is_load(name: str) -> bool:
    """``tt.load`` and the atomics (rule 1: "a tt.load (or tt.atomic_*)")."""
    return name == "tt.load" or name.startswith("tt.atomic_")


def is_barrier(op: Operation) -> bool:
    """A barrier ``extern_call`` (``aclshmem_barrier*``), or a call that may hold one."""
    if op.name in CALL_OPS:
        return True
    if op.name != "distributed.extern_call":
        return False
    symbol = attribute(op, "symbol")
    text = getattr(symbol, "value", None)
    return not isinstance(text, str) or text.startswith(BARRIER_PREFIXES)


@records.define(eq=False)
class Load:
    """A load or atomic and the latest wait that dominates it with no barrier since (or None)."""

    op: Operation
    wait: Optional[Operation]


@records.define(eq=False)
class FunctionFacts:
    """The ops of one function the rules need, by kind, in program order."""

    func: Operation
    waits: List[Operation] = attrs.Factory(list)
    consumes: List[Operation] = attrs.Factory(list)
    symm_ats: List[Operation] = attrs.Factory(list)
    notifies: List[Operation] = attrs.Factory(list)
    loads: List[Load] = attrs.Factory(list)
    addptrs: List[Operation] = attrs.Factory(list)
    escapes: List[Operation] = attrs.Factory(list)  # calls, returns, extern_calls: a token may leave here
    writers: List[Operation] = attrs.Factory(list)  # stores, atomics, calls, extern_calls, inline asm

    @property
    def entry_arguments(self) -> list:
        """The function's arguments (rule 3's "kernel argument")."""
        region = self.func.regions[0] if self.func.regions else None
        return list(region.blocks[0].arguments) if region is not None and region.blocks else []


def collect(func: Operation) -> FunctionFacts:
    """Walk ``func`` once (no recursion, any depth) and sort out the ops the rules use."""
    facts = FunctionFacts(func)
    index = 0
    wait_index: Dict[int, int] = {}
    last_barrier = -1
    # frames: [ops of a block, next position, the latest wait dominating that position]
    frames: List[list] = []
    _push_regions(frames, func, None)
    loads: List[Tuple[Operation, Optional[Operation], int]] = []
    while frames:
        frame = frames[-1]
        ops, pos, dominating = frame
        if pos == len(ops):
            frames.pop()
            continue
        frame[1] = pos + 1
        op = ops[pos]
        index += 1
        name = op.name
        if name.startswith("distributed."):
            if name == "distributed.wait":
                facts.waits.append(op)
                wait_index[id(op)] = index
                frame[2] = op
            elif name == "distributed.consume_token":
                facts.consumes.append(op)
            elif name == "distributed.symm_at":
                facts.symm_ats.append(op)
            elif name == "distributed.notify":
                facts.notifies.append(op)
            elif name == "distributed.extern_call":
                facts.escapes.append(op)
                facts.writers.append(op)
                if is_barrier(op):
                    last_barrier = index
        elif is_load(name):
            loads.append((op, dominating, last_barrier))
            if name != "tt.load":
                facts.writers.append(op)
        elif name == "tt.addptr":
            facts.addptrs.append(op)
        elif name in CALL_OPS:
            facts.escapes.append(op)
            facts.writers.append(op)
            last_barrier = index
        elif name in RETURN_OPS:
            if _returns_values(func):
                facts.escapes.append(op)
        elif name in WRITERS:
            facts.writers.append(op)
        if op.regions and not is_function(op):
            _push_regions(frames, op, frame[2])
    for op, wait, barrier in loads:
        ordered = wait is not None and barrier < wait_index[id(wait)]
        facts.loads.append(Load(op, wait if ordered else None))
    return facts


def _returns_values(func: Operation) -> bool:
    """False only when the function's type says it returns nothing (then its returns carry no
    token out); True when it returns values or its type cannot be read."""
    from ..ir.types import FunctionType

    signature = getattr(attribute(func, "function_type"), "type", None)
    return not isinstance(signature, FunctionType) or bool(signature.results)


def _push_regions(frames: List[list], op: Operation, dominating: Optional[Operation]) -> None:
    """Queue the blocks of ``op``'s regions so that they are walked in order, before the ops
    that follow ``op``; each starts with the wait that dominates ``op``."""
    for region in reversed(op.regions):
        for block in reversed(region.blocks):
            frames.append([block.ops, 0, dominating])
