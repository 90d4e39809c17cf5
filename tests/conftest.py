"""Test setup: the tests' helper modules are importable; hypothesis profiles.

``default`` keeps the whole suite within CI's budget; ``thorough``
(``pytest --hypothesis-profile=thorough``) runs many more examples for longer hunts.
"""

import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("default", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("default")
