"""Hand-written syntax (``tt.func``, ``scf.for``/``if``/``while``): region arguments, print hooks.

The hooks read the arguments an op's own syntax gives its entry block (function arguments,
induction variables, iter_args, ``scf.while``'s ``before`` arguments) and print the op back as
MLIR does.  No downstream tool is needed.
"""

from __future__ import annotations

from transpiler.emit.printer import print_module
from transpiler.ir.attributes import ArrayAttr, StringAttr, TypeAttr
from transpiler.parser import parse_module

FUNCTIONS = """\
module {
  tt.func private @decl(i32 {tt.divisibility = 16 : i32}, f32) -> (f32 {tt.r = 1 : i32}, i32)
  tt.func private @none()
  tt.func @"quoted.name-1"(%a: i32) -> i32 attributes {noinline = true} {
    tt.return %a : i32
  }
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("k.py":1:0), %n: i32 loc("k.py":1:0)) -> (i32, f32) {
    %c = arith.constant 1.000000e+00 : f32
    tt.return %n, %c : i32, f32
  }
}
"""


def ops(text: str, name: str):
    return [op for op in parse_module(text).walk() if op.name == name]


def test_functions_print_back():
    assert print_module(parse_module(FUNCTIONS)) == FUNCTIONS


def test_function_attributes_and_arguments():
    decl, none, quoted, kernel = ops(FUNCTIONS, "tt.func")
    assert decl.attributes["sym_visibility"] == StringAttr("private")
    assert str(decl.attributes["function_type"]) == "(i32, f32) -> (f32, i32)"
    assert str(decl.attributes["arg_attrs"]) == "[{tt.divisibility = 16 : i32}, {}]"
    assert str(decl.attributes["res_attrs"]) == "[{tt.r = 1 : i32}, {}]"
    assert not decl.regions and "arg_attrs" not in none.attributes
    assert quoted.attributes["sym_name"] == StringAttr("quoted.name-1")
    args = kernel.regions[0].entry.arguments
    assert [(a.name, str(a.type), a.location) for a in args] == [
        ("%p", "!tt.ptr<f32>", 'loc("k.py":1:0)'), ("%n", "i32", 'loc("k.py":1:0)')]
    assert isinstance(kernel.attributes["function_type"], TypeAttr)
    assert isinstance(kernel.attributes["arg_attrs"], ArrayAttr)


def test_function_generic_form():
    printed = print_module(parse_module(FUNCTIONS), generic=True).splitlines()
    assert printed[0] == '"builtin.module"() ({'
    quoted = printed.index('  "tt.func"() <{function_type = (i32) -> i32, sym_name = "quoted.name-1"}> ({')
    assert printed[quoted + 1].startswith("  ^bb0(%a: i32")
    assert printed[quoted + 3].startswith("  }) {noinline = true} : () -> ()")
    kernel = next(i for i, line in enumerate(printed) if 'sym_name = "k"' in line)
    assert printed[kernel] == ('  "tt.func"() <{arg_attrs = [{tt.divisibility = 16 : i32}, {}], function_type = '
                               '(!tt.ptr<f32>, i32) -> (i32, f32), sym_name = "k", sym_visibility = "public"}> ({')
    assert printed[kernel + 1] == '  ^bb0(%p: !tt.ptr<f32> loc("k.py":1:0), %n: i32 loc("k.py":1:0)):'


LOOPS = """\
module {
  tt.func @loops(%lb: i32, %ub: i32, %t: tensor<4xf32>, %c: i1, %f: f32) -> f32 {
    %0:2 = scf.for %iv = %lb to %ub step %lb iter_args(%acc = %t, %s = %lb) -> (tensor<4xf32>, i32)  : i32 {
      %1 = arith.addi %s, %iv : i32
      scf.yield %acc, %1 : tensor<4xf32>, i32
    } {tt.num_stages = 3 : i32}
    scf.for %j = %lb to %ub step %lb  : i32 {
      gpu.barrier
    }
    %2 = scf.if %c -> (f32) {
      scf.yield %f : f32
    } else {
      %3 = arith.negf %f : f32
      scf.yield %3 : f32
    }
    scf.if %c {
      gpu.barrier
    }
    %4:2 = scf.while (%a = %lb, %b = %f) : (i32, f32) -> (i32, f32) {
      %5 = arith.cmpi slt, %a, %ub : i32
      scf.condition(%5) %a, %b : i32, f32
    } do {
    ^bb0(%x: i32, %y: f32):
      scf.yield %x, %y : i32, f32
    } attributes {tt.w = 1 : i32}
    scf.while : () -> () {
      scf.condition(%c)
    } do {
      scf.yield
    }
    tt.return %2 : f32
  }
}
"""


def test_structured_control_flow_prints_back():
    assert print_module(parse_module(LOOPS)) == LOOPS


def test_loop_region_arguments():
    loop, plain = ops(LOOPS, "scf.for")
    args = loop.regions[0].entry.arguments
    assert [(a.name, str(a.type)) for a in args] == [("%iv", "i32"), ("%acc", "tensor<4xf32>"), ("%s", "i32")]
    add = loop.regions[0].entry.ops[0]
    assert [v.name for v in add.operands] == ["%s", "%iv"] and add.operands[1] is args[0]
    assert [g for g in loop.detail().operand_groups] == [("lowerBound", 1), ("upperBound", 1), ("step", 1), ("initArgs", 2)]
    assert [str(t) for t in loop.result_types] == ["tensor<4xf32>", "i32"]
    assert [a.name for a in plain.regions[0].entry.arguments] == ["%j"]
    before = ops(LOOPS, "scf.while")[0].regions[0].entry.arguments
    assert [(a.name, str(a.type)) for a in before] == [("%a", "i32"), ("%b", "f32")]


def test_loops_generic_form():
    printed = print_module(parse_module(LOOPS), generic=True, locations=False).splitlines()
    assert '    %0:2 = "scf.for"(%lb, %ub, %lb, %t, %lb) ({' in printed
    assert "    ^bb0(%iv: i32, %acc: tensor<4xf32>, %s: i32):" in printed
    assert "    }) {tt.num_stages = 3 : i32} : (i32, i32, i32, tensor<4xf32>, i32) -> (tensor<4xf32>, i32)" in printed
    assert '    %4:2 = "scf.while"(%lb, %f) ({' in printed
    assert "    ^bb0(%a: i32, %b: f32):" in printed
    assert "    }) {tt.w = 1 : i32} : (i32, f32) -> (i32, f32)" in printed


def test_index_induction_variable_has_no_type():
    text = LOOPS.replace("scf.for %j = %lb to %ub step %lb  : i32 {", "scf.for %j = %i to %i step %i {").replace(
        "%f: f32) -> f32 {", "%f: f32, %i: index) -> f32 {")
    assert print_module(parse_module(text)) == text
    assert str(ops(text, "scf.for")[1].regions[0].entry.arguments[0].type) == "index"
