"""Declarative formats of the dialect declarations: what they read, and what they print back.

Small modules in the printed-TTIR style; the custom print must give the text back, the generic
print must split inherent attributes (properties ``<{...}>``) from the others (``{...}``) as
MLIR does.  No downstream tool is needed.
"""

from __future__ import annotations

import pytest

from transpiler.emit.printer import print_module
from transpiler.ir.attributes import DenseI32ArrayAttr, OpaqueAttr, StringAttr, UnitAttr
from transpiler.parser import parse_module


def module(body: str, args: str = "%p: !tt.ptr<f32>, %i: i32, %f: f32, %c: i1") -> str:
    lines = "".join(f"    {line}\n" for line in body.strip().splitlines())
    return f"module {{\n  tt.func @k({args}) {{\n{lines}    tt.return\n  }}\n}}\n"


def op_of(text: str, name: str):
    return next(op for op in parse_module(text).walk() if op.name == name)


def generic_line(text: str, name: str) -> str:
    printed = print_module(parse_module(text), generic=True, locations=False)
    return next(line.strip() for line in printed.splitlines() if f'"{name}"' in line)


TENSOR_ARGS = "%pp: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %t: tensor<16xf32>, %i: i32"


@pytest.mark.parametrize("line", [
    "%0 = tt.load %pp : tensor<16x!tt.ptr<f32>>",
    "%0 = tt.load %pp, %m : tensor<16x!tt.ptr<f32>>",
    "%0 = tt.load %pp, %m, %t cacheModifier = cg evictionPolicy = evict_last : tensor<16x!tt.ptr<f32>>",
    "%0 = tt.load %pp evictionPolicy = evict_first {isVolatile = true} : tensor<16x!tt.ptr<f32>>",
    "tt.store %pp, %t, %m cacheModifier = wt : tensor<16x!tt.ptr<f32>>",
    "%0 = tt.atomic_rmw fadd, acq_rel, gpu, %pp, %t, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>",
    "%0 = tt.atomic_rmw exch, relaxed, sys, %pp, %t : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>",
])
def test_optional_operands_print_back(line):
    text = module(line, TENSOR_ARGS)
    assert print_module(parse_module(text)) == text


def test_optional_operands_give_operand_segment_sizes():
    text = module("%0 = tt.load %pp, %m : tensor<16x!tt.ptr<f32>>\n%1 = tt.load %pp {isVolatile = true} : tensor<16x!tt.ptr<f32>>",
                  TENSOR_ARGS)
    lines = [line.strip() for line in print_module(parse_module(text), generic=True).splitlines() if '"tt.load"' in line]
    assert lines[0].startswith('%0 = "tt.load"(%pp, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> :'
                               " (tensor<16x!tt.ptr<f32>>, tensor<16xi1>) -> tensor<16xf32>")
    assert lines[1].startswith('%1 = "tt.load"(%pp) <{isVolatile = true, operandSegmentSizes = array<i32: 1, 0, 0>}>')


def test_load_types_come_from_the_pointer():
    op = op_of(module("%0 = tt.load %pp, %m, %t : tensor<16x!tt.ptr<f32>>", TENSOR_ARGS), "tt.load")
    assert [str(t) for t in op.operand_types] == ["tensor<16x!tt.ptr<f32>>", "tensor<16xi1>", "tensor<16xf32>"]
    assert [str(t) for t in op.result_types] == ["tensor<16xf32>"]


def test_functional_type_of_all_operands():
    op = op_of(module("%0 = tt.atomic_cas acquire, cta, %p, %f, %f : (!tt.ptr<f32>, f32, f32) -> f32"), "tt.atomic_cas")
    assert [str(t) for t in op.operand_types] == ["!tt.ptr<f32>", "f32", "f32"]
    assert [str(t) for t in op.result_types] == ["f32"]
    assert str(op.attributes["sem"]) == "2 : i32" and str(op.attributes["scope"]) == "2 : i32"


def test_successors_with_operands():
    text = (
        "module {\n"
        "  tt.func @k(%c: i1, %f: f32, %i: i32) {\n"
        "    cf.cond_br %c, ^bb1(%f : f32), ^bb2\n"
        "  ^bb1(%x: f32):\n"
        "    cf.br ^bb3(%x, %i : f32, i32)\n"
        "  ^bb2:\n"
        "    cf.cond_br %c, ^bb3(%f, %i : f32, i32), ^bb1(%f : f32)\n"
        "  ^bb3(%y: f32, %z: i32):\n"
        "    tt.return\n"
        "  }\n"
        "}\n"
    )
    assert print_module(parse_module(text)) == text
    ops = [op for op in parse_module(text).walk() if op.name.startswith("cf.")]
    assert ops[0].detail().successors == ["^bb1", "^bb2"]
    assert [v.name for v in ops[0].operands] == ["%c", "%f"]
    assert [str(t) for t in ops[0].operand_types] == ["i1", "f32"]
    generic = print_module(parse_module(text), generic=True, locations=False).splitlines()
    assert '    "cf.cond_br"(%c, %f)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, f32) -> ()' in generic
    assert '    "cf.br"(%x, %i)[^bb3] : (f32, i32) -> ()' in generic
    assert ('    "cf.cond_br"(%c, %f, %i, %f)[^bb3, ^bb1] <{operandSegmentSizes = array<i32: 1, 2, 1>}>'
            " : (i1, f32, i32, f32) -> ()") in generic


@pytest.mark.parametrize("line, results", [
    ("%0:2 = tt.split %t : tensor<16x2xf32> -> tensor<16xf32>", ["tensor<16xf32>", "tensor<16xf32>"]),
    ('%0:2 = tt.elementwise_inline_asm "mov $0, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = true}'
     " %i : tensor<16xi32> -> tensor<16xi32>, tensor<16xi32>", ["tensor<16xi32>", "tensor<16xi32>"]),
    ("%0:2 = tt.call @g(%i) : (tensor<16xi32>) -> (f32, i32)", ["f32", "i32"]),
    ('%0 = tt.elementwise_inline_asm "mov.u32 $0, %smid;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> i32',
     ["i32"]),
])
def test_variadic_results(line, results):
    text = module(line, "%t: tensor<16x2xf32>, %i: tensor<16xi32>")
    assert print_module(parse_module(text)) == text
    op = next(op for op in parse_module(text).walk() if op.name not in ("module", "tt.func", "tt.return"))
    assert [str(t) for t in op.result_types] == results
    assert len(op.results) == len(results)


def test_inline_asm_attributes_are_properties():
    line = ('%0 = tt.elementwise_inline_asm "shf $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true, tt.x = 1 : i32}'
            " %i : i32 -> i32")
    text = module(line)
    assert generic_line(text, "tt.elementwise_inline_asm") == (
        '%0 = "tt.elementwise_inline_asm"(%i) <{asm_string = "shf $0, $1;", constraints = "=r,r", packed_element = 1 : i32,'
        " pure = true}> {tt.x = 1 : i32} : (i32) -> i32")


@pytest.mark.parametrize("line, props, attrs", [
    ("%0 = arith.cmpi slt, %i, %i : i32", "<{predicate = 2 : i64}>", ""),
    ("%0 = arith.muli %i, %i {tt.divisibility = dense<16> : tensor<1xi32>} : i32", "",
     "{tt.divisibility = dense<16> : tensor<1xi32>}"),
    ("%0 = arith.addf %f, %f fastmath<fast> : f32", "<{fastmath = #arith.fastmath<fast>}>", ""),
    ("%0 = arith.addi %i, %i overflow<nsw, nuw> : i32", "<{overflowFlags = #arith.overflow<nsw, nuw>}>", ""),
    ("%0 = arith.truncf %f to_nearest_even fastmath<fast> : f32 to f16",
     "<{fastmath = #arith.fastmath<fast>, roundingmode = 0 : i32}>", ""),
    ("%0 = tt.make_range {end = 16 : i32, start = 0 : i32, tt.x} : tensor<16xi32>", "<{end = 16 : i32, start = 0 : i32}>", "{tt.x}"),
    ("%0 = tt.get_program_id y : i32", "<{axis = 1 : i32}>", ""),
    ("%0 = tt.splat %f : f32 -> tensor<16xf32>\n%1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>",
     "<{axis = 0 : i32}>", ""),
    ("%0 = ub.poison : f32", "", ""),
    ("%0 = math.exp %f fastmath<afn> : f32", "<{fastmath = #arith.fastmath<afn>}>", ""),
])
def test_generic_form_splits_inherent_attributes(line, props, attrs):
    text = module(line)
    assert print_module(parse_module(text)) == text
    name = line.splitlines()[-1].split("=", 1)[1].split()[0]
    head = generic_line(text, name).split(" : (")[0]  # "%0 = "name"(operands) <{props}> {attrs}"
    assert (props in head) if props else "<{" not in head
    assert head.endswith(" " + attrs) if attrs else head.endswith(")") or head.endswith("}>")


def test_types_printed_without_their_dialect_prefix():
    text = module(
        "%bp = tt.make_tensor_ptr %p, [%s, %s], [%s, %s], [%i, %i] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>\n"
        "%bp2 = tt.advance %bp, [%i, %i] : <tensor<16x16xf16>>\n"
        "%v = tt.load %bp2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>",
        "%p: !tt.ptr<f16>, %s: i64, %i: i32")
    assert print_module(parse_module(text)) == text
    ops = {op.name: op for op in parse_module(text).walk()}
    assert [str(t) for t in ops["tt.make_tensor_ptr"].operand_types] == ["!tt.ptr<f16>"] + ["i64"] * 4 + ["i32"] * 2
    assert [str(t) for t in ops["tt.advance"].result_types] == ["!tt.ptr<tensor<16x16xf16>>"]
    assert [str(t) for t in ops["tt.load"].result_types] == ["tensor<16x16xf16>"]
    assert isinstance(ops["tt.load"].attributes["boundaryCheck"], DenseI32ArrayAttr)
    desc = module("%d = tt.make_tensor_descriptor %p, [%i, %i], [%s, %s] : <f16>, <16x16xf16>", "%p: !tt.ptr<f16>, %s: i64, %i: i32")
    op = op_of(desc, "tt.make_tensor_descriptor")
    assert [str(t) for t in op.operand_types] == ["!tt.ptr<f16>", "i32", "i32", "i64", "i64"]
    assert [str(t) for t in op.result_types] == ["!tt.tensordesc<16x16xf16>"]
    assert print_module(parse_module(desc)) == desc


def test_unit_keyword_attribute():
    text = module("%0 = tt.reshape %t allow_reorder efficient_layout : tensor<16xf32> -> tensor<4x4xf32>", "%t: tensor<16xf32>")
    assert print_module(parse_module(text)) == text
    assert op_of(text, "tt.reshape").attributes["allow_reorder"] == UnitAttr()
    old = module("%0 = tt.reshape %t {allow_reorder = false} : tensor<16xf32> -> tensor<4x4xf32>", "%t: tensor<16xf32>")
    assert print_module(parse_module(old)) == old  # a boolean (Triton 3.0) is not the keyword


def test_string_and_enum_attributes():
    text = module('tt.assert %c, "x \\22q\\22" : i1\n'
                  'tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %i : i32\n'
                  "%0 = tt.clampf %f, %f, %f, propagateNan = all : f32\n"
                  "%1 = tt.fp_to_fp %f, rounding = rtz : f32 -> f16")
    assert print_module(parse_module(text)) == text
    assert op_of(text, "tt.assert").attributes["message"] == StringAttr('x "q"')
    assert str(op_of(text, "tt.clampf").attributes["propagateNan"]) == "65535 : i32"
    assert isinstance(op_of(module("%0 = arith.addf %f, %f fastmath<fast> : f32"), "arith.addf").attributes["fastmath"],
                      OpaqueAttr)


def test_select_prints_a_shaped_condition_type():
    text = module("%0 = arith.select %c, %f, %f : f32\n%1 = arith.select %m, %t, %t : tensor<4xi1>, tensor<4xf32>",
                  "%c: i1, %f: f32, %m: tensor<4xi1>, %t: tensor<4xf32>")
    assert print_module(parse_module(text)) == text


@pytest.mark.parametrize("line, segments", [
    ("%0 = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false}"
     " : tensor<16x8xi8>, tensor<16x1xi8> * tensor<16x16xbf16> -> tensor<16x16xf32>", "1, 1, 1, 1, 0"),
    ("%0 = tt.dot_scaled %a, %b scale %s, %c lhs = e4m3 rhs = e5m2"
     " : tensor<16x8xi8> * tensor<16x16xbf16>, tensor<16x1xi8> -> tensor<16x16xf32>", "1, 1, 1, 0, 1"),
])
def test_dot_scaled_optional_scales(line, segments):
    text = module(line, "%a: tensor<16x8xi8>, %s: tensor<16x1xi8>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>")
    assert print_module(parse_module(text)) == text
    printed = generic_line(text, "tt.dot_scaled")
    assert f"operandSegmentSizes = array<i32: {segments}>" in printed
    assert printed.endswith("-> tensor<16x16xf32>")
    op = op_of(text, "tt.dot_scaled")
    assert str(op.operand_types[2]) == "tensor<16x16xf32>" and [str(t) for t in op.result_types] == ["tensor<16x16xf32>"]
