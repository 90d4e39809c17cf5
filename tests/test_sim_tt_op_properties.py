"""Property tests of ``tt.clampf``, ``tt.bitcast``, ``arith.select`` of values and the pointer
conversions ``tt.ptr_to_int`` / ``tt.int_to_ptr`` against independent references (issue 29,
"arithmetic by definition"): exact rationals (:mod:`exact_float`) for clampf, Python integers on
the bits for bitcast and select (a NaN's payload and a -0 are kept bit for bit), and the heap
layout documented in transpiler/sim/memory.py for the pointer conversions.  Scalars and tensors;
hypothesis draws the edge values of :mod:`op_cases`.  tests/test_sim_op_coverage.py maps each
covered op to its test."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transpiler.ir.types import FloatType, IntegerType, PointerType, RankedTensorType
from transpiler.sim import Launch, Plan, simulate
from transpiler.sim.errors import OutOfBounds
from transpiler.sim.memory import BASE, Memory

from exact_float import DTYPES, NAN, exact, order_key, round_exact, same
from op_cases import FLOATS, floats as _floats, ints as _ints, run_op, unsigned as _u

ALL, NONE = 0xFFFF, 0  # tt.PropagateNan


def _max_min(xs, y, pick, propagate):
    """Every result MLIR allows for maximumf / minimumf (``propagate``: NaN wins, -0 < +0) or
    maxnumf / minnumf (a NaN gives way; of two equal zeros either) of each ``x`` in ``xs`` and ``y``."""
    out = set()
    for x in xs:
        if NAN in (x[0], y[0]):
            out.add((NAN, False) if propagate or x[0] == y[0] else (y if x[0] == NAN else x))
        elif not propagate and x[0] == 0 and y[0] == 0:
            out |= {x, y}
        else:
            out.add(pick(x, y, key=order_key))
    return out


def _clamp_ref(x, lo, hi, propagate):
    """Triton's clampf by its lowering: min(max(x, lo), hi) (see transpiler/sim/ops/tt.py)."""
    return _max_min(_max_min({x}, lo, max, propagate), hi, min, propagate)


@pytest.mark.parametrize("t", ["bf16", "f16", "f32"])
def test_a_signaling_nan_gives_way_under_propagate_nan_none(t):
    """numpy's fmin / fmax return NaN for a signaling NaN operand, where minnumf / maxnumf give
    the other (hypothesis found clampf(0, 0, sNaN) of bf16 NaN on CI, session 43)."""
    dt = DTYPES[t]
    bits = {"bf16": 0x7F81, "f16": 0x7C01, "f32": 0x7F800001}[t]
    snan = np.array([bits], np.uint32 if t == "f32" else np.uint16).view(dt)[0]
    zero, one = dt.type(0.0), dt.type(1.0)
    ty = FloatType(t)
    assert float(run_op("tt.clampf", [zero, zero, snan], [ty] * 3, ty, propagateNan=NONE)) == 0.0
    assert float(run_op("tt.clampf", [snan, one, one], [ty] * 3, ty, propagateNan=NONE)) == 1.0
    for name in ("arith.maxnumf", "arith.minnumf"):
        assert float(run_op(name, [snan, one], [ty] * 2, ty)) == 1.0
        assert float(run_op(name, [one, snan], [ty] * 2, ty)) == 1.0


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(FLOATS), st.sampled_from([ALL, NONE]), st.integers(1, 4), st.booleans(), st.data())
def test_clampf_is_triton_s_lowering(t, mode, n, ordered, data):
    """propagateNan = all: NaN if any operand is NaN, -0 < +0; none: a NaN operand gives way to
    the other, either zero of two equal ones.  Bounds in order or not (min > max: the
    composition's value).  Each lane of a tensor, and the first lane alone as a scalar."""
    dt = DTYPES[t]
    value = st.one_of(_floats(t), st.sampled_from([dt.type(0.0), dt.type(-0.0)]))
    lanes = [[data.draw(value) for _ in range(3)] for _ in range(n)]
    if ordered:  # most kernels clamp with min <= max
        for lane in lanes:
            if float(lane[1]) > float(lane[2]):
                lane[1], lane[2] = lane[2], lane[1]
    ty = FloatType(t)
    tensor = RankedTensorType((n,), ty)
    cols = [np.array([lane[k] for lane in lanes], dt) for k in range(3)]
    got = run_op("tt.clampf", cols, [tensor] * 3, tensor, propagateNan=mode)
    scalar = run_op("tt.clampf", lanes[0], [ty] * 3, ty, propagateNan=mode)
    assert np.asarray(got).dtype == dt and np.asarray(scalar).dtype == dt
    for k, (x, lo, hi) in enumerate(lanes):
        wants = _clamp_ref(exact(float(x)), exact(float(lo)), exact(float(hi)), mode == ALL)
        for value in [got[k]] + ([scalar] if k == 0 else []):
            assert any(same(value, round_exact(*w, t)) for w in wants), \
                (t, mode, float(x), float(lo), float(hi), float(value), wants)


CLAMP_KERNEL = """module {
  tt.func public @k(%x: !tt.ptr<f32>, %lo: !tt.ptr<f32>, %hi: !tt.ptr<f32>, %all: !tt.ptr<f32>, %none: !tt.ptr<f32>) {
    %r = tt.make_range {end = 6 : i32, start = 0 : i32} : tensor<6xi32>
""" + "".join(f"""    %{n}s = tt.splat %{n} : !tt.ptr<f32> -> tensor<6x!tt.ptr<f32>>
    %{n}p = tt.addptr %{n}s, %r : tensor<6x!tt.ptr<f32>>, tensor<6xi32>
""" for n in ("x", "lo", "hi", "all", "none")) + """    %xv = tt.load %xp : tensor<6x!tt.ptr<f32>>
    %lov = tt.load %lop : tensor<6x!tt.ptr<f32>>
    %hiv = tt.load %hip : tensor<6x!tt.ptr<f32>>
    %a = tt.clampf %xv, %lov, %hiv, propagateNan = all : tensor<6xf32>
    %b = tt.clampf %xv, %lov, %hiv, propagateNan = none : tensor<6xf32>
    tt.store %allp, %a : tensor<6x!tt.ptr<f32>>
    tt.store %nonep, %b : tensor<6x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_clampf_reads_propagate_nan_from_the_kernel_text():
    """The parsed attribute (``all`` = 0xFFFF, ``none`` = 0) picks the NaN rule."""
    nan = float("nan")
    bufs = {"x": np.array([nan, 0.5, -0.0, 5.0, nan, 0.25], np.float32),
            "lo": np.array([0.0, nan, 0.0, 0.0, -1.0, 0.0], np.float32),
            "hi": np.array([1.0, 1.0, 1.0, 2.0, 1.0, nan], np.float32), "all": "zeros(6, f32)", "none": "zeros(6, f32)"}
    out = simulate(Plan(1, bufs, [[Launch([0], CLAMP_KERNEL, args={n: n for n in bufs})]])).buffers[0]
    assert np.isnan(out["all"][[0, 1, 4, 5]]).all() and out["all"][2] == 0 and not np.signbit(out["all"][2])
    assert out["all"][3] == 2.0
    assert out["none"].tolist() == [0.0, 0.5, 0.0, 2.0, -1.0, 0.25]


def _type(name: str):
    return IntegerType(int(name[1:])) if name[0] == "i" else FloatType(name)


def _dtype(name: str) -> np.dtype:
    return np.dtype(f"i{int(name[1:]) // 8}") if name[0] == "i" else DTYPES[name]


def _width(name: str) -> int:
    return 8 * _dtype(name).itemsize


def _patterns(name: str):
    """Bit patterns (unsigned Python ints) of ``name``'s values: any, or an edge value (±0,
    ±inf, NaN, subnormals, largest finite; integer ends)."""
    w = _width(name)
    if name[0] == "i":
        return _ints(w).map(lambda v: _u(v, w))
    return _floats(name).map(lambda v: int.from_bytes(np.asarray(v).tobytes(), sys.byteorder))


def _from_bits(bits, name: str):
    """A value of ``name`` holding ``bits`` (an int: a numpy scalar; a list: an array), made from
    bytes, never by a numpy cast or view."""
    size = _dtype(name).itemsize
    arr = np.frombuffer(b"".join(b.to_bytes(size, sys.byteorder) for b in _listed(bits)), _dtype(name))
    return arr[0] if isinstance(bits, int) else arr.copy()


def _listed(v) -> list:
    """``v`` as a list (a Python int: a list of one)."""
    return [v] if isinstance(v, int) else list(v)


def _bits(value) -> list:
    """The bit patterns of a scalar's or an array's elements, read from their bytes."""
    a = np.asarray(value)
    raw, size = a.tobytes(), a.dtype.itemsize
    return [int.from_bytes(raw[i:i + size], sys.byteorder) for i in range(0, len(raw), size)]


SAME_WIDTH = [["i8"] + [t for t in DTYPES if t.startswith("f8")], ["i16", "f16", "bf16"], ["i32", "f32"],
              ["i64", "f64"]]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SAME_WIDTH), st.integers(0, 4), st.data())
def test_tt_bitcast_keeps_the_bits(group, n, data):
    """Between any two types of one width (int <-> float, float <-> float: f16 / bf16, the f8
    types): the result has the target type and every bit of the source, NaN payloads and -0
    included; a scalar (n = 0) and a tensor of n lanes."""
    src, dst = data.draw(st.sampled_from(group)), data.draw(st.sampled_from(group))
    bits = data.draw(_patterns(src)) if n == 0 else data.draw(st.lists(_patterns(src), min_size=n, max_size=n))
    ts, td = (_type(src), _type(dst)) if n == 0 else (RankedTensorType((n,), _type(src)), RankedTensorType((n,), _type(dst)))
    got = run_op("tt.bitcast", [_from_bits(bits, src)], [ts], td)
    assert np.asarray(got).dtype == _dtype(dst) and np.shape(got) == (() if n == 0 else (n,))
    assert _bits(got) == _listed(bits), (src, dst, bits, got)


SELECT_TYPES = ["i8", "i16", "i32", "i64"] + FLOATS


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SELECT_TYPES), st.sampled_from(["scalar", "scalar condition", "tensor condition"]),
       st.integers(1, 5), st.data())
def test_select_keeps_the_chosen_bits(t, form, n, data):
    """arith.select: lane k is the true value's lane k where the condition (a scalar i1, or a
    tensor of them) holds, else the false value's, bit for bit (NaN payloads, -0)."""
    lanes = 1 if form == "scalar" else n
    a, b = (data.draw(st.lists(_patterns(t), min_size=lanes, max_size=lanes)) for _ in range(2))
    conds = data.draw(st.lists(st.booleans(), min_size=lanes, max_size=lanes))
    vt = _type(t) if form == "scalar" else RankedTensorType((n,), _type(t))
    ct = RankedTensorType((n,), IntegerType(1)) if form == "tensor condition" else IntegerType(1)
    if form == "tensor condition":
        cond, want = np.array(conds, np.bool_), [x if c else y for c, x, y in zip(conds, a, b)]
    else:
        cond, want = np.bool_(conds[0]), a if conds[0] else b
    vals = [_from_bits(v[0], t) for v in (a, b)] if form == "scalar" else [_from_bits(v, t) for v in (a, b)]
    got = run_op("arith.select", [cond] + vals, [ct, vt, vt], vt)
    assert np.asarray(got).dtype == _dtype(t) and _bits(got) == want, (t, form, conds, a, b)


POINTEES = ["i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]


def _layout(sizes):
    """Byte offsets of buffers of ``sizes`` bytes allocated in order, and the heap size: each
    buffer at the next multiple of 256 bytes (transpiler/sim/memory.py), the same in every heap."""
    offsets, end = [], 0
    for nbytes in sizes:
        offsets.append(end)
        end += -(-max(nbytes, 1) // 256) * 256
    return offsets, max(end, 256)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 3), st.lists(st.integers(1, 700), min_size=1, max_size=3), st.sampled_from(POINTEES),
       st.integers(0, 6), st.data())
def test_pointer_int_round_trip(ranks, sizes, pointee, n, data):
    """ptr_to_int of buffer j's pointer in rank r's heap advanced by k elements (tt.addptr) is
    BASE + r * heap size + offset(j) + k * element size; int_to_ptr of it has that address, and
    every lane points into the buffer its address lies in (loads there read memory's bytes, and
    are out of bounds where no buffer holds the element).  So ptr -> int -> ptr keeps a pointer
    into its own buffer pointing into it.  A scalar (n = 0) and a tensor of n lanes."""
    mem = Memory(ranks, [(f"b{i}", nbytes, np.uint8) for i, nbytes in enumerate(sizes)])
    mem.flat[:] = np.random.default_rng(len(sizes)).integers(0, 256, mem.flat.size, dtype=np.uint8)
    offsets, heap = _layout(sizes)
    j, r = data.draw(st.integers(0, len(sizes) - 1)), data.draw(st.integers(0, ranks - 1))
    dt, size = _dtype(pointee), _dtype(pointee).itemsize
    count = sizes[j] // size
    k_of = st.one_of(st.integers(-heap // size - 2, ranks * heap // size + 2), st.sampled_from([0, count - 1, count, -1]))
    ks = data.draw(k_of) if n == 0 else data.draw(st.lists(k_of, min_size=n, max_size=n))
    pt = PointerType(_type(pointee))
    it, ptr = IntegerType(64), mem.pointer(f"b{j}", r)
    if n:
        pt = RankedTensorType((n,), pt)
        it = RankedTensorType((n,), it)
        ptr = run_op("tt.splat", [ptr], [pt.element], pt)
    off = np.array(ks, np.int32) if n else np.int32(ks)
    moved = run_op("tt.addptr", [ptr, off], [pt, IntegerType(32) if not n else RankedTensorType((n,), IntegerType(32))], pt)
    as_int = run_op("tt.ptr_to_int", [moved], [pt], it)
    want = [BASE + r * heap + offsets[j] + k * size for k in _listed(ks)]
    assert np.asarray(as_int).dtype == np.int64 and np.asarray(as_int).reshape(-1).tolist() == want
    back = run_op("tt.int_to_ptr", [as_int], [it], pt, p=SimpleNamespace(run=SimpleNamespace(memory=mem)))
    assert np.asarray(back.addr).reshape(-1).tolist() == want
    for lane, addr in enumerate(want):
        g = addr - BASE
        rel = g % heap if 0 <= g < ranks * heap else None
        inside = rel is not None and any(o <= rel and rel + size <= o + s for o, s in zip(offsets, sizes))
        mask = None if not n else np.arange(n) == lane
        if not inside:
            with pytest.raises(OutOfBounds):
                mem.load(back, dt, mask)
            continue
        got = np.asarray(mem.load(back, dt, mask)).reshape(-1)[lane]
        assert got.tobytes() == mem.flat[g:g + size].tobytes(), (lane, addr)
        if 0 <= _listed(ks)[lane] < count:  # the round trip of a pointer into its own buffer
            assert np.asarray(mem.load(moved, dt, mask)).reshape(-1)[lane].tobytes() == got.tobytes()
    cast = run_op("tt.bitcast", [back], [pt], pt)  # a pointer's bitcast keeps address and provenance
    assert np.asarray(cast.addr).reshape(-1).tolist() == want


POINTER_KERNEL = """module {
  tt.func public @k(%a: !tt.ptr<f32>, %out: !tt.ptr<f32>, %addr: !tt.ptr<i64>) {
    %c3 = arith.constant 3 : i32
    %p = tt.addptr %a, %c3 : !tt.ptr<f32>, i32
    %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    tt.store %addr, %i : !tt.ptr<i64>
    %q = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
    %v = tt.load %q : !tt.ptr<f32>
    tt.store %out, %v : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_pointer_conversions_in_a_kernel():
    """Through the kernel text on rank 1 of 2: a + 3 elements is rank 1's heap base + 12, and the
    pointer made back from that integer loads a[3]."""
    bufs = {"a": np.arange(8, dtype=np.float32) + 10, "out": "zeros(1, f32)", "addr": "zeros(1, i64)"}
    res = simulate(Plan(2, bufs, [[Launch([1], POINTER_KERNEL, args={n: n for n in bufs})]])).buffers[1]
    offsets, heap = _layout([32, 4, 8])
    assert res["addr"].tolist() == [BASE + heap + offsets[0] + 12] and res["out"].tolist() == [13.0]
