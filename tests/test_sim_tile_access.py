"""Tile loads and stores as strided views (issue 33, "tile loads as views"): an access through
``base + off * scale`` whose offsets are affine in the lane index reads and writes exactly what the
general gather / scatter path of :class:`~transpiler.sim.memory.Memory` does, for any tile shape,
strides (0 and negative included), offsets that are not affine, masks and element types; an
affine step of a pointer tensor (``ptrs += BLOCK``) moves the base and keeps the offsets."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from transpiler.sim import access
from transpiler.sim.memory import BASE, Memory
from transpiler.sim.pointers import OffsetPtr

COUNT = 4096  # elements of the one buffer


class _Program:
    """What access.load / access.store read of a program: its facts cache."""

    def __init__(self):
        self.facts = access.FactCache()


tiles = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(-9, 9), st.integers(-9, 9),
                  st.integers(0, COUNT - 1), st.sampled_from([np.int32, np.int64]),
                  st.sampled_from([np.float16, np.float32, np.int8, np.float64]),
                  st.one_of(st.none(), st.integers(0, 35)), st.booleans(), st.booleans())


def _setup(tile):
    rows, cols, s0, s1, first, off_type, dtype, perturb, masked, all_live = tile
    dtype = np.dtype(dtype)
    off = (first + np.arange(rows)[:, None] * s0 + np.arange(cols)[None, :] * s1).astype(off_type)
    if perturb is not None:  # one lane off the affine pattern: the gather path
        off.flat[perturb % off.size] += 1
    mask = None
    if masked:
        mask = np.ones(off.shape, bool) if all_live else (np.arange(off.size).reshape(off.shape) % 3 != 0)
    mem = Memory(1, [("b", COUNT * dtype.itemsize, dtype)])
    mem.view(np.uint8)[:] = np.random.default_rng(first).integers(0, 256, mem.flat.size, dtype=np.uint8)
    buf = mem.buffers["b"]
    live = off if mask is None else off[mask]
    assume(live.size == 0 or (live.min() >= 0 and live.max() < COUNT))  # in bounds: both paths read
    return OffsetPtr(BASE + buf.offset, off, dtype.itemsize, off.shape, buf), mask, mem, dtype


@settings(max_examples=400, deadline=None)
@given(tiles)
def test_a_tile_load_reads_what_the_gather_reads(tile):
    ptr, mask, mem, dtype = _setup(tile)
    got = access.load(_Program(), mem, ptr, dtype, mask, None)
    want = mem.load(ptr, dtype, mask, None)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got.view(np.uint8), np.ascontiguousarray(want).view(np.uint8))


@settings(max_examples=400, deadline=None)
@given(tiles)
def test_a_tile_store_writes_what_the_scatter_writes(tile):
    ptr, mask, mem, dtype = _setup(tile)
    values = np.arange(ptr.off.size, dtype=np.int64).reshape(ptr.off.shape).astype(dtype)
    other = Memory(1, [("b", COUNT * dtype.itemsize, dtype)])
    other.flat[:] = mem.flat
    access.store(_Program(), mem, ptr, dtype, values, mask)
    other.store(ptr, dtype, values, mask)
    assert np.array_equal(mem.flat, other.flat)


def test_an_affine_tile_takes_the_view_path_and_a_perturbed_one_does_not():
    off = np.arange(4)[:, None] * 16 + np.arange(8)[None, :]
    assert access.affine(off) == (0, (16, 1))
    assert access.affine(off.astype(np.int32) + 5) == (5, (16, 1))
    bent = off.copy()
    bent[3, 7] += 1
    assert access.affine(bent) is None
    assert access.affine(np.zeros((3, 3), np.int32) + 7) == (7, (0, 0))


def test_a_uniform_step_moves_the_base_and_keeps_the_offsets():
    from transpiler.sim.ops.tiles import offset as _offset

    mem = Memory(1, [("b", 4 * COUNT, np.dtype(np.float32))])
    buf = mem.buffers["b"]
    off = np.arange(4)[:, None] * 16 + np.arange(8)[None, :]
    ptr = OffsetPtr(BASE, off, 4, off.shape, buf)
    step = _offset(4, ptr, np.full(off.shape, 8, np.int32))
    assert step.off is off and step.base == BASE + 32
    assert np.array_equal(step.addr, ptr.addr + 32)
    ragged = np.arange(32, dtype=np.int32).reshape(off.shape)
    moved = _offset(4, ptr, ragged)
    assert np.array_equal(moved.addr, ptr.addr + 4 * ragged)


lines = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(-2**31, 2**31 - 1),
                  st.integers(-2**31, 2**31 - 1), st.integers(-2**31, 2**31 - 1), st.integers(-2**31, 2**31 - 1),
                  st.sampled_from([np.int8, np.int32, np.int64]), st.integers(0, 40))


@settings(max_examples=400, deadline=None)
@given(lines)
def test_the_form_noted_for_a_sum_of_broadcasts_is_every_lane_s(line):
    """``rows[:, None] * s + cols[None, :]`` as the kernels build it: the form note_sum keeps
    gives each lane of the wrapped sum exactly, and none is kept when a lane wrapped (so the
    access compares the lanes, or gathers)."""
    rows, cols, r0, rs, c0, cs, dtype, perturb = line
    info = np.iinfo(dtype)
    col = (c0 + np.arange(cols) * cs).astype(dtype)  # wraps as arith would
    row = (r0 + np.arange(rows) * rs).astype(dtype)[:, None]
    if perturb < rows:  # a row off the line: no form for the sum (it may wrap, as arith would)
        with np.errstate(over="ignore"):
            row[perturb, 0] += 1
    x, y = np.broadcast_to(row, (rows, cols)), np.broadcast_to(col[None, :], (rows, cols))
    with np.errstate(over="ignore"):
        r = x + y
    p = _Program()
    access.note_sum(p, r, x, y)
    noted = p.facts.get((id(r),))
    exact = row.astype(object) + col.astype(object)[None, :]
    if noted is None:  # then one is no broadcast, a line is not affine or a lane of the sum wrapped
        steps = [np.diff(v.astype(object).ravel()) for v in (row, col)]
        affine = all(len(set(d)) <= 1 for d in steps)
        fits = info.min <= min(exact.flat) and max(exact.flat) <= info.max
        assert rows == 1 or cols == 1 or not affine or not fits
        return
    first, strides = noted[0]
    lanes = first + np.arange(rows)[:, None].astype(object) * strides[0] + np.arange(cols)[None, :].astype(object) * strides[1]
    assert (lanes == exact).all() and (r.astype(object) == exact).all()
    assert info.min <= min(exact.flat) and max(exact.flat) <= info.max


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(-9, 9), st.integers(-9, 9), st.integers(0, COUNT - 1),
       st.booleans())
def test_a_broadcast_pointer_plus_broadcast_offsets_is_the_tile_it_addresses(rows, cols, s0, s1, first, splat):
    """``c_ptr + (rows * s0)[:, None]`` broadcast, then ``+ (cols * s1)[None, :]`` broadcast (the
    C store of the GEMM tutorials): the pointer stays ``base + off`` through the shape op, its
    addresses are the plain pointer's, and a load through it reads what the gather reads."""
    from transpiler.sim.ops.tiles import offset as _offset

    mem = Memory(1, [("b", COUNT * 4, np.float32)])
    mem.view(np.float32)[:] = np.arange(COUNT, dtype=np.float32)
    buf = mem.buffers["b"]
    row = (first + np.arange(rows) * s0).astype(np.int32)[:, None]
    col = (np.arange(cols) * s1).astype(np.int32)[None, :]
    start = OffsetPtr(BASE + buf.offset, None, 4, (rows, 1), buf)
    ptr = (start if splat else _offset(4, start, row)).map(lambda a: np.broadcast_to(a, (rows, cols)))
    assert ptr.__class__ is OffsetPtr and ptr.shape == (rows, cols)
    p = _Program()
    tile = _offset(4, ptr, np.broadcast_to(col, (rows, cols)), p)
    want = BASE + buf.offset + 4 * ((0 if splat else row.astype(np.int64)) + col.astype(np.int64))
    assert np.array_equal(tile.addr, np.broadcast_to(want, (rows, cols)))
    assume(0 <= want.min() - BASE - buf.offset and want.max() - BASE - buf.offset < COUNT * 4)
    got = access.load(p, mem, tile, np.dtype(np.float32), None, None)
    assert np.array_equal(got, mem.load(tile, np.dtype(np.float32), None, None))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.booleans()), min_size=1, max_size=3),
       st.sampled_from([np.int32, np.int8, np.bool_, np.float16]), st.booleans())
def test_tt_broadcast_is_numpy_s_broadcast(axes, dtype, strided):
    """tt.broadcast's own view equals ``np.broadcast_to``: values, shape, read-only; an input
    that is not C-contiguous (a view) goes through numpy itself."""
    from transpiler.sim.ops.tiles import broadcast_to

    src = tuple(1 if stretch else n for n, stretch in axes)
    shape = tuple(n for n, _ in axes)
    a = (np.arange(int(np.prod(src)) * 2) % 7).astype(dtype)
    a = a[::2].reshape(src) if strided else a[: int(np.prod(src))].reshape(src)
    got, want = broadcast_to(a, shape), np.broadcast_to(a, shape)
    assert got.shape == want.shape and got.dtype == want.dtype and not got.flags.writeable
    assert np.array_equal(got, want)


def test_the_facts_of_a_tile_go_with_its_arrays():
    """Issue 33, memory: a program's facts hold no tile alive.  Once the offsets (or the mask)
    go, so does their entry, with its int64 copy; while they live, the entry is found again."""
    import gc
    import weakref

    p = _Program()
    gc.disable()  # reference counts alone must free them, as in a run (the collector is paused)
    try:
        off = (np.arange(64, dtype=np.int32) * 3).reshape(8, 8)
        mask = np.ones((8, 8), bool)
        mask[7, 7] = False  # a gathered tile: the facts keep an int64 copy of the offsets
        f = access.facts(p, off, mask)
        assert f is not None and access.facts(p, off, mask) is f and f.int64(off).dtype == np.int64
        copy = weakref.ref(f.int64(off))
        del f
        assert len(p.facts) == 1
        del mask
        assert p.facts == {} and copy() is None
        s = off + off  # a noted sum keeps no array alive either
        access.note_sum(p, s, np.broadcast_to(off[:1], (8, 8)), np.broadcast_to(off[:, :1], (8, 8)))
        assert len(p.facts) == 1
        del s
        assert p.facts == {}
    finally:
        gc.enable()
