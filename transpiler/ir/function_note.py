"""The note that names the function holding an op (in a module of many kernels, which one it
is): built on the IR, so it lives here rather than in the diagnostics leaf (issue 30)."""

from __future__ import annotations

from ..diagnostics import Diagnostic, DiagnosticError, Note
from .attributes import StringAttr
from .core import Operation, enclosing_function


def with_function_note(diag: Diagnostic, op: Operation) -> Diagnostic:
    """Add a note pointing at the function that holds ``op`` (in a module of many kernels,
    which one it is), unless ``diag`` already has notes."""
    func = enclosing_function(op)
    if func is not None and func.span is not None and not diag.notes:
        try:
            sym = func.attributes.get("sym_name")
        except DiagnosticError:  # a malformed header: the function's own text is the pointer
            sym = None
        name = f"@{sym.value}" if isinstance(sym, StringAttr) else f"'{func.name}'"
        diag.notes.append(Note(f"in {name}, defined here", func.source, func.span[0]))
    return diag
