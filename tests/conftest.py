"""Test setup: the tests' helper modules are importable; hypothesis profiles; the switches a
user's shell may export (``MLIR_ENABLE_DUMP=1`` for Triton, a dump folder) are removed, so that
they do not change what the tests see.

``default`` keeps the whole suite within CI's budget; ``thorough``
(``pytest --hypothesis-profile=thorough``) runs many more examples for longer hunts.
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

for _var in ("MLIR_ENABLE_DUMP", "MLIR_DUMP_PATH", "TTD_DUMP_DIR", "TTD_OVERRIDE_DIR", "TTD_LOWER_TEST_PAUSE_WRITE"):
    os.environ.pop(_var, None)
