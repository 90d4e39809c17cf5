"""Stand-in calls to ops: the last step of the frontend, on the TTIR text Triton printed.

Upstream Triton has no ``distributed`` dialect, so the frontend (:mod:`.stand_in`) makes each
op as a ``tt.call`` of a private, body-less ``tt.func`` whose symbol names the op::

    %tok = tt.call @ttd$distributed.wait$Pi64_i32_i64$i32(%sig, %n, %c1_i64) {scope = 1 : i32, semantic = 2 : i32} : (!tt.ptr<i64>, i32, i64) -> i32 loc(#loc7)
    tt.func private @ttd$distributed.wait$Pi64_i32_i64$i32(!tt.ptr<i64>, i32, i64) -> i32 attributes {noinline = true} loc(#loc2)

``$`` cannot occur in a Python identifier, so no ``@triton.jit`` function has such a name.
:func:`rewrite_stand_ins` replaces each such call by the op it names, with the call's own
operands, result values (names and types), attributes and ``loc`` (SPEC.md section 1 forms:
``notify`` generic with its enums as properties, the others in custom form), and erases the
declarations.  Everything else is copied byte for byte (the faithful emitter).
"""

from __future__ import annotations

from typing import Dict, Iterable, List

from ..diagnostics import DiagnosticEngine, DiagnosticError, op_error
from ..emit.faithful import emit_module
from ..ir.core import Operation
from ..lowering.rewriter import PatternRewriter, RewritePattern, apply_patterns
from ..parser import parse_module

PREFIX = "ttd$"

#: the ops a stand-in may name; ``notify`` keeps its enums as properties (it has no custom form)
OPS = frozenset({"distributed.wait", "distributed.consume_token", "distributed.get_rank",
                 "distributed.get_num_ranks", "distributed.symm_at", "distributed.notify",
                 "distributed.extern_call", "hivm.hir.get_sub_block_idx"})
_AS_PROPERTIES = frozenset({"distributed.notify"})
_CALL_ATTRIBUTES = frozenset({"callee", "arg_attrs", "res_attrs"})  # tt.call's own


def stand_in_symbol(op_name: str, arg_mangles: Iterable[str], result_mangles: Iterable[str]) -> str:
    """The symbol of the stand-in for ``op_name`` with these argument and result types (one
    declaration per function type: ``tt.func`` symbols are unique).

    Raises:
        ValueError: ``op_name`` is not one of :data:`OPS`.
    """
    if op_name not in OPS:
        raise ValueError(f"no stand-in for '{op_name}' (expected one of {', '.join(sorted(OPS))})")
    return f"{PREFIX}{op_name}${'_'.join(arg_mangles)}${'_'.join(result_mangles)}"


def op_of_symbol(symbol: str):
    """The op name a stand-in symbol (``@`` and quotes removed) names, or None if it is not one."""
    if not symbol.startswith(PREFIX):
        return None
    name = symbol[len(PREFIX):].split("$", 1)[0]
    return name if name in OPS else None


def _callee(op: Operation) -> str:
    text = str(op.attributes.get("callee", ""))
    return text[2:-1] if text.startswith('@"') else text[1:]


class _StandInCall(RewritePattern):
    """``tt.call @ttd$<op>$...`` -> ``<op>`` with the call's operands, results, attributes, loc."""

    op_name = "tt.call"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        symbol = _callee(op)
        name = op_of_symbol(symbol)
        if name is None:
            if symbol.startswith(PREFIX):
                raise DiagnosticError([op_error(op, f"calls '{symbol}', a stand-in of no known op")])
            return False
        carried = {k: v for k, v in op.attributes.items() if k not in _CALL_ATTRIBUTES}
        attributes, properties = ({}, carried) if name in _AS_PROPERTIES else (carried, {})
        new = rewriter.create(name, op.operands, list(op.result_types), attributes, properties,
                              operand_types=op.operand_types)
        rewriter.replace_op(op, new)
        return True


def _declarations(ops: Iterable[Operation]) -> List[Operation]:
    """The stand-in ``tt.func`` declarations among the module's ops."""
    found = []
    for op in ops:
        if op.name == "tt.func":
            sym = op.attributes.get("sym_name")
            if sym is not None and op_of_symbol(sym.value) is not None:
                found.append(op)
    return found


def rewrite_stand_ins(text: str, filename: str = "<ttir>") -> str:
    """TTIR with stand-in calls -> TTIR with the ops they stand for (module docstring).

    Args:
        text: a module as Triton's ``ttir`` stage printed it (``module.str()``).
        filename: the name diagnostics give.

    Returns:
        The text with every stand-in call replaced and every stand-in declaration removed.

    Raises:
        DiagnosticError: the text does not parse, or a call names a stand-in of no known op,
            or a stand-in is still referenced after the rewrite.
    """
    module = parse_module(text, filename)
    ops = list(module.walk())
    diagnostics = DiagnosticEngine()
    rewriter = PatternRewriter(module)
    apply_patterns(module, [_StandInCall()], diagnostics, rewriter, ops=ops)
    diagnostics.check()
    for decl in _declarations(ops):
        rewriter.erase_op(decl)
    rewriter.commit()
    return emit_module(module)


def stand_in_ops(text: str) -> Dict[str, int]:
    """How many calls of each stand-in op ``text`` holds (for tests and reports)."""
    counts: Dict[str, int] = {}
    module = parse_module(text, "<ttir>")
    for op in module.walk():
        if op.name == "tt.call":
            name = op_of_symbol(_callee(op))
            if name is not None:
                counts[name] = counts.get(name, 0) + 1
    return counts
