"""Device libraries per AscendNPU-IR release and the ABI link check (issue 13; SPEC.md section 5).

``pytest -k device_library`` shows the symbol differences between the releases, a kernel that
links under ``master`` and is refused under ``1.2.0``, and a wait whose ``numBarriers`` is
extended to i64 under every AscendNPU-IR release and left as it is under ``bundled``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from transpiler import LoweringError, LoweringWarning, lower
from transpiler.ir.types import F32, I32, I64, PointerType, RankedTensorType
from transpiler.lowering.abi import AbiMismatch, match_operands, parse_signature
from transpiler.lowering.link_check import LIBRARIES, load_library

ROOT = Path(__file__).parents[1]
RELEASES = ["1.2.0", "1.2.0-post", "master"]
GENERATOR = ROOT / "device_templates" / "releases" / "gen_release_symbols.py"
# a clone of Ascend/AscendNPU-IR to regenerate the lists from (the test skips without one)
ASCENDNPU_IR = Path(os.environ.get("TTD_ASCENDNPU_IR_GIT", "/work/.mirror/Ascend+AscendNPU-IR/repo"))

WAIT = """module {
  tt.func public @k(%bar: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %t = distributed.wait %bar, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    tt.return
  }
}
"""
# WAIT's token orders nothing, which the lint says (unused-wait-token); the tests expect it
UNUSED_TOKEN = r"\[unused-wait-token\]"


def lower_wait(**options) -> str:
    """``lower(WAIT, ...)``, which must warn of its unused token."""
    with pytest.warns(LoweringWarning, match=UNUSED_TOKEN):
        return lower(WAIT, filename="k.ttir", **options)


BARRIER = """module {
  tt.func public @k(%team: i32) {
    distributed.extern_call %team {distributed.core_type = "cube_and_vector", libname = "libshmem_device", libpath = "", pure = false, symbol = "aclshmem_barrier"} : (i32) -> ()
    tt.return
  }
}
"""


def symbols(name):
    return set(load_library(None, name).signatures)


def test_device_library_symbol_differences_between_releases():
    """What each release adds (SPEC.md section 5: v1.2.0 lacks aclshmem_barrier,
    aclshmemx_barrier_vec, the team queries and aclshmem_signal_wait_until); none removes any."""
    lists = {name: symbols(name) for name in LIBRARIES}
    steps = list(zip(RELEASES[:-1], RELEASES[1:]))
    # printed only when the test fails (captured; issue 31 item 2: a green run is quiet)
    for old, new in steps:
        print(f"\n{old} -> {new}: + {sorted(lists[new] - lists[old])}  - {sorted(lists[old] - lists[new])}")
    print(f"bundled - master: {sorted(lists['bundled'] - lists['master'])}")
    assert lists["1.2.0-post"] - lists["1.2.0"] == {"aclshmem_barrier", "aclshmemx_barrier_vec", "aclshmem_team_my_pe",
                                                    "aclshmem_team_n_pes", "aclshmem_team_translate_pe"}
    assert lists["master"] - lists["1.2.0-post"] == {"aclshmem_signal_wait_until"}
    assert lists["1.2.0"] <= lists["1.2.0-post"] <= lists["master"]
    assert lists["master"] <= lists["bundled"], "the bundled library provides every symbol of master"
    assert lists["bundled"] - lists["master"] == {"aclshmem_char_putmem_signal", "aclshmem_char_putmem_signal_nbi"}


def test_device_library_lists_record_their_commit():
    commits = {"1.2.0": "8796a8ac1508380d78128427c61ab47d03f05739",
               "1.2.0-post": "2b3d4a1752bba3e7765c32516a1a4bdcbff60cc9",
               "master": "52f96a130b52fa3d10a236aaa2e1f868f1578b88"}
    for release, commit in commits.items():
        text = (ROOT / "device_templates" / "releases" / f"ascendnpu-ir-{release}.txt").read_text()
        assert f"# commit: {commit}\n" in text and f"# release: {release}\n" in text
        assert load_library(None, release).name == f"AscendNPU-IR {release} (commit {commit[:12]})"


@pytest.mark.skipif(not ASCENDNPU_IR.exists(), reason="no AscendNPU-IR clone (set TTD_ASCENDNPU_IR_GIT)")
def test_device_library_lists_are_generated_from_the_sources():
    """The committed lists are what the generator makes from each release's Shmem.cpp."""
    proc = subprocess.run([sys.executable, str(GENERATOR), "--git-dir", str(ASCENDNPU_IR), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_device_library_kernel_links_under_master_and_is_refused_under_1_2_0():
    assert 'symbol = "aclshmem_barrier"' in lower(BARRIER, filename="k.ttir", device_library="master")
    with pytest.raises(LoweringError) as info:
        lower(BARRIER, filename="k.ttir", device_library="1.2.0")
    message = str(info.value)
    assert re.search(r"k\.ttir:3:5: error: this op lowers to symbol 'aclshmem_barrier', which is not in the device "
                     r"template library AscendNPU-IR 1\.2\.0 \(commit 8796a8ac1508\)", message), message
    assert "it is in --device-library=bundled, 1.2.0-post, master" in message


@pytest.mark.parametrize("release", RELEASES)
def test_device_library_wait_num_barriers_extended_to_i64(release):
    out = lower_wait(device_library=release)
    assert "%n_i64 = arith.extsi %n : i32 to i64" in out
    assert 'ins(%bar, %n_i64, %c1_i32 : !tt.ptr<i32>, i64, i32) -> i32' in out


def test_device_library_wait_num_barriers_left_as_is_under_bundled():
    assert "int32_t num_barriers" in load_library(None, "bundled").signatures["aclshmem_wait_int32"]
    for out in (lower_wait(), lower_wait(device_library="bundled"),
                lower_wait(device_library="master", link_check=False)):
        assert "arith.extsi" not in out and 'ins(%bar, %n, %c1_i32 : !tt.ptr<i32>, i32, i32) -> i32' in out


def test_device_library_unknown_name_is_refused():
    with pytest.raises(ValueError, match="device_library must be one of bundled, 1.2.0, 1.2.0-post, master"):
        lower(WAIT, device_library="1.3.0")


@pytest.mark.parametrize("name", list(LIBRARIES))
def test_device_library_signatures_parse(name):
    """Every listed signature reads into known parameter kinds; only types the sources do not
    define (aclshmem_team_t) stay opaque."""
    library = load_library(None, name)
    for symbol in library.signatures:
        sig = library.signature(symbol)
        for p in sig.params + (sig.returns,):
            assert p.kind != "opaque" or p.spelling == "aclshmem_team_t", (symbol, p)


def test_device_library_abi_rules():
    """Out-parameter results, pointers matching any pointer, widening and its refusals."""
    ptr = PointerType(I32)
    ptr_f = parse_signature("void _mlir_ciface_aclshmem_ptr_float(memref_t<__gm__ float, 1> *symmPtr, "
                            "memref_t<__gm__ float, 1> *ptr, int pe)", "_mlir_ciface_aclshmem_ptr_float")
    assert match_operands("s", "l", ptr_f, [PointerType(I64), I32], [PointerType(I64)]) == [None, None]
    wait = load_library(None, "master").signature("aclshmem_wait_int32")
    assert match_operands("s", "l", wait, [ptr, I32, I32], [I32]) == [None, 64, None]
    assert match_operands("s", "l", wait, [ptr, I64, I32], [I32]) == [None, None, None]
    with pytest.raises(AbiMismatch, match="the result has type i64 .64 bits., but the return type of"):
        match_operands("s", "l", wait, [ptr, I32, I32], [I64])
    with pytest.raises(AbiMismatch, match="takes 3 parameters in the l device library"):
        match_operands("s", "l", wait, [ptr, I32], [I32])
    team = load_library(None, "master").signature("aclshmem_barrier")
    assert match_operands("s", "l", team, [ptr], []) == [None]  # aclshmem_team_t: not compared


def test_device_library_abi_compares_results_and_tensors_of_numbers():
    """A result is compared as an operand is (attack of session 42): a tensor of numbers fits no
    scalar return or parameter, only a memref one; an out-parameter takes a pointer or a tensor."""

    library = load_library(None, "master")
    my_pe, ptr_f = library.signature("aclshmem_my_pe"), library.signature("aclshmem_ptr_float")
    four = RankedTensorType((4,), I32)
    with pytest.raises(AbiMismatch, match=r"the result has type tensor<4xi32>, but the return type of s in the l"):
        match_operands("s", "l", my_pe, [], [four])
    with pytest.raises(AbiMismatch, match=r"the result has type i32, but parameter '\w+' of s .* memref_t"):
        match_operands("s", "l", ptr_f, [PointerType(F32), I32], [I32])
    with pytest.raises(AbiMismatch, match=r"operand 1 \(pe\) has type tensor<4xi32>, but parameter 'pe'"):
        match_operands("s", "l", ptr_f, [PointerType(F32), four], [PointerType(F32)])
    pointers = RankedTensorType((4,), PointerType(F32))  # a tensor of pointers is a pointer operand
    assert match_operands("s", "l", ptr_f, [pointers, I32], [pointers]) == [None, None]
    assert match_operands("s", "l", ptr_f, [RankedTensorType((4,), F32), I32], [four]) == [None, None]
    value_out = parse_signature("void _mlir_ciface_f(int32_t *value)", "_mlir_ciface_f")
    assert match_operands("s", "l", value_out, [], [I32]) == []  # a scalar written through `T *`
    with pytest.raises(AbiMismatch, match=r"the result has type f32, but parameter 'value' of s .* int32_t"):
        match_operands("s", "l", value_out, [], [F32])


def test_device_library_in_the_triton_ascend_hook():
    """The hook's options reach the lowering: ``device_library="master"`` widens the wait."""
    from transpiler.triton_ascend import insert_stage

    stages = {"ttir": lambda src, metadata: src, "ttadapter": lambda src, metadata: src}
    insert_stage(stages, device_library="master")
    assert list(stages) == ["ttir", "ttd_lower", "ttadapter"]
    metadata = {"name": "k"}
    with pytest.warns(LoweringWarning, match=UNUSED_TOKEN):
        text = stages["ttd_lower"](WAIT, metadata)
    assert "%n_i64 = arith.extsi %n : i32 to i64" in text
    assert metadata["ttd_lower_symbols"] == ["aclshmem_wait_int32"]