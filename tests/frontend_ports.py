"""numpy ports of the host code of the public Triton-distributed Ascend tests (issue 21, item 2).

Each port follows its test's ``run_test_distributed`` on every rank: symmetric allocations
(``aclshmem_create_tensor``) are the plan's buffers, ``zero_`` / ``fill_`` / ``copy_`` are
host fills, each ``kernel[grid](...)`` is a launch with the host's arguments (compiled per rank
where its specialisation differs, :func:`transpiler.language.launches`), ``dist.barrier()``
(and the collectives that synchronise, ``all_gather_object``) ends a step.  A host assertion
is a :class:`Check`: a host read (``.cpu()``, a copy in stream order on that rank) into a
buffer of its own, and the test's own condition on what it read.
"""

from __future__ import annotations

import re
from typing import Callable, List, NamedTuple, Optional, Tuple

import numpy as np
import triton
import triton.language as tl

import frontend_cases as fc
from transpiler.language import launches
from transpiler.sim import Fill, Plan


@triton.jit
def host_read(src, snapshot, n, BLOCK: tl.constexpr):
    """``src.cpu()``: the host copies a buffer out, in stream order on its rank."""
    offs = tl.arange(0, BLOCK)
    tl.store(snapshot + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


class Check(NamedTuple):
    """The host asserts ``condition(what buffer holds here, rank)`` on ``ranks`` (None: all)."""

    label: str
    buffer: str
    condition: Callable
    ranks: object = None
    source: str = ""  # text of the public test's assertion line (for located diagnostics)


class Port(NamedTuple):
    name: str
    world: int
    plan: Plan
    checks: List[tuple]  # (Check, its snapshot buffer)

    def failed(self, buffers) -> List[str]:
        """The checks that do not hold in a run's ``buffers`` (``[rank][name]``), as labels."""
        bad = []
        for check, snapshot in self.checks:
            for r in range(self.world) if check.ranks is None else check.ranks:
                if not check.condition(buffers[r][snapshot], r):
                    bad.append(f"rank {r}: {check.label}")
        return bad


def _port(name: str, world: int, buffers: dict, steps: list, teams=()) -> Port:
    """The plan of ``steps`` (lists of actions and :class:`Check`), each check a host read of
    its buffer into a snapshot buffer of its own where it stands."""
    buffers, checks, planned = dict(buffers), [], []
    for step in steps:
        actions = []
        for action in step:
            if not isinstance(action, Check):
                actions.append(action)
                continue
            snapshot = f"{action.buffer}@check{len(checks)}"
            count, kind = re.match(r"\w+\((\d+),.*?(\w+)\)$", buffers[action.buffer]).groups()
            buffers[snapshot] = f"zeros({count}, {kind})"
            ranks = list(range(world)) if action.ranks is None else list(action.ranks)
            block = 1 << (int(count) - 1).bit_length()
            actions += launches(host_read, ranks, {"src": action.buffer, "snapshot": snapshot, "n": int(count),
                                                   "BLOCK": block}, buffers, world=world)
            checks.append((action, snapshot))
        planned.append(actions)
    return Port(name, world, Plan(ranks=world, buffers=buffers, steps=planned, teams=list(teams)), checks)


def _kernel(file: str, name: str, buffers: dict, ranks, world: int, **args):
    return launches(getattr(fc.load(file), name), list(ranks), args, buffers, world=world)


def my_pe(world: int, query: str = "test_my_pe") -> Port:
    kernel = {"test_my_pe": "_shmemx_get_my_pe", "test_num_ranks": "_shmemx_get_num_ranks"}[query]
    buffers = {"x0": "zeros(32, i64)"}
    added = (lambda r: r) if query == "test_my_pe" else (lambda r: world)

    def expected(bufs, r):
        y = np.zeros(32, np.int64)
        y[:3] += added(r)  # torch_mype / torch_num_ranks: the first ncore = 3 elements
        return np.array_equal(bufs, y)

    launch = launches(getattr(fc.load(query), kernel), list(range(world)), {"ptr": "x0"}, buffers, grid=(3,))
    return _port(query, world, buffers, [launch + [Check("x0 == y_ref", "x0", expected)]])


def symm_at(world: int) -> Port:
    buffers = {"remote_mem": "zeros(32, i64)", "output": "zeros(32, i64)"}
    local = [np.arange(32, dtype=np.int64) + r * 100 for r in range(world)]
    fill = [Fill(ranks=range(world), values={"remote_mem": local})]  # copy_, then all_gather_object syncs
    launch = _kernel("test_symm_at", "_shmemx_symm_at", buffers, range(world), world, remote_ptr="remote_mem",
                     output_ptr="output", rank="rank", world_size=world)
    check = Check("output == all_data[(rank + 1) % world_size]", "output",
                  lambda b, r: np.array_equal(b, local[(r + 1) % world]))
    return _port("test_symm_at", world, buffers, [fill, launch + [check]])


def wait_notify(world: int = 2) -> Port:
    buffers = {"data_mem": "zeros(32, i64)", "signal_mem": "zeros(1, i64)", "output": "zeros(32, i64)"}
    step = [Fill(ranks=range(world), values={"signal_mem": "zeros(1)"})]
    step += _kernel("test_wait_notify", "_consumer_kernel", buffers, [0], world, data_ptr="data_mem",
                    signal_ptr="signal_mem", output_ptr="output", rank=0, world_size=world)
    step += _kernel("test_wait_notify", "_producer_kernel", buffers, range(1, world), world, data_ptr="data_mem",
                    signal_ptr="signal_mem", rank="rank", world_size=world)

    def expected(b, r):
        y = np.zeros(32, np.int64)
        y[0] = (world - 1) * 100  # "output should contain data from the last producer"
        return np.array_equal(b, y)

    return _port("test_wait_notify", world, buffers, [step + [Check("consumer output", "output", expected, [0])]])


def signal_op(world: int = 2) -> Port:
    f, R = "test_signal_op", range(world)
    buffers = {"sig_ptr": "zeros(1, i32)", "ret_ptr": "zeros(1, i32)"}
    steps = [[Fill(ranks=R, values={"sig_ptr": "zeros(1)", "ret_ptr": "zeros(1)"})],
             _kernel(f, "signal_wait_until_retval_kernel", buffers, R, world, sig_ptr="sig_ptr", ret_ptr="ret_ptr",
                     wait_val=42, my_rank="rank", world_size=world),
             [Check("signal_wait_until return value == 42", "ret_ptr", lambda b, r: b[0] == 42, [0])],
             [Fill(ranks=R, values={"sig_ptr": "zeros(1)"})],
             _kernel(f, "signal_set_ring_kernel", buffers, R, world, sig_ptr="sig_ptr", my_rank="rank",
                     world_size=world)
             + [Check("signal_set_ring: sig == rank + 1", "sig_ptr", lambda b, r: b[0] == r + 1),
                Fill(ranks=R, values={"sig_ptr": "zeros(1)"})],
             _kernel(f, "signal_pingpong_kernel", buffers, [0, 1], world, sig_ptr="sig_ptr", iters=100,
                     my_rank="rank"),
             [Check("signal_pingpong: rank 0's sig == 100", "sig_ptr", lambda b, r: b[0] == 100, [0])]]
    return _port(f, world, buffers, steps)


def barrier_ops(world: int) -> Port:
    """``run_test_team_world`` (2 ranks) or ``run_test_sub_team`` (4 ranks)."""
    f, R = "test_barrier_ops", range(world)
    buffers = {"counter": "zeros(1, i64)"}
    steps: list = []

    def increase(kernel, expected, team=None):
        args = {"counter_ptr": "counter"}
        args.update({"team": team} if team is not None else {"my_rank": "rank", "world_size": world})
        steps.append([Fill(ranks=R, values={"counter": "zeros(1)"})])
        steps.append(_kernel(f, kernel, buffers, R, world, **args))
        steps.append([Check(f"{kernel} (team {team}): counter == expected", "counter",
                            lambda b, r: b[0] == expected(r))])

    for kernel in ("_increase_with_barrier_kernel", "_increase_with_barrier_vec_kernel"):
        increase(kernel, lambda r: 1, team=[0] * world)  # ACLSHMEM_TEAM_WORLD
        increase(kernel.replace("_kernel", "").replace("barrier", "barrier_all") + "_kernel", lambda r: 1)
    teams = ()
    if world == 4:  # team_split_strided(TEAM_WORLD, 1, 2, world_size // 2): handle 1, -1 outside it
        teams = [(1, 2, world // 2)]
        odd = [1 if r % 2 else -1 for r in R]
        for kernel in ("_increase_with_barrier_kernel", "_increase_with_barrier_vec_kernel"):
            increase(kernel, lambda r: 1 if r % 2 == 1 else 0, team=odd)
    return _port(f, world, buffers, steps, teams)


BARRIER = "dist.barrier()"  # in a step list of put_get_mem: the step ends here


def put_get_mem(world: int = 2, barrier_after_reset: bool = False, signal_values=(1, 2)) -> Port:
    """The test as written; ``barrier_after_reset`` and other ``signal_values`` make the two
    changes that each remove one of its races (test_frontend_sim.py)."""
    f, R, n = "test_put_get_mem", range(world), 32
    buffers = {"src": f"zeros({n}, i32)", "dst": f"zeros({n}, i32)", "signal_ptr": f"zeros({world}, i32)"}
    send = [(r + 1) % world for r in R]
    recv = [(r - 1 + world) % world for r in R]
    src = [np.arange(n, dtype=np.int32) + r * 1000 for r in R]
    reset = [Fill(ranks=R, values={"dst": f"full({n}, -1)"})] + ([BARRIER] if barrier_after_reset else [])

    def check(what):
        return Check(f"{what}: dst == expected", "dst", lambda b, r: np.array_equal(b, src[recv[r]]),
                     source=f': {what} mismatch"')

    def k(name, **args):
        return _kernel(f, name, buffers, R, world, **args)

    def put(name, peer, **extra):
        return k(name, src="src", dst="dst", nbytes=n * 4, peer_rank=peer, **extra)

    flat = [Fill(ranks=R, values={"signal_ptr": f"zeros({world})", "src": src}), *reset]
    flat += put("putmem_kernel", send)
    flat += k("barrier_all_putmem_signal_kernel", sync_ptr="signal_ptr", epoch=1, world_size=world, my_rank="rank")
    flat += [check("putmem"), *reset] + put("putmem_nbi_kernel", send) + [BARRIER, check("putmem_nbi"), *reset]
    for kernel, value in zip(("putmem_signal_kernel", "putmem_signal_nbi_kernel"), signal_values):
        flat += put(kernel, send, signal_ptr="signal_ptr", signal_value=value, my_rank="rank")
        flat += k("signal_wait_kernel", signal_ptr="signal_ptr", signal_value=value, peer_rank=recv)
        flat += [check(kernel.replace("_kernel", "")), *reset]
    flat += k("getmem_kernel", src="src", dst="dst", nbytes=n * 4, peer_rank=recv) + [check("getmem"), *reset]
    flat += k("getmem_nbi_kernel", src="src", dst="dst", nbytes=n * 4, peer=recv) + [check("getmem_nbi")]
    steps = [[]]
    for action in flat:
        if action is BARRIER:
            steps.append([])
        else:
            steps[-1].append(action)
    return _port(f, world, buffers, steps)


def located(port: Port, message: str) -> str:
    """A finding about a check's snapshot buffer (``'dst@check3'``) as an MLIR-style error at the
    public test's own assertion: ``file:line:col: error: ...``, the line, a caret, a note."""
    m = re.search(r"'(\w+)@check(\d+)'", message)
    check = port.checks[int(m.group(2))][0]
    path = fc.FILES[port.name]
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if check.source and check.source in line)
    column = lines[number].index("assert")
    text = message.replace(m.group(0), f"'{m.group(1)}' (as the host reads it at this assertion)")
    return (f"{path}:{number + 1}:{column + 1}: error: {text}\n{lines[number]}\n{' ' * column}^\n"
            f"{path}:{number + 1}:{column + 1}: note: the check: {check.label}")


#: small shapes for the tutorials (their host runs M = N = K = 4096 with 128/256 blocks and 20
#: programs): the same 20 programs and the same kernel code paths (a tail round of tiles, two
#: communication buffers), at 16x16 tiles
TUTORIAL_SHAPES = {"01-allgather-gemm": dict(M=48, N=32, K=32, pvalue=2, COMM_M=16, COMM_OTHER=16),
                   "02-gemm-reduce-scatter": dict(M=64, N=96, K=32, pvalue=1, COMM_M=8, COMM_OTHER=16),
                   "03-gemm-allreduce": dict(M=64, N=96, K=32, pvalue=1, COMM_M=8, COMM_OTHER=16)}
TUTORIAL_KERNELS = {"01-allgather-gemm": "kernel_allgather_gemm", "02-gemm-reduce-scatter": "kernel_gemm_reduce_scatter",
                    "03-gemm-allreduce": "kernel_gemm_allreduce"}


#: the tutorials' host code: M = N = K = 4096, 128 x 256 x 256 tiles, pvalue 4, 20 programs;
#: 01's COMM_BLOCK_SIZE_M is 20 there, 16 here: Triton's tl.arange takes powers of 2 only
HOST_BLOCKS = (128, 256, 256)
HOST_SHAPES = {"01-allgather-gemm": dict(M=4096, N=4096, K=4096, pvalue=4, COMM_M=16, COMM_OTHER=256),
               "02-gemm-reduce-scatter": dict(M=4096, N=4096, K=4096, pvalue=4, COMM_M=8, COMM_OTHER=256),
               "03-gemm-allreduce": dict(M=4096, N=4096, K=4096, pvalue=4, COMM_M=8, COMM_OTHER=256)}


def tutorial(file: str, world: int, ncore: int = 20, block: int = 16, buffer_num: int = 2, seed: int = 0,
             shape: Optional[dict] = None, blocks: Optional[Tuple[int, int, int]] = None):
    """``(plan, reference)``: the tutorial's host run at a small shape (or ``shape``, a dict as in
    ``TUTORIAL_SHAPES``, with ``blocks`` = (BLOCK_SIZE_M, N, K); ``HOST_SHAPES`` and
    ``HOST_BLOCKS`` are the host code's), and what every rank's C must hold (numpy, float32
    products of the float16 inputs: the host's torch golden)."""
    s = shape or TUTORIAL_SHAPES[file]
    M, N, K, pv = s["M"], s["N"], s["K"], s["pvalue"]
    bm, bn, bk = blocks or (block, block, block)
    rng = np.random.default_rng(seed)
    A = [rng.standard_normal((M, K)).astype(np.float16) for _ in range(world)]
    B = [rng.standard_normal((K, N)).astype(np.float16) for _ in range(world)]
    products = [a.astype(np.float32) @ b.astype(np.float32) for a, b in zip(A, B)]
    if file == "01-allgather-gemm":  # every rank: all-gathered A @ its B (the same B everywhere)
        B = [B[0]] * world
        c_type, peer = "f16", bm * pv * world * buffer_num * max(K, bk)
        gathered = np.concatenate(A).astype(np.float32) @ B[0].astype(np.float32)
        reference = [gathered] * world
        c_rows, comm = M * world, "COMM_BLOCK_SIZE_K"
    elif file == "02-gemm-reduce-scatter":  # rank r: rows r*M/R ... of sum_i A_i @ B_i
        c_type, peer, m = "f32", bm * pv * ncore * buffer_num * bn, M // world
        reference = [sum(products)[r * m:(r + 1) * m] for r in range(world)]
        c_rows, comm = m, "COMM_BLOCK_SIZE_N"
    else:  # every rank: sum_i A_i @ B_i
        c_type, peer = "f32", bm * pv * ncore * buffer_num * bn * world
        reference = [sum(products)] * world
        c_rows, comm = M, "COMM_BLOCK_SIZE_N"
    buffers = {"A": f"zeros({M * K}, f16)", "B": f"zeros({K * N}, f16)", "C": f"zeros({c_rows * N}, {c_type})",
               "peer_mem": f"zeros({peer}, {c_type if file != '01-allgather-gemm' else 'f16'})"}
    args = dict(a_ptr="A", b_ptr="B", c_ptr="C", peer_mem_ptr="peer_mem", rank="rank", rank_size=world,
                buffer_num=buffer_num, M=M, N=N, K=K, stride_am=K, stride_ak=1, stride_bk=N, stride_bn=1,
                stride_cm=N, stride_cn=1, pvalue=pv, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                COMM_BLOCK_SIZE_M=s["COMM_M"], **{comm: s["COMM_OTHER"]})
    step = [Fill(ranks=range(world), values={"A": [a.ravel() for a in A], "B": [b.ravel() for b in B]})]
    step += launches(getattr(fc.load(file), TUTORIAL_KERNELS[file]), list(range(world)), args, buffers, grid=(ncore,))
    return Plan(ranks=world, buffers=buffers, steps=[step]), [ref.reshape(-1) for ref in reference]
