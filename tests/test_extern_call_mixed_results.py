"""An extern_call with tensor and non-tensor results (issue 25, item 2; SPEC.md section 2.5: only
tensor results get a ``tensor.empty`` destination).

``hivm.hir.custom`` is destination-passing: its verifier ties ``outs[i]`` to result ``i`` and
wants as many tensor results as ``outs`` tensors (bishengir-opt: "expected type of operand #1
('tensor<4xi32>') to match type of corresponding result ('i32')").  With the tensor results
first, the lowering is what bishengir-opt accepts; a non-tensor result before a tensor result
cannot be written as a custom op with the source's result order (the uses ``%r#0``, ``%r#1``
pass through as written), so it is a located error, never output the tools reject.
"""

from __future__ import annotations

import re

import pytest

from test_downstream import verify
from transpiler import LoweringError, lower

CALL = ('    %r:2 = distributed.extern_call %n {{distributed.core_type = "vector", libname = "my_lib", libpath = "", '
        'pure = false, symbol = "my_lib_mixed"}} : (i32) -> ({results})\n')
USES = {"tensor<4xi32>, i32": "    tt.store %p, %r#1 : !tt.ptr<i32>\n",
        "i32, tensor<4xi32>": "    tt.store %p, %r#0 : !tt.ptr<i32>\n"}


def _module(results: str) -> str:
    return ("module {\n  tt.func public @k(%n: i32, %p: !tt.ptr<i32>) {\n" + CALL.format(results=results)
            + USES[results] + "    tt.return\n  }\n}\n")


# a library whose wrapper returns both results through out-parameters (SPEC.md section 5)
SYMBOLS = ("my_lib_mixed\tvoid _mlir_ciface_my_lib_mixed(memref_t<__gm__ int32_t, 1> *out, int32_t *value, "
           "int32_t n)\n")


def test_tensor_results_first_lower_to_what_bishengir_accepts(tmp_path):
    symbols = tmp_path / "symbols.txt"
    symbols.write_text(SYMBOLS)
    outputs = []
    for name, kwargs in (("no_link_check", {"link_check": False}), ("symbol_list", {"symbol_list": str(symbols)})):
        out = lower(_module("tensor<4xi32>, i32"), **kwargs)
        custom = next(line for line in out.splitlines() if "hivm.hir.custom" in line)
        assert re.search(r"outs\((%\w+) : tensor<4xi32>\) -> \(tensor<4xi32>, i32\)", custom), custom
        assert out.count("tensor.empty() : tensor<4xi32>") == 1
        path = tmp_path / f"{name}.mlir"
        path.write_text(out)
        outputs.append(path)
    proc = verify(outputs)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("kwargs", [{"link_check": False}, {"symbol_list": "SYMBOLS"}])
def test_a_scalar_result_before_a_tensor_result_is_a_located_error(tmp_path, kwargs):
    if "symbol_list" in kwargs:
        (tmp_path / "symbols.txt").write_text(SYMBOLS)
        kwargs = {"symbol_list": str(tmp_path / "symbols.txt")}
    with pytest.raises(LoweringError) as info:
        lower(_module("i32, tensor<4xi32>"), filename="mixed.ttir", **kwargs)
    message = str(info.value)
    assert re.search(r"mixed\.ttir:3:5: error: 'distributed\.extern_call' op ", message), message
    assert "result #1 (tensor<4xi32>) follows the non-tensor result #0 (i32)" in message, message
