"""The interpreter: a module compiled once into per-block instruction lists, run as generators.

Compiling (:class:`transpiler.sim.compiler.Compiler`, once per module and function) gives every SSA value of a function
an integer slot of the function's frame (a list) and turns each op into an instruction: its
implementation looked up once by name in :data:`transpiler.sim.ops.IMPLS`, with its operands'
slots, its result slots and what its ``prepare`` made bound in.  A block's instructions are
grouped into *segments*: a run of plain ops (closures ``run(p, frame)``, made by
:mod:`transpiler.sim.closures`, run in a tight loop) ended by one op that is a point where another
program may run: a memory access (``point``: the block yields once, then runs its closure) or a
generator op (waits, notify, RMA, regions, calls: ``yield from``).
An op without an implementation is a :class:`~transpiler.sim.errors.NotSimulated` error naming
it, raised when its function is compiled (before anything runs).

Running (:func:`run_region`, :func:`run_block`) is a generator: ops with regions and ops that
touch global memory yield, so a whole program, however deeply nested, is one generator that the
scheduler advances (SPEC.md section 7, "Schedules": it yields at exactly the points listed there).
Each op is applied to whole numpy arrays: the Python cost is per op, not per element.
"""

from __future__ import annotations

from typing import List, Optional

import numpy as np

from .errors import Finding, StepLimit

TERMINATORS = frozenset({"scf.yield", "tt.return", "tt.reduce.return", "tt.scan.return", "scf.condition",
                         "cf.br", "cf.cond_br", "func.return", "return"})
RETURN = -1
POINT, GEN, END = 0, 1, 2  # how a segment ends: a memory access, a generator op, the block's end


class CompiledBlock:
    """``segments`` ``[(plain closures, kind, last)]`` (``last``: the closure of a ``POINT`` op,
    ``(fn, st, ins, outs)`` of a ``GEN`` op, None at ``END``), ``ops`` (the body's ops in order,
    for locating findings), ``arg_slots``, and the terminator: ``term_slots`` (values it passes
    on) and, for branches, ``targets`` ``[(block index, slots)]`` and ``cond_slot``."""

    __slots__ = ("segments", "ops", "arg_slots", "term_slots", "targets", "cond_slot", "n", "term_op")

    def __init__(self):
        self.segments: list = []
        self.ops: list = []
        self.arg_slots: List[int] = []
        self.term_slots: List[int] = []
        self.targets: Optional[list] = None
        self.cond_slot: Optional[int] = None
        self.n = 0
        self.term_op = None


class CompiledFunction:
    """A ``tt.func``: its body, frame size, name and argument names/types."""

    def __init__(self, op, name: str):
        self.op = op
        self.name = name
        self.body: List[CompiledBlock] = []
        self.nslots = 0
        entry = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        self.arguments = list(entry.arguments) if entry is not None else []


def run_block(p, cb: CompiledBlock, frame: list):
    """Run one block's ops on ``frame``; returns ``(next block index or RETURN, values)``.
    Counts the block's ops first and raises :class:`StepLimit` past ``--max-ops`` (SPEC.md
    section 7: every op wherever it runs, so a ``cf`` back-edge loop stops)."""
    machine = p.run
    machine.ops += cb.n
    if machine.ops > machine.max_ops:
        # the op that is number max_ops + 1 (the block's ops, then its terminator), not the
        # terminator whatever the op (new-user trial of session 42)
        crossing = machine.max_ops - (machine.ops - cb.n)
        at = cb.ops[crossing] if crossing < len(cb.ops) else cb.term_op
        raise StepLimit(f"more than {machine.max_ops} ops executed (--max-ops)", op=at, rank=p.rank, program=p.program)
    k = 0  # index of the op running (in cb.ops)
    try:
        for plain, kind, last in cb.segments:
            for run in plain:
                run(p, frame)
                k += 1
            if kind == POINT:
                yield
                last(p, frame)
            elif kind == GEN:
                fn, st, ins, outs = last
                r = yield from fn(p, st, [frame[i] for i in ins], frame)
                if outs is not None:
                    if outs.__class__ is int:
                        frame[outs] = r
                    else:
                        for o, v in zip(outs, r):
                            frame[o] = v
            k += 1
    except Finding as f:
        raise f.locate(cb.ops[k], p.rank, p.program)
    except (ArithmeticError, ValueError, TypeError, IndexError, AttributeError) as e:
        # AttributeError too: a pass-through op of the wrong operand types (`tt.store %n, %n`
        # with an integer for the pointer) was exit 3 (attack of session 43)
        raise Finding(f"failed: {type(e).__name__}: {e}", op=cb.ops[k], rank=p.rank, program=p.program) from None
    if cb.targets is None:
        return RETURN, [frame[i] for i in cb.term_slots]
    if cb.cond_slot is None:
        target, slots = cb.targets[0]
    else:
        c = frame[cb.cond_slot]
        if np.ndim(c):
            raise Finding("branches on a tensor condition", op=cb.term_op, rank=p.rank, program=p.program)
        target, slots = cb.targets[0] if bool(c) else cb.targets[1]
    return target, [frame[i] for i in slots]


def run_region(p, blocks: List[CompiledBlock], frame: list, args):
    """Run a region from its entry block with ``args``; returns the values its terminator gives."""
    cb = blocks[0]
    while True:
        for s, v in zip(cb.arg_slots, args):
            frame[s] = v
        target, args = yield from run_block(p, cb, frame)
        if target == RETURN:
            return args
        cb = blocks[target]


def call_function(p, cf: CompiledFunction, args):
    """Run function ``cf`` on ``args`` in a fresh frame; returns its results."""
    frame = [None] * cf.nslots
    return (yield from run_region(p, cf.body, frame, args))
