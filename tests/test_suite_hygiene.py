"""The suite itself, as a new user sees it (issue 24): a green run is quiet, and every reason a
test may skip for is one the README lists.

* ``pyproject.toml`` turns the project's own :class:`~transpiler.api.LoweringWarning` into an
  error in every test, so a test that expects one must assert it (``pytest.warns``, or a filter
  scoped to that test) and a green ``python -m pytest`` prints no warnings summary of ours.
* Every ``pytest.skip`` / ``skipif`` / ``skip_or_fail`` reason of ``tests/`` (its fixed text,
  before any detail filled in at run time) is named in the README's "Tests" section.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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
