"""Public files written by other people (``../shared/corpus/external/``) do what its README says.

* a file (or ``// -----`` chunk) without distributed ops comes back byte-identical, with
  ``--split-input-file`` where it has chunks (separators kept as written);
* a file with distributed ops lowers, leaving none;
* the obsolete 2025 two-operand ``wait`` (``unittest/lower_wait.mlir``) is refused, located,
  with a message that says so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import shared_corpus
from shared_corpus import EXTERNAL

FILES = shared_corpus.files("**/*.mlir", "**/*.ttir", under=EXTERNAL)
OBSOLETE_WAIT = {"lower_wait.mlir"}


def _run(path: Path):
    args = [sys.executable, "-m", "transpiler", str(path)]
    text = path.read_text(encoding="utf-8")
    if "\n// -----" in text:
        args.append("--split-input-file")
    return text, subprocess.run(args, capture_output=True, text=True)


def _id(path) -> str:
    return str(path.relative_to(EXTERNAL)) if path is not None else "absent"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_external_file(path: Path):
    text, run = _run(path)
    if path.name in OBSOLETE_WAIT:
        assert run.returncode == 1 and not run.stdout
        assert f"{path}:" in run.stderr and "obsolete two-operand form" in run.stderr
        assert "Traceback" not in run.stderr
        return
    assert run.returncode == 0, run.stderr
    if "distributed." not in text.replace("distributed.core_type", ""):
        assert run.stdout == text
    else:
        assert "distributed.wait" not in run.stdout and "distributed.notify" not in run.stdout
        assert "hivm.hir.custom" in run.stdout
