"""What the stage walk shows of itself: stage dumps to a folder and ``mlir-opt``-style IR prints.

* ``dump_dir``: every stage's output as ``<dump_dir>/<stem>.<stage>.mlir`` (Triton's
  ``TRITON_KERNEL_DUMP`` layout), written atomically;
* ``before`` / ``after`` (``--mlir-print-ir-before-all`` / ``--mlir-print-ir-after-all``, or
  ``MLIR_ENABLE_DUMP=1``): each stage's input / output, to ``stream``, under MLIR's header::

      // -----// IR Dump After ConvertDistributedToHIVM (ttadapter) ('builtin.module' operation) //----- //

Texts are made only when something wants them (``text`` is a function).
"""

from __future__ import annotations

import os
from typing import Callable, Optional

from . import records
from .fileio import write_atomic
from .pipeline import PASS_NAMES

TextFn = Callable[[], str]


def header(when: str, stage: str) -> str:
    """``// -----// IR Dump <when> <Pass> (<stage>) ('builtin.module' operation) //----- //``."""
    return f"// -----// IR Dump {when} {PASS_NAMES.get(stage, stage)} ({stage}) ('builtin.module' operation) //----- //\n"


@records.define
class Instrumentation:
    """The dump folder and IR printing of one compilation (see the module docstring)."""

    dump_dir: Optional[str] = None
    stem: str = "input"
    print_before: bool = False
    print_after: bool = False
    stream: Callable[[str], None] = lambda text: None

    def dump(self, stage: str, text: str) -> None:
        """Write ``text`` as the dump of ``stage`` (when there is a dump folder).

        Raises:
            OSError: the folder cannot be made or written.
        """
        if self.dump_dir:
            os.makedirs(self.dump_dir, exist_ok=True)
            write_atomic(os.path.join(self.dump_dir, f"{self.stem}.{stage}.mlir"), text)

    def is_dump_of(self, stage: str, path: str) -> bool:
        """Would the dump of ``stage`` be the file ``path`` (``k.ttadapter.mlir`` dumped into
        its own folder)?"""
        if not self.dump_dir or not os.path.exists(path):
            return False
        target = os.path.join(self.dump_dir, f"{self.stem}.{stage}.mlir")
        return os.path.exists(target) and os.path.samefile(target, path)

    def before(self, stage: str, text: TextFn) -> None:
        """Called before ``stage`` runs, with its input."""
        if self.print_before:
            self.stream(header("Before", stage) + text() + "\n")

    def after(self, stage: str, text: TextFn) -> None:
        """Called after ``stage`` ran, with its output."""
        if not (self.dump_dir or self.print_after):
            return
        printed = text()
        self.dump(stage, printed)
        if self.print_after:
            self.stream(header("After", stage) + printed + "\n")
