"""One diagnostic model for the parser, verifier, lowering and link check.

A :class:`Diagnostic` renders as MLIR does::

    kernel.ttir:12:13: error: 'distributed.symm_at' op unsupported pointee type f64 ...
        %far = distributed.symm_at %src, %me, : !tt.ptr<f64>
               ^
    kernel.ttir:2:3: note: in the function defined here

Passes report through a :class:`DiagnosticEngine` (which keeps going, up to a limit, so that
several errors are reported in one run); a stage that cannot continue raises
:class:`DiagnosticError` carrying everything collected.  Colour (rich) is used only when the
stream is a terminal.
"""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING, List, Optional, Tuple

import attrs

from . import records
if TYPE_CHECKING:  # pragma: no cover (annotations only: this module is a leaf the IR uses)
    from .ir.core import Operation
    from .ir.source import Source

ERROR = "error"
WARNING = "warning"
NOTE = "note"
REMARK = "remark"


@records.define(eq=False)
class Note:
    """An extra located message attached to a diagnostic (MLIR's ``note:``)."""

    message: str
    source: Optional[Source] = None
    offset: Optional[int] = None


@records.define(eq=False)
class Diagnostic:
    """``severity`` (error/warning/remark), a message and where it points.

    ``offset`` is a character offset in ``source``; both may be None for diagnostics that are
    not about a place in the input (they then print the file name alone).
    """

    severity: str
    message: str
    source: Optional[Source] = None
    offset: Optional[int] = None
    notes: List[Note] = attrs.Factory(list)

    @property
    def line_col(self) -> Optional[Tuple[int, int]]:
        if self.source is None or self.offset is None:
            return None
        return self.source.line_col(self.offset)

    def location_text(self) -> str:
        return _where(self.source, self.offset)

    def render(self, color: bool = False, tool: str = "ttd-lower") -> str:
        """The MLIR-style text: ``file:line:col: severity: message``, source line, caret, notes;
        ``tool`` (the command's name) stands where a diagnostic has no place in a file."""
        lines = [_headline(self.source, self.offset, self.severity, self.message, color, tool)]
        lines.extend(_snippet(self.source, self.offset, color))
        for note in self.notes:
            lines.append(_headline(note.source, note.offset, NOTE, note.message, color, tool))
            lines.extend(_snippet(note.source, note.offset, color))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class DiagnosticError(Exception):
    """Raised when a stage stops on errors; ``diagnostics`` holds all of them, in order."""

    def __init__(self, diagnostics: List[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))


class DiagnosticEngine:
    """Collects diagnostics for one run.

    ``limit`` is how many errors are kept before the stage is stopped (the remaining ones
    would mostly be consequences of the first).
    """

    def __init__(self, limit: int = 20):
        self.diagnostics: List[Diagnostic] = []
        self.limit = limit

    @property
    def error_count(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == ERROR)

    def emit(self, diag: Diagnostic) -> Diagnostic:
        """Record ``diag``; at the error limit, stop the stage (saying so)."""
        self.diagnostics.append(diag)
        if diag.severity == ERROR and self.error_count >= self.limit:
            self.diagnostics.append(Diagnostic(NOTE, f"too many errors: stopped after {self.limit}"))
            raise DiagnosticError(self.diagnostics)
        return diag

    def check(self) -> None:
        """Raise :class:`DiagnosticError` if any error was reported."""
        if self.error_count:
            raise DiagnosticError(self.diagnostics)


def op_error(op: Operation, message: str, notes: Optional[List[Note]] = None, at: Optional[int] = None) -> Diagnostic:
    """An error located at ``op``: ``'<name>' op <message>``, as MLIR words op diagnostics.

    ``at``: an offset inside the op's own text to point at instead of the op (an operand, as
    MLIR points at the operand a diagnostic is about); ignored for ops without source text.
    """
    source, offset = op_location(op)
    if at is not None and op.source is not None:
        offset = at
    return Diagnostic(ERROR, f"'{op.name}' op {message}", source, offset, list(notes or []))


def op_location(op: Operation) -> Tuple[Optional[Source], Optional[int]]:
    """Where to point for ``op``: its own text; for an op a rewrite made, the source op it was
    made for (``origin``); else its nearest ancestor that has text."""
    if op.source is not None and op.span is not None:
        return op.source, op.span[0]
    node: Optional[Operation] = op.parent_op
    while node is not None:
        if node.source is not None and node.span is not None:
            return node.source, (op.origin[0] if op.origin is not None else node.span[0])
        node = node.parent_op
    return None, None


def _where(source: Optional[Source], offset: Optional[int], tool: str = "ttd-lower") -> str:
    if source is None:
        return tool
    if offset is None:
        return source.display_name
    line, col = source.line_col(offset)
    return f"{source.display_name}:{line}:{col}"


def _headline(source, offset, severity: str, message: str, color: bool, tool: str = "ttd-lower") -> str:
    where = _where(source, offset, tool)
    if not message.isprintable():
        from .snippet import printable

        message = printable(message)  # one diagnostic, one line, nothing a terminal would execute
    if not color:
        return f"{where}: {severity}: {message}"
    style = {ERROR: "bold red", WARNING: "bold magenta", NOTE: "bold cyan"}.get(severity, "bold")
    from rich.markup import escape

    return f"[bold]{escape(where)}:[/bold] [{style}]{severity}:[/{style}] [bold]{escape(message)}[/bold]"


def _snippet(source: Optional[Source], offset: Optional[int], color: bool = False) -> List[str]:
    """The quoted source line and caret (``snippet.quote_line``); rich markup escaped in colour."""
    if source is None or offset is None:
        return []
    from .snippet import quote_line

    _line, col = source.line_col(offset)
    lines = quote_line(source.line_text(offset), col)
    if color:
        from rich.markup import escape

        lines = [escape(line) for line in lines]
    return lines


def print_diagnostics(diagnostics: List[Diagnostic], stream: Optional[IO[str]] = None,
                      tool: str = "ttd-lower") -> None:
    """Write diagnostics to ``stream`` (default: stderr); with colour only when it is a terminal.
    ``tool``: the command's name, printed where a diagnostic has no place in a file
    (``ttd-sim: error: ...``)."""
    stream = stream if stream is not None else sys.stderr
    color = hasattr(stream, "isatty") and stream.isatty()
    if color:
        from rich.console import Console

        console = Console(file=stream, highlight=False, soft_wrap=True)
        for d in diagnostics:
            console.print(d.render(color=True, tool=tool), markup=True)
        return
    for d in diagnostics:
        stream.write(d.render(tool=tool) + "\n")
    stream.flush()
