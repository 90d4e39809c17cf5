"""Runs the lit + FileCheck tests of tests/lit (one lit run; each failing test is reported)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LIT_DIR = Path(__file__).parent / "lit"


def test_lit_suite():
    proc = subprocess.run([sys.executable, "-c", "from lit.main import main; main()", "-v", str(LIT_DIR)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]
    assert "Passed" in proc.stdout
