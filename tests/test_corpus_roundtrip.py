"""Modules without distributed ops come out byte-identical (issue 2, item 2; SPEC.md section 3).

Every TTIR file of the corpus (Triton 3.0, 3.4 and 3.9; with and without locations; pre-pass
dumps) is parsed, run through the whole pipeline and printed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from transpiler import lower
from transpiler.parser import parse_module

TTIR = sorted((Path(__file__).parent / "corpus" / "ttir").rglob("*.ttir"))


def test_corpus_is_there():
    assert len(TTIR) == 165
    versions = {p.relative_to(TTIR[0].parents[1]).parts[0] for p in TTIR}
    assert {"triton-3.0", "triton-3.4", "triton-3.9"} <= versions


@pytest.mark.parametrize("path", TTIR, ids=[str(p.relative_to(p.parents[2])) for p in TTIR])
def test_roundtrip_byte_identical(path):
    text = path.read_text()
    assert lower(text, filename=str(path)) == text


@pytest.mark.parametrize("path", TTIR[::7], ids=[str(p.relative_to(p.parents[2])) for p in TTIR[::7]])
def test_structure_is_parsed(path):
    """The parse sees every op line (not just copies text): op count matches the op lines."""
    text = path.read_text()
    module = parse_module(text, str(path))
    ops = list(module.walk())
    op_lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith(("#", "}", "^", "//"))]
    assert len(ops) == len(op_lines)
    assert sum(1 for op in ops if op.name == "tt.func") == text.count("tt.func ")
