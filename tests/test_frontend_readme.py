"""The README's "Write a distributed kernel and run it on 4 simulated ranks" (issue 21, item 4):
its ``allgather.py`` and its commands (but the install line) run as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import frontend_cases as fc

fc.require_frontend(corpus=False)
pytest.importorskip("numpy", reason="the simulator needs the `sim` extra (numpy)")

ROOT = Path(__file__).resolve().parents[1]
TITLE = "## Write a distributed kernel and run it on 4 simulated ranks"


def section():
    text = (ROOT / "README.md").read_text()
    start = text.index(TITLE)
    body = text[start:text.index("\n## ", start + 1)]
    python = re.search(r"```python\n(.*?)```", body, re.S).group(1)
    commands = re.search(r"```sh\n(.*?)```", body, re.S).group(1).strip().splitlines()
    return python, commands


def test_the_readme_kernel_and_commands_run(tmp_path):
    python, commands = section()
    assert "pip install" in commands[0] and "[frontend,sim]" in commands[0]
    (tmp_path / "allgather.py").write_text(python)
    env = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]),
               TRITON_DEFAULT_FP_FUSION="1")
    outputs = []
    for command in commands[1:]:
        run = subprocess.run(["bash", "-c", "set -o pipefail; " + command], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, command + "\n" + run.stdout + run.stderr
        outputs.append(run.stdout + run.stderr)
    assert outputs[0].splitlines()[-1] == "rank 3: sum = [10. 10. 10. 10. 10. 10. 10. 10.]"
    assert (tmp_path / "allgather.mlir").read_text().count("hivm.hir.custom") == 6  # rank, num_ranks, symm_at, notify, wait, consume_token
    assert "the lowered module gives the same memory under every schedule" in outputs[2]
    assert "rank 3 sum_ptr (float32[8]): [6. 6. 6. 6. 6. 6. 6. 6.]" in outputs[2]  # rank(8): 0+1+2+3
