"""Test setup: make the tests' helper modules importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
