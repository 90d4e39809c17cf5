"""Custom print hooks of the ``arith`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.arith`."""

from __future__ import annotations

from ...ir.dialect import all_attributes
from ...ir.dialects.common import print_attr_dict
from ...ir.types import RankedTensorType




def _print_select(op, name_of) -> str:
    cond, value, _ = op.operand_types
    types = f"{cond}, {value}" if isinstance(cond, RankedTensorType) else str(value)
    return " " + ", ".join(map(name_of, op.operands)) + print_attr_dict(all_attributes(op)) + " : " + types
