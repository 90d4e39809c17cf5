"""Criterion 6 of issue 23: plain Triton kernels (no distributed op) of ``../shared/corpus/ttir/triton-3.9/``
run on the simulator and match numpy references written here."""

from __future__ import annotations

import numpy as np
import pytest

from sim_kernels import SHARED, inputs_of
from transpiler.sim import Launch, Plan, simulate

TTIR = SHARED / "ttir" / "triton-3.9"
pytestmark = pytest.mark.skipif(not TTIR.is_dir(), reason="../shared/corpus/ttir is not next to the repository")


def _run(name, buffers, args, grid=(1,)):
    plan = Plan(1, buffers, [[Launch([0], (TTIR / f"{name}.ttir").read_text(), grid=grid, args=args)]])
    return inputs_of(plan)[0], simulate(plan).buffers[0]


def test_vector_add():
    n = 2500
    inp, out = _run("vector_add", {"x": f"random({n}, f32)", "y": f"random({n}, f32)", "out": f"zeros({n + 100}, f32)"},
                    {"x_ptr": "x", "y_ptr": "y", "out_ptr": "out", "n_elements": n}, grid=(3,))
    want = np.zeros(n + 100, np.float32)
    want[:n] = inp["x"] + inp["y"]
    np.testing.assert_array_equal(out["out"], want)


def test_reductions():
    M = 32
    inp, out = _run("reductions", {"x": f"random({M * 64}, f32)", "out": f"zeros({M + 64}, f32)", "idx": f"zeros({M}, i32)"},
                    {"x_ptr": "x", "out_ptr": "out", "idx_ptr": "idx", "M": M})
    x = inp["x"].reshape(M, 64)
    s, mx, mn = x.sum(1), x.max(1), x.min(0)
    am, ami = x.argmax(1).astype(np.int32), x.argmin(1).astype(np.int32)
    ix = np.bitwise_xor.reduce(x.view(np.int32), axis=1)
    np.testing.assert_allclose(out["out"][:M], s + mx + mx + s + mx + s.sum(), rtol=1e-5)
    np.testing.assert_array_equal(out["out"][M:], mn)
    np.testing.assert_array_equal(out["idx"], am + ami + am + ix + am)


def test_fused_softmax():
    rows, cols = 5, 700
    inp, out = _run("fused_softmax", {"out": f"zeros({rows * cols}, f32)", "inp": f"random({rows * cols}, f32)"},
                    {"out_ptr": "out", "in_ptr": "inp", "in_row_stride": cols, "out_row_stride": cols, "n_rows": rows,
                     "n_cols": cols}, grid=(2,))
    x = inp["inp"].reshape(rows, cols)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(out["out"].reshape(rows, cols), e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_dot_variants():
    inp, out = _run("dot_variants", {"a": "random(1024, f32)", "b": "random(1024, f32)", "i8a": "random(512, i8)",
                                     "i8b": "random(512, i8)", "f8a": "random(512, f8E4M3FN)", "f8b": "random(512, f8E4M3FN)",
                                     "out": "zeros(512, f32)", "out_i": "zeros(256, i32)"},
                    {"a_ptr": "a", "b_ptr": "b", "i8a_ptr": "i8a", "i8b_ptr": "i8b", "f8a_ptr": "f8a", "f8b_ptr": "f8b",
                     "out_ptr": "out", "out_i_ptr": "out_i"})
    a, b = inp["a"].reshape(2, 16, 32), inp["b"].reshape(2, 32, 16)
    np.testing.assert_allclose(out["out"].reshape(2, 16, 16), 2 * (a @ b), rtol=1e-5)
    fc = (inp["f8a"].astype(np.float32).reshape(16, 32) @ inp["f8b"].astype(np.float32).reshape(32, 16)).astype(np.int32)
    ic = inp["i8a"].astype(np.int32).reshape(16, 32) @ inp["i8b"].astype(np.int32).reshape(32, 16)
    np.testing.assert_array_equal(out["out_i"].reshape(16, 16), ic + fc)
