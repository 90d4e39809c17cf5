"""The project's shared corpus (``../shared/corpus`` next to the repository), for the tests that
read it.

A test that needs it skips with :data:`REASON` when it is absent (README, "Tests"), never
silently; with ``TTD_REQUIRE_SHARED_CORPUS=1`` (set by ``.ci/run``) its absence fails the test
run instead (``tests/conftest.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXTERNAL = SHARED / "external"
SPEC = SHARED.parent / "spec" / "SPEC.md"  #: the shared normative spec (docs/SPEC.md is its copy)
REQUIRED = os.environ.get("TTD_REQUIRE_SHARED_CORPUS") == "1"
REASON = "../shared/corpus is not next to the repository"  # as the README lists it (Tests)


def present() -> bool:
    """Whether the shared corpus is there."""
    return SHARED.is_dir()


def absent_param():
    """A parametrize entry that stands for the shared corpus's files when it is absent: the
    test skips with :data:`REASON` (the run already fails when it is required)."""
    return pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus is not next to the repository"),
                        id="shared-corpus-absent")


def files(*patterns: str, under: Path = SHARED) -> list:
    """The files of ``under`` (the shared corpus, or a folder of it) matching the glob
    ``patterns`` (sorted; ``**`` patterns recurse), or ``[absent_param()]`` when it is absent."""
    if not under.is_dir():
        return [absent_param()]
    found = sorted({p for pattern in patterns for p in under.glob(pattern) if p.is_file()})
    return found


def require() -> None:
    """Skip the calling test with :data:`REASON` when the shared corpus is absent."""
    if not present():
        pytest.skip("../shared/corpus is not next to the repository")
