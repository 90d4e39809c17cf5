"""A source op whose ``loc(...)`` spans lines (issue 25, item 7): the custom op that replaces it
is printed on one line (SPEC.md section 2.6), its location on that line with the same meaning
(line breaks and comments between the location's tokens are blanks to MLIR's lexer), and the
downstream tools accept it.
"""

from __future__ import annotations

import pytest

from test_downstream import verify
from transpiler import lower
from transpiler.emit.location_text import one_line_location

KERNEL = """module {
  tt.func public @k(%n: i32, %p: !tt.ptr<f32>, %sig: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i64
    %r = distributed.get_rank %n : i32 loc(fused["a.py":1:2,
       "b.py":3:4])
    %s = distributed.get_num_ranks %n : i32 loc(
      "c.py":5:6)
    %q = distributed.symm_at %p, %n, : !tt.ptr<f32> loc(callsite("f"("d.py":7:8) // a comment
        at "e.py":9:10))
    "distributed.notify"(%sig, %c1, %n) <{commScope = 1 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> () loc(
        "g.py":11:12)
    tt.return
  }
}
"""


def test_custom_ops_with_multi_line_locations_sit_on_one_line(tmp_path):
    out = lower(KERNEL)
    lines = out.splitlines()
    customs = [line for line in lines if "hivm.hir.custom" in line]
    assert len(customs) == 4
    for line in customs:
        assert line.count("(") == line.count(")") and line.rstrip().endswith(")"), line
    assert 'loc(fused["a.py":1:2, "b.py":3:4])' in customs[0]
    assert 'loc(callsite("f"("d.py":7:8) at "e.py":9:10))' in customs[2]
    # the ops the notify needs (its i32 constants) carry the location on one line too
    assert all("\n" not in line for line in lines)
    assert not any(line.strip().startswith(('"b.py"', '"c.py"', "at ", '"g.py"')) for line in lines), out
    path = tmp_path / "locations.mlir"
    path.write_text(out)
    proc = verify([path])
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("text, expected", [
    ('loc("a.py":1:2)', 'loc("a.py":1:2)'),
    ('loc(\n  "c.py":5:6)', 'loc("c.py":5:6)'),
    ('loc(fused["a":1:2,\n  "b":3:4])', 'loc(fused["a":1:2, "b":3:4])'),
    ('loc("x // not a comment\\n":1:2 // a comment\n)', 'loc("x // not a comment\\n":1:2)'),
    ('loc("a"(#loc1)\r\n)', 'loc("a"(#loc1))'),
])
def test_one_line_location(text, expected):
    assert one_line_location(text) == expected
