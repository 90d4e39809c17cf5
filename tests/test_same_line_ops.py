"""Several ops on one line (issue 25, item 1): MLIR's parser ends a declared op where its format
ends, so ``%r = distributed.get_rank %n : i32 tt.return`` is two ops.  Each case lowers to exactly
what the same module with one op per line lowers to (the new ops on lines of their own, SPEC.md
section 2.6), and the downstream tools accept it.
"""

from __future__ import annotations

import pytest

from test_downstream import verify
from transpiler import lower

# `{s4}` / `{s6}`: what stands after or before a distributed op, a blank (same line) or a line
# break and the indentation of that nesting depth (one op per line); other ops that share a line
# (`tt.store ... scf.yield`) pass through as written in both spellings
CASES = {
    "get_rank_then_return": """
module {
  tt.func public @k(%n: i32) {
    %r = distributed.get_rank %n : i32{s4}tt.return
  }
}
""",
    "location_then_return": """
module {
  tt.func public @k(%n: i32) {
    %r = distributed.get_num_ranks %n : i32 loc("k.py":4:5){s4}tt.return
  }
}
""",
    "notify_then_return": """
module {
  tt.func public @k(%p: !tt.ptr<i32>, %peer: i32) {
    %c = arith.constant 3 : i64
    "distributed.notify"(%p, %c, %peer) <{commScope = 3 : i32, sigOp = 1 : i32}> : (!tt.ptr<i32>, i64, i32) -> (){s4}tt.return
  }
}
""",
    "constant_then_notify": """
module {
  tt.func public @k(%p: !tt.ptr<i32>, %peer: i32) {
    %c = arith.constant 3 : i64{s4}"distributed.notify"(%p, %c, %peer) {sigOp = 2 : i32, commScope = 1 : i32} : (!tt.ptr<i32>, i64, i32) -> (){s4}tt.return
  }
}
""",
    "symm_at_then_yield": """
module {
  tt.func public @k(%q: !tt.ptr<f32>, %peer: i32, %b: i1) -> !tt.ptr<f32> {
    %x = scf.if %b -> (!tt.ptr<f32>) {
      %h = distributed.symm_at %q, %peer, : !tt.ptr<f32>{s6}scf.yield %h : !tt.ptr<f32>
    } else {
      scf.yield %q : !tt.ptr<f32>
    }
    tt.return %x : !tt.ptr<f32>
  }
}
""",
    "wait_consume_store_return": """
module {
  tt.func public @k(%bar: !tt.ptr<i32>, %p: !tt.ptr<f32>, %v: f32) {
    %c1 = arith.constant 1 : i32
    %t = distributed.wait %bar, %c1, %c1, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32{s4}%q = distributed.consume_token %p, %t, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>{s4}tt.store %q, %v : !tt.ptr<f32>
    tt.return
  }
}
""",
    "extern_call_then_return": """
module {
  tt.func public @k() {
    distributed.extern_call {distributed.core_type = "cube_and_vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier_all"} : () -> (){s4}tt.return
  }
}
""",
    "generic_rank_then_return_in_loop": """
module {
  tt.func public @k(%n: i32, %out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %r = "distributed.get_rank"(%c0) : (i32) -> i32{s6}tt.store %out, %r : !tt.ptr<i32> scf.yield
    }
    tt.return
  }
}
""",
}


def _spellings(template: str):
    same_line = template.replace("{s4}", " ").replace("{s6}", " ")
    one_per_line = template.replace("{s4}", "\n    ").replace("{s6}", "\n      ")
    return same_line, one_per_line


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_line_lowers_as_one_op_per_line(name):
    same_line, one_per_line = _spellings(CASES[name])
    expected = lower(one_per_line)
    assert "distributed." not in expected.replace("distributed.core_type", "")
    assert lower(same_line) == expected


def test_same_line_outputs_pass_downstream(tmp_path):
    paths = []
    for name in sorted(CASES):
        path = tmp_path / f"{name}.mlir"
        path.write_text(lower(_spellings(CASES[name])[0]))
        paths.append(path)
    proc = verify(paths)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASS ") == len(paths)


def test_undeclared_custom_op_keeps_its_words():
    """An undeclared op in custom form may hold any word: it is not cut before a dotted name
    (only declared formats and the generic form end there), and passes through unchanged."""
    text = "module {\n  tt.func @k(%n: i32) {\n    acme.op %n some.word : i32\n    tt.return\n  }\n}\n"
    assert lower(text) == text
