"""Compiling a module for the interpreter (:class:`Compiler`): every SSA value of a function an
integer slot of its frame, every op an instruction (its implementation looked up once by name
in :data:`transpiler.sim.ops.IMPLS`), grouped into the segments :mod:`transpiler.sim.interp`
runs.  Kept apart from the interpreter so that the op implementations, which run regions and
calls through :mod:`~transpiler.sim.interp`, are not imported back by it (issue 30).
"""

from __future__ import annotations

from typing import Dict, List, Tuple

from ..diagnostics import DiagnosticError
from ..ir.attributes import StringAttr
from ..ir.dialect import all_attributes
from .closures import instruction
from .errors import Finding, NotSimulated
from .interp import END, GEN, POINT, TERMINATORS, CompiledBlock, CompiledFunction
from .limits import value_too_big
from .ops import IMPLS, load_all
from .reorder import reorder_targets


def module_functions(module) -> Dict[str, Tuple[object, bool]]:
    """``{name: (op, public)}`` of every ``tt.func`` / ``func.func`` of ``module``, in order;
    public unless its visibility is ``private``.  Read from the properties too, where the
    generic form (``--mlir-print-op-generic``) keeps ``sym_name`` (new-user trial of session 42)."""
    out: Dict[str, Tuple[object, bool]] = {}
    for op in module.walk():
        if op.name in ("tt.func", "func.func"):
            attributes = all_attributes(op)
            sym, vis = attributes.get("sym_name"), attributes.get("sym_visibility")
            if isinstance(sym, StringAttr):
                out[sym.value] = (op, not (isinstance(vis, StringAttr) and vis.value == "private"))
    return out


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
            if op.name == "hivm.hir.get_sub_block_idx":
                self.uses_sub_blocks = True
        self.functions = {name: op for name, (op, _public) in module_functions(module).items()}
        self._slots: Dict[int, int] = {}
        self._keep: list = []
        self._reorder: Dict[int, object] = {}
        self._reorder_waits: set = set()

    def public_functions(self) -> List[str]:
        """Names of the module's public functions (a ``tt.func`` without ``private`` visibility)."""
        return [name for name, (_op, public) in module_functions(self.module).items() if public]

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
            for r in results:
                too_big = value_too_big(r.type)
                if too_big:
                    raise Finding(too_big, op=op)
            static = impl.prepare(op, self) if impl.prepare is not None else op
        except DiagnosticError as e:
            raise NotSimulated(f"cannot be read: {e.diagnostics[0].message}", op=op) from None
        except Finding as f:
            raise f.locate(op, None, None)
        except (ArithmeticError, ValueError, TypeError, IndexError, AttributeError) as e:
            # a constant MLIR would refuse (`dense<[1, 2]> : tensor<4xi32>`) was exit 3 (attack of session 43)
            raise Finding(f"cannot be simulated: {e}", op=op) from None
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
