"""docs/SPEC.md is the shared normative spec (../shared/spec/SPEC.md), copied whole.

The project ships the spec it is written against; when the shared one changes (issue 25: §5
says RMA counts are bytes, §7 was added), the copy follows, and this test says when it has not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shared_corpus import SPEC

ROOT = Path(__file__).resolve().parents[1]
SHARED = SPEC


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/spec/SPEC.md is not next to the repository")
def test_docs_spec_is_the_shared_spec():
    assert (ROOT / "docs" / "SPEC.md").read_text() == SHARED.read_text(), \
        "docs/SPEC.md differs from ../shared/spec/SPEC.md: copy it whole"


def test_spec_says_rma_counts_bytes():
    """The §5 line the bundled library follows (device_templates/src/rma.cpp)."""
    text = (ROOT / "docs" / "SPEC.md").read_text()
    assert "whose count operand is a number of\n**bytes**" in text
    assert "today it lacks" not in text
