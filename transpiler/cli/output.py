"""Reading the input and writing the output of the command line.

The input is read as bytes and decoded as UTF-8 (a bad byte is a located error).  An output
file is written through :func:`transpiler.fileio.write_atomic`, so that on any failure, or a
signal, nothing is written and an existing file stays as it was; a symlink is written through,
and a device or FIFO (``/dev/null``, a pipe) is written to directly, since renaming over it
would replace it.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Optional

import click

from ..fileio import write_atomic


def read_input(path: str) -> str:
    """The text of ``path`` (``-`` for stdin).

    Raises:
        click.UsageError: the file cannot be read.
        DiagnosticError: the file is not UTF-8 text (located at the first bad byte).
    """
    try:
        if path == "-":
            if sys.stdin is None:
                raise click.UsageError("stdin is closed: give a TTIR file")
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise click.UsageError(f"cannot read '{path}': {e.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        from ..diagnostics import ERROR, Diagnostic, DiagnosticError
        from ..ir.core import Source

        good = data[: e.start].decode("utf-8")
        shown = good + data[e.start :].decode("utf-8", errors="replace")
        source = Source(shown, "<stdin>" if path == "-" else path)
        raise DiagnosticError([Diagnostic(ERROR, f"invalid UTF-8: byte 0x{data[e.start]:02x} ({e.reason}); "
                                                 f"TTIR is UTF-8 text", source, len(good))]) from None


def write_file(path: str, text: str) -> None:
    """Write the output file ``path`` (see the module docstring).

    Raises:
        click.UsageError: the file cannot be written.
    """
    real = os.path.realpath(path)
    try:
        if os.path.exists(real) and not stat.S_ISREG(os.stat(real).st_mode):
            with open(real, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        else:
            write_atomic(real, text)
    except OSError as e:
        raise click.UsageError(f"cannot write '{path}': {e.strerror or e}") from None


def write_output(path: Optional[str], text: str) -> None:
    """Write ``text`` to ``path``, or to stdout when ``path`` is None or ``-``.

    Raises:
        click.UsageError: the output cannot be written.
    """
    if path is None or path == "-":
        if sys.stdout is None:
            raise click.UsageError("stdout is closed: use -o FILE")
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as e:
            raise click.UsageError(f"cannot write to stdout: {e.strerror or e}") from None
    else:
        write_file(path, text)
