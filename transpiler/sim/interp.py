"""The interpreter: a module compiled once into per-block instruction lists, run as generators.

Compiling (:class:`Compiler`, once per module and function) gives every SSA value of a function
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

from typing import Dict, List, Optional

import numpy as np

from ..diagnostics import DiagnosticError
from ..ir.attributes import StringAttr
from .closures import instruction
from .errors import Finding, NotSimulated, StepLimit
from .ops import IMPLS, load_all
from .reorder import reorder_targets

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


class Compiler:
    """Compiles the functions of one parsed module on demand (``function(name)``).

    ``library`` is the device library (:class:`transpiler.sim.library.DeviceLibrary`) that
    ``hivm.hir.custom`` ops and ``extern_call`` ops resolve their symbols in.
    """

    def __init__(self, module, library):
        load_all()
        self.module = module
        self.library = library
        self.functions: Dict[str, object] = {}
        self._compiled: Dict[str, CompiledFunction] = {}
        self.ops: List[object] = []  # op id -> op (for the writer of a value)
        self.uses_sub_blocks = False
        for op in module.walk():
            if op.name in ("tt.func", "func.func"):
                sym = op.attributes.get("sym_name")
                if isinstance(sym, StringAttr):
                    self.functions[sym.value] = op
            elif op.name == "hivm.hir.get_sub_block_idx":
                self.uses_sub_blocks = True
        self._slots: Dict[int, int] = {}
        self._keep: list = []
        self._reorder: Dict[int, object] = {}
        self._reorder_waits: set = set()

    def public_functions(self) -> List[str]:
        """Names of the module's public functions (a ``tt.func`` without ``private`` visibility)."""
        out = []
        for name, op in self.functions.items():
            vis = op.attributes.get("sym_visibility")
            if not (isinstance(vis, StringAttr) and vis.value == "private"):
                out.append(name)
        return out

    def function(self, name: str) -> CompiledFunction:
        """The compiled function ``name`` (compiled on first use).

        Raises:
            KeyError: no such function.
            NotSimulated: it holds an op the simulator does not implement.
        """
        done = self._compiled.get(name)
        if done is not None:
            return done
        op = self.functions[name]
        cf = CompiledFunction(op, name)
        self._compiled[name] = cf  # before the body: recursive calls find it
        saved, self._slots, self._keep = (self._slots, self._keep), {}, []
        try:
            cf.body = self.region(op.regions[0])
            cf.nslots = len(self._slots)
        finally:
            self._slots, self._keep = saved
        return cf

    # ---- slots --------------------------------------------------------------------------------
    def slot(self, value) -> int:
        """The frame slot of ``value`` (given on first sight)."""
        key = id(value)
        s = self._slots.get(key)
        if s is None:
            s = self._slots[key] = len(self._slots)
            self._keep.append(value)
        return s

    # ---- regions ------------------------------------------------------------------------------
    def region(self, region) -> List[CompiledBlock]:
        """The compiled blocks of ``region`` (successors resolved to block indices)."""
        index = {id(b): i for i, b in enumerate(region.blocks)}
        labels = {}
        for i, b in enumerate(region.blocks):
            if b.label:
                labels[b.label.split("(")[0].split(":")[0].strip()] = i
        return [self.block(b, index, labels) for b in region.blocks]

    def block(self, block, index, labels) -> CompiledBlock:
        cb = CompiledBlock()
        cb.arg_slots = [self.slot(a) for a in block.arguments]
        ops = block.ops
        term = ops[-1] if ops and ops[-1].name in TERMINATORS else None
        body = ops[:-1] if term is not None else ops
        targets = reorder_targets(body)
        self._reorder.update(targets)
        self._reorder_waits.update(id(w) for w in targets.values())
        plain: list = []
        for op in body:
            kind, x = self.instruction(op)
            cb.ops.append(op)
            if kind == END:
                plain.append(x)
            else:
                cb.segments.append((tuple(plain), kind, x))
                plain = []
        if plain:
            cb.segments.append((tuple(plain), END, None))
        cb.n = len(cb.ops) + 1
        if term is not None:
            cb.term_op = term
            self.terminator(cb, term, labels)
        return cb

    def terminator(self, cb: CompiledBlock, term, labels) -> None:
        operands = [self.slot(v) for v in term.operands]
        if term.name in ("cf.br", "cf.cond_br"):
            succ = term.detail().successors
            groups = dict(term.detail().operand_groups) if term.detail().operand_groups else {}
            if term.name == "cf.br":
                cb.targets = [(labels[succ[0]], operands)]
            else:
                n_true = groups.get("trueDestOperands", len(operands) - 1)
                cb.cond_slot = operands[0]
                cb.targets = [(labels[succ[0]], operands[1 : 1 + n_true]), (labels[succ[1]], operands[1 + n_true :])]
        else:
            cb.term_slots = operands

    def instruction(self, op) -> tuple:
        """``(kind, x)``: ``(END, closure)`` for a plain op, ``(POINT, closure)`` for a memory
        access, ``(GEN, (fn, st, ins, outs))`` for a generator op."""
        impl = IMPLS.get(op.name)
        if impl is None:
            raise NotSimulated(f"is not simulated (no implementation of '{op.name}')", op=op)
        try:
            operands = op.operands
            ins = tuple(self.slot(v) for v in operands)
            results = op.results
            static = impl.prepare(op, self) if impl.prepare is not None else op
        except DiagnosticError as e:
            raise NotSimulated(f"cannot be read: {e.diagnostics[0].message}", op=op) from None
        except Finding as f:
            raise f.locate(op, None, None)
        outs = None if not results else (self.slot(results[0]) if len(results) == 1 else
                                         tuple(self.slot(r) for r in results))
        self.ops.append(op)
        if impl.gen:
            return GEN, (impl.fn, static, ins, outs)
        return (POINT if impl.point else END), instruction(impl, static, ins, outs)

    def snapshots_at(self, op) -> bool:
        """Whether some load may be reordered above the wait ``op`` (it then snapshots memory)."""
        return id(op) in self._reorder_waits

    def reorder_wait(self, op):
        """The wait op before which the load ``op`` may read (None: never reordered)."""
        return self._reorder.get(id(op))


def run_block(p, cb: CompiledBlock, frame: list):
    """Run one block's ops on ``frame``; returns ``(next block index or RETURN, values)``.
    Counts the block's ops first and raises :class:`StepLimit` past ``--max-ops`` (SPEC.md
    section 7: every op wherever it runs, so a ``cf`` back-edge loop stops)."""
    machine = p.run
    machine.ops += cb.n
    if machine.ops > machine.max_ops:
        at = cb.term_op if cb.term_op is not None else (cb.ops[0] if cb.ops else None)
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
    except (ArithmeticError, ValueError, TypeError, IndexError) as e:
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
