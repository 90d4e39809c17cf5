"""Integer constants as the lowering reads them (SPEC.md section 3: literals at their type's width).

One helper, :func:`integer_constant`, used by every rule that looks at a constant operand
(the notify signal of section 2.2, a constant operand widened for the device library of
section 5).  It interprets the literal at its type's width, so ``18446744073709551615 : i64``
and ``0xFFFFFFFFFFFFFFFF : i64`` both read as -1, whatever integer the reader stored.
"""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import IntegerAttr
from ..ir.core import OpResult, Value
from ..ir.dialect import all_attributes
from ..ir.types import IntegerType


def at_width(value: int, type_: IntegerType) -> int:
    """``value`` as the ``type_``-wide two's complement integer it denotes (``ui`` types stay
    non-negative; signless and ``si`` types are read as signed, as MLIR prints them)."""
    width = type_.width
    bits = value & ((1 << width) - 1)
    if type_.signedness != "u" and width > 1 and bits >> (width - 1):
        bits -= 1 << width
    return bits


def integer_constant(value: Value) -> Optional[int]:
    """The integer an ``arith.constant`` producing ``value`` holds, at its type's width, or
    None when ``value`` is not such a constant (custom or generic form: the ``value``
    attribute is read through the one attribute accessor, ``all_attributes``)."""
    if not isinstance(value, OpResult) or value.op.name != "arith.constant":
        return None
    attr = all_attributes(value.op).get("value")
    if not isinstance(attr, IntegerAttr) or not isinstance(attr.type, IntegerType):
        return None
    return at_width(attr.value, attr.type)
