"""The README's "Run a kernel on simulated ranks" command prints what the README shows."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_sim_command_prints_what_it_shows():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Run a kernel on simulated ranks"):]
    block = re.search(r"```console\n\$ (ttd-sim [^\n]*)\n(.*?)```", section, re.S)
    command, shown = block.group(1), block.group(2)
    run = subprocess.run([sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"] + shlex.split(command)[1:],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown
    assert "rank 2 out_ptr (float32[1024]): [0. 0. 0. ... 3. 3. 3.]" in shown
