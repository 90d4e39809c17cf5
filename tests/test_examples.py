"""The bundled examples: checked-in outputs are current and match the corpus expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from expectations import DISTRIBUTED, check_lowered, load_expectation
from transpiler import lower

EXAMPLES = sorted(p for p in (Path(__file__).parents[1] / "examples").iterdir() if p.is_dir())


def test_at_least_four_examples():
    assert len(EXAMPLES) >= 4
    for d in EXAMPLES:
        assert (d / f"{d.name}.ttir").exists() and (d / f"{d.name}.ttadapter.mlir").exists() and (d / "README.md").exists()


@pytest.mark.parametrize("example", EXAMPLES, ids=[d.name for d in EXAMPLES])
def test_checked_in_output_is_current(example):
    source = example / f"{example.name}.ttir"
    lowered = example / f"{example.name}.ttadapter.mlir"
    assert lower(source.read_text(), filename=str(source)) == lowered.read_text()


@pytest.mark.parametrize("example", EXAMPLES, ids=[d.name for d in EXAMPLES])
def test_output_matches_expectation(example):
    source = example / f"{example.name}.ttir"
    expect = load_expectation(DISTRIBUTED / f"{example.name}.expect.json")
    check_lowered(source.read_text(), (example / f"{example.name}.ttadapter.mlir").read_text(), expect)
