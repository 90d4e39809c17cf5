"""tests/tools/host_library.py: the bundled device library through ctypes on host heaps.

The wrappers are the real sources; the checks are SPEC §5/§7's rules for the library: RMA counts
bytes for every type, and a wait spins while SHMEM's negated comparison holds (a code outside 0-5
returns at once, NaN under GT/GE/LT/LE returns, NaN under EQ never does).  g++ is required.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "tools"))
import host_library  # noqa: E402
from host_library import NO_OPS, CallError, HostLibrary, Ptr  # noqa: E402

TYPES = {"half": ("half", 2), "float": ("float", 4), "int8": ("int8_t", 1), "int16": ("int16_t", 2),
         "int32": ("int32_t", 4), "int64": ("int64_t", 8), "uint8": ("uint8_t", 1), "uint16": ("uint16_t", 2),
         "uint32": ("uint32_t", 4), "uint64": ("uint64_t", 8), "char": ("char", 1), "bfloat16": ("bfloat16_t", 2)}
WAIT_UNTIL_TYPES = ["float", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "char"]
HEAP = 1024
SRC, DST, SIG = 0, 256, 768


@pytest.fixture(scope="module")
def lib(tmp_path_factory) -> HostLibrary:
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TTD_LOWER_CACHE", str(cache))
        loaded = HostLibrary.load()
        assert cache / "host_library" in loaded.path.parents  # the project's cache folder convention
        stamp = loaded.path.stat().st_mtime_ns
        assert host_library.build(host_library.read_symbols()) == loaded.path  # cached: not rebuilt
        assert loaded.path.stat().st_mtime_ns == stamp
    return loaded


def _pattern(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(1, 256) for _ in range(n))  # never 0: a moved byte shows


@pytest.mark.parametrize("name", sorted(TYPES))
def test_rma_wrappers_move_exactly_their_byte_count(lib, name):
    """Each RMA wrapper of each type moves `n` BYTES (not n elements) to or from the peer, for
    counts that are and are not multiples of sizeof(T), as PE 0 and as PE 1."""
    rng = random.Random(name)
    size = TYPES[name][1]
    for op in ("getmem", "putmem", "getmem_nbi", "putmem_nbi", "putmem_signal", "putmem_signal_nbi"):
        for nbytes in (0, 1, size + 1, 7 * size, 64):
            for me, peer in ((0, 1), (1, 0)):
                heap = lib.heap(ranks=2, size=HEAP)
                get = op.startswith("get")
                data = _pattern(rng, 128)
                heap.write(peer if get else me, SRC, data)  # the source: remote for a get
                operands = [Ptr(DST), Ptr(SRC), nbytes]
                if "signal" in op:
                    heap.store(peer, SIG, "int32_t", [5])
                    operands += [Ptr(SIG), 7, 1, peer]  # ADD 7
                else:
                    operands += [peer]
                out = heap.call(f"aclshmem_{name}_{op}", *operands, pe=me)
                assert out.value is None and not out.blocked
                landed, other = (me, peer) if get else (peer, me)
                assert heap.read(landed, DST, 128) == data[:nbytes] + bytes(128 - nbytes), (op, nbytes)
                assert heap.read(other, DST, 128) == bytes(128)
                if "signal" in op:
                    assert heap.load(peer, SIG, "int32_t", 1) == [12]
                    assert heap.load(me, SIG, "int32_t", 1) == [0]


def test_rma_past_the_peers_heap_is_refused(lib):
    heap = lib.heap(ranks=2, size=HEAP)
    with pytest.raises(CallError, match="run past its end"):
        heap.call("aclshmem_int32_putmem", Ptr(HEAP - 64), Ptr(0), 128, 1)
    assert heap.read(1, 0, HEAP) == bytes(HEAP)  # nothing written
    with pytest.raises(CallError, match="pe 2 is not in 0..1"):
        heap.call("aclshmem_float_getmem", Ptr(0), Ptr(64), 4, 2)


@pytest.mark.parametrize("name", WAIT_UNTIL_TYPES)
def test_wait_until_edge_cases(lib, name):
    ctype = TYPES[name][0]
    heap = lib.heap(ranks=2, size=HEAP)
    heap.store(0, 64, ctype, [3])
    for cmp in (-1, 6, 7, 100):  # outside ACLSHMEM_CMP_EQ=0 ... LE=5: back at once, no poll
        out = heap.call(f"aclshmem_wait_until_{name}", Ptr(64), cmp, 4)
        assert not out.blocked and out.polls == []
    for cmp, holds in enumerate([False, True, False, False, True, True]):  # 3 vs 4: EQ NE GT GE LT LE
        out = heap.call(f"aclshmem_wait_until_{name}", Ptr(64), cmp, 4, poll_limit=20)
        assert out.blocked is not holds, cmp
        assert len(out.polls) == (1 if holds else 20) and out.polls[0] == Ptr(64, 0)


def test_wait_until_float_nan(lib):
    """NaN: GT, GE, LT, LE (and NE) stop after one poll, EQ never stops: SHMEM's negated loops."""
    heap = lib.heap(ranks=1, size=HEAP)
    for cell, value in ((math.nan, 4.0), (4.0, math.nan), (math.nan, math.nan)):
        heap.store(0, 64, "float", [cell])
        for cmp in (1, 2, 3, 4, 5):
            out = heap.call("aclshmem_wait_until_float", Ptr(64), cmp, value)
            assert not out.blocked and len(out.polls) == 1, (cell, value, cmp)
        assert heap.call("aclshmem_wait_until_float", Ptr(64), 0, value, poll_limit=30).blocked


def test_waits_see_the_remote_writer(lib):
    """on_poll plays the other PE: the wait ends on the round after the write."""
    heap = lib.heap(ranks=2, size=HEAP)

    def write_at_round_3(h, ptr, round_):
        if round_ == 3:
            h.store(ptr.pe, ptr.offset, "int32_t", [5])

    out = heap.call("aclshmem_wait_until_int32", Ptr(64), 0, 5, on_poll=write_at_round_3)
    assert not out.blocked and len(out.polls) == 3
    heap.store(0, 128, "int32_t", [1])
    out = heap.call("aclshmem_signal_wait_until", Ptr(128), 3, 5, on_poll=write_at_round_3)
    assert out.value == 5 and len(out.polls) == 3  # GE 5; returns the signal as read after
    out = heap.call("aclshmem_signal_wait_until", Ptr(128), 9, 100)
    assert out.value == 5 and out.polls == []  # code 9: back at once with the current value


def test_wait_polls_one_line_per_barrier(lib):
    heap = lib.heap(ranks=1, size=HEAP)
    heap.store(0, 0, "int64_t", [7] * 64)
    out = heap.call("aclshmem_wait_int64", Ptr(0), 4, 7)
    assert out.value == 0 and [p.offset for p in out.polls] == [0, 64, 128, 192]


def _operands(lib: HostLibrary, symbol: str):
    """Valid operands for any symbol: pointers into the zeroed heap, PE 1, team 0, SET, a wait
    for what the heap holds (0) or with a code that returns at once."""
    values = {"pe": 1, "team": 0, "src_team": 0, "dest_team": 0, "src_pe": 1, "sig_op": 0, "cmp": 6,
              "num_barriers": 2, "wait_value": 0, "nbytes": 8}
    params = lib.params(symbol)
    if params and params[0].name == "result":
        params = params[1:]
    return [Ptr(128) if p.rank else values.get(p.name, 3) for p in params]


def test_every_symbol_is_callable(lib):
    assert len(lib.symbols) == 171
    blocking = {s for s in lib.symbols if lib.blocking(s)}
    assert len(blocking) == 4 + 10 + 1  # wait_<T>, wait_until_<T>, signal_wait_until
    assert NO_OPS <= set(lib.symbols)
    for symbol in lib.symbols:
        heap = lib.heap(ranks=2, size=HEAP)
        out = heap.call(symbol, *_operands(lib, symbol), pe=0)
        assert not out.blocked, symbol
        if symbol in NO_OPS:
            assert heap.read(0, 0, HEAP) == heap.read(1, 0, HEAP) == bytes(HEAP)


def test_pe_and_team_queries(lib):
    heap = lib.heap(ranks=3, size=HEAP)
    assert [heap.call("aclshmem_my_pe", pe=r).value for r in range(3)] == [0, 1, 2]
    assert heap.call("aclshmem_n_pes").value == 3
    assert heap.call("aclshmem_team_n_pes", 0).value == 3
    assert heap.call("aclshmem_team_my_pe", 1, pe=2).value == -1  # the host knows the world only
    assert heap.call("aclshmem_team_translate_pe", 0, 2, 0).value == 2


def test_operands_are_checked(lib):
    heap = lib.heap(ranks=2, size=HEAP)
    with pytest.raises(TypeError, match="takes 4 operands"):
        heap.call("aclshmem_int32_getmem", Ptr(0), Ptr(0), 4)
    with pytest.raises(TypeError, match="pass a Ptr"):
        heap.call("aclshmem_int32_p", 0, 1, 1)
    with pytest.raises(CallError, match="outside the heaps"):
        heap.call("aclshmem_int64_p", Ptr(HEAP - 4), 1, 1)
