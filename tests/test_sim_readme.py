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


def _plan_section() -> str:
    text = (ROOT / "README.md").read_text()
    return text[text.index("### Plan files"):text.index("### Op → reference → test")]


def test_readme_plan_is_the_bundled_example_and_runs():
    """The plan the README shows is ``examples/allgather_push/plan.json`` byte for byte, and it
    does what the README says: rank 2's second input (7s) reaches every rank's output."""
    import json

    from transpiler.sim import load_plan, simulate

    shown = re.search(r"```json\n(.*?)```", _plan_section(), re.S).group(1)
    path = ROOT / "examples" / "allgather_push" / "plan.json"
    assert shown == path.read_text()
    assert json.loads(shown)["ranks"] == 4
    result = simulate(load_plan(str(path)))
    for bufs in result.buffers:
        out = bufs["out_ptr"].reshape(4, 256)
        assert [set(row.tolist()) for row in out] == [{0.0}, {1.0}, {7.0}, {3.0}]


def test_readme_plan_table_names_every_key_of_the_schema():
    from transpiler.sim.plan_schema import FILL_KEYS, LAUNCH_KEYS, PLAN_KEYS

    table = {k for row in re.findall(r"^\| ([^|]*) \|", _plan_section(), re.M) for k in re.findall(r"`(\w+)`", row)}
    assert table == set(PLAN_KEYS) | set(LAUNCH_KEYS) | set(FILL_KEYS), table
