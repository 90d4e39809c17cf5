"""SIGINT, SIGTERM and SIGHUP: stop, remove the temporary output file, exit 128 + the signal.

While :func:`handling_signals` is active, each of these signals raises :class:`Interrupted` in
the main thread (further signals are then ignored, so the clean-up cannot be interrupted in
turn).  :func:`transpiler.fileio.write_atomic` deletes its temporary file as the exception passes;
the command line then exits with ``128 + signal``, as Unix tools do, leaving any existing output
file untouched.
"""

from __future__ import annotations

import contextlib
import signal
from typing import Iterator

from ..fileio import HANDLED_SIGNALS, remove_pending


class Interrupted(BaseException):
    """A handled signal arrived; ``signum`` is its number and ``exit_code`` 128 + that number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """``128 + signum``, the status Unix tools exit with after a signal."""
        return 128 + self.signum


def _raise_interrupted(signum, _frame) -> None:
    for s in HANDLED_SIGNALS:
        signal.signal(s, signal.SIG_IGN)
    raise Interrupted(signum)


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """Install the handlers for the block (only in the main thread); restore the previous ones
    after it, removing any temporary file left."""
    previous = {}
    try:
        for s in HANDLED_SIGNALS:
            previous[s] = signal.signal(s, _raise_interrupted)
    except ValueError:  # not the main thread: leave signals alone
        pass
    try:
        yield
    finally:
        remove_pending()
        for s, handler in previous.items():
            signal.signal(s, handler)
