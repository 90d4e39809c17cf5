"""Plans validated as a schema (issue 31, item 5): every malformed plan file is a located error
``PLAN:LINE:COL: error: KEY.PATH: ...`` with the source line, exit status 1 (an error in an
input, as ``ttd-lower`` reports one), never the internal-error exit 3; unknown keys are named
with near names; the Python API refuses the same plans with :class:`UsageError` naming the key
path.  The JSON reader that gives the positions is ``transpiler.sim.jsonpos``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from transpiler.sim import Launch, Plan, UsageError, load_plan, simulate
from transpiler.sim.jsonpos import load

HERE = Path(__file__).parent
TEAMS = (HERE / "sim_inputs" / "teams.ttir").read_text()
SIM = [sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"]
ARGS = {"out": "out", "flags": "flags", "team": 0, "idx": 0, "sync": 0}


def sim(*args):
    return subprocess.run(SIM + [str(a) for a in args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def _plan(**launch):
    action = {"ranks": [0, 1], "kernel": "teams.ttir", "args": dict(ARGS)}
    action.update(launch)
    return {"ranks": 2, "buffers": {"out": "zeros(4, i32)", "flags": "zeros(2, i32)"}, "steps": [[action]]}


def _write(tmp_path, plan) -> Path:
    (tmp_path / "teams.ttir").write_text(TEAMS)
    path = tmp_path / "plan.json"
    path.write_text(plan if isinstance(plan, str) else json.dumps(plan, indent=1))
    return path


def _located(tmp_path, plan, path_text, message, needle, skip=0):
    """Run the plan; the error must point at the line and column ``skip`` characters into
    ``needle`` in the file."""
    path = _write(tmp_path, plan)
    text = path.read_text()
    r = sim("--plan", path)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and r.stdout == ""
    head = r.stderr.splitlines()[0]
    offset = text.index(needle) + skip
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    assert head.startswith(f"{path}:{line}:{col}: error: {path_text}: "), head
    assert message in head, head
    assert r.stderr.splitlines()[1] == text.splitlines()[line - 1]  # the source line, then a caret
    return head


@pytest.mark.parametrize("grid, needle", [("abc", '"abc"'), ([1.5], "["), ([-1], "["), ([1, 1, 1, 1], "["),
                                          ([], "["), ([True], "[")])
def test_bad_grid_is_located(tmp_path, grid, needle):
    text = json.dumps(_plan(grid=grid), indent=1).replace('"grid": ', '"grid":  ')
    head = _located(tmp_path, text, "steps[0][0].grid", "expected a list of 1 to 3 positive integers", f'"grid":  {needle}',
                    skip=len('"grid":  '))


def test_column_of_the_value(tmp_path):
    text = '{"ranks": 2,\n "steps": [[{"ranks": [0], "kernel": "teams.ttir", "grid": "abc"}]]}'
    path = _write(tmp_path, text)
    r = sim("--plan", path)
    assert r.stderr.startswith(f"{path}:2:60: error: steps[0][0].grid: expected a list of 1 to 3 positive integers, "
                               f'got "abc"'), r.stderr


# NEEDLE: the text around the value in the plan as ``json.dumps(indent=1)`` writes it, "|" where the
# error must point (the value's first character; the key's for an unknown name)
@pytest.mark.parametrize("change, path_text, message, needle", [
    (lambda p: p.pop("steps"), "", "a plan needs 'steps'", '|{\n "ranks"'),
    (lambda p: p.update(ranks="2"), "ranks", "expected a positive integer", '"ranks": |"2"'),
    (lambda p: p.update(ranks=0), "ranks", "expected a positive integer", '"ranks": |0'),
    (lambda p: p.update(steps=[]), "steps", "expected a list of one or more steps", '"steps": |[]'),
    (lambda p: p["steps"][0][0].update(kernel=5), "steps[0][0].kernel", "expected a file name", '"kernel": |5'),
    (lambda p: p["steps"][0][0].update(args=[1, 2]), "steps[0][0].args", "expected an object", '"args": |['),
    (lambda p: p.update(buffers=["out"]), "buffers", "expected an object", '"buffers": |['),
    (lambda p: p["steps"][0].append({"ranks": [0], "fill": "abc"}), "steps[0][1].fill", "expected an object",
     '"fill": |"abc"'),
    (lambda p: p["steps"][0].append({"ranks": [0], "fill": {"out": 5}}), "steps[0][1].fill.out",
     "expected a buffer value", '"out": |5'),
    (lambda p: p["steps"][0].append({"ranks": [0], "fill": {"nope": "zeros(1)"}}), "steps[0][1].fill.nope",
     "no buffer 'nope'", '|"nope"'),
    (lambda p: p["buffers"].update(out="zeros(99999999999999, i32)"), "buffers.out", "over the limit",
     '"out": |"zeros(99999999999999'),
    (lambda p: p["buffers"].update(out="zeros(4, q7)"), "buffers.out", "q7", '"out": |"zeros(4, q7)"'),
    (lambda p: p["steps"][0][0]["args"].update(idx=1e400), "steps[0][0].args.idx", "inf is out of range for i32",
     '"idx": |1e400'),
    (lambda p: p["steps"][0][0]["args"].update(idx=2.5), "steps[0][0].args.idx", "expected an integer",
     '"idx": |2.5'),
    (lambda p: p["steps"][0][0]["args"].update(idx={"a": 1}), "steps[0][0].args.idx", "expected a number",
     '"idx": |{'),
    (lambda p: p["steps"][0][0]["args"].pop("idx"), "steps[0][0].args", "argument 'idx' of @team_queries is not "
     "given", '"args": |{'),
    (lambda p: p["steps"][0][0]["args"].update(idz=0), "steps[0][0].args.idz",
     "@team_queries has no argument 'idz' (did you mean 'idx'?)", '|"idz"'),
    (lambda p: p["steps"][0][0].update(ranks=[0, 5]), "steps[0][0].ranks[1]", "not one of the 2 ranks",
     '     0,\n     |5'),
    (lambda p: p["steps"][0][0].update(ranks=2), "steps[0][0].ranks", "expected a list of rank numbers",
     '"ranks": |2,\n    "kernel"'),
    (lambda p: p.update(teams=[[0, 1]]), "teams[0]", "expected [start, stride, size]", '"teams": [\n  |['),
    (lambda p: p.update(teams=[[0, 1, 10 ** 12]]), "teams[0]", "not a strided subset", '"teams": [\n  |['),
    (lambda p: p["steps"].append({"ranks": [0]}), "steps[1]", "expected a list of actions", '  ],\n  |{'),
])
def test_malformed_plan_is_located(tmp_path, change, path_text, message, needle):
    plan = _plan()
    change(plan)
    text = json.dumps(plan, indent=1).replace("Infinity", "1e400")
    path = _write(tmp_path, text)
    offset = text.index(needle.replace("|", "")) + needle.index("|")
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    r = sim("--plan", path)
    assert r.returncode == 1, (r.returncode, r.stderr)
    head = r.stderr.splitlines()[0]
    prefix = f"{path}:{line}:{col}: error: " + (f"{path_text}: " if path_text else "")
    assert head.startswith(prefix), (prefix, head)
    assert message in head and "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr.splitlines()[1] == text.splitlines()[line - 1]


def test_nan_is_not_json(tmp_path):
    path = _write(tmp_path, json.dumps(_plan(args=dict(ARGS, idx=float("nan")))))
    r = sim("--plan", path)
    assert r.returncode == 1 and "error: not JSON: expected a JSON value" in r.stderr, r.stderr
    assert r.stderr.splitlines()[2].index("^") == r.stderr.splitlines()[1].index("NaN")


@pytest.mark.parametrize("key, near", [("stpes", "steps"), ("bufers", "buffers"), ("kernal", "kernel"),
                                       ("gird", "grid")])
def test_unknown_key_is_named_with_near_names(tmp_path, key, near):
    plan = _plan()
    if key in ("kernal", "gird"):
        plan["steps"][0][0][key] = plan["steps"][0][0].pop(near) if near in plan["steps"][0][0] else [1]
    else:
        plan[key] = plan.pop(near)
    path = _write(tmp_path, plan)
    r = sim("--plan", path)
    assert r.returncode == 1, r.stderr
    head = r.stderr.splitlines()[0]
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: .*unknown key '{key}' \(did you mean '{near}'\?\)", head), head
    assert f'"{key}"' in r.stderr.splitlines()[1]


def test_json_syntax_error_is_located(tmp_path):
    path = _write(tmp_path, '{"ranks": 2,\n "steps": [[}\n')
    r = sim("--plan", path)
    assert r.returncode == 1
    assert r.stderr.startswith(f"{path}:2:13: error: not JSON: expected a JSON value"), r.stderr


def test_duplicate_key_is_an_error(tmp_path):
    path = _write(tmp_path, '{"ranks": 2, "ranks": 3, "steps": [[]]}')
    r = sim("--plan", path)
    assert r.returncode == 1 and r.stderr.startswith(f"{path}:1:14: error: not JSON: key 'ranks' given twice")


def test_load_plan_raises_a_usage_error_with_the_location(tmp_path):
    path = _write(tmp_path, _plan(grid="abc"))
    with pytest.raises(UsageError) as e:
        load_plan(str(path))
    assert str(e.value).startswith(f"{path}:") and "steps[0][0].grid" in str(e.value)


@pytest.mark.parametrize("plan, message", [
    (lambda: Plan(2, {"out": "zeros(4, i32)"}, [[Launch([0, 1], TEAMS, grid="abc", args=ARGS)]]),
     "steps[0][0].grid: expected a list of 1 to 3 positive integers"),
    (lambda: Plan(2, [], [[Launch([0, 1], TEAMS, args=ARGS)]]), "buffers: expected a mapping"),
    (lambda: Plan(2, {"out": "zeros(4, i32)"}, [[Launch([0, 1], 5, args=ARGS)]]), "steps[0][0].module"),
    (lambda: Plan("two"), "ranks: expected a positive integer"),
    (lambda: Plan(2, {}, [[Launch([0, 1], TEAMS, args=[1])]]), "steps[0][0].args: expected a mapping"),
])
def test_api_plans_refused_with_the_key_path(plan, message):
    with pytest.raises(UsageError) as e:
        simulate(plan())
    assert message in str(e.value)


def test_positions_of_values_and_keys():
    value, pos = load('{"a": [1, {"b": "x"}],\n "c": -2.5e1}')
    assert value == {"a": [1, {"b": "x"}], "c": -25.0}
    assert pos.values[("a", 1, "b")] == 16 and pos.keys[("a", 1, "b")] == 11
    assert pos.values[("c",)] == 29 and pos.of(("a", 1, "b", "zz")) == 16


def test_api_launch_defaults_flat_steps_and_inferred_dtypes():
    """Issue 31 item 8: a Launch without ranks runs on every rank, a flat list of actions is one
    step each, a buffer passed to a pointer takes the pointee's type as ``--arg`` does."""
    plan = Plan(2, {"out": "zeros(4)", "flags": "zeros(2)"}, [Launch(module=TEAMS, args=ARGS)])
    res = simulate(plan)
    assert res.buffers[1]["out"].dtype.name == "int32" and res.buffers[1]["out"].tolist()[:2] == [1, 2]


def test_api_launch_ranks_as_a_number_is_a_clear_error():
    with pytest.raises(UsageError) as e:
        simulate(Plan(2, {"out": "zeros(4)", "flags": "zeros(2)"}, [[Launch(ranks=2, module=TEAMS, args=ARGS)]]))
    assert "steps[0][0].ranks: expected a list of rank numbers such as [0, 1] (every rank: range(2)), got 2" in str(e.value)


def test_an_action_without_ranks_runs_on_every_rank_as_in_the_api(tmp_path):
    """A plan file's action may leave out ``ranks``: every rank, as ``Launch(ranks=None)`` and
    ``Fill(ranks=None)`` in the API (the new-user trial found files stricter than the API)."""
    plan = _plan()
    del plan["steps"][0][0]["ranks"]
    plan["steps"].insert(0, [{"fill": {"flags": "full(2, 5, i32)"}}])
    loaded = load_plan(_write(tmp_path, plan))
    assert [a.ranks for step in loaded.steps for a in step] == [[0, 1], [0, 1]]
    result = simulate(loaded)
    assert [list(b["out"][:2]) for b in result.buffers] == [[0, 2], [1, 2]]
    assert [list(b["flags"]) for b in result.buffers] == [[5, 5], [5, 5]]


def test_constant_buffers_cost_no_memory_per_element():
    """``zeros`` / ``ones`` / ``full`` / ``rank`` are one element seen N times (issue 33, memory),
    with the values the plain arrays have; a run starts from them exactly."""
    import numpy as np

    from transpiler.sim.plan import parse_value

    rng = np.random.default_rng(0)
    for text, plain in (("zeros(5, f32)", np.zeros(5, np.float32)), ("ones(5, i8)", np.ones(5, np.int8)),
                        ("full(5, -0.0, f32)", np.full(5, -0.0, np.float32)), ("rank(5, i32)", np.full(5, 3, np.int32))):
        a = parse_value(text).materialize(3, rng)
        assert a.strides == (0,) and not a.flags.writeable and a.dtype == plain.dtype
        assert a.tobytes() == plain.tobytes(), text  # -0.0 keeps its sign bit
    plan = Plan(2, {"out": "full(4, 7, i32)", "flags": "zeros(2, i32)", "spare": "full(3, -0.0, f32)"},
                [Launch(module=TEAMS, args=dict(ARGS))])
    out = simulate(plan).buffers
    assert [b["out"][3] for b in out] == [7, 7]  # out[3] is not written with sync 0
    assert all(np.signbit(b["spare"]).all() and not b["flags"].any() for b in out)
