"""No input to ``ttd-sim`` or to the Python API ends in exit 3 or a traceback (issue 31, "Must be
true" 3): generated plan files (a valid plan with one value replaced, a key dropped or added),
generated argument lists, and generated :class:`Plan` objects give a result, a finding or a usage
error, never the internal-error path."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from transpiler.cli.sim import main
from transpiler.diagnostics import DiagnosticError
from transpiler.sim import Fill, Finding, Launch, Plan, UsageError, simulate

HERE = Path(__file__).parent
KERNEL = HERE / "sim_inputs" / "teams.ttir"
TEXT = KERNEL.read_text()
ARGS = {"out": "out", "flags": "flags", "team": 0, "idx": 0, "sync": 0}
BASE = {"ranks": 2, "buffers": {"out": "zeros(4, i32)", "flags": "zeros(2, i32)"},
        "steps": [[{"ranks": [0, 1], "kernel": str(KERNEL), "grid": [1], "args": ARGS},
                   {"ranks": [0], "fill": {"out": "ones(2)"}}]]}
SETTINGS = settings(max_examples=int(os.environ.get("TTD_SIM_EXAMPLES", "120")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 5), st.sampled_from([2 ** 40, -2 ** 70, 1e400]),
                    st.floats(allow_nan=False, allow_infinity=False, width=32),
                    st.sampled_from(["", "abc", "rank", "out", "flags", "zeros(3)", "zeros(99999999999999, i8)",
                                     "full(2, x, f32)", "random(4, i32)", "x.npy", "arange(-1, i32)",
                                     "zeros(2, q7)", "ones(1, i64)", str(KERNEL)]))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(st.sampled_from(
                                                                ["ranks", "kernel", "fill", "out", "x", "grid"]),
                                                                inner, max_size=3)), max_leaves=8)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


@st.composite
def plans(draw):
    plan = json.loads(json.dumps(BASE))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(plan))
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        parent = plan
        for p in path[:-1]:
            parent = parent[p]
        action = draw(st.sampled_from(["replace", "drop", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "drop":
            parent.pop(path[-1])
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["stpes", "gird", "teams", "function", "zz"]))] = draw(json_values)
        else:
            parent.append(draw(json_values))
    return plan


def _no_internal_error(result) -> None:
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert "internal error" not in result.output and "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


@SETTINGS
@given(plans())
def test_generated_plan_files(plan):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "plan.json")
        with open(path, "w") as f:
            json.dump(plan, f)
        _no_internal_error(CliRunner().invoke(main, ["--plan", path, "--max-ops", "20000"]))


words = st.sampled_from(["--ranks", "--grid", "--arg", "--function", "--schedules", "--max-ops", "--seed",
                         "--sub-blocks", "-o", "--plan", "--check-lowering", str(KERNEL), "2", "0", "-1", "abc",
                         "1,2", "1,1,1,1", "1.5", "nan"])
arg_values = st.sampled_from(["0", "1", "-1", "nan", "inf", "-inf", "1e400", "2.5", "0x10", "rank", "1,2", "1,2,3",
                              "zeros(4)", "zeros(99999999999999)", "abc", "", "full(2,nan)", "random(0)",
                              "missing.npy", "arange(2, f16)"])
arg_names = st.sampled_from(["out", "flags", "team", "idx", "sync", "idz", "#0", "#9", ""])


@SETTINGS
@given(st.lists(st.one_of(words, st.builds(lambda n, v: f"--arg={n}={v}", arg_names, arg_values)), max_size=8),
       st.dictionaries(st.sampled_from(list(ARGS)), arg_values, max_size=5))
def test_generated_argument_lists(words, args):
    argv = [str(KERNEL), "--ranks", "2", "--max-ops", "20000"] + [f"--arg={n}={v}" for n, v in args.items()] + words
    _no_internal_error(CliRunner().invoke(main, argv))


api_values = st.one_of(json_values, st.builds(Launch), st.builds(Fill), st.just(range(2)), st.just(TEXT))


@st.composite
def api_plans(draw):
    launch = dict(ranks=[0, 1], module=TEXT, grid=(1,), args=dict(ARGS))
    fill = dict(ranks=[0], values={"out": "ones(2)"})
    for fields in (launch, fill):
        for key in draw(st.lists(st.sampled_from(sorted(fields)), max_size=2, unique=True)):
            fields[key] = draw(api_values)
    plan = dict(ranks=2, buffers={"out": "zeros(4)", "flags": "zeros(2, i32)"},
                steps=[[Launch(**launch), Fill(**fill)]])
    for key in draw(st.lists(st.sampled_from(["ranks", "buffers", "steps", "teams"]), max_size=2, unique=True)):
        plan[key] = draw(api_values)
    return Plan(**plan)


@SETTINGS
@given(api_plans())
def test_generated_api_plans(plan):
    try:
        simulate(plan, max_ops=20000)
    except (UsageError, Finding, DiagnosticError):
        pass
