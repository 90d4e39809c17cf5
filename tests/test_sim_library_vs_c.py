"""Issue 23: each device-library model (``transpiler.sim.library``) against the real C wrappers of
``device_templates/src/`` built as a shared library (``tests/tools/host_library.py``).

For every symbol of ``device_templates/symbols.txt`` whose C body does not block, and for the
waits (``aclshmem_wait_<T>``, ``aclshmem_wait_until_<T>``, ``aclshmem_signal_wait_until``), the
test draws random *valid* operands (pe in range, pointers inside the heap, sig_op 0 or 1, team 0:
the host build knows only the world team), fills the heaps of both sides with the same random
bytes, calls the C wrapper and the model (through the bundled release's binding, so each integer
reaches it at the C parameter's width), and compares every heap byte afterwards, the return value
and whether the call blocks.  A wait's condition is met in most draws (its slots hold the value it
waits for; for ``wait_until`` codes outside 0-5 and NaNs, which SHMEM's loop lets through, are drawn
too); where it is not, both sides must block.  Barriers, quiet and fence are left out: their host
bodies do nothing (``host_library.NO_OPS``).  g++ is required (as ``tests/test_host_library.py``).
"""

from __future__ import annotations

import random
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "tools"))
import host_library as hl  # noqa: E402

from transpiler.sim.library import HostDevice, WouldBlock, models  # noqa: E402
from transpiler.sim.library.binding import DeviceLibrary, convert  # noqa: E402
from transpiler.sim.memory import Memory, Ptr  # noqa: E402

RANKS, HEAP, DRAWS = 3, 1024, 25
SYMBOLS = sorted(s for s in hl.read_symbols() if s not in hl.NO_OPS)
NUMPY = {"half": np.float16, "float": np.float32, "int8_t": np.int8, "int16_t": np.int16, "int32_t": np.int32,
         "int64_t": np.int64, "uint8_t": np.uint8, "uint16_t": np.uint16, "uint32_t": np.uint32,
         "uint64_t": np.uint64, "char": np.int8}


def _np(ctype):
    if ctype == "bfloat16_t":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(NUMPY[ctype])


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TTD_LOWER_CACHE", str(tmp_path_factory.mktemp("cache")))
        return hl.HostLibrary.load()


class Case:
    """One draw: the calling PE, the operands of both sides, the heap bytes before the call."""

    def __init__(self, rng: random.Random, lib, symbol: str):
        self.rng, self.symbol = rng, symbol
        self.me = rng.randrange(RANKS)
        self.heap = bytearray(rng.randrange(256) for _ in range(RANKS * HEAP))
        self.host, self.model = [], []
        params = lib.params(symbol)
        if params and params[0].name == "result":
            params = params[1:]
        self.params = params
        names = [p.name for p in params]
        nbytes = rng.choice([0, 1, 3, 8, 64, rng.randrange(200)]) if "nbytes" in names else 0
        self.num_barriers = rng.randrange(5) if "num_barriers" in names else 1
        for p in params:
            if p.rank:
                self._pointer(p, nbytes)
            else:
                self._scalar(p, nbytes)
        self._meet_wait_condition()

    # ---- operands ---------------------------------------------------------------------------
    def _pointer(self, p, nbytes: int) -> None:
        size = _np(p.ctype).itemsize
        span = size
        if p.name in ("dst", "src") and "nbytes" in [q.name for q in self.params]:
            span = max(nbytes, size)
        if p.name == "barriers":
            span = max(self.num_barriers - 1, 0) * 64 + size
        offset = self.rng.randrange(0, (HEAP - span) // size + 1) * size
        self.host.append(hl.Ptr(offset))
        self.model.append(("ptr", offset))

    def _scalar(self, p, nbytes: int) -> None:
        rng, name, dtype = self.rng, p.name, _np(p.ctype)
        if name in ("pe", "src_pe"):
            v = rng.randrange(RANKS)
        elif name in ("team", "src_team", "dest_team"):
            v = 0
        elif name == "sig_op":
            v = rng.randrange(2)
        elif name == "nbytes":
            v = nbytes
        elif name == "num_barriers":
            v = self.num_barriers
        elif name == "cmp":
            v = rng.choice([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, -1, 6])
        elif name == "token":
            v = rng.randrange(-2 ** 31, 2 ** 31)
        else:  # a value of the element type: random bits (NaNs and infinities included for floats)
            v = self._bits(dtype)
        self.host.append(v)
        self.model.append(("scalar", dtype, v))

    def _bits(self, dtype: np.dtype):
        rng = self.rng
        raw = rng.getrandbits(8 * dtype.itemsize)
        if dtype.kind in "iu":
            return int(np.frombuffer(raw.to_bytes(dtype.itemsize, "little"), dtype)[0])
        if rng.random() < 0.15:  # a NaN: SHMEM's negated comparisons let it through under GT/GE/LT/LE
            raw = int(np.array(np.nan).astype(dtype).view(f"u{dtype.itemsize}"))
        elif rng.random() < 0.5:  # a small ordinary number, so comparisons are not all decided by sign
            raw = int(np.array(rng.uniform(-4, 4)).astype(dtype).view(f"u{dtype.itemsize}"))
        if dtype.itemsize == 2:
            return raw  # half / bfloat16_t: the host harness takes the 16 raw bits
        return float(np.frombuffer(raw.to_bytes(4, "little"), np.float32)[0])

    def _meet_wait_condition(self) -> None:
        """Most draws of a wait: its slots hold the value it waits for (SHMEM returns at once)."""
        if not hl.BLOCKING_RE.match(self.symbol):
            return
        if self.rng.random() < 0.2:
            return  # left as drawn: both sides must agree that it blocks (or not)
        dtype = _np(self.params[0].ctype)
        offset = self.host[0].offset
        value = self.model[2][2]
        raw = _raw(dtype, value)
        if self.params[0].name == "barriers":
            slots = [offset + i * 64 for i in range(self.num_barriers)]
        else:
            cmp = self.model[1][2]
            if cmp in (1, 2, 4):  # NE, GT, LT: a slot equal to the value would block; keep the draw
                return
            slots = [offset]
        for s in slots:
            start = self.me * HEAP + s
            self.heap[start:start + dtype.itemsize] = raw

    # ---- the two sides -----------------------------------------------------------------------
    def run_c(self, lib):
        heap = lib.heap(RANKS, HEAP)
        for pe in range(RANKS):
            heap.write(pe, 0, bytes(self.heap[pe * HEAP:(pe + 1) * HEAP]))
        out = heap.call(self.symbol, *self.host, pe=self.me, poll_limit=64)
        after = b"".join(heap.read(pe, 0, HEAP) for pe in range(RANKS))
        return out, after

    def run_model(self, library: DeviceLibrary, has_result: bool):
        mem = Memory(RANKS, [("heap", HEAP, np.dtype(np.uint8))])
        assert mem.heap_size == HEAP
        mem.flat[:] = np.frombuffer(bytes(self.heap), np.uint8)
        buf = mem.buffers["heap"]
        operands = []
        for m in self.model:
            if m[0] == "ptr":
                operands.append(Ptr(mem.base(self.me) + m[1], buf))
            else:
                operands.append(_numpy_scalar(m[1], m[2]))
        binding = library.bind(self.symbol, len(operands), int(has_result))
        args = convert(binding, operands)
        dev = HostDevice(mem, self.me)
        model = binding.model
        try:
            if not model.gen:
                value = model.fn(dev, *args)
            else:
                value = _drive(model.fn(dev, *args))
            blocked = False
        except WouldBlock:
            value, blocked = None, True
        return value, blocked, mem


def _raw(dtype: np.dtype, value) -> bytes:
    return _numpy_scalar(dtype, value).tobytes()


def _numpy_scalar(dtype: np.dtype, value):
    if dtype.kind in "iu":
        return dtype.type(value)
    if dtype.itemsize == 2:  # raw bits
        return np.array(value, np.uint16).view(dtype)[()]
    return np.float32(value)


def _drive(gen):
    try:
        item = next(gen)
        while True:
            if item is not None:
                raise WouldBlock(str(item))
            item = gen.send(None)
    except StopIteration as stop:
        return stop.value


def _describe_ptr(mem: Memory, p: Ptr):
    addr = int(p.addr)
    pe = mem.rank_of(addr)
    return addr - mem.base(pe), pe


def _bits_of(ctype: str, value):
    """A C return value as comparable bits (floats bitwise: a NaN's payload counts)."""
    if ctype == "float":
        return struct.pack("<f", value)
    return value


def compare(lib, case: Case, library: DeviceLibrary) -> bool:
    """Run ``case`` on both sides and assert they agree; whether it blocked."""
    symbol = case.symbol
    ret, params = lib._signatures[symbol]
    out_param = params[0] if params and params[0].name == "result" else None
    where = f"{symbol}: pe {case.me}, operands {case.host}"
    c_out, c_heap = case.run_c(lib)
    value, blocked, mem = case.run_model(library, out_param is not None)
    assert blocked == c_out.blocked, f"{where}: the C {'blocks' if c_out.blocked else 'returns'}, the model " \
                                     f"{'blocks' if blocked else 'returns'}"
    model_heap = mem.flat.tobytes()
    if model_heap != c_heap:
        i = next(k for k in range(len(c_heap)) if c_heap[k] != model_heap[k])
        pytest.fail(f"{where}: heap byte {i % HEAP} of PE {i // HEAP} is {c_heap[i]} after the C, "
                    f"{model_heap[i]} after the model")
    if blocked:
        return True
    if out_param is not None:
        assert isinstance(value, Ptr), where
        assert _describe_ptr(mem, value) == (c_out.value.offset, c_out.value.pe), where
    elif ret == "void":
        assert value is None, f"{where}: the model returns {value!r} for a void function"
    elif ret in ("half", "bfloat16_t"):
        assert int(np.array(value).view(np.uint16)) == c_out.value, where
    else:
        got = value.item() if isinstance(value, np.generic) else value
        assert _bits_of(ret, got) == _bits_of(ret, c_out.value), f"{where}: C returns {c_out.value!r}, model {got!r}"
    return False


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_model_agrees_with_the_c_wrapper(lib, symbol):
    assert symbol in models(), f"{symbol} has no model"
    library = DeviceLibrary("bundled")
    rng = random.Random(symbol)
    blocked = sum(compare(lib, Case(rng, lib, symbol), library) for _ in range(DRAWS))
    if hl.BLOCKING_RE.match(symbol):
        assert blocked < DRAWS // 2, "most draws of a wait have their condition met"


def _case(symbol, host, model, slot_bytes=b"", me=0) -> Case:
    case = Case.__new__(Case)
    case.symbol, case.me, case.host, case.model = symbol, me, host, model
    case.heap = bytearray(b"\x5a" * (RANKS * HEAP))
    case.heap[:len(slot_bytes)] = slot_bytes
    return case


F32 = np.dtype(np.float32)
I32 = np.dtype(np.int32)


@pytest.mark.parametrize("symbol, host, model, slot, blocks", [
    # found by the test above: the bf16 model stored int(value) instead of the value's bits
    ("aclshmem_bfloat16_p", [hl.Ptr(64), 0x3FC0, 1], [("ptr", 64), ("scalar", _np("bfloat16_t"), 0x3FC0), ("scalar", I32, 1)],
     b"", False),
    # a comparison code outside 0-5 returns at once (SHMEM's switch has no default); the model compared as <=
    ("aclshmem_wait_until_int64", [hl.Ptr(0), 6, 0], [("ptr", 0), ("scalar", I32, 6), ("scalar", np.dtype(np.int64), 0)],
     b"", False),
    ("aclshmem_signal_wait_until", [hl.Ptr(0), -1, 0], [("ptr", 0), ("scalar", I32, -1), ("scalar", I32, 0)], b"", False),
    # a NaN to compare with stops LT at once (the negation `v >= NaN` is false); the model parked
    ("aclshmem_wait_until_float", [hl.Ptr(0), 4, float("nan")], [("ptr", 0), ("scalar", I32, 4), ("scalar", F32, float("nan"))],
     struct.pack("<f", 1.0), False),
    # ... and keeps EQ polling
    ("aclshmem_wait_until_float", [hl.Ptr(0), 0, float("nan")], [("ptr", 0), ("scalar", I32, 0), ("scalar", F32, float("nan"))],
     struct.pack("<f", float("nan")), True),
], ids=["bf16_p-stores-bits", "wait_until-code-6", "signal_wait_until-code-minus-1", "wait_until-nan-lt", "wait_until-nan-eq"])
def test_disagreements_found_stay_fixed(lib, symbol, host, model, slot, blocks):
    assert compare(lib, _case(symbol, host, model, slot), DeviceLibrary("bundled")) == blocks
