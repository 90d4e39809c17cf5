"""Reading the input and writing the output of the command line.

The input is read as bytes and decoded as UTF-8 (a bad byte is a located error).  An output
file is written through :func:`transpiler.fileio.write_atomic`, so that on any failure, or a
signal, nothing is written and an existing file stays as it was; a symlink is written through,
and a device or FIFO (``/dev/null``, a pipe) is written to directly, since renaming over it
would replace it.

A reader that goes away early (``ttd-lower k.ttir 2>&1 | head -1``) changes nothing but what
it sees: on ``EPIPE`` the stream is pointed at ``/dev/null`` and the run goes on to the exit
status it would have had (:func:`reader_may_close`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import IO, Iterator, Optional

import click

from ..fileio import read_limited, write_output_file


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
            data = read_limited(sys.stdin.buffer)
        else:
            with open(path, "rb") as f:
                data = read_limited(f)
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


def discard(stream: Optional[IO[str]]) -> None:
    """Point ``stream``'s file descriptor at ``/dev/null`` (its reader has gone): what is still
    buffered, and every later write, go nowhere instead of failing again."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):  # no descriptor (a test's buffer)
        return
    os.dup2(null, fd)
    os.close(null)


@contextlib.contextmanager
def reader_may_close(stream: Optional[IO[str]]) -> Iterator[None]:
    """Run the block, which writes to ``stream``; if the stream's reader has gone (``EPIPE``),
    :func:`discard` the stream and carry on, as if the text had been read."""
    try:
        yield
    except BrokenPipeError:
        discard(stream)


def echo(text: str, err: bool = False, nl: bool = True, color: Optional[bool] = None) -> None:
    """``click.echo``, carrying on when the stream's reader has gone."""
    with reader_may_close(sys.stderr if err else sys.stdout):
        click.echo(text, err=err, nl=nl, color=color)


def echo_err(text: str, nl: bool = True) -> None:
    """:func:`echo` to stderr (a stage's notice, timings, IR dumps)."""
    echo(text, err=True, nl=nl)


def write_file(path: str, text: str) -> None:
    """Write the output file ``path`` (see the module docstring).

    Raises:
        click.UsageError: the file cannot be written.
    """
    try:
        write_output_file(path, text)
    except OSError as e:
        raise click.UsageError(f"cannot write '{path}': {e.strerror or e}") from None


def check_writable(path: Optional[str], option: str, directory: bool = False) -> None:
    """Raise :class:`click.UsageError` (``OPTION: cannot write 'PATH': why``) unless ``path`` (a
    file, or with ``directory`` a directory made on demand) could be written, creating nothing:
    checked before a long run, so that a typo is not found only at its end.  None and ``-``
    (stdout) always pass.
    """
    if path is None or path == "-":
        return
    target = os.path.abspath(path)
    why = None
    if os.path.exists(target):
        if directory != os.path.isdir(target):
            why = "it is not a directory" if directory else "it is a directory"
        elif not os.access(target, os.W_OK):
            why = "permission denied"
    else:
        parent = os.path.dirname(target)
        while directory and not os.path.exists(parent):
            parent = os.path.dirname(parent)
        if not os.path.exists(parent):
            why = "no such directory"
        elif not os.path.isdir(parent):
            why = f"'{parent}' is not a directory"
        elif not os.access(parent, os.W_OK | os.X_OK):
            why = "permission denied"
    if why:
        raise click.UsageError(f"{option}: cannot write '{path}': {why}")


def write_output(path: Optional[str], text: str) -> None:
    """Write ``text`` to ``path``, or to stdout when ``path`` is None or ``-``.

    Raises:
        click.UsageError: the output cannot be written.
    """
    if path is None or path == "-":
        if sys.stdout is None:
            raise click.UsageError("stdout is closed: use -o FILE")
        try:
            with reader_may_close(sys.stdout):
                sys.stdout.write(text)
                sys.stdout.flush()
        except OSError as e:
            raise click.UsageError(f"cannot write to stdout: {e.strerror or e}") from None
    else:
        write_file(path, text)
