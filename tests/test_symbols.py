"""Every symbol the lowering emits is in the device template library; every type it rejects is
an error (issue 3, item 1), and the link-name rule.

The expected symbol of each case comes from an oracle written here from SPEC.md section 2.1,
not from ``transpiler/lowering/naming.py``.
"""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transpiler import LoweringError, LoweringWarning, lower
from transpiler.ir.types import OpaqueType
from transpiler.lowering.link_check import load_library
from transpiler.lowering.naming import link_name

LIBRARY = load_library()
NAMES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "f16": "half", "bf16": "bfloat16", "f32": "float"}
UNSUPPORTED = ["f64", "f8E5M2", "f8E4M3FN", "f8E4M3FNUZ", "i1", "ui8", "si32", "tf32", "f80"]
ELEMENTS = list(NAMES) + UNSUPPORTED
OPS = ["symm_at", "wait", "consume_scalar", "consume_ptr", "consume_tensor", "notify_set", "notify_add", "remote_ptr"]


def case(op: str, element: str, rank: int) -> tuple:
    """(module text, expected symbol or None when the lowering must refuse it)."""
    ptr = f"!tt.ptr<{element}>"
    tensor = "tensor<" + "2x" * rank + f"{ptr}>"
    name = NAMES.get(element)
    if op == "symm_at":
        body, symbol = f"%r = distributed.symm_at %p, %i, : {ptr}", name and f"aclshmem_ptr_{name}"
        args = f"%p: {ptr}, %i: i32"
    elif op == "wait":
        body = f"%t = distributed.wait %p, %i, %v, scope = gpu semantic = acquire : {ptr}, i32, {element} -> i32"
        symbol = f"aclshmem_wait_{name}" if element in ("i8", "i16", "i32", "i64") else None
        args = f"%p: {ptr}, %i: i32, %v: {element}"
    elif op == "consume_scalar":
        body, symbol = f"%r = distributed.consume_token %v, %i, : {element}, i32 -> {element}", name and f"aclshmem_consume_token_{name}"
        args = f"%v: {element}, %i: i32"
    elif op == "consume_ptr":
        body, symbol = f"%r = distributed.consume_token %p, %i, : {ptr}, i32 -> {ptr}", name and f"aclshmem_consume_token_{name}_ptr_1d"
        args = f"%p: {ptr}, %i: i32"
    elif op == "consume_tensor":
        body = f"%r = distributed.consume_token %p, %i, : {tensor}, i32 -> {tensor}"
        symbol = f"aclshmem_consume_token_{name}_ptr_{rank}d" if name and 1 <= rank <= 5 else None
        args = f"%p: {tensor}, %i: i32"
    elif op in ("notify_set", "notify_add"):
        sig_op = 1 if op == "notify_set" else 2
        body = (f'"distributed.notify"(%p, %v, %i) <{{commScope = 3 : i32, sigOp = {sig_op} : i32}}> '
                f": ({ptr}, i64, i32) -> ()")
        # SPEC 2.2: any other pointee is named from the signal value type (i64), set only, with a warning
        symbol = {"i32": "aclshmemx_signal_op", "ui64": "aclshmem_uint64_p" if sig_op == 1 else None}.get(
            element, "aclshmem_int64_p" if sig_op == 1 else None)
        args = f"%p: {ptr}, %v: i64, %i: i32"
    else:  # remote_ptr: extern_call aclshmem_ptr typed by its pointer operand
        body = (f"%r = distributed.extern_call %p, %i {{distributed.core_type = \"cube_or_vector\", libname = "
                f"\"libshmem_device\", libpath = \"\", pure = false, symbol = \"aclshmem_ptr\"}} : ({ptr}, i32) -> {ptr}")
        symbol = name and f"aclshmem_ptr_{name}"
        args = f"%p: {ptr}, %i: i32"
    text = f"module {{\n  tt.func public @k({args}) {{\n    {body}\n    tt.return\n  }}\n}}\n"
    return text, symbol


# Each case is one op alone: a wait's token orders nothing there, which the lint rightly says
# (unused-wait-token); these tests are about symbols, so that rule is off for them.
ONE_OP = ("unused-wait-token",)
UPSTREAM_NOTIFY = "is not the signal's type (i64): lowered as the upstream pass does"


def lower_case(op: str, element: str, text: str) -> str:
    """``lower`` of one case; a set ``notify`` through a pointer to anything but i32, i64 or ui64
    must warn that it follows the upstream pass (SPEC 2.2), and nothing else may warn."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LoweringWarning)
        out = lower(text, filename="k.ttir", no_warn=ONE_OP)
    got = [str(w.message) for w in caught if issubclass(w.category, LoweringWarning)]
    if op == "notify_set" and element not in ("i32", "i64", "ui64"):
        assert len(got) == 1 and UPSTREAM_NOTIFY in got[0], got
    else:
        assert got == []
    return out


@settings(max_examples=300, deadline=None)
@given(op=st.sampled_from(OPS), element=st.sampled_from(ELEMENTS + ["ui64"]), rank=st.integers(1, 7))
def test_emitted_symbols_are_in_the_library_and_rejections_are_errors(op, element, rank):
    text, symbol = case(op, element, rank)
    if symbol is None:
        with pytest.raises(LoweringError) as info:
            lower(text, filename="k.ttir", no_warn=ONE_OP)
        message = str(info.value)
        assert ":3:5: error:" in message and "Traceback" not in message
        assert "not in the device template library" not in message, "rejected by the link check, not the lowering"
        return
    out = lower_case(op, element, text)
    emitted = re.findall(r'symbol = "([\w]+)"', out)
    assert emitted == [symbol]
    assert symbol in LIBRARY


def test_every_supported_combination_links():
    """Exhaustive over the supported space: the lowering succeeds with the link check on."""
    count = 0
    for op in OPS:
        for element in list(NAMES) + ["ui64"]:
            for rank in range(1, 6):
                text, symbol = case(op, element, rank)
                if symbol is None:
                    continue
                assert symbol in LIBRARY, symbol
                assert f'symbol = "{symbol}"' in lower_case(op, element, text)
                count += 1
    assert count >= 60


def test_library_covers_the_fixed_symbols():
    for symbol in ("aclshmem_my_pe", "aclshmem_n_pes", "aclshmemx_signal_op", "aclshmem_int64_p", "aclshmem_uint64_p",
                   "aclshmem_barrier_all", "aclshmem_barrier", "aclshmemx_barrier_all_vec", "aclshmemx_barrier_vec",
                   "aclshmem_quiet", "aclshmem_fence", "aclshmem_signal_wait_until", "aclshmem_team_n_pes"):
        assert symbol in LIBRARY


def test_link_name_rule():
    """``_mlir_ciface_`` + symbol when no operand or result is a memref (seed 002 section 4.2);
    every library signature defines exactly that name."""
    for symbol, signature in LIBRARY.signatures.items():
        assert link_name(symbol, [OpaqueType("i32"), OpaqueType("!tt.ptr<f32>")]) == f"_mlir_ciface_{symbol}"
        assert re.search(rf"[\s*]_mlir_ciface_{symbol}\(", signature), signature
    assert link_name("aclshmem_ptr_float", [OpaqueType("memref<?xf32>")]) == "aclshmem_ptr_float"


def test_bundled_list_matches_the_sources_copy():
    from pathlib import Path

    source = Path(__file__).parents[1] / "device_templates" / "symbols.txt"
    assert LIBRARY.signatures == load_library(str(source)).signatures
