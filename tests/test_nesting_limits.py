"""A type nested deeper than the reader supports gets an error that names the limit (issue 30).

The TYPE terminal of ``grammars/ttir.lark`` is a regular expression, so it nests ``<...>`` a
fixed number of levels: :data:`TYPE_NESTING_LIMIT`, inside an op's text.  A type at the limit
is read; one level more is refused with a message that says so.  A type read alone
(``parse_type``, the recursive ``type`` rule) has no such limit."""

from __future__ import annotations

import pytest

from transpiler import LoweringError, lower
from transpiler.parser.detail.errors import LOC_NESTING_LIMIT, TYPE_NESTING_LIMIT, angle_depth, loc_depth
from transpiler.parser.detail.text import parse_type


def nested(depth: int) -> str:
    """A pointer type with ``<...>`` nested ``depth`` deep (tensors of pointers, then i32)."""
    text = "i32"
    for level in range(depth):
        text = f"!tt.ptr<{text}>" if level % 2 == 0 else f"tensor<2x{text}>"
    return text


def test_nested_builds_the_depth_it_names():
    assert [angle_depth(nested(d)) for d in (1, 2, 5, 6)] == [1, 2, 5, 6]
    assert angle_depth('tensor<4xf32, #e<"a<<<">>') == 2  # strings and `->` do not count
    assert angle_depth("(i32) -> !tt.ptr<f32>") == 1


def test_a_type_read_alone_has_no_limit():
    for depth in (TYPE_NESTING_LIMIT, TYPE_NESTING_LIMIT + 1, 3 * TYPE_NESTING_LIMIT):
        assert str(parse_type(nested(depth))) == nested(depth)


def _kernel(type_text: str) -> str:
    return (
        "module {\n"
        f"  tt.func public @k(%a: {type_text}, %peer: i32) {{\n"
        f"    %r = distributed.symm_at %a, %peer, : {type_text}\n"
        "    tt.return\n"
        "  }\n"
        "}\n"
    )


@pytest.mark.parametrize("depth", [TYPE_NESTING_LIMIT + 1, TYPE_NESTING_LIMIT + 4])
def test_inside_an_op_the_error_names_the_limit(depth):
    with pytest.raises(LoweringError) as info:
        lower(_kernel(nested(depth)), filename="deep.ttir")
    message = str(info.value)
    assert message.startswith("deep.ttir:3:")
    assert f"nests '<...>' {depth} deep; ttd-lower reads types nested up to {TYPE_NESTING_LIMIT} deep" in message


def test_inside_an_op_at_the_limit_no_nesting_error():
    try:
        lower(_kernel(nested(TYPE_NESTING_LIMIT)), filename="deep.ttir")
    except LoweringError as e:  # the op may be refused for its type, but not for its nesting
        assert "nested up to" not in str(e)


# ---- locations (issue 30: `loc` nested 16 deep) -----------------------------------------------

def nested_loc(depth: int) -> str:
    """``loc(callsite(... at ...))`` with ``(...)`` nested ``depth`` deep, ``loc(`` included."""
    site = '"k.py":1:2'
    for level in range(depth - 1):
        site = f'callsite({site} at "g.py":{level + 1}:1)'
    return f"loc({site})"


def _located(loc: str) -> str:
    return ("module {\n"
            "  tt.func public @k(%p: !tt.ptr<i32>, %peer: i32) {\n"
            f"    %x = distributed.symm_at %p, %peer, : !tt.ptr<i32> {loc}\n"
            "    tt.return\n"
            "  }\n"
            "}\n")


def test_nested_loc_builds_the_depth_it_names():
    assert [loc_depth(nested_loc(d)) for d in (1, 2, 16)] == [1, 2, 16]
    assert loc_depth('loc("a(((":1:2)') == 1 and loc_depth("%x = tt.load %p") == 0


@pytest.mark.parametrize("depth", [2, 8, LOC_NESTING_LIMIT])
def test_a_location_up_to_the_limit_lowers(depth):
    out = lower(_located(nested_loc(depth)), filename="loc.ttir")
    assert "hivm.hir.custom" in out and nested_loc(depth) in out


@pytest.mark.parametrize("depth", [LOC_NESTING_LIMIT + 1, 2 * LOC_NESTING_LIMIT])
def test_a_deeper_location_names_the_limit(depth):
    with pytest.raises(LoweringError) as info:
        lower(_located(nested_loc(depth)), filename="loc.ttir")
    message = str(info.value)
    assert message.startswith("loc.ttir:3:")
    assert f"a location nests '(...)' {depth} deep; ttd-lower reads locations nested up to {LOC_NESTING_LIMIT} deep" in message
