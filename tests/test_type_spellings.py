"""Equivalent spellings of one type (issue 25, item 5): blanks around a tensor's ``x``
(``tensor<4 x !tt.ptr<f32>>``) and Triton's default address space written out
(``!tt.ptr<f32, 1>``, which Triton prints without) are the type of the canonical spelling, as
they are to ``triton-adapter-opt``; a distributed op written with them lowers exactly as one
written canonically.
"""

from __future__ import annotations

import re

import pytest

import downstream_tools
from transpiler import lower
from transpiler.parser.detail.text import parse_type

# (spelling, canonical spelling): the canonical one is what triton-adapter-opt prints
SPELLINGS = [
    ("tensor<4 x !tt.ptr<f32>>", "tensor<4x!tt.ptr<f32>>"),
    ("tensor< 4 x ? x i32 >", "tensor<4x?xi32>"),
    ("tensor<4 x8xf16>", "tensor<4x8xf16>"),
    ("tensor<4x 8 xf16>", "tensor<4x8xf16>"),
    ("tensor<2 x 4 x !tt.ptr<bf16, 1>>", "tensor<2x4x!tt.ptr<bf16>>"),
    ("!tt.ptr<f32, 1>", "!tt.ptr<f32>"),
    ("!tt.ptr<f32,1>", "!tt.ptr<f32>"),
    ("!tt.ptr<f32, 0x1>", "!tt.ptr<f32>"),
    ("!tt.ptr<f32, 01>", "!tt.ptr<f32>"),
    ("!tt.ptr< i32 , 1 >", "!tt.ptr<i32>"),
    ("!tt.ptr<f32, 2>", "!tt.ptr<f32, 2>"),
    # found by the repeated trial: blanks between the keyword and its `<`
    ("tensor <4 x !tt.ptr<f32>>", "tensor<4x!tt.ptr<f32>>"),
    ("tensor\t<2xi32>", "tensor<2xi32>"),
]


@pytest.mark.parametrize("spelling, canonical", SPELLINGS)
def test_spelling_is_the_canonical_type(spelling, canonical):
    assert parse_type(spelling) == parse_type(canonical)
    assert str(parse_type(spelling)) == canonical


def test_triton_adapter_opt_prints_the_same_canonical_types():
    tool = downstream_tools.require("triton-adapter-opt")
    stubs = "".join(f'  %v{i} = "stub.t"() : () -> {s}\n' for i, (s, _) in enumerate(SPELLINGS))
    proc = downstream_tools.run(tool, ["--allow-unregistered-dialect"], "module {\n" + stubs + "}\n")
    assert proc.returncode == 0, proc.stderr
    printed = re.findall(r'"stub\.t"\(\) : \(\) -> (.*)', proc.stdout)
    assert printed == [c for _, c in SPELLINGS]


KERNEL = """
module {
  tt.func public @k(%p: !tt.ptr<f32>, %peer: i32, %tok: i32, %bar: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    %q = distributed.symm_at %p, %peer, : PTR
    %r = tt.splat %q : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %s = distributed.consume_token %r, %tok, : TENSOR, i32 -> TENSOR
    %g = "distributed.symm_at"(%p, %peer) : (PTR, i32) -> PTR
    %t = distributed.wait %bar, %c1, %c1, scope = gpu semantic = acquire : IPTR, i32, i32 -> i32
    %u = distributed.consume_token %g, %t, : PTR, i32 -> PTR
    tt.return
  }
}
"""


def _kernel(ptr: str, tensor: str, iptr: str) -> str:
    return KERNEL.replace("IPTR", iptr).replace("PTR", ptr).replace("TENSOR", tensor)


def test_distributed_ops_with_equivalent_spellings_lower_as_the_canonical_ones():
    canonical = lower(_kernel("!tt.ptr<f32>", "tensor<4x!tt.ptr<f32>>", "!tt.ptr<i32>"))
    odd = lower(_kernel("!tt.ptr<f32, 1>", "tensor <4 x !tt.ptr<f32, 1>>", "!tt.ptr< i32,1 >"))
    assert odd == canonical
    assert "aclshmem_consume_token_float_ptr_1d" in odd
