"""Test setup: the tests' helper modules are importable; hypothesis profiles; the switches a
user's shell may export (``MLIR_ENABLE_DUMP=1`` for Triton, a dump folder) are removed, so that
they do not change what the tests see.

``default`` keeps the whole suite within CI's budget; ``thorough``
(``pytest --hypothesis-profile=thorough``) runs many more examples for longer hunts.

The tests that read the shared corpus (``../shared/corpus``) skip with a reason when it is
absent (``tests/shared_corpus.py``); ``TTD_REQUIRE_SHARED_CORPUS=1`` makes its absence an error.
"""

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("default", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("default")

import pytest  # noqa: E402
import shared_corpus  # noqa: E402  (a helper of this folder, importable from here on)


def pytest_configure(config):
    """With ``TTD_REQUIRE_SHARED_CORPUS=1`` (``.ci/run``), an absent shared corpus stops the run
    (its tests would otherwise be skipped)."""
    if shared_corpus.REQUIRED and not shared_corpus.present():
        raise pytest.UsageError(f"TTD_REQUIRE_SHARED_CORPUS=1 but {shared_corpus.SHARED} is absent: "
                                "the tests that read it would be skipped")

for _var in ("MLIR_ENABLE_DUMP", "MLIR_DUMP_PATH", "TTD_DUMP_DIR", "TTD_OVERRIDE_DIR", "TTD_LOWER_TEST_PAUSE_WRITE"):
    os.environ.pop(_var, None)
