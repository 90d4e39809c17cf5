"""``transpiler.language``, the frontend on upstream Triton 3.9 (issue 21): its ops, checks,
stand-in rewrite, specialisation and aliases, on small kernels and on the public files."""

from __future__ import annotations

import ast
import sys

import pytest

import frontend_cases as fc

fc.require_frontend(corpus=False)

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.compiler.errors import CompilationError  # noqa: E402
from triton.language import core  # noqa: E402

import transpiler.language as dl  # noqa: E402
from transpiler import lower  # noqa: E402
from transpiler.language import Pointer, compile_ttir, libshmem_device  # noqa: E402
from transpiler.language.extension import sub_vec_id  # noqa: E402
from transpiler.parser import parse_module  # noqa: E402

needs_corpus = pytest.mark.skipif(not fc.PUBLIC.is_dir(), reason="../shared/corpus/external is not next to the repository")


def ops_named(text: str, name: str):
    return [op for op in parse_module(text).walk() if op.name == name]


# ---- notify: the Ascend dtype check (SPEC.md section 2.2) ----------------------------------------
@triton.jit
def notify_kernel(sig, OP: tl.constexpr):
    dl.notify(sig, 1, signal=3, sig_op=OP, comm_scope="intra_node")


@pytest.mark.parametrize("dtype, op, symbol", [("int32", "set", "aclshmemx_signal_op"),
                                               ("int32", "add", "aclshmemx_signal_op"),
                                               ("int64", "set", "aclshmem_int64_p"),
                                               ("uint64", "set", "aclshmem_int64_p")])
def test_notify_takes_int32_set_and_add_and_64_bit_set(dtype, op, symbol):
    ttir = compile_ttir(notify_kernel, Pointer(dtype), op)
    (notify,) = ops_named(ttir, "distributed.notify")
    assert notify.generic and {k: v.value for k, v in notify.properties.items()} == {
        "sigOp": {"set": 1, "add": 2}[op], "commScope": 2}
    assert [str(t) for t in notify.operand_types][1:] == ["i64", "i32"]
    assert f'symbol = "{symbol}"' in lower(ttir)


@pytest.mark.parametrize("dtype, op, message", [("int64", "add", "only int32 signals support add"),
                                                ("uint64", "add", "only int32 signals support add"),
                                                ("fp32", "set", "int32, int64 or uint64"),
                                                ("int16", "set", "int32, int64 or uint64")])
def test_notify_refuses_what_ascend_cannot_signal(dtype, op, message):
    with pytest.raises(CompilationError, match=message):
        compile_ttir(notify_kernel, Pointer(dtype), op)


# ---- wait / consume_token / symm_at / rank -------------------------------------------------------
@triton.jit
def wait_kernel(bar, data, n, SCOPE: tl.constexpr, SEM: tl.constexpr):
    tok = dl.wait(bar, n, SCOPE, SEM, waitValue=5)
    offs = tl.arange(0, 32)
    ptrs = dl.consume_token(data + offs, tok)
    tl.store(ptrs, tl.load(ptrs) + 1.0)


@pytest.mark.parametrize("barrier", ["int32", "int64", "int8"])
def test_wait_value_has_the_barriers_pointee_type(barrier):
    ttir = compile_ttir(wait_kernel, Pointer(barrier), Pointer("fp32"), 3, "cta", None)
    (wait,) = ops_named(ttir, "distributed.wait")
    width = {"int32": "i32", "int64": "i64", "int8": "i8"}[barrier]
    assert [str(t) for t in wait.operand_types] == [f"!tt.ptr<{width}>", "i32", width]
    assert f"scope = cta semantic = acq_rel : !tt.ptr<{width}>, i32, {width} -> i32" in ttir  # semantic None: acq_rel
    (consume,) = ops_named(ttir, "distributed.consume_token")
    assert str(consume.result_types[0]) == "tensor<32x!tt.ptr<f32>>" == str(consume.operand_types[0])
    assert "annotation.mark" in lower(ttir)  # a tensor consume_token (SPEC.md section 2.4 item 9)


@pytest.mark.parametrize("scope, sem, message", [("cluster", "acquire", "Memory scope 'cluster' not supported"),
                                                 ("gpu", "seq_cst", "Memory semantic 'seq_cst' not supported")])
def test_wait_refuses_unknown_scopes_and_semantics(scope, sem, message):
    with pytest.raises(CompilationError, match=message):
        compile_ttir(wait_kernel, Pointer("int32"), Pointer("fp32"), 3, scope, sem)


@triton.jit
def float_count_kernel(bar, data):
    tok = dl.wait(bar, 2.5, "gpu", "acquire")
    tl.store(dl.consume_token(data, tok), 1.0)


def test_wait_refuses_a_float_barrier_count_at_the_python_line():
    """Issue 31 item 10: refused where it is written, as a float waitValue is, not later by ttd-lower."""
    with pytest.raises(CompilationError, match="wait: numBarriers must be an integer, got 2.5"):
        compile_ttir(float_count_kernel, Pointer("int32"), Pointer("fp32"))
    with pytest.raises(CompilationError, match="wait: numBarriers must be a scalar integer, got fp32"):
        compile_ttir(wait_kernel, Pointer("int32"), Pointer("fp32"), 2.5, "gpu", None)


@triton.jit
def symm_block_kernel(ptr):
    dl.symm_at(ptr + tl.arange(0, 4), 0)


@triton.jit
def wide_rank_kernel(ptr, peer):
    tl.store(dl.symm_at(ptr, peer.to(tl.int64)), dl.rank() + dl.num_ranks())


def test_symm_at_takes_a_scalar_pointer_and_an_i32_rank():
    with pytest.raises(CompilationError, match="only support scalar pointer"):
        compile_ttir(symm_block_kernel, Pointer("fp32"))
    with pytest.raises(CompilationError, match="must be a 32-bit integer"):
        compile_ttir(wide_rank_kernel, Pointer("int32"), 3)


# ---- extern_call and libshmem_device -------------------------------------------------------------
@triton.jit
def every_device_function(p, q, team, peer):
    me = libshmem_device.my_pe() + libshmem_device.n_pes()
    t = libshmem_device.team_my_pe(team) + libshmem_device.team_n_pes(team)
    t += libshmem_device.team_translate_pe(team, peer, libshmem_device.ACLSHMEM_TEAM_WORLD)
    libshmem_device.int_p(p, me + t, peer)
    tl.store(libshmem_device.remote_ptr(p, peer), 1)
    libshmem_device.barrier_all()
    libshmem_device.barrier_all_vec()
    libshmem_device.barrier(team)
    libshmem_device.barrier_vec(team)
    libshmem_device.getmem(p, q, 64, peer)
    libshmem_device.putmem(p, q, 64, peer)
    libshmem_device.getmem_nbi(p, q, 64, peer)
    libshmem_device.putmem_nbi(p, q, 64, peer)
    libshmem_device.putmem_signal(p, q, 64, q, 1, libshmem_device.ACLSHMEM_SIGNAL_SET, peer)
    libshmem_device.putmem_signal_nbi(p, q, 64, q, 1, libshmem_device.ACLSHMEM_SIGNAL_ADD, peer)
    libshmem_device.signal_op(q, 2, libshmem_device.ACLSHMEM_SIGNAL_SET, peer)
    tl.store(q, libshmem_device.signal_wait_until(q, libshmem_device.ACLSHMEM_CMP_GE, 2))
    libshmem_device.quiet()
    libshmem_device.fence()


def _symbols(ttir: str):
    return {op.attributes["symbol"].value: op.attributes["distributed.core_type"].value
            for op in ops_named(ttir, "distributed.extern_call")}


def test_extern_calls_carry_the_core_type_of_spec_2_3():
    symbols = _symbols(compile_ttir(every_device_function, Pointer("int32"), Pointer("int32"), 0, 3))
    for s in ("aclshmem_barrier_all", "aclshmem_barrier"):
        assert symbols[s] == "cube_and_vector"
    for s in ("aclshmemx_barrier_all_vec", "aclshmemx_barrier_vec", "aclshmem_int32_getmem", "aclshmem_int32_putmem",
              "aclshmem_int32_getmem_nbi", "aclshmem_int32_putmem_nbi", "aclshmem_int32_putmem_signal",
              "aclshmem_int32_putmem_signal_nbi"):
        assert symbols[s] == "vector", s
    for s in ("aclshmem_my_pe", "aclshmem_team_translate_pe", "aclshmem_ptr", "aclshmemx_signal_op",
              "aclshmem_signal_wait_until", "aclshmem_quiet", "aclshmem_fence", "aclshmem_int32_p"):
        assert symbols[s] == "cube_or_vector", s


@needs_corpus
def test_libshmem_device_has_every_public_ascend_function_symbol_and_constant():
    extra = fc.PUBLIC / "python" / "triton_dist" / "language" / "extra"
    tree = ast.parse((extra / "ascend" / "libaclshmem_device.py.txt").read_text())
    public = {f.name for f in tree.body if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")}
    assert public and not public - set(dir(libshmem_device))
    in_fstrings = {id(c) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr) for c in ast.walk(f)}
    literal = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in in_fstrings
               and str(n.value).startswith("aclshmem")}
    rma_ops = {n.args[0].value for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") ==
               "constexpr" and n.args and isinstance(n.args[0], ast.Constant)}
    expected = literal | {f"aclshmem_int32_{op}" for op in rma_ops}
    assert set(_symbols(compile_ttir(every_device_function, Pointer("int32"), Pointer("int32"), 0, 3))) == expected
    constants = {t.id: ast.literal_eval(a.value) for a in ast.parse((extra / "libshmem_device.py.txt").read_text()).body
                 if isinstance(a, ast.Assign) for t in a.targets if t.id.startswith("ACLSHMEM_")}
    assert constants and {k: getattr(libshmem_device, k) for k in constants} == constants


@core.extern
def user_query(x, _semantic=None):  # forwards only _semantic, as the public frontend's functions do
    table = [((core.dtype("int32"),), ("aclshmem_team_n_pes", core.dtype("int32")))]
    return dl.extern_call("libshmem_device", "", [x], table, is_pure=True, _semantic=_semantic)


@triton.jit
def user_extern_kernel(out, team):
    tl.store(out, user_query(team))


def test_a_users_extern_call_without_the_generator_is_annotated():
    assert _symbols(compile_ttir(user_extern_kernel, Pointer("int32"), 3)) == {"aclshmem_team_n_pes": "cube_or_vector"}
    with pytest.raises(CompilationError, match="input arg type does not match"):
        compile_ttir(user_extern_kernel, Pointer("int32"), 2**40)


# ---- the stand-in rewrite ------------------------------------------------------------------------
@triton.jit
def mixed_kernel(bar, data, out):
    if sub_vec_id() == 0:
        tok = dl.wait(bar, 1, "gpu", "acquire")
        x = tl.load(dl.consume_token(data, tok))
        tl.store(dl.symm_at(out, dl.rank()), x)
        dl.notify(bar, 0, sig_op="add")


def test_the_rewrite_keeps_names_locations_and_every_other_line():
    raw = compile_ttir(mixed_kernel, Pointer("int32"), Pointer("fp16"), Pointer("fp16"), stand_ins=True)
    done = compile_ttir(mixed_kernel, Pointer("int32"), Pointer("fp16"), Pointer("fp16"))
    kept = [line for line in raw.splitlines() if "tt.func private @ttd$" not in line]
    assert len(kept) == len(done.splitlines()) < len(raw.splitlines())
    calls = 0
    for before, after in zip(kept, done.splitlines()):
        if "tt.call @ttd$" not in before:
            assert before == after
            continue
        calls += 1
        head = before.split("tt.call")[0]  # indentation and result names
        assert after.startswith(head) and after[len(head):].split(" ")[0] in (
            "distributed.wait", "distributed.consume_token", "distributed.symm_at", "distributed.get_rank",
            '"distributed.notify"(%bar,', "hivm.hir.get_sub_block_idx")
        assert before[before.rindex(" loc("):] == after[after.rindex(" loc("):]
    assert calls == 6
    assert "= hivm.hir.get_sub_block_idx -> i64 loc(" in done


# ---- specialisation and aliases ------------------------------------------------------------------
@needs_corpus
def test_a_rank_of_1_is_specialised_away_and_0_gets_divisibility():
    kernel = fc.load("test_symm_at")._shmemx_symm_at
    signatures = {}
    for rank in (0, 1, 5):
        (func,) = ops_named(compile_ttir(kernel, Pointer("int64"), Pointer("int64"), rank, 4), "tt.func")
        signatures[rank] = [str(t) for t in func.attributes["function_type"].type.inputs]
        signatures[rank, "rank attrs"] = str(func.attributes["arg_attrs"]).split("}, {")[2:3]
    assert signatures[0] == signatures[5] == ["!tt.ptr<i64>", "!tt.ptr<i64>", "i32", "i32"]
    assert signatures[1] == ["!tt.ptr<i64>", "!tt.ptr<i64>", "i32"]
    assert "tt.divisibility = 16" in signatures[0, "rank attrs"][0] and signatures[5, "rank attrs"] == [""]


@needs_corpus
def test_tutorial_01_host_comm_block_needs_a_power_of_two():
    """Why frontend_cases compiles tutorial 01 with COMM_BLOCK_SIZE_M = 16, not its host's 20."""
    case = next(c for c in fc.cases() if c.file == "01-allgather-gemm")
    args = list(case.args)
    args[-2] = 20
    with pytest.raises(CompilationError, match="power of 2"):
        compile_ttir(getattr(fc.load(case.file), case.kernel), *args)


def test_aliases_resolve_to_this_package_and_host_modules_are_stand_ins():
    dl.install_aliases()
    import triton_dist.language
    from triton.language.extra.cann.extension import sub_vec_id as aliased
    from triton_dist.language.extra import libshmem_device as aliased_device
    from triton_dist.language.extra.ascend import algorithm

    assert triton_dist.language is dl and aliased is sub_vec_id and aliased_device is libshmem_device
    assert algorithm.gemm_swizzle2d_Nz.__module__ == "transpiler.language.algorithm"
    assert dl.install_aliases() == []  # idempotent
    if "shmem" in sys.modules and sys.modules["shmem"].__doc__.startswith("stand-in"):
        import shmem

        attributes = shmem.InitAttr
        with pytest.raises(dl.aliases.HostStandInError, match="shmem.InitAttr\\(\\) is host code"):
            attributes()
        assert not hasattr(shmem, "__file__")  # tools that walk sys.modules see no file
