"""A module's body is a graph region (issue 25, suspected point 1).

MLIR's ``builtin.module`` carries ``GraphRegionNoTerminator`` (``RegionKindInterface``,
``RegionKind::Graph``): no dominance is required in its body, so an op there may use a value
defined after it (``triton-adapter-opt`` accepts that, and refuses the same order inside a
``tt.func``, an SSACFG region).  A distributed op at the top level lowers in either order.
"""

from __future__ import annotations

import pytest

import downstream_tools
from test_downstream import verify
from transpiler import LoweringError, lower

LATER = """module {
  %r = distributed.get_rank %c : i32
  %q = distributed.symm_at %p, %r, : !tt.ptr<f32>
  "distributed.notify"(%s, %v, %r) <{commScope = 1 : i32, sigOp = 2 : i32}> : (!tt.ptr<i32>, i64, i32) -> ()
  %c = arith.constant -1 : i32
  %v = arith.extsi %c : i32 to i64
  %p = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
  %s = tt.int_to_ptr %i : i64 -> !tt.ptr<i32>
  %i = arith.constant 4096 : i64
}
"""


def test_module_body_may_use_later_values(tmp_path):
    out = lower(LATER, filename="later.mlir")
    assert out.count("hivm.hir.custom") == 3
    path = tmp_path / "later.mlir"
    path.write_text(out)
    proc = verify([path])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_implicit_module_too():
    body = "".join(line[2:] + "\n" for line in LATER.splitlines()[1:-1])
    assert lower(body).count("hivm.hir.custom") == 3


def test_triton_adapter_opt_decides_the_same_way():
    tool = downstream_tools.require("triton-adapter-opt")
    use_first = '  %r = "test.use"(%c) : (i32) -> i32\n  %c = arith.constant -1 : i32\n'
    top = downstream_tools.run(tool, ["--allow-unregistered-dialect"], "module {\n" + use_first + "}\n")
    assert top.returncode == 0, top.stderr
    in_func = downstream_tools.run(tool, ["--allow-unregistered-dialect"],
                                   "module {\n  tt.func @f() {\n" + use_first + "  tt.return\n  }\n}\n")
    assert in_func.returncode != 0 and "does not dominate" in in_func.stderr


def test_a_function_body_still_requires_dominance():
    text = "module {\n  tt.func @f() {\n    %r = distributed.get_rank %c : i32\n    %c = arith.constant -1 : i32\n" \
           "    tt.return\n  }\n}\n"
    with pytest.raises(LoweringError, match=r"k\.mlir:3:31: error: 'distributed\.get_rank' op operand #0 does not "
                                            r"dominate this use"):
        lower(text, filename="k.mlir")
