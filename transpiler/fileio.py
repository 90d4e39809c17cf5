"""Writing files so that a failure or a signal never leaves half a file behind.

:func:`write_atomic` writes through a temporary file in the target's folder and renames it over
the target only when the text is complete.  Every temporary file that exists is listed in
:data:`PENDING`; the command line's signal handlers (``transpiler/cli/signals.py``) remove them
before the process exits, so SIGTERM, SIGHUP or SIGINT during a write leave the folder as it was.
The moments a temporary file is created and renamed run with those signals blocked, so that
a signal never falls between creating the file and listing it.

``TTD_LOWER_TEST_PAUSE_WRITE=<file>`` (tests only) pauses every atomic write halfway, after
creating ``<file>``, until that file is deleted (or 20 s passed), so that a test can send a
signal while the output is being written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import time
from typing import Iterator, Set

PENDING: Set[str] = set()
"""Temporary files written at the moment (removed by :func:`remove_pending`)."""

HANDLED_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
TEST_PAUSE_ENV = "TTD_LOWER_TEST_PAUSE_WRITE"
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


#: the most any input file (a kernel, a plan, a symbol list, an override) may hold: a read stops
#: one byte past it, so that ``/dev/zero`` or an endless pipe is an error, not all the memory
#: there is (the attack of session 43 grew ttd-lower to 24 GB).  The largest TTIR met so far, the
#: benchmark module big.ttir, is 3.6 MB.
MAX_INPUT_BYTES = 256 << 20


class InputTooLarge(OSError):
    """An input past :data:`MAX_INPUT_BYTES` (an ``OSError``, so every reader's "cannot read"
    path reports it with its ``strerror``)."""


def read_limited(f, limit: int = MAX_INPUT_BYTES):
    """``f.read()`` (bytes or text) of at most ``limit`` bytes or characters.

    Raises:
        InputTooLarge: ``f`` holds more.
    """
    data = f.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(errno.EFBIG, f"it holds more than {limit:,} bytes (an endless stream such as /dev/zero?)")
    return data


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """Defer SIGINT, SIGTERM and SIGHUP inside the block (they are delivered when it ends)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def remove_pending() -> None:
    """Delete every temporary file an unfinished :func:`write_atomic` left."""
    for path in list(PENDING):
        with contextlib.suppress(OSError):
            os.unlink(path)
        PENDING.discard(path)


def write_output_file(path: str, text: str) -> None:
    """Write ``text`` to ``path``: a regular (or new) file through :func:`write_atomic`, whole or
    not at all; anything else (``/dev/null``, a FIFO, a terminal) in place.  The output file of
    ``ttd-lower`` / ``ttd-sim -o`` and ``ttd-sim --trace``.

    Raises:
        OSError: the file cannot be written.
    """
    real = os.path.realpath(path)
    if os.path.exists(real) and not stat.S_ISREG(os.stat(real).st_mode):
        with open(real, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    else:
        write_atomic(real, text)


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, renamed on success.

    The new file gets the mode of the file it replaces (or the umask's default).

    Raises:
        OSError: the folder cannot be written; nothing is left behind.
    """
    folder = os.path.dirname(os.path.abspath(path))
    with signals_blocked():
        fd, tmp = _create_temporary(folder)
        PENDING.add(tmp)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            pause = os.environ.get(TEST_PAUSE_ENV)
            if pause:
                _pause_halfway(f, text, pause)
            else:
                f.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        with signals_blocked():
            os.replace(tmp, path)
            PENDING.discard(tmp)
    except BaseException:
        with signals_blocked():
            if os.path.exists(tmp):
                os.unlink(tmp)
            PENDING.discard(tmp)
        raise


def _create_temporary(folder: str):
    """(descriptor, path) of a new, empty, private file ``.ttd-lower-<random>.tmp`` in ``folder``,
    as ``tempfile.mkstemp`` makes it (exclusive creation, mode 0600), without importing
    ``tempfile`` (and ``shutil``, ``random``) at start-up.

    Raises:
        OSError: the folder cannot be written.
    """
    for _ in range(100):
        path = os.path.join(folder, f".ttd-lower-{os.urandom(6).hex()}.tmp")
        try:
            return os.open(path, _CREATE_FLAGS, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary file name in '{folder}'")


def _pause_halfway(f, text: str, ready_file: str) -> None:
    """Test hook: write half of ``text``, announce it by creating ``ready_file``, and wait
    until the test deletes it (20 s at most)."""
    half = len(text) // 2
    f.write(text[:half])
    f.flush()
    with open(ready_file, "w", encoding="utf-8"):
        pass
    deadline = time.monotonic() + 20
    while os.path.exists(ready_file) and time.monotonic() < deadline:
        time.sleep(0.01)
    f.write(text[half:])
