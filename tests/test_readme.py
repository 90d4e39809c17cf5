"""The README opens with three lines and the two commands, CI runs the second one, and its
triton-ascend section starts from what works with the registry's 3.2.0."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[1]


def first_block():
    text = (ROOT / "README.md").read_text()
    match = re.search(r"```\w*\n(.*?)```", text, re.S)
    return text, match


def test_readme_first_screen_says_what_for_whom_and_how_in_three_lines_then_the_two_commands():
    """Issue 24, item 1: under the title three lines (what it is, who it is for, how to run
    it), then the first code block with the two commands, then usage within the first screen."""
    text, match = first_block()
    intro = text[text.index("# ttd-lower") + len("# ttd-lower") : match.start()].strip().splitlines()
    assert len(intro) == 3, intro
    what, whom, how = intro
    assert "distributed" in what and "hivm.hir.custom" in what and "byte for byte" in what
    assert whom.startswith("It is for ") and "Ascend" in whom
    assert "ttd-lower " in how and "transpiler.lower(" in how and "transpiler.triton_ascend.enable()" in how
    head = text.splitlines()
    usage = head.index("## Usage")
    assert usage < 40 and "ttd-lower [options] <input file>" in "\n".join(head[usage : usage + 5])
    # issue 31, item 1: a table of contents between the two commands and the usage, by task
    contents = head.index("## Contents")
    assert contents < usage and all(task in "\n".join(head[contents:usage]) for task in (
        "lower a kernel", "simulate", "Triton kernel", "Python", "triton-ascend", "troubleshooting"))
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


def test_the_triton_ascend_section_leads_with_what_works_with_3_2_0():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### In triton-ascend") :]
    section = section[: section.index("\n## ")]
    first = " ".join(section.split("\n\n")[1].split())
    assert first.startswith("**What works with triton-ascend 3.2.0**") and "plain kernels compile" in first
    assert "neither emits distributed ops nor accepts `hivm.hir.custom`" in first
    assert "**What needs a Triton-distributed build**" in first
    route = " ".join(section.split("\n\n")[2].split())
    assert route.startswith('`triton.compile("k.ttir")`') and "Dialect `distributed' not found" in route
    assert "ttd-lower k.ttir -o k.ttadapter.mlir" in route  # what to do instead
    assert section.index("**What works") < section.index("```python")  # before the snippet
    assert "DIR/<hash>/<kernel>.ttd_lower" in section  # dumps go into a <hash> folder
