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


def option_rows():
    """(options cell, example command) of each row of the README's option table."""
    text = (ROOT / "README.md").read_text()
    table = text[text.index("### Options, one example each"):]
    table = table[: table.index("\n### ", 10)]
    rows = []
    for line in table.splitlines():
        cells = re.findall(r"(?:[^|\\]|\\.)+", line.strip().strip("|"))
        if len(cells) != 2 or cells[0].strip() in ("option", "---"):
            continue
        commands = re.findall(r"`([^`]+)`", cells[1])
        rows.append((cells[0], commands[0].replace("\\|", "|") if commands else None))
    return rows


def test_the_option_table_lists_every_option_with_an_example():
    from transpiler import cli

    rows = option_rows()
    listed = " ".join(cell for cell, _ in rows)
    for param in cli.main.params:
        for name in getattr(param, "opts", []) + getattr(param, "secondary_opts", []):
            if name.startswith("-"):
                assert re.search(re.escape(name) + r"(?![\w-])", listed), f"{name} is not in the README's option table"
    assert "--help" in listed and "MLIR_ENABLE_DUMP" in listed
    assert all(command for _, command in rows), "every row has an example"


def test_every_example_of_the_option_table_runs(tmp_path):
    import os
    import sys
    from concurrent.futures import ThreadPoolExecutor

    env = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))
    prologue = ("set -o pipefail; K=examples/allgather_push/allgather_push.ttir; S=tests/lit/split.mlir; ")

    def run(command):
        script = prologue + command.replace("/tmp/", f"{tmp_path}/")
        return command, subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                                       timeout=300)

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, [command for _, command in option_rows()]))
    failed = [f"{command}: exit {proc.returncode}: {proc.stderr[-500:]}" for command, proc in results if proc.returncode]
    assert not failed, "\n".join(failed)
    assert (tmp_path / "k.ttadapter.mlir").exists() and sorted(p.name for p in (tmp_path / "dumps").iterdir()) == [
        "allgather_push.ttadapter.mlir", "allgather_push.ttir.mlir"]
