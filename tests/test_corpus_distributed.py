"""Every distributed corpus input lowers to what its ``.expect.json`` says (issue 2, item 1)."""

from __future__ import annotations

import warnings

import pytest

from expectations import DISTRIBUTED, check_error, check_lowered, distributed_cases, lint_warnings, load_expectation
from transpiler import LoweringError, LoweringWarning, lower

CASES = distributed_cases()


@pytest.mark.parametrize("ttir, expect_path, legacy", CASES, ids=[c[1].name for c in CASES])
def test_distributed_corpus(ttir, expect_path, legacy):
    expect = load_expectation(expect_path)
    assert expect.get("options", {}).get("legacy_core_type", False) == legacy
    text = ttir.read_text()
    filename = str(ttir)
    if expect.get("error"):
        with pytest.raises(LoweringError) as info:
            lower(text, filename=filename, core_type_fallback=legacy)
        check_error(str(info.value), filename, expect)
    else:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = lower(text, filename=filename, core_type_fallback=legacy)
        check_lowered(text, out, expect)
        # the protocol lint's warnings (issue 17): exactly those expectations.LINT_WARNINGS lists
        got, want = lint_warnings([w.message.diagnostic for w in caught if w.category is LoweringWarning],
                                  DISTRIBUTED, ttir)
        assert got == want


def test_every_input_has_an_expectation():
    assert len(CASES) >= 30
    assert all(p.exists() for _, p, _ in CASES)


@pytest.mark.filterwarnings("ignore::transpiler.api.LoweringWarning")  # checked in test_distributed_corpus
def test_lowering_is_idempotent_on_corpus():
    """Lowering the output again changes nothing (no distributed op is left to lower)."""
    for ttir, expect_path, legacy in CASES:
        if load_expectation(expect_path).get("error"):
            continue
        once = lower(ttir.read_text(), filename=str(ttir), core_type_fallback=legacy)
        assert "distributed." not in once.replace("distributed.core_type", "")
        assert lower(once, core_type_fallback=legacy) == once
