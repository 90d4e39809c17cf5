"""The operands of a lowered ``distributed.notify`` (SPEC.md section 2.2; seed ``000_...``,
"dl.notify dtype validation").

* i32 signal pointer: ``aclshmemx_signal_op`` with ``[sigAddr, signal as i32, ACLSHMEM sig op,
  rank]``: a constant signal becomes a new i32 constant (error outside the i32 range, never a
  silent truncation), any other one an ``arith.trunci``; the sig op is renumbered SET->0, ADD->1.
* i64 / ui64 signal pointer: ``aclshmem_int64_p`` / ``aclshmem_uint64_p``, operands unchanged.
* any other pointee: ``aclshmem_int64_p`` as the upstream pass names it, with a warning.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..ir.attributes import i32_attr
from ..ir.core import Operation, Value
from ..ir.dialects.distributed import enum_value
from ..ir.types import I32, I64, Type
from . import naming
from .constants import integer_constant
from .rewriter import PatternRewriter

I32_MIN, I32_MAX = -(2**31), 2**31 - 1


def notify_operands(op: Operation, rewriter: PatternRewriter) -> Tuple[str, List[Value], List[Type], Optional[str]]:
    """``(symbol, operands, operand types, warning or None)`` of the custom op for ``op``;
    new constants and casts are inserted before ``op``.

    Raises:
        naming.Unlowerable: unknown sig op, add on a non-i32 signal, a constant signal outside
            the i32 range (SPEC.md 2.2).
    """
    sig, value, rank = op.operands
    sig_type, value_type, rank_type = op.operand_types
    sig_op = enum_value(op, "sigOp")
    symbol = naming.notify_symbol(sig_type, sig_op)
    warning = naming.notify_pointee_warning(sig_type)
    if symbol != "aclshmemx_signal_op":
        return symbol, [sig, value, rank], [sig_type, value_type, rank_type], warning
    constant = integer_constant(value) if value_type == I64 else None
    if constant is not None:
        if not I32_MIN <= constant <= I32_MAX:
            raise naming.Unlowerable(
                f"constant signal {constant} does not fit in the i32 signal of aclshmemx_signal_op "
                f"(range {I32_MIN}..{I32_MAX}); it would be truncated"
            )
        signal = rewriter.create_value_before(op, "arith.constant", [], I32, {"value": i32_attr(constant)},
                                              f"c{constant}_i32")
    else:
        signal = rewriter.create_value_before(op, "arith.trunci", [value], I32, {},
                                              derived_name(value, "i32", "signal_i32"), [I64])
    code = naming.aclshmem_signal_op(sig_op)
    sig_code = rewriter.create_value_before(op, "arith.constant", [], I32, {"value": i32_attr(code)}, f"c{code}_i32")
    return symbol, [sig, signal, sig_code, rank], [sig_type, I32, I32, rank_type], None


def derived_name(value: Value, suffix: str, fallback: str) -> str:
    """A name hint for a value made from ``value``: ``%x`` -> ``x_<suffix>`` (``fallback``
    for numbered values)."""
    base = (value.name or "").lstrip("%").split("#")[0]
    return f"{base}_{suffix}" if base[:1].isalpha() or base[:1] == "_" else fallback
