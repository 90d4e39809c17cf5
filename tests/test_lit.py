"""Runs the lit + FileCheck tests of tests/lit (one lit run; each failing test is reported).

The tests are written for ``filecheck`` 1.0, which needs Python 3.10; on Python 3.9 (whose
newest ``filecheck`` is 0.0.24, without ``CHECK-NEXT`` after ``CHECK-LABEL``) a 1.0 from a
cached side environment is used (``tests/tools/side_venv.py``); ``ttd-lower`` itself still runs
on this interpreter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

LIT_DIR = Path(__file__).parent / "lit"


def _filecheck() -> str:
    from importlib.metadata import version

    if int(version("filecheck").split(".")[0]) >= 1:
        return shutil.which("filecheck", path=os.path.dirname(sys.executable)) or "filecheck"
    import side_tools

    return str(side_tools.require("filecheck") / "filecheck")


def test_lit_suite():
    env = dict(os.environ, TTD_FILECHECK=_filecheck())
    proc = subprocess.run([sys.executable, "-c", "from lit.main import main; main()", "-v", str(LIT_DIR)],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]
    assert "Passed" in proc.stdout
