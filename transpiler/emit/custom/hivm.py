"""Custom print hooks of the ``hivm`` dialect (syntax no ODS format declares).

The ops are declared in :mod:`transpiler.ir.dialects.hivm`."""

from __future__ import annotations

from typing import Callable

from ...ir.attributes import format_attr_dict




def print_custom(op, name_of: Callable) -> str:
    """The text after ``hivm.hir.custom`` for an op (print hook)."""
    detail = op.detail()
    operands = op.operands
    n_in = dict(detail.operand_groups).get("inputs", len(operands))
    types = op.operand_types
    parts = [format_attr_dict(op.attributes), str(detail.properties["name"])]
    for keyword, vals, tys in (("ins", operands[:n_in], types[:n_in]), ("outs", operands[n_in:], types[n_in:])):
        if vals:
            parts.append(f"{keyword}({', '.join(map(name_of, vals))} : {', '.join(map(str, tys))})")
    results = op.result_types
    if len(results) == 1:
        parts.append(f"-> {results[0]}")
    elif results:
        parts.append("-> (" + ", ".join(map(str, results)) + ")")
    return " " + " ".join(parts)
