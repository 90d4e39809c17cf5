"""The cached side environments of ``tests/tools/side_venv.py``, for tests.

When one cannot be made (no network, no fitting interpreter), the test skips, unless
``TTD_REQUIRE_DOWNSTREAM=1`` (CI), which makes that a failure, as for the downstream tools.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path


ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

import side_venv  # noqa: E402
from downstream_tools import skip_or_fail  # noqa: E402


def project_dependencies():
    """The ``[project] dependencies`` of pyproject.toml (no TOML parser before Python 3.11)."""
    text = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
    return re.findall(r'^\s*"([^"]+)"', block, re.M)


@functools.lru_cache(maxsize=None)
def _ensure(name: str, extra: tuple):
    try:
        return side_venv.ensure(name, extra), None
    except side_venv.SideVenvError as e:
        return None, str(e)


def require(name: str, extra=()) -> Path:
    """The ``bin`` folder of side environment ``name``; skip (or fail in CI) without it."""
    bindir, why = _ensure(name, tuple(extra))
    if bindir is None:
        skip_or_fail(f"the {name} environment cannot be made: {why}")
    return bindir
