"""Attribute aliases in the distributed ops' attributes lower exactly as the values in place
(issue 30): ``#add = 2 : i32`` ... ``sigOp = #add`` is ``sigOp = 2 : i32`` to ``mlir-opt``
(MLIR LangRef, "Attribute Value Aliases"), so it is to ``ttd-lower``.

Every lowering case of the distributed corpus is rewritten with each such attribute's value
moved into an alias defined at the top of the file; the lowering must be the original's, with
the alias definitions kept in front (passed through as the rest of the file is)."""

from __future__ import annotations

import re
import warnings

import pytest

from expectations import distributed_cases, load_expectation
from transpiler import LoweringError, lower

NAMES = ("sigOp", "commScope", "core_type", "libname", "libpath", "symbol", "pure")
_VALUE = re.compile(r'\b(' + "|".join(NAMES) + r') = ("(?:[^"\\\n]|\\.)*"|-?\d+ : i32|true|false)')


def aliased(text: str):
    """(text with the values of :data:`NAMES` on ``distributed.`` lines turned into aliases,
    the alias definitions put in front)."""
    definitions = {}

    def use(m):
        name = definitions.setdefault(m.group(2), f"#v{len(definitions)}")
        return f"{m.group(1)} = {name}"

    lines = [_VALUE.sub(use, line) if "distributed." in line else line for line in text.splitlines(keepends=True)]
    front = "".join(f"{name} = {value}\n" for value, name in definitions.items())
    return front + "".join(lines), front


# the lowering cases with an attribute to alias (the others have no such attribute)
CASES = [c for c in distributed_cases() if not load_expectation(c[1]).get("error") and aliased(c[0].read_text())[1]]


@pytest.mark.parametrize("ttir, expect_path, legacy", CASES, ids=[c[1].name for c in CASES])
def test_aliases_lower_as_their_values(ttir, expect_path, legacy):
    text = ttir.read_text()
    changed, front = aliased(text)
    want, want_warnings = _lower(text, str(ttir), legacy, 0)
    got, got_warnings = _lower(changed, str(ttir), legacy, front.count("\n"))
    assert got.startswith(front)
    assert got[len(front):] == want
    assert got_warnings == want_warnings  # the protocol lint reads the same values


def _lower(text: str, filename: str, legacy: bool, shift: int):
    """(lowered text, the lint's warnings with their lines moved up by ``shift``)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = lower(text, filename=filename, core_type_fallback=legacy)
    located = re.compile(re.escape(filename) + r":(\d+):")
    lines = [located.sub(lambda m: f"{filename}:{int(m.group(1)) - shift}:", str(w.message).splitlines()[0])
             for w in caught]
    return out, lines


def test_the_rewrite_reaches_every_attribute_name():
    """The corpus exercises each attribute of the distributed ops through an alias."""
    seen = set()
    for ttir, _, _ in CASES:
        seen |= {m.group(1) for line in ttir.read_text().splitlines() if "distributed." in line
                 for m in _VALUE.finditer(line)}
    assert seen == set(NAMES)


def test_an_alias_of_a_wrong_value_is_refused_as_the_value_is():
    text = (
        "#bad = 7 : i32\n"
        "module {\n"
        "  tt.func public @k(%sig: !tt.ptr<i32>, %peer: i32) {\n"
        "    %c1 = arith.constant 1 : i64\n"
        '    "distributed.notify"(%sig, %c1, %peer) <{commScope = 3 : i32, sigOp = #bad}> : (!tt.ptr<i32>, i64, i32) -> ()\n'
        "    tt.return\n"
        "  }\n"
        "}\n"
    )
    with pytest.raises(LoweringError) as info:
        lower(text, filename="k.ttir")
    assert "k.ttir:5:5: error: 'distributed.notify' op 'sigOp' = 7 is not a SignalOp value" in str(info.value)


def test_an_alias_cycle_is_an_error_not_a_hang():
    text = (
        "#a = #b\n#b = #a\n"
        "module {\n"
        "  tt.func public @k(%sig: !tt.ptr<i32>, %peer: i32) {\n"
        "    %c1 = arith.constant 1 : i64\n"
        '    "distributed.notify"(%sig, %c1, %peer) <{commScope = 3 : i32, sigOp = #a}> : (!tt.ptr<i32>, i64, i32) -> ()\n'
        "    tt.return\n"
        "  }\n"
        "}\n"
    )
    with pytest.raises(LoweringError) as info:
        lower(text, filename="k.ttir")
    assert "k.ttir:6:5: error:" in str(info.value) and "cycle" in str(info.value)
