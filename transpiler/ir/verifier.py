"""Op verification: an op's declared rules plus MLIR's operand-type consistency.

Only ops whose declarations carry a verifier are checked (the distributed ops, SPEC.md
section 1); verifying every op of a large module would mean parsing all of it, which the tool
does not need (everything else passes through and is verified downstream).
"""

from __future__ import annotations

from typing import Iterable, List

from ..diagnostics import Diagnostic, DiagnosticError, op_error
from .core import Operation
from .dialect import known_type, lookup


def verify_op(op: Operation) -> List[Diagnostic]:
    """Diagnostics for ``op`` (empty when it is valid).  Parse errors are returned, not raised."""
    opdef = lookup(op.name)
    if opdef is None or opdef.verify is None:
        return []
    try:
        detail = op.detail()
        diags = []
        offsets = detail.operand_offsets
        for i, (value, hint) in enumerate(zip(op.operands, detail.operand_type_hints)):
            actual = known_type(value)
            if hint is not None and actual is not None and actual != hint:
                diag = op_error(op, f"use of value '{value.name}' expects different type than prior uses: "
                                    f"'{hint}' vs '{actual}'")
                if i < len(offsets) and offsets[i] is not None:
                    diag.offset = offsets[i]  # point at the operand, as MLIR does
                diags.append(diag)
        diags += [op_error(op, message) for message in opdef.verify(op)]
        return diags
    except DiagnosticError as e:
        return e.diagnostics


def verify_ops(ops: Iterable[Operation]) -> List[Diagnostic]:
    """All diagnostics of ``ops``, in order."""
    out: List[Diagnostic] = []
    for op in ops:
        out.extend(verify_op(op))
    return out
