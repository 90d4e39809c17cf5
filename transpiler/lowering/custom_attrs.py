"""The attribute dictionary of every ``hivm.hir.custom`` (SPEC.md section 2.4).

Pure functions: :func:`custom_attributes` assembles the dictionary, :func:`gm_addr_args_indices`
computes item 8 from the final operands, :func:`is_memory_effect_free` decides item 7.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, Mapping, Optional, Sequence, Tuple

from ..ir.attributes import UNIT, Attribute, DenseI32ArrayAttr, OpaqueAttr, StringAttr
from ..ir.core import BlockArgument, Operation, Value
from ..ir.types import PointerType
from .core_type import ANNOTATION
from .naming import Unlowerable

EXTERN_CALL = "distributed.extern_call"
PIPE_S = OpaqueAttr("#hivm.pipe<PIPE_S>")  # the pipe map is declared but empty: scalar pipe
# What the lowering decides (items 2-9): a source op's own value of these is dropped, never
# copied (a hand-written `no_side_effect` on a wait would let canonicalize delete the wait).
COMPUTED = frozenset({"hivm.is_distributed", "hivm.pipe", "hivm.vf_mode", "hivm.tcore_type", "symbol",
                      "gm_addr_args_indices", "no_side_effect", "SrcPtrIndex"})
VF_SIMD = OpaqueAttr("#hivm.vf_mode<SIMD>")
# Names hivm.hir.custom uses for itself (HIVMOps.td: the `name` string, AttrSizedOperandSegments):
# a source op's own value of these cannot be carried (SPEC.md section 2.4 item 1).
RESERVED = ("name", "operandSegmentSizes", "operand_segment_sizes", "resultSegmentSizes")


def check_reserved_attributes(op: Operation) -> None:
    """Refuse an attribute or property of ``op`` that ``hivm.hir.custom`` uses itself, or that
    the lowering computes (:data:`COMPUTED`, SPEC.md section 2.4 items 2-9; an extern_call's own
    ``symbol`` is its input, item 6): a hand-written ``hivm.pipe`` or ``gm_addr_args_indices``
    was replaced without a word (attack of session 42), and a ``no_side_effect`` on a wait is
    worse than wrong.

    None of the distributed ops has operand segments, so a segment-size attribute on one was
    written by hand; ``all_attributes`` hides ``operandSegmentSizes``, so the op's own
    dictionaries are read here.

    Raises:
        Unlowerable: naming the attribute and why it cannot be copied.
    """
    detail = op.detail()
    properties, attributes = detail.properties, detail.attributes
    for name in RESERVED:
        if name in properties or name in attributes:
            what = ("its own name string (\"dist.<symbol>\")" if name == "name"
                    else "its own operand segment sizes (ins, outs)")
            raise Unlowerable(f"has an attribute '{name}', which cannot be copied onto hivm.hir.custom: that op uses "
                              f"'{name}' for {what}; rename or drop it")
    for name in sorted(COMPUTED):
        if (name in properties or name in attributes) and not (name == "symbol" and op.name == EXTERN_CALL):
            raise Unlowerable(f"has an attribute '{name}', which the lowering sets itself on hivm.hir.custom "
                              f"(SPEC.md section 2.4); drop it")


def tcore_type_attr(core_type: str) -> Attribute:
    return OpaqueAttr(f"#hivm.tcore_type<{core_type}>")


def is_memory_effect_free(effects: FrozenSet[str]) -> bool:
    """``no_side_effect`` only for ops without memory effects (consume_token, get_rank,
    get_num_ranks, pure extern_call); never on wait, notify, symm_at or impure calls."""
    return not effects


def gm_addr_args_indices(operands: Sequence[Value], function: Optional[Operation]) -> Tuple[int, ...]:
    """Positions of operands that are a scalar ``!tt.ptr`` and an argument of the entry block
    of ``function`` (the enclosing ``tt.func``).  Tensors of pointers, ``tt.addptr`` results,
    loop-carried values and results of other ops do not count (SPEC.md section 2.4 item 8)."""
    if function is None or not function.regions or not function.regions[0].blocks:
        return ()
    entry = function.regions[0].blocks[0]
    return tuple(
        i
        for i, v in enumerate(operands)
        if isinstance(v, BlockArgument) and v.block is entry and isinstance(v.type, PointerType)
    )


def custom_attributes(
    source_attributes: Mapping[str, Attribute],
    symbol: str,
    core_type: str,
    no_side_effect: bool,
    gm_indices: Iterable[int],
    src_ptr_index: bool = False,
) -> Dict[str, Attribute]:
    """The complete attribute dictionary of a custom op (printing sorts it).

    Args:
        source_attributes: the source op's attributes and properties (enums as ``N : i32``);
            ``distributed.core_type`` and the names the lowering computes are left out.
        symbol: the bare device-library symbol.
        core_type: CUBE, VECTOR or CUBE_AND_VECTOR.
        no_side_effect: add the ``no_side_effect`` unit attribute.
        gm_indices: ``gm_addr_args_indices`` values.
        src_ptr_index: add ``SrcPtrIndex = array<i32: 0>`` (tensor consume_token).
    """
    out: Dict[str, Attribute] = {k: v for k, v in source_attributes.items() if k != ANNOTATION and k not in COMPUTED}
    out["hivm.is_distributed"] = UNIT
    out["hivm.pipe"] = PIPE_S
    out["hivm.vf_mode"] = VF_SIMD
    out["hivm.tcore_type"] = tcore_type_attr(core_type)
    out["symbol"] = StringAttr(symbol)
    out["gm_addr_args_indices"] = DenseI32ArrayAttr(tuple(gm_indices))
    if no_side_effect:
        out["no_side_effect"] = UNIT
    if src_ptr_index:
        out["SrcPtrIndex"] = DenseI32ArrayAttr((0,))
    return out
