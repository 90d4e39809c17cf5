"""Findings of the lint and their MLIR-style warnings (issue 17: ``file:line:col: warning:``
with notes pointing at the other op involved)."""

from __future__ import annotations

from typing import List, Optional, Tuple

import attrs

from .. import records
from ..diagnostics import WARNING, Diagnostic, Note, op_location
from ..ir.core import Operation, Value


@records.define(eq=False)
class Finding:
    """One problem: the rule, the op it is about, the message, and (op, text) notes."""

    rule: str
    op: Operation
    message: str
    notes: List[Tuple[Operation, str]] = attrs.Factory(list)

    def diagnostic(self) -> Diagnostic:
        """``'<op>' op <message> [<rule>]``, located at the op, one note per other op."""
        source, offset = op_location(self.op)
        notes = []
        for op, text in self.notes:
            nsource, noffset = op_location(op)
            notes.append(Note(text, nsource, noffset))
        return Diagnostic(WARNING, f"'{self.op.name}' op {self.message} [{self.rule}]",
                          source, offset, notes)

    @property
    def offset(self) -> int:
        """Where the finding points in its text (to report in source order)."""
        _source, offset = op_location(self.op)
        return offset if offset is not None else -1


def describe(value: Optional[Value]) -> str:
    """How a message names a value: its SSA name when it has one."""
    name = getattr(value, "name", None)
    return name if name else "(unnamed)"
