"""The README opens with the two commands, and CI runs the second one."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[1]


def first_block():
    text = (ROOT / "README.md").read_text()
    match = re.search(r"```\w*\n(.*?)```", text, re.S)
    return text, match


def test_readme_starts_with_the_two_commands():
    text, match = first_block()
    assert text.index("```") < text.index("\n", text.index("# ttd-lower") + 1) + 3, "the commands come first"
    lines = match.group(1).strip().splitlines()
    assert len(lines) == 2
    install_and_run, install_and_test = lines
    assert "pip install ." in install_and_run and "ttd-lower examples/" in install_and_run
    assert "pip install -e '.[test]'" in install_and_test and "pytest" in install_and_test
    example = re.search(r"ttd-lower (\S+)", install_and_run).group(1)
    assert (ROOT / example).exists()


def test_ci_runs_the_readme_test_command():
    _text, match = first_block()
    ci = (ROOT / ".ci" / "run").read_text()
    extracted = subprocess.run(
        ["bash", "-c", re.search(r"cmd=\$\((.*)\)", ci).group(1)], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    assert extracted == match.group(1).strip().splitlines()[1]
