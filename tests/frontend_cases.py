"""The launches of the public Triton-distributed Ascend tests and tutorials, as their host code
makes them (``../shared/corpus/external/stmoonar__Triton-distributed/``, issue 21).

Each case names a public file, one of its ``@triton.jit`` kernels and the arguments one launch
passes, with :class:`transpiler.language.Pointer` for each tensor and the host's values for
the rest.  Where a kernel's specialisation differs per rank (a rank, a peer or a team handle
passed as an int or constexpr), there is one case per rank of the world size the test uses.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple, Tuple

import pytest
from shared_corpus import EXTERNAL

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = EXTERNAL / "stmoonar__Triton-distributed"
TESTS = PUBLIC / "python" / "triton_dist" / "test" / "ascend"
TUTORIALS = PUBLIC / "tutorials" / "ascend"

FILES = {
    "test_my_pe": TESTS / "test_my_pe.py.txt",
    "test_num_ranks": TESTS / "test_num_ranks.py.txt",
    "test_symm_at": TESTS / "test_symm_at.py.txt",
    "test_wait_notify": TESTS / "test_wait_notify.py.txt",
    "test_signal_op": TESTS / "test_signal_op.py.txt",
    "test_barrier_ops": TESTS / "test_barrier_ops.py.txt",
    "test_put_get_mem": TESTS / "test_put_get_mem.py.txt",
    "01-allgather-gemm": TUTORIALS / "01-ascend-allgather-gemm.py.txt",
    "02-gemm-reduce-scatter": TUTORIALS / "02-ascend-gemm-reduce-scatter.py.txt",
    "03-gemm-allreduce": TUTORIALS / "03-ascend-gemm-allreduce-oneshot.py.txt",
}

#: the tutorials' `__main__` shape and meta-parameters; COMM_BLOCK_SIZE_M = 20 of tutorial 01
#: needs a non-power-of-two tl.arange, which Triton refuses: 16, the nearest legal size
TUTORIAL_MNK = 4096
TUTORIAL_01_COMM_BLOCK_SIZE_M = 16




def require_frontend(corpus: bool = True):
    """Skip unless Triton 3.9 imports (Python 3.11+) and, with ``corpus``, the public files are
    there; sets ``TRITON_DEFAULT_FP_FUSION`` first (Triton 3.9 warns on every process that
    leaves it unset; 1 keeps its current default, FP fusion on)."""
    os.environ["TRITON_DEFAULT_FP_FUSION"] = "1"
    if sys.version_info < (3, 11):
        pytest.skip("triton 3.9.0 (the `frontend` extra) has wheels for CPython 3.11 and newer only",
                    allow_module_level=True)
    try:
        import triton
    except ImportError:
        if os.environ.get("TTD_REQUIRE_DOWNSTREAM") == "1":  # .ci/run: 3.11+ must have it
            pytest.fail("triton 3.9.0 is not installed (pip install -e '.[test]' installs it on 3.11+)")
        pytest.skip("triton is not installed (the `frontend` extra)", allow_module_level=True)
    if triton.__version__ != "3.9.0":
        pytest.skip(f"the frontend is written for triton 3.9.0, found {triton.__version__}", allow_module_level=True)
    if corpus and not PUBLIC.is_dir():
        pytest.skip("../shared/corpus/external is not next to the repository", allow_module_level=True)


class Case(NamedTuple):
    file: str
    kernel: str
    args: Tuple
    label: str


def _cases(P) -> List[Case]:
    i32, i64 = (lambda: P("int32")), (lambda: P("int64"))
    out: List[Case] = []

    def add(file, kernel, label, *args):
        out.append(Case(file, kernel, args, label))

    add("test_my_pe", "_shmemx_get_my_pe", "", i64())
    add("test_num_ranks", "_shmemx_get_num_ranks", "", i64())
    for r in range(2):
        add("test_symm_at", "_shmemx_symm_at", f"rank{r}", i64(), i64(), r, 2)
    add("test_wait_notify", "_consumer_kernel", "rank0", i64(), i64(), i64(), 0, 2)
    add("test_wait_notify", "_producer_kernel", "rank1", i64(), i64(), 1, 2)
    for r in range(2):
        add("test_signal_op", "signal_wait_until_retval_kernel", f"rank{r}", i32(), i32(), 42, r, 2)
        add("test_signal_op", "signal_set_ring_kernel", f"rank{r}", i32(), r, 2)
        add("test_signal_op", "signal_pingpong_kernel", f"rank{r}", i32(), 100, r)
    # teams: 0 = ACLSHMEM_TEAM_WORLD, 1 = the odd sub-team's handle, -1 = ACLSHMEM_TEAM_INVALID
    # (what team_split_strided gives a rank outside the team)
    for team in (0, 1, -1):
        add("test_barrier_ops", "_increase_with_barrier_kernel", f"team{team}", i64(), team)
        add("test_barrier_ops", "_increase_with_barrier_vec_kernel", f"team{team}", i64(), team)
    for world in (2, 4):
        for r in range(world):
            add("test_barrier_ops", "_increase_with_barrier_all_kernel", f"w{world}rank{r}", i64(), r, world)
            add("test_barrier_ops", "_increase_with_barrier_all_vec_kernel", f"w{world}rank{r}", i64(), r, world)
    nbytes = 32 * 4
    for r in range(2):
        send, recv = (r + 1) % 2, (r - 1 + 2) % 2
        add("test_put_get_mem", "barrier_all_putmem_signal_kernel", f"rank{r}", i32(), 1, 2, r)
        for k in ("putmem_kernel", "putmem_nbi_kernel"):
            add("test_put_get_mem", k, f"rank{r}", i32(), i32(), nbytes, send)
        for k in ("getmem_kernel", "getmem_nbi_kernel"):
            add("test_put_get_mem", k, f"rank{r}", i32(), i32(), nbytes, recv)
        add("test_put_get_mem", "putmem_signal_kernel", f"rank{r}", i32(), i32(), i32(), nbytes, 1, send, r)
        add("test_put_get_mem", "putmem_signal_nbi_kernel", f"rank{r}", i32(), i32(), i32(), nbytes, 2, send, r)
        for value in (1, 2):
            add("test_put_get_mem", "signal_wait_kernel", f"rank{r}v{value}", i32(), value, recv)
    n = TUTORIAL_MNK
    for r in range(2):
        strides = (n, 1, n, 1, n, 1)  # contiguous A (M, K), B (K, N), C
        add("01-allgather-gemm", "kernel_allgather_gemm", f"rank{r}", P("fp16"), P("fp16"), P("fp16"), P("fp16"),
            r, 2, 2, n, n, n, *strides, 4, 128, 256, 256, TUTORIAL_01_COMM_BLOCK_SIZE_M, 256)
        for file, kernel in (("02-gemm-reduce-scatter", "kernel_gemm_reduce_scatter"),
                             ("03-gemm-allreduce", "kernel_gemm_allreduce")):
            add(file, kernel, f"rank{r}", P("fp16"), P("fp16"), P("fp32"), P("fp32"), r, 2, 2, n, n, n, *strides,
                4, 128, 256, 256, 8, 256)
    return out


def cases() -> List[Case]:
    from transpiler.language import Pointer

    return _cases(Pointer)


_LOADED: Dict[str, object] = {}


def load(file: str):
    """The public file ``file`` (a key of :data:`FILES`) executed as a module (once)."""
    from transpiler.language import load_file

    if file not in _LOADED:
        _LOADED[file] = load_file(FILES[file], name="ttd_public_" + file.replace("-", "_"))
    return _LOADED[file]
