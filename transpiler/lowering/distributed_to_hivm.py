"""The ``convert-triton-distributed-to-hivm`` pass (SPEC.md section 2; seed ``000_...``).

Each ``distributed.*`` op becomes one ``hivm.hir.custom`` op naming a device-library symbol:

1. the module is scanned for ``tt.dot`` / ``tt.dot_scaled`` (``existDot``, section 2);
2. each distributed op is verified (section 1), named (2.1, 2.2), given a core type (2.3) and
   the attribute dictionary of 2.4, tensor results get ``tensor.empty`` destinations (2.5),
   its operands are matched with the selected device library's C signature and widened where
   it takes a wider integer (section 5, :mod:`.abi`), and the custom op takes the source op's
   place and result values; a wait with a predicate takes it inside an ``scf.if`` (section 1,
   :mod:`.guard`).  A notify on a pointer to neither i32 nor i64 adds a warning (2.2).

Problems are reported as located diagnostics; the op is then left alone and the pass goes on,
so that one run reports every error of the module.
"""

from __future__ import annotations

from typing import List, Optional

from .. import records
from ..diagnostics import WARNING, Diagnostic, DiagnosticEngine, DiagnosticError, op_error, op_location
from ..ir.function_note import with_function_note
from ..ir.attributes import UNIT, IntegerAttr, StringAttr
from ..ir.core import Module, Operation, Value, enclosing_function
from ..ir.dialect import all_attributes, lookup
from ..ir.dialects.distributed import OPS
from ..ir.types import I32, IntegerType, RankedTensorType
from ..ir.verifier import verify_op
from . import core_type as ct
from .abi import AbiMismatch, match_operands
from .constants import integer_constant
from . import naming
from .custom_attrs import check_reserved_attributes, custom_attributes, gm_addr_args_indices, is_memory_effect_free
from .guard import guard_with_predicate
from .link_check import SymbolLibrary
from .notify import derived_name, notify_operands
from .rewriter import PatternRewriter, RewritePattern, apply_patterns

CUSTOM_OP = "hivm.hir.custom"
DISTRIBUTED_OPS = tuple(d.name for d in OPS)
DISTRIBUTED_OP_NAMES = frozenset(DISTRIBUTED_OPS)  # for membership tests, op by op


@records.define
class LoweringOptions:
    """``core_type_fallback``: infer an unannotated extern_call's core type from its symbol
    (CLI ``--core-type-fallback=symbol-table``, SPEC.md section 2.3).  ``library``: the device
    library the operands are matched against (SPEC.md section 5: wider integer parameters get
    an extension, other mismatches are errors); None (``--no-link-check``) passes the operands
    as they are."""

    core_type_fallback: bool = False
    library: Optional[SymbolLibrary] = None


class LowerDistributedOp(RewritePattern):
    """One pattern per distributed op name; see the module docstring for the steps."""

    def __init__(self, op_name: str, has_dot: bool, options: LoweringOptions):
        self.op_name = op_name
        self.has_dot = has_dot
        self.options = options

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        try:
            self._rewrite(op, rewriter)
        except DiagnosticError as e:
            raise DiagnosticError([with_function_note(d, op) for d in e.diagnostics]) from None
        return True

    def _rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        diags = [] if op.verified else verify_op(op)  # the ttir stage verified it
        if diags:
            raise DiagnosticError(diags)
        try:
            check_reserved_attributes(op)
            warning = None
            if op.name == "distributed.notify":
                symbol, ins, in_types, warning = notify_operands(op, rewriter)
            else:
                symbol = _symbol(op)
                keep = op.name not in ("distributed.get_rank", "distributed.get_num_ranks")  # axis dropped
                ins = list(op.operands) if keep else []
                in_types = list(op.operand_types) if keep else []
            pred = None
            if op.name == "distributed.wait" and len(ins) == 4:  # wait ... pred = %p: a guard (SPEC.md 1)
                pred, _ = ins.pop(), in_types.pop()
            core = self._core_type(op, symbol)
            unknown = [v.name for v, t in zip(ins, in_types) if t is None]
            if unknown:
                raise naming.Unlowerable(f"the type of {', '.join(unknown)} is not known")
            _check_wrapper_abi(op)
            for t in op.result_types:
                _check_result_type(t)
            _check_result_order(op.result_types)
            widths = self._abi_widths(symbol, in_types, op.result_types)
        except (naming.Unlowerable, ct.CoreTypeError, AbiMismatch) as e:
            raise DiagnosticError([op_error(op, _describe(e, op))]) from None
        if warning is not None:
            source, offset = op_location(op)
            rewriter.module.warnings.append(Diagnostic(WARNING, f"'{op.name}' op {warning}", source, offset))
        ins, in_types = _extend(op, rewriter, ins, in_types, widths)
        custom, mark = _build_custom(op, rewriter, symbol, ins, in_types, core)
        if pred is not None:
            guard_with_predicate(op, rewriter, pred, custom)
            return
        rewriter.replace_op(op, custom)
        if mark:
            rewriter.insert_after(custom, rewriter.create("annotation.mark", [custom.results[0]], [],
                                                          {"ContinuousMemAccess": UNIT},
                                                          operand_types=[op.result_types[0]]))

    def _abi_widths(self, symbol: str, in_types, result_types) -> List[Optional[int]]:
        """Per operand, the wider integer width the selected library's parameter takes (or None);
        a symbol the library lacks is left to the link check."""
        library = self.options.library
        if library is None or symbol not in library:
            return [None] * len(in_types)
        return match_operands(symbol, library.name, library.signature(symbol), in_types, result_types)

    def _core_type(self, op: Operation, symbol: str) -> str:
        if op.name != "distributed.extern_call":
            return ct.inferred(self.has_dot)
        annotation = all_attributes(op).get(ct.ANNOTATION)
        if annotation is not None and not isinstance(annotation, StringAttr):
            raise ct.CoreTypeError(f"'{ct.ANNOTATION}' of extern_call '{symbol}' must be a string, found {annotation}")
        text = annotation.value if annotation is not None else None
        return ct.extern_call_core_type(text, symbol, self.has_dot, self.options.core_type_fallback)


def _describe(e: Exception, op: Operation) -> str:
    message = str(e)
    t = getattr(e, "type", None)
    if t is not None:
        full = [x for x in op.operand_types if x is not None and x != t and str(t) in str(x)]
        if full:
            message += f", in operand type {full[0]}"
    return message


def _extend(op: Operation, rewriter: PatternRewriter, ins: List[Value], in_types: List, widths):
    """Widen the operands whose library parameter is a wider integer (SPEC.md section 5): a
    constant becomes a new constant of the wide type, anything else an ``arith.extsi``."""
    ins, in_types = list(ins), list(in_types)
    for i, width in enumerate(widths):
        if width is None:
            continue
        wide, value = IntegerType(width), ins[i]
        constant = integer_constant(value)
        if constant is not None:
            ins[i] = _insert(rewriter, op, "arith.constant", [], wide, {"value": IntegerAttr(constant, wide)},
                             f"c{constant}_{wide}")
        else:
            ins[i] = _insert(rewriter, op, "arith.extsi", [value], wide, {}, derived_name(value, str(wide), "ext"),
                             [in_types[i]])
        in_types[i] = wide
    return ins, in_types


def _check_wrapper_abi(op: Operation) -> None:
    """The wait and consume_token wrappers of every library pass the token as a 32-bit int
    (SPEC.md section 1: "the device wrapper returns int"): another width would not match the
    function the symbol names.  (numBarriers is compared with the selected library's signature.)"""
    if op.name == "distributed.wait":
        checks = [("the token", op.result_types[0])]
    elif op.name == "distributed.consume_token":
        checks = [("the token", op.operand_types[1])]
    else:
        return
    for what, t in checks:
        if t != I32:
            raise naming.Unlowerable(f"{what} is {t}, but the device wrapper takes a 32-bit int: it must be i32")


def _check_result_type(t) -> None:
    """A tensor result needs a static shape: its destination is a ``tensor.empty`` without sizes."""
    if isinstance(t, RankedTensorType) and any(d is None for d in t.shape):
        raise naming.Unlowerable(f"result type {t} has dynamic dimensions: its tensor.empty destination needs "
                                 f"static ones")
    if str(t).startswith(("tensor<*", "tensor<?")) and not isinstance(t, RankedTensorType):
        raise naming.Unlowerable(f"result type {t} is an unranked tensor: it has no tensor.empty destination")


def _check_result_order(result_types) -> None:
    """The tensor results come first: ``hivm.hir.custom`` ties ``outs[i]`` to result ``i``
    (destination-passing style; bishengir-opt's verifier wants as many tensor results as
    ``outs`` tensors, each of its destination's type), and its results keep the source op's
    order (SPEC.md section 2.5), whose uses (``%r#0``) pass through as written."""
    scalar = next((i for i, t in enumerate(result_types) if not isinstance(t, RankedTensorType)), None)
    if scalar is None:
        return
    for i in range(scalar + 1, len(result_types)):
        if isinstance(result_types[i], RankedTensorType):
            raise naming.Unlowerable(
                f"result #{i} ({result_types[i]}) follows the non-tensor result #{scalar} ({result_types[scalar]}): "
                f"hivm.hir.custom ties its i-th outs destination to its i-th result, so its tensor results "
                f"must come first; put the tensor results of the extern_call before the others")


def _symbol(op: Operation) -> str:
    extern = all_attributes(op).get("symbol")
    return naming.symbol_for(op.name, op.operand_types, extern.value if isinstance(extern, StringAttr) else None)


def _insert(rewriter: PatternRewriter, before: Operation, name: str, operands, result_type, attributes, hint,
            operand_types=None) -> Value:
    return rewriter.create_value_before(before, name, operands, result_type, attributes, hint, operand_types)


def _build_custom(op: Operation, rewriter: PatternRewriter, symbol: str, ins: List[Value], in_types: List, core: str):
    """The custom op for ``op`` (not placed yet) and whether an ``annotation.mark`` follows it
    (tensor consume_token); ``tensor.empty`` destinations are inserted before ``op``."""
    result_types = list(op.result_types)
    outs: List[Value] = []
    out_types = [t for t in result_types if isinstance(t, RankedTensorType)]
    for t in out_types:
        outs.append(_insert(rewriter, op, "tensor.empty", [], t, {}, "empty"))
    tensor_token = op.name == "distributed.consume_token" and bool(outs)
    source_attributes = all_attributes(op)
    attributes = custom_attributes(
        source_attributes,
        symbol,
        core,
        no_side_effect=is_memory_effect_free(lookup(op.name).memory_effects(op)),
        gm_indices=gm_addr_args_indices(ins + outs, enclosing_function(op)),
        src_ptr_index=tensor_token,
    )
    custom = rewriter.create(CUSTOM_OP, ins + outs, result_types, attributes,
                             properties={"name": StringAttr(naming.custom_op_name(symbol))},
                             operand_types=list(in_types) + out_types)
    custom.detail().operand_groups = [("inputs", len(ins)), ("outputs", len(outs))]
    return custom, tensor_token


def lower_distributed_to_hivm(module: Module, options: Optional[LoweringOptions] = None,
                              diagnostics: Optional[DiagnosticEngine] = None) -> int:
    """Run the pass on ``module`` in place; returns the number of ops lowered.

    Raises:
        DiagnosticError: with every problem found (unsupported types, missing core types,
            signals that do not fit, malformed distributed ops ...).
    """
    options = options or LoweringOptions()
    engine = diagnostics or DiagnosticEngine()
    ops = list(module.walk())  # one walk for the three questions
    for op in ops:
        if op.name.startswith("distributed.") and op.name not in DISTRIBUTED_OP_NAMES:
            engine.emit(op_error(op, "is not an op of the distributed dialect, so it cannot be lowered (known: "
                                     + ", ".join(n.split(".", 1)[1] for n in DISTRIBUTED_OPS) + ")"))
    has_dot = ct.exist_dot(op.name for op in ops)
    patterns = [LowerDistributedOp(name, has_dot, options) for name in DISTRIBUTED_OPS]
    count = apply_patterns(module, patterns, engine, ops=ops)
    engine.check()
    return count
