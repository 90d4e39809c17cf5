"""No distributed op passes through unread (found by the repeated trial of issue 25): text the
reader cannot read as MLIR does (``%%q`` is no value name) made a ``tt.func``'s ``{`` an
attribute dictionary, and the distributed op in it was copied to the output unlowered, exit 0.
Now that is an error at the op's name; names in strings, comments, symbols, aliases and
attribute names are no ops.
"""

from __future__ import annotations

import re

import pytest

from transpiler import LoweringError, lower

BODY = "module {{\n  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {{\n    {op}\n    tt.return\n  }}\n}}\n"


@pytest.mark.parametrize("op, column", [
    ("%%q = distributed.symm_at %p, %n, : !tt.ptr<f32>", 11),
    ('%%q = "distributed.get_rank"(%n) : (i32) -> i32', 11),
])
def test_an_op_hidden_in_another_ops_text_is_an_error(op, column):
    with pytest.raises(LoweringError) as info:
        lower(BODY.format(op=op), filename="hidden.mlir")
    message = str(info.value)
    assert re.search(rf"hidden\.mlir:3:{column}: error: '[\w.]+' is not read as an op here", message), message
    assert "it stands in the text of 'tt.func'" in message


def test_names_that_are_no_ops_pass():
    op = ('tt.print " distributed.wait " {distributed.notify = 1 : i32, hex = false, isSigned = array<i32: 0>} '
          '// distributed.symm_at %p')
    text = BODY.format(op=op)
    assert lower(text) == text
