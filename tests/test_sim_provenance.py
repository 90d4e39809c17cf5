"""Issue 29, class 2: provenance per lane (SPEC.md section 7, "Machine").  Each lane of a tensor of
pointers keeps the buffer and the heap (rank) it was derived from, through ``arith.select``,
``splat``, ``broadcast``, ``addptr``, ``expand_dims``, ``reshape``, ``trans``, ``symm_at`` and loads
and stores of pointers; every access is checked lane by lane, and an out-of-bounds access names the
lane's element index, the buffer, its size and the offset in elements."""

from __future__ import annotations

import numpy as np
import pytest

from transpiler.sim import Launch, Plan, check_lowering, simulate
from transpiler.sim.errors import OutOfBounds

RANGE8 = "%r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>"


def _kernel(args: str, body: str) -> str:
    return f"""module {{
  tt.func public @k({args}) {{
    {RANGE8}
    %c4 = arith.constant dense<4> : tensor<8xi32>
    %lo = arith.cmpi slt, %r, %c4 : tensor<8xi32>
{body}
    tt.return
  }}
}}
"""


def _ptrs(name: str, base: str, offsets: str = "%r") -> str:
    """``%{name}`` = splat ``base`` + ``offsets`` (tensor<8x!tt.ptr<f32>>)."""
    return (f"    %{name}_s = tt.splat {base} : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>\n"
            f"    %{name} = tt.addptr %{name}_s, {offsets} : tensor<8x!tt.ptr<f32>>, tensor<8xi32>\n")


STORE_OUT = _ptrs("po", "%out") + "    tt.store %po, %v : tensor<8x!tt.ptr<f32>>\n"
ARGS3 = "%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %out: !tt.ptr<f32>"
WHERE = _kernel(ARGS3, _ptrs("pa", "%a") + _ptrs("pb", "%b") +
                "    %p = arith.select %lo, %pa, %pb : tensor<8xi1>, tensor<8x!tt.ptr<f32>>\n"
                "    %v = tt.load %p : tensor<8x!tt.ptr<f32>>\n" + STORE_OUT)


def _plan(kernel, ranks=1, **buffers):
    bufs = {"a": np.arange(8, dtype=np.float32), "b": 100 + np.arange(8, dtype=np.float32),
            "out": "zeros(8, f32)", **buffers}
    args = {name: name for name in bufs}
    return Plan(ranks, bufs, [[Launch(list(range(ranks)), kernel, args=args)]])


def test_where_of_pointers_into_two_buffers_loads_from_each():
    out = simulate(_plan(WHERE)).buffers[0]["out"]
    assert out.tolist() == [0, 1, 2, 3, 104, 105, 106, 107]


def test_where_of_pointers_into_two_buffers_before_and_after_lowering():
    check_lowering(_plan(WHERE), schedules=2)


SHAPES = _kernel(ARGS3, _ptrs("pa", "%a") + _ptrs("pb", "%b") + """    %p = arith.select %lo, %pa, %pb : tensor<8xi1>, tensor<8x!tt.ptr<f32>>
    %p2 = tt.reshape %p : tensor<8x!tt.ptr<f32>> -> tensor<2x4x!tt.ptr<f32>>
    %pt = tt.trans %p2 {order = array<i32: 1, 0>} : tensor<2x4x!tt.ptr<f32>> -> tensor<4x2x!tt.ptr<f32>>
    %pe = tt.expand_dims %pt {axis = 0 : i32} : tensor<4x2x!tt.ptr<f32>> -> tensor<1x4x2x!tt.ptr<f32>>
    %pbc = tt.broadcast %pe : tensor<1x4x2x!tt.ptr<f32>> -> tensor<2x4x2x!tt.ptr<f32>>
    %one = arith.constant dense<1> : tensor<2x4x2xi32>
    %pn = tt.addptr %pbc, %one : tensor<2x4x2x!tt.ptr<f32>>, tensor<2x4x2xi32>
    %w = tt.load %pn : tensor<2x4x2x!tt.ptr<f32>>
    %w1 = tt.reshape %w : tensor<2x4x2xf32> -> tensor<16xf32>
    %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %po = tt.addptr %os, %r16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %po, %w1 : tensor<16x!tt.ptr<f32>>
""")


def test_provenance_follows_shape_ops_and_addptr():
    """Lane k of the selected pointers is a+k (k < 4) or b+k; reshaped to 2x4, transposed, expanded,
    broadcast and advanced by one element: b+7 advanced is b[8], out of b, so the kernel stops..."""
    with pytest.raises(OutOfBounds) as e:
        simulate(_plan(SHAPES, out="zeros(16, f32)"))
    msg = e.value.message
    # lane (0, 3, 1) of the 2x4x2 tensor holds transposed lane (3, 1) = reshaped (1, 3) = lane 7: b + 8
    assert "lane (0, 3, 1)" in msg and "buffer 'b'" in msg and "element 8" in msg and "8 elements" in msg
    assert "heap" not in msg


def test_provenance_follows_shape_ops_in_bounds():
    """The same kernel on a b of 9 elements: every lane reads its own buffer."""
    b = 100 + np.arange(9, dtype=np.float32)
    out = simulate(_plan(SHAPES, b=b, out="zeros(16, f32)")).buffers[0]["out"]
    sel = np.where(np.arange(8) < 4, np.arange(8), 100 + np.arange(8)).reshape(2, 4).T + 1
    assert out.tolist() == np.broadcast_to(sel, (2, 4, 2)).ravel().tolist()


OOB_WHERE = _kernel(ARGS3, _ptrs("pa", "%a") + _ptrs("pb", "%b", "%r3") + """    %p = arith.select %lo, %pa, %pb : tensor<8xi1>, tensor<8x!tt.ptr<f32>>
    %v = tt.load %p : tensor<8x!tt.ptr<f32>>
""" + STORE_OUT).replace("%lo = arith", "%c3 = arith.constant dense<3> : tensor<8xi32>\n    %r3 = arith.addi %r, %c3 : tensor<8xi32>\n    %lo = arith")


def test_out_of_bounds_names_the_lane_buffer_size_and_offset():
    """b + (k + 3) for lanes k >= 4: lane 5 is b[8], the first lane outside b (8 elements)."""
    with pytest.raises(OutOfBounds) as e:
        simulate(_plan(OOB_WHERE))
    msg = e.value.message
    assert "lane 5" in msg and "buffer 'b'" in msg and "element 8" in msg and "8 elements" in msg, msg
    assert "heap" not in msg and "buffer 'a'" not in msg


TWO_HEAPS = _kernel("%x: !tt.ptr<f32>, %out: !tt.ptr<f32>", """    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %x0 = distributed.symm_at %x, %c0, : !tt.ptr<f32>
    %x1 = distributed.symm_at %x, %c1, : !tt.ptr<f32>
""" + _ptrs("p0", "%x0") + _ptrs("p1", "%x1") + """    %p = arith.select %lo, %p0, %p1 : tensor<8xi1>, tensor<8x!tt.ptr<f32>>
    %v = tt.load %p : tensor<8x!tt.ptr<f32>>
""" + STORE_OUT)


def _two_heaps_plan():
    return Plan(2, {"x": [np.arange(8, dtype=np.float32), 10 + np.arange(8, dtype=np.float32)], "out": "zeros(8, f32)"},
                [[Launch([0, 1], TWO_HEAPS, args={"x": "x", "out": "out"})]])


def test_lanes_into_two_ranks_heaps():
    result = simulate(_two_heaps_plan())
    for rank in (0, 1):
        assert result.buffers[rank]["out"].tolist() == [0, 1, 2, 3, 14, 15, 16, 17]


def test_lanes_into_two_ranks_heaps_before_and_after_lowering():
    check_lowering(_two_heaps_plan(), schedules=2)


PTR_STORE = _kernel("%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %out: !tt.ptr<f32>, %pp: !tt.ptr<!tt.ptr<f32>>", _ptrs("pa", "%a") + _ptrs("pb", "%b") + """    %p = arith.select %lo, %pa, %pb : tensor<8xi1>, tensor<8x!tt.ptr<f32>>
    %ps = tt.splat %pp : !tt.ptr<!tt.ptr<f32>> -> tensor<8x!tt.ptr<!tt.ptr<f32>>>
    %pps = tt.addptr %ps, %r : tensor<8x!tt.ptr<!tt.ptr<f32>>>, tensor<8xi32>
    tt.store %pps, %p : tensor<8x!tt.ptr<!tt.ptr<f32>>>
    %q = tt.load %pps : tensor<8x!tt.ptr<!tt.ptr<f32>>>
    %OFF = arith.constant dense<0> : tensor<8xi32>
    %q1 = tt.addptr %q, %OFF : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %q1 : tensor<8x!tt.ptr<f32>>
""" + STORE_OUT)


def test_pointers_stored_and_loaded_keep_their_buffers():
    plan = _plan(PTR_STORE, pp="zeros(8, i64)")
    out = simulate(plan).buffers[0]["out"]
    assert out.tolist() == [0, 1, 2, 3, 104, 105, 106, 107]


def test_a_loaded_pointer_out_of_its_buffer_is_reported():
    kernel = PTR_STORE.replace("dense<0> : tensor<8xi32>\n    %q1", "dense<4> : tensor<8xi32>\n    %q1")
    with pytest.raises(OutOfBounds) as e:
        simulate(_plan(kernel, pp="zeros(8, i64)"))
    assert "lane 4" in e.value.message and "buffer 'b'" in e.value.message and "element 8" in e.value.message


WALK = """module {
  tt.func public @k(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %k: i32) {
    %p = tt.addptr %x, %k : !tt.ptr<f32>, i32
    %v = tt.load %p : !tt.ptr<f32>
    tt.store %out, %v : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_a_pointer_walked_past_its_heap_is_not_another_ranks_buffer():
    """x and out of 64 f32 each (256 bytes, the heap alignment): rank 0's x + 128 elements is rank
    1's x[0] by address, but the pointer was derived from rank 0's x: out of bounds, not a read."""
    from transpiler.sim.memory import ALIGN

    n = ALIGN // 4
    plan = Plan(2, {"x": f"zeros({n}, f32)", "out": f"zeros({n}, f32)"},
                [[Launch([0], WALK, args={"x": "x", "out": "out", "k": 2 * n})]])
    with pytest.raises(OutOfBounds) as e:
        simulate(plan)
    msg = e.value.message
    assert f"element {2 * n} is outside buffer 'x' ({n} elements of 4 bytes) on rank 0" in msg, msg
    assert "lane" not in msg


def test_in_bounds_scalar_pointer_still_loads():
    from transpiler.sim.memory import ALIGN

    n = ALIGN // 4
    plan = Plan(2, {"x": [np.arange(n, dtype=np.float32), -np.arange(n, dtype=np.float32)], "out": f"zeros({n}, f32)"},
                [[Launch([0, 1], WALK, args={"x": "x", "out": "out", "k": n - 1})]])
    result = simulate(plan)
    assert result.buffers[0]["out"][0] == n - 1 and result.buffers[1]["out"][0] == -(n - 1)


ONE_PAST = """module {
  tt.func public @k(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %out: !tt.ptr<f32>, %pp: !tt.ptr<!tt.ptr<f32>>) {
    %n = arith.constant N : i32
    %m1 = arith.constant -1 : i32
    %end = tt.addptr %a, %n : !tt.ptr<f32>, i32
    tt.store %pp, %end : !tt.ptr<!tt.ptr<f32>>
    %q = tt.load %pp : !tt.ptr<!tt.ptr<f32>>
    %last = tt.addptr %q, %m1 : !tt.ptr<f32>, i32
    %v = tt.load %last : !tt.ptr<f32>
    tt.store %out, %v : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_a_stored_pointer_one_past_its_buffer_keeps_its_buffer():
    """a of 64 f32 fills its 256-byte slot, so a + 64 is b's first byte by address; stored and
    loaded back it is still a pointer into a: one element back is a[63], not out of b."""
    from transpiler.sim.memory import ALIGN

    n = ALIGN // 4
    plan = Plan(1, {"a": np.arange(n, dtype=np.float32), "b": np.full(n, -1, np.float32), "out": "zeros(1, f32)",
                    "pp": "zeros(1, i64)"},
                [[Launch([0], ONE_PAST.replace("N", str(n)), args={k: k for k in ("a", "b", "out", "pp")})]])
    assert simulate(plan).buffers[0]["out"][0] == n - 1


def test_pointers_through_memory_before_and_after_lowering():
    check_lowering(_plan(PTR_STORE, pp="zeros(8, i64)"), schedules=2)


ATOMIC_WHERE = _kernel(ARGS3, _ptrs("pa", "%a") + _ptrs("pb", "%b") + """    %p = arith.select %lo, %pa, %pb : tensor<8xi1>, tensor<8x!tt.ptr<f32>>
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %t = arith.constant dense<true> : tensor<8xi1>
    %v = tt.atomic_rmw fadd, acq_rel, gpu, %p, %one, %t : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>, tensor<8xi1>) -> tensor<8xf32>
""" + STORE_OUT)


def test_atomics_through_pointers_into_two_buffers():
    """Each lane adds 1 to its own buffer's element and returns the old value."""
    result = simulate(_plan(ATOMIC_WHERE)).buffers[0]
    assert result["out"].tolist() == [0, 1, 2, 3, 104, 105, 106, 107]
    assert result["a"].tolist() == [1, 2, 3, 4, 4, 5, 6, 7]
    assert result["b"].tolist() == [100, 101, 102, 103, 105, 106, 107, 108]
