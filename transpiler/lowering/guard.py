"""The guard of a predicated ``distributed.wait`` (SPEC.md section 1, Triton 3.7 line).

No device wrapper takes a predicate, so a wait with ``pred = %p`` lowers to::

    %t = scf.if %p -> (i32) {
      %w = hivm.hir.custom {...} "dist.aclshmem_wait_int32" ins(...) -> i32
      scf.yield %w : i32
    } else {
      %c0_i32 = arith.constant 0 : i32
      scf.yield %c0_i32 : i32
    }

The token only orders memory accesses (``consume_token`` returns its input), so 0 on the
skipped path is safe.
"""

from __future__ import annotations

from typing import List

from ..ir.attributes import IntegerAttr
from ..ir.core import Block, Operation, Region, Value
from .notify import derived_name
from .rewriter import PatternRewriter


def _region(ops: List[Operation]) -> Region:
    block = Block()
    block.arguments = []
    for op in ops:
        block.insert(len(block.ops), op)
    region = Region(blocks=[block])
    block.parent = region
    return region


def guard_with_predicate(op: Operation, rewriter: PatternRewriter, pred: Value, custom: Operation) -> Operation:
    """Replace ``op`` (a wait with one token result) by ``scf.if %pred`` around ``custom``, the
    wait's custom op (created without a place, its result not yet named); returns the ``scf.if``."""
    token_type = op.result_types[0]
    hint = derived_name(op.results[0], "wait", "wait") if op.results else "wait"  # the token may be unbound
    custom.results[0].name = rewriter.namer.fresh(op, hint)
    zero = rewriter.create("arith.constant", [], [token_type], {"value": IntegerAttr(0, token_type)},
                           name_hints=[f"c0_{token_type}"])
    then_region = _region([custom, rewriter.create("scf.yield", [custom.results[0]], [])])
    else_region = _region([zero, rewriter.create("scf.yield", [zero.results[0]], [])])
    guard = rewriter.create("scf.if", [pred], [token_type], regions=[then_region, else_region])
    return rewriter.replace_op(op, guard)
