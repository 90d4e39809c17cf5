"""What a simulated run reports: findings (SPEC.md section 7, exit status 1) and usage errors (2).

A :class:`Finding` is raised where it happens, often by code that does not know the op (the
memory, a library model); the interpreter fills in ``op``, ``rank`` and ``program`` on its way
out, so every finding is located.  :meth:`Finding.diagnostic` renders it the way ``ttd-lower``
renders errors (``file:line:col: error: message``, the source line, notes).
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..diagnostics import ERROR, Diagnostic, Note, op_location

#: Kinds of finding (SPEC.md section 7, "Exit status").
DIFFERENCE, DEADLOCK, OUT_OF_BOUNDS, SCHEDULE, LIMIT, NOT_SIMULATED, FAULT = (
    "difference", "deadlock", "out-of-bounds", "schedule-dependent", "step-limit", "not-simulated", "fault")


class Finding(Exception):
    """A located problem of a run.

    Attributes:
        kind: one of the kinds above.
        message: what happened (without the location).
        op: the op it happened at (None for a run-level finding such as a difference).
        rank / program: the rank and program ``(x, y, z[, sub-block])`` that ran the op.
        notes: extra located notes (every blocked wait of a deadlock, the writer of a value).
    """

    kind = FAULT

    def __init__(self, message: str, op=None, rank: Optional[int] = None, program: Optional[Tuple] = None,
                 notes: Optional[List[Note]] = None, kind: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.op = op
        self.rank = rank
        self.program = program
        self.notes = list(notes or [])
        if kind is not None:
            self.kind = kind

    def locate(self, op, rank, program) -> "Finding":
        """Fill in the op, rank and program where they are not known yet; returns self."""
        if self.op is None:
            self.op = op
        if self.rank is None:
            self.rank = rank
        if self.program is None:
            self.program = program
        return self

    def where(self) -> str:
        """``rank 1, program (0, 0, 0)``, as far as known."""
        parts = []
        if self.rank is not None:
            parts.append(f"rank {self.rank}")
        if self.program is not None:
            parts.append(f"program {format_program(self.program)}")
        return ", ".join(parts)

    def diagnostic(self) -> Diagnostic:
        """The finding as an MLIR-style error at its op (or unlocated), with its notes."""
        where = self.where()
        text = f"{where}: {self.message}" if where else self.message
        if self.op is not None:
            source, offset = op_location(self.op)
            return Diagnostic(ERROR, f"'{self.op.name}' op {text}", source, offset, list(self.notes))
        return Diagnostic(ERROR, text, None, None, list(self.notes))

    def __str__(self) -> str:
        return self.diagnostic().render()


class ParseFailure(Finding):
    """A kernel that does not parse: :meth:`diagnostic` is the parser's own located error
    (``FILE:LINE:COL``, the source line), as ``ttd-lower`` prints it (issue 31, item 3)."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.parse_diagnostic = diagnostic

    def diagnostic(self) -> Diagnostic:
        """The parser's diagnostic."""
        return self.parse_diagnostic


class NotSimulated(Finding):
    """An op, type or form the simulator does not implement (never skipped, SPEC.md section 7)."""

    kind = NOT_SIMULATED


class OutOfBounds(Finding):
    """An access outside the buffer its pointer was derived from."""

    kind = OUT_OF_BOUNDS


class Deadlock(Finding):
    """Every unfinished program is blocked; ``notes`` name each blocked wait."""

    kind = DEADLOCK


class StepLimit(Finding):
    """More ops than ``max_ops`` were executed."""

    kind = LIMIT


class UsageError(ValueError):
    """A plan or command line the simulator cannot run (exit status 2; a plan file's: located,
    :class:`transpiler.sim.plan_schema.PlanError`, exit status 1).

    ``path``: the key path of the plan's offending value (``("steps", 0, 0, "grid")``), or None;
    the message then starts with it (``steps[0][0].grid: ...``)."""

    def __init__(self, message: str, path=None):
        self.path = tuple(path) if path is not None else None
        self.message = message
        super().__init__(f"{format_path(self.path)}: {message}" if self.path else message)


def format_path(path) -> str:
    """A key path as written in messages: ``steps[0][1].args.n`` (``buffers["a b"]`` for a key
    that is not a name)."""
    out = ""
    for part in path or ():
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier():
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]"
    return out


def format_program(program: Tuple) -> str:
    """``(x, y, z)`` or ``(x, y, z) sub-block s``."""
    if len(program) == 4:
        return f"({program[0]}, {program[1]}, {program[2]}) sub-block {program[3]}"
    return "(" + ", ".join(map(str, program)) + ")"


def op_note(op, message: str) -> Note:
    """A note pointing at ``op``."""
    source, offset = op_location(op)
    return Note(message, source, offset)
