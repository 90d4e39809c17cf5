"""What a plain run loads and does (issue 16): only the modules it needs, the same results.

A run of ``ttd-lower`` on a typical kernel is checked in a fresh interpreter (its ``sys.modules``
and, for a few costly standard modules, which module imported them first); no time is measured.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import attrs
import pytest

from transpiler import lower, records
from transpiler.cli import main
from transpiler.cli.options import long_spellings, normalize_args
from transpiler.cli.output import write_file

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "examples" / "allgather_push" / "allgather_push.ttir"
COSTLY = ("tempfile", "shutil", "pathlib", "difflib", "hashlib", "rich", "inspect", "dataclasses", "locale")

_PROBE = r"""
import builtins, json, os, sys
costly, first = set(json.loads(sys.argv.pop(1))), {}
real_import = builtins.__import__

def tracking(name, globals=None, locals=None, fromlist=(), level=0):
    top = name.partition(".")[0]
    if level == 0 and top in costly and top not in sys.modules:
        first.setdefault(top, (globals or {}).get("__name__", "?"))
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = tracking
real_exit = os._exit

def report(code):
    with open(os.environ["PROBE_OUT"], "w") as f:
        json.dump({"code": code, "modules": sorted(sys.modules), "first": first}, f)
    real_exit(code)

os._exit = report
sys.argv[0] = "ttd-lower"
from transpiler.cli import entry
entry()
"""


def _probe(tmp_path, *args):
    """(exit code, modules loaded, {costly module: the module that imported it first}) of one run."""
    out = tmp_path / "probe.json"
    env = dict(os.environ, PROBE_OUT=str(out))
    subprocess.run([sys.executable, "-c", _PROBE, json.dumps(COSTLY), *map(str, args)], env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    data = json.loads(out.read_text())
    return data["code"], set(data["modules"]), data["first"]


def test_a_plain_run_loads_only_what_it_needs(tmp_path):
    code, modules, first = _probe(tmp_path, KERNEL, "-o", tmp_path / "out.mlir")
    assert code == 0 and (tmp_path / "out.mlir").read_text().count("hivm.hir.custom") > 0
    ours = {m: by for m, by in first.items() if by.startswith("transpiler") and not by.startswith("transpiler.parser")}
    assert not ours, f"imported by ttd-lower outside the parser: {ours}"
    assert "rich" not in modules  # only for diagnostics on a terminal
    assert not {"numpy", "ml_dtypes", "transpiler.sim", "transpiler.cli.sim"} & modules  # the simulator's (issue 23)
    assert not {m for m in modules if m.partition(".")[0] in ("triton", "torch")}  # the frontend's (issue 21)
    assert "transpiler.language" not in modules
    # click's translated texts (help, version, option errors) are not looked up (on Python < 3.11 the
    # parser's `regex` imports locale itself)
    assert first.get("locale") != "gettext"
    for unused in ("irdump", "split", "verify_diagnostics", "debuginfo", "triton_ascend", "ir.dialects.math",
                   "ir.dialects.misc", "ir.dialects.cf"):
        assert f"transpiler.{unused}" not in modules, unused
    assert not list((tmp_path).glob(".ttd-lower-*.tmp"))


def test_a_module_without_distributed_ops_loads_no_lowering(tmp_path):
    plain = tmp_path / "plain.mlir"
    plain.write_text('module {\n  tt.func @f() {\n    tt.return loc("x.py":1:1)\n  }\n}\n')
    code, modules, _ = _probe(tmp_path, plain, "--strip-debuginfo", "-o", tmp_path / "out.mlir")
    assert code == 0
    assert (tmp_path / "out.mlir").read_text() == "module {\n  tt.func @f() {\n    tt.return\n  }\n}\n"
    assert "transpiler.lowering.distributed_to_hivm" not in modules
    assert "transpiler.analysis" not in modules  # the lint has nothing to look at
    assert "transpiler.lowering.link_check" not in modules  # nor the link check (no --symbol-list given)
    assert "transpiler.emit.printer" not in modules  # the output is the input text


def test_the_lowering_api_imports_no_numpy():
    code = ("import sys\nfrom transpiler import lower\nfrom pathlib import Path\n"
            f"lower(Path({str(KERNEL)!r}).read_text())\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'ml_dtypes') or m.startswith('transpiler.sim'))\n"
            "print(bad)\nsys.exit(1 if bad else 0)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_dialect_table_names_the_modules_of_every_op():
    """``ir.dialects.MODULES`` sends each op name to the module that declares it: in a fresh
    interpreter per dialect, looking the dialect's ops up finds every one of them."""
    from transpiler.ir.dialect import registered_names

    by_prefix = {}
    for name in registered_names():
        by_prefix.setdefault(name.partition(".")[0], []).append(name)
    script = ("import json, sys\nfrom transpiler.ir.dialect import lookup\n"
              "names = json.loads(sys.argv[1])\nprint(json.dumps([n for n in names if lookup(n) is None]))\n")
    for prefix, names in by_prefix.items():
        out = subprocess.run([sys.executable, "-c", script, json.dumps(names)], capture_output=True, text=True,
                             check=True, cwd=ROOT).stdout
        assert json.loads(out) == [], prefix


def test_short_options_reach_click_by_their_long_names():
    args = normalize_args(main, ["k.ttir", "-o", "out.mlir", "-o=x"])
    assert long_spellings(main, args) == ["k.ttir", "--output", "out.mlir", "--output", "x"]
    assert long_spellings(main, ["--dump-dir", "-o", "-o"]) == ["--dump-dir", "-o", "-o"]  # a value; a last -o
    assert long_spellings(main, ["--", "-o", "x"]) == ["--", "-o", "x"]


def test_records_behave_as_attrs_classes():
    @records.define
    class Options:
        name: str
        flags: list = attrs.Factory(list)
        _cache: dict = attrs.field(factory=dict, eq=False, repr=False)

    @records.frozen
    class Point:
        x: int
        y: "Point | None" = None

    assert repr(Options("a")) == "Options(name='a', flags=[])"
    assert Options("a") == Options("a", cache={1: 2}) and Options("a") != Options("b")
    assert Options.__hash__ is None
    assert Point(1) == Point(1) and hash(Point(1, Point(2))) == hash(Point(1, Point(2)))
    assert repr(Point(1, Point(2))) == "Point(x=1, y=Point(x=2, y=None))"
    assert attrs.evolve(Point(1), x=3) == Point(3)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        Point(1).x = 2


@pytest.mark.parametrize("enabled", [True, False])
def test_lower_leaves_the_collector_as_it_found_it(enabled):
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert "hivm.hir.custom" in lower(KERNEL.read_text(), filename="k.ttir")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_an_output_file_keeps_its_mode_and_no_temporary_file_is_left(tmp_path):
    target = tmp_path / "out.mlir"
    target.write_text("old")
    target.chmod(0o640)
    write_file(str(target), "new\n")
    assert target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]
