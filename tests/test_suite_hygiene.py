"""The suite itself, as a new user sees it (issue 24): a green run is quiet, and every reason a
test may skip for is one the README lists.

* ``pyproject.toml`` turns the project's own :class:`~transpiler.api.LoweringWarning` into an
  error in every test, so a test that expects one must assert it (``pytest.warns``, or a filter
  scoped to that test) and a green ``python -m pytest`` prints no warnings summary of ours.
* Every ``pytest.skip`` / ``skipif`` / ``skip_or_fail`` reason of ``tests/`` (its fixed text,
  before any detail filled in at run time) is named in the README's "Tests" section.
* One cache folder, ``$TTD_LOWER_CACHE``, holds every download and side venv of the project,
  each in a folder the README's "Cache" section names; ``$TTD_DOWNSTREAM_CACHE`` still works.
"""

from __future__ import annotations

import ast
import os
import re
import runpy
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import side_tools  # noqa: F401  (puts tests/tools, side_venv's folder, on sys.path)
import side_venv

from transpiler import LoweringWarning, lower

ROOT = Path(__file__).parents[1]
UNUSED_TOKEN = """module {
  tt.func public @k(%bar: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %t = distributed.wait %bar, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    tt.return
  }
}
"""


def test_an_unasserted_project_warning_fails_its_test():
    """The suite's configuration is in force here: a LoweringWarning nobody asserts is an error."""
    with pytest.raises(LoweringWarning, match="unused-wait-token"):
        lower(UNUSED_TOKEN, filename="k.ttir")


# ---- every skip reason is in the README --------------------------------------------------------

SKIP_CALLS = ("skip", "skip_or_fail", "skipif")


def _call_name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _fixed_text(node: ast.expr) -> str:
    """The part of a reason known before the run: a string, the longest literal piece of an
    f-string, the left operand of ``+``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        pieces = [v.value for v in node.values if isinstance(v, ast.Constant)]
        return max(pieces, key=len) if pieces else ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _fixed_text(node.left)
    return ""


def skip_reasons():
    """(file:line, fixed text of the reason) of every skip call in ``tests/*.py``."""
    found = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        tree = ast.parse(path.read_text())
        # a skip helper's own body passes its caller's reason on (downstream_tools.skip_or_fail)
        helpers = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name in SKIP_CALLS
                   for n in ast.walk(f)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _call_name(node.func) in SKIP_CALLS) or id(node) in helpers:
                continue
            if _call_name(node.func) == "skipif":
                reason = next((k.value for k in node.keywords if k.arg == "reason"), None)
            else:
                reason = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "reason"), None)
            found.append((f"{path.name}:{node.lineno}", _fixed_text(reason).strip(" :") if reason else ""))
    return found


def readme_section(title: str) -> str:
    """The README's ``## title`` section, its whitespace runs made single spaces."""
    text = (ROOT / "README.md").read_text()
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return " ".join(text[start : end if end > 0 else len(text)].split())


def test_every_skip_reason_is_listed_in_the_readme():
    reasons = skip_reasons()
    assert len(reasons) >= 8, reasons  # the scan finds the suite's skips
    section = readme_section("Tests")
    missing = [(where, reason) for where, reason in reasons if not reason or reason not in section]
    assert not missing, f"skip reasons the README's Tests section does not list: {missing}"


# ---- one cache folder -------------------------------------------------------------------------

def verify_downstream() -> dict:
    return runpy.run_path(str(ROOT / "tests" / "tools" / "verify-downstream"), run_name="verify_downstream")


def test_one_cache_folder_holds_the_downloads_and_the_side_venvs(tmp_path, monkeypatch):
    monkeypatch.setenv("TTD_LOWER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TTD_DOWNSTREAM_CACHE", raising=False)
    import host_library

    folders = [Path(verify_downstream()["cache_dir"]()), side_venv.cache_root(), host_library.cache_root()]
    section = readme_section("Cache, licence, bug reports")
    for folder in folders:
        relative = folder.relative_to(tmp_path / "cache")  # under the one root
        assert f"`{relative.as_posix()}/`" in section, relative
    # the older variable still works, for both
    monkeypatch.setenv("TTD_DOWNSTREAM_CACHE", str(tmp_path / "old"))
    assert Path(verify_downstream()["cache_dir"]()) == tmp_path / "old"
    assert side_venv.cache_root() == tmp_path / "old" / "venvs"



def test_only_shared_corpus_locates_the_shared_folder():
    """Issue 30: one definition of where ../shared is (tests/shared_corpus.py); a test module that
    builds the path itself skips or fails on its own terms when the folder moves."""
    tests = Path(__file__).parent
    pattern = re.compile(r"""["']shared["']\s*\)?\s*/|/work/shared""")
    offenders = [p.name for p in sorted(tests.glob("*.py"))
                 if p.name != "shared_corpus.py" and p.name != Path(__file__).name and pattern.search(p.read_text())]
    assert offenders == [], f"use tests/shared_corpus.py for the shared corpus path: {offenders}"


def test_no_test_prints_past_the_capture():
    """Issue 31 item 2: a green run prints only pytest's own lines.  A test's report (the lit
    sweep, the mutants caught, the device library's differences) goes to captured stdout,
    which pytest shows when that test fails, never through ``capsys.disabled()``."""
    offenders = [p.name for p in sorted((ROOT / "tests").glob("*.py"))
                 if p.name != Path(__file__).name and "capsys.disabled()" in p.read_text(encoding="utf-8")]
    assert not offenders, offenders


def test_tritons_fp_fusion_warning_is_not_shown():
    """Issue 31 item 2: Triton's once-per-process ``TRITON_DEFAULT_FP_FUSION is unset`` warning
    is filtered in ``pyproject.toml`` (it is upstream's, about a default the tests keep)."""
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.warn("TRITON_DEFAULT_FP_FUSION is unset: defaulting to FP fusion ENABLED", UserWarning)
    assert not seen, [str(w.message) for w in seen]


def test_a_side_venv_whose_python_is_gone_is_made_again(tmp_path, monkeypatch):
    """A cached environment marked complete whose ``bin/python`` links into a deleted venv (a
    CI clone's ``.venv-py3.9``) is rebuilt, from the interpreter itself rather than a venv link."""
    monkeypatch.setenv("TTD_LOWER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TTD_DOWNSTREAM_CACHE", raising=False)
    python, version = sys.executable, tuple(sys.version_info[:2])
    monkeypatch.setattr(side_venv, "find_python", lambda lo, hi: (python, version))
    ran = []

    def run(cmd, **kw):
        ran.append(cmd)
        if cmd[1:3] == ["-m", "venv"]:
            (Path(cmd[3]) / "bin").mkdir(parents=True)
            (Path(cmd[3]) / "bin" / "python").symlink_to(sys.executable)
        return SimpleNamespace(returncode=0, stdout="", stderr="")

    monkeypatch.setattr(side_venv.subprocess, "run", run)
    first = side_venv.ensure("filecheck")
    assert len(ran) == 2 and ran[0][0] == os.path.realpath(python)
    (first / "python").unlink()
    (first / "python").symlink_to(tmp_path / "deleted-clone" / ".venv-py3.9" / "bin" / "python")
    assert side_venv.ensure("filecheck") == first and len(ran) == 4  # made again
    assert side_venv.ensure("filecheck") == first and len(ran) == 4  # then reused
