"""Locating (and, on first use, installing) the real downstream tools for tests.

Binaries come from ``$TRITON_ADAPTER_OPT`` / ``$BISHENGIR_OPT`` or the cache that
``tests/tools/verify-downstream --install`` fills (its ``cache_dir()``: ``$TTD_DOWNSTREAM_CACHE``,
else ``$TTD_LOWER_CACHE/downstream``, default ``~/.cache/ttd-lower/downstream``).  When they cannot be had, tests skip, unless
``TTD_REQUIRE_DOWNSTREAM=1`` (CI), which makes that a failure.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).parent / "tools" / "verify-downstream"


def _cache_bin() -> Path:
    import runpy

    return Path(runpy.run_path(str(TOOL), run_name="verify_downstream")["cache_dir"]()) / "bin"


@functools.lru_cache(maxsize=None)
def _find(name: str, env_var: str):
    explicit = os.environ.get(env_var)
    if explicit and Path(explicit).exists():
        return explicit
    candidate = _cache_bin() / name
    if not candidate.exists():
        subprocess.run([sys.executable, str(TOOL), "--install", "-q"], capture_output=True, text=True, timeout=1800)
    return str(candidate) if candidate.exists() else None


def require(name: str) -> str:
    """Path of ``triton-adapter-opt`` or ``bishengir-opt``; skip (or fail in CI) without it."""
    env_var = {"triton-adapter-opt": "TRITON_ADAPTER_OPT", "bishengir-opt": "BISHENGIR_OPT"}[name]
    path = _find(name, env_var)
    if path is None:
        skip_or_fail(f"{name} is not available (tests/tools/verify-downstream --install could not get it)")
    return path


def skip_or_fail(message: str) -> None:
    """Skip the test for a missing tool, or fail it in CI (``TTD_REQUIRE_DOWNSTREAM=1``)."""
    if os.environ.get("TTD_REQUIRE_DOWNSTREAM") == "1":
        pytest.fail(message)
    pytest.skip(message)


def run(tool: str, args, text: str):
    """Run a tool on ``text`` (stdin); returns the CompletedProcess."""
    return subprocess.run([tool, *args, "-"], input=text, capture_output=True, text=True, timeout=600)
