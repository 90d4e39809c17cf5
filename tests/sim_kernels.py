"""Plans and numpy references for the realistic distributed kernels (SPEC.md section 7), shared by
the simulator's tests and benchmarks.

Each builder ``plan_<kernel>(text, ranks)`` returns ``(plan, reference)`` where ``reference(inputs)``
computes, from every rank's input buffers (``inputs[r][name]``, as the run's first schedule holds
them before any launch: the buffers the plan fills), the buffers a correct run ends with
(``{rank: {name: array}}``, only the buffers the kernel defines).  ``tol`` gives the float tolerance.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from transpiler.sim import Fill, Launch, Plan
from shared_corpus import SHARED

ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTED = SHARED / "distributed"
EXAMPLES = ROOT / "examples"
KERNELS = ("allgather_push", "allgather_pull", "reduce_scatter", "allreduce_oneshot", "gemm_reduce_scatter",
           "allgather_gemm", "rma_putmem_signal", "multi_dtype")
F32, F16 = np.float32, np.float16


def _ranks(R):
    return list(range(R))


def plan_allgather_push(text, R, n=300, grid=2):
    """Every rank pushes its shard ``x`` into every peer's ``buf`` at ``rank * n``, sets its flag,
    waits for each source's flag, copies ``buf`` to ``out``: every rank's ``out`` is every rank's
    ``x`` in rank order."""
    plan = Plan(R, {"x": f"random({n}, f32)", "buf": f"zeros({n * R}, f32)", "sig": f"zeros({16 * R * grid}, i32)",
                    "out": f"zeros({n * R}, f32)"},
                [[Launch(_ranks(R), text, grid=(grid,), args={"local_ptr": "x", "symm_buf_ptr": "buf",
                                                              "signal_ptr": "sig", "out_ptr": "out",
                                                              "n_per_rank": n, "epoch": 7})]])

    def ref(inp):
        xs = np.concatenate([inp[r]["x"] for r in range(R)])
        return {r: {"out": xs, "buf": xs} for r in range(R)}
    return plan, ref


def plan_allgather_pull(text, R, n=700, grid=2):
    """Barrier, then every rank pulls each peer's ``x`` (bf16) into ``out`` at ``peer * n``."""
    plan = Plan(R, {"x": f"random({n}, bf16)", "out": f"zeros({n * R}, bf16)"},
                [[Launch(_ranks(R), text, grid=(grid,), args={"symm_in_ptr": "x", "out_ptr": "out", "n_per_rank": n})]])

    def ref(inp):
        xs = np.concatenate([inp[r]["x"] for r in range(R)])
        return {r: {"out": xs} for r in range(R)}
    return plan, ref


def plan_reduce_scatter(text, R, chunk=1500, grid=2):
    """Rank r's ``out`` is the sum over every rank p of p's ``x[r * chunk : (r + 1) * chunk]``."""
    plan = Plan(R, {"x": f"random({chunk * R}, f32)", "sig": f"zeros({16 * grid}, i32)", "out": f"zeros({chunk}, f32)"},
                [[Launch(_ranks(R), text, grid=(grid,), args={"symm_in_ptr": "x", "signal_ptr": "sig", "out_ptr": "out",
                                                              "chunk_elems": chunk})]])

    def ref(inp):
        return {r: {"out": sum(inp[p]["x"][r * chunk:(r + 1) * chunk].astype(np.float64) for p in range(R)).astype(F32)}
                for r in range(R)}
    return plan, ref


def plan_allreduce_oneshot(text, R, n=500, grid=2):
    """Every rank's ``out`` (f16) is the f32 sum of every rank's ``x`` (f16), rounded to f16."""
    plan = Plan(R, {"x": f"random({n}, f16)", "sig": f"zeros({16 * R}, i32)", "out": f"zeros({n}, f16)"},
                [[Launch(_ranks(R), text, grid=(grid,), args={"symm_buf_ptr": "x", "signal_ptr": "sig", "out_ptr": "out",
                                                              "n_elements": n})]])

    def ref(inp):
        total = sum(inp[p]["x"].astype(F32) for p in range(R)).astype(F16)
        return {r: {"out": total} for r in range(R)}
    return plan, ref


def plan_gemm_reduce_scatter(text, R, N=64, K=48):
    """Each rank computes ``a @ b`` (its own a and b, M = 64 R rows), sends each 64-row tile to the
    rank owning those rows; rank r's ``out`` (64 x N, f16) is the f32 sum of the f16 partials."""
    M = 64 * R
    m = M // R
    plan = Plan(R, {"a": f"random({M * K}, f16)", "b": f"random({K * N}, f16)", "scatter": f"zeros({R * m * N}, f16)",
                    "sig": f"zeros({16 * (m // 64) * (N // 64)}, i32)", "out": f"zeros({m * N}, f16)"},
                [[Launch(_ranks(R), text, grid=(M // 64, N // 64),
                         args={"a_ptr": "a", "b_ptr": "b", "symm_scatter_ptr": "scatter", "signal_ptr": "sig",
                               "out_ptr": "out", "M": M, "N": N, "K": K, "stride_am": K, "stride_ak": 1,
                               "stride_bk": N, "stride_bn": 1, "stride_cm": N})]])

    def ref(inp):
        parts = [(inp[p]["a"].reshape(M, K).astype(F32) @ inp[p]["b"].reshape(K, N).astype(F32)).astype(F16)
                 for p in range(R)]
        return {r: {"out": sum(parts[p][r * m:(r + 1) * m].astype(F32) for p in range(R)).astype(F16).ravel()}
                for r in range(R)}
    return plan, ref


def plan_allgather_gemm(text, R, N=64, K=40, producer=None):
    """Consumer only: ``c = a @ b`` over the gathered ``a`` (128 rows per rank), each tile after
    its source's flag.  The flags are set by a host fill before the launch (the same step)."""
    M = 128 * R
    sig = np.zeros(16 * R, np.int32)
    sig[::16] = 1
    plan = Plan(R, {"a": f"random({M * K}, f16)", "b": f"random({K * N}, f16)", "c": f"zeros({M * N}, f16)",
                    "sig": f"zeros({16 * R}, i32)"},
                [[Fill(_ranks(R), {"sig": sig}),
                  Launch(_ranks(R), text, grid=(M // 128, N // 64),
                         args={"symm_a_ptr": "a", "b_ptr": "b", "c_ptr": "c", "signal_ptr": "sig", "M": M, "N": N, "K": K,
                               "stride_am": K, "stride_ak": 1, "stride_bk": N, "stride_bn": 1, "stride_cm": N,
                               "stride_cn": 1})]])

    def ref(inp):
        return {r: {"c": (inp[r]["a"].reshape(M, K).astype(F32) @ inp[r]["b"].reshape(K, N).astype(F32)).astype(F16).ravel()}
                for r in range(R)}
    return plan, ref


def plan_rma_putmem_signal(text, R, n=200):
    """Each rank puts its ``src`` block (1024 bytes) into the next rank's ``dst`` with a signal,
    waits for its own, then ``out = dst`` (times the signal seen, 1), then getmem_nbi of
    ``n_elements`` **bytes** (the shared corpus's kernel bug, kept; the project's example passes
    ``n_elements * 4``) from the previous rank's ``dst``: ``out``'s first ``n / 4`` (or ``n``)
    floats come from the rank two before.  On 2 ranks that ``dst`` is the one the rank itself put
    into (program order: no race); on 3 or more a third rank puts into it while nobody waits for
    that: a race (SPEC section 7), whose values agree only in the second step, where every
    ``dst`` already holds its final value.  Two steps with one program each, the signals set back
    to 0 before the second (else its wait would pass on the first step's signal and read ``dst``
    while the second step's put writes it)."""
    launch = Launch(_ranks(R), text, grid=(1,), args={"symm_dst_ptr": "dst", "src_ptr": "src", "signal_ptr": "sig",
                                                      "out_ptr": "out", "n_elements": n})
    plan = Plan(R, {"dst": "zeros(256, f32)", "src": "random(256, f32)", "sig": f"zeros({16 * R}, i32)",
                    "out": "zeros(256, f32)"}, [[launch], [Fill(_ranks(R), {"sig": np.zeros(16 * R, np.int32)}), launch]])
    # the getmem_nbi's count: n_elements bytes (the shared corpus's kernel) or n_elements * 4 (the
    # project's fixed example): the floats it fetches
    fetched = n if "= arith.muli %n_elements, %c4_i32" in text else n // 4

    def ref(inp):
        out = {}
        for r in range(R):
            o = np.zeros(256, F32)
            o[:n] = inp[(r - 1) % R]["src"][:n]
            o[:fetched] = inp[(r - 2) % R]["src"][:fetched]
            out[r] = {"out": o, "dst": inp[(r - 1) % R]["src"]}
        return out
    return plan, ref


def multi_dtype_buffers(R, counts):
    """The buffers of ``multi_dtype``: random data, ``i[0]`` (the count) per rank from ``counts``."""
    return {"h": "random(64, f16)", "bf": "random(64, bf16)", "f": "random(64, f32)", "b": "random(64, i8)",
            "i": [np.full(16, counts[r], np.int32) for r in range(R)], "l": "random(8, i64)",
            "sig": "zeros(16, i32)", "out": "zeros(64, f32)"}


MULTI_ARGS = {"h_ptr": "h", "bf_ptr": "bf", "f_ptr": "f", "b_ptr": "b", "i_ptr": "i", "l_ptr": "l", "sig_ptr": "sig",
              "out_ptr": "out"}


def multi_dtype_reference(inp, R, peers):
    out = {}
    for r in range(R):
        q = inp[peers[r]]
        count = int(q["i"][0])
        acc = q["h"].astype(F32) + q["bf"].astype(F32)
        acc = acc + q["f"]
        acc = acc + q["b"].astype(F32)
        acc = acc * F32(q["h"][0]) + F32(q["l"][0])
        o = np.zeros(64, F32)
        o[:count] = acc[:count]
        out[r] = {"out": o}
    return out


def plan_multi_dtype(text, R):
    """Consumer only: rank r reads rank (r + 1) % R's buffers after its own ``sig[0]`` is 1 (set
    by a host fill before the launch)."""
    peers = [(r + 1) % R for r in range(R)]
    counts = [40 + r for r in range(R)]
    plan = Plan(R, multi_dtype_buffers(R, counts),
                [[Fill(_ranks(R), {"sig": np.ones(1, np.int32)}),
                  Launch(_ranks(R), text, args={**MULTI_ARGS, "peer": peers})]])
    return plan, lambda inp: multi_dtype_reference(inp, R, peers)


BUILDERS = {k: globals()[f"plan_{k}"] for k in KERNELS}


def inputs_of(plan, seed=0):
    """Every rank's buffers as the plan fills them before the first launch (same generator as a run)."""
    from transpiler.sim.plan import parse_value

    rng = np.random.default_rng(seed)
    out = [{} for _ in range(plan.ranks)]
    for name, value in plan.buffers.items():
        v = parse_value(value, None, plan.base_dir, plan.ranks)
        for r in range(plan.ranks):
            out[r][name] = v.materialize(r, rng)
    return out


def check_against(result, ref, plan, seed=0):
    """Assert that every buffer the reference names equals it (floats within the tolerance of their type)."""
    from transpiler.sim.outcome import tolerance

    expected = ref(inputs_of(plan, seed))
    for r, bufs in expected.items():
        for name, want in bufs.items():
            got = result.buffers[r][name]
            tol = tolerance(got.dtype)
            if tol:
                np.testing.assert_allclose(got.astype(np.float64), np.asarray(want).astype(np.float64), rtol=tol, atol=tol,
                                           err_msg=f"rank {r} buffer {name}")
            else:
                np.testing.assert_array_equal(got, want, err_msg=f"rank {r} buffer {name}")
