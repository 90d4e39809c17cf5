"""The bundled device library, run on the host through ctypes: a harness for its symbols.

Builds the real C wrappers (``device_templates/src/*.cpp``) with the host emulation of the
aclshmem API (``device_templates/host/aclshmem_host_impl.cpp``) into one shared library
(``g++ -std=c++17 -O1 -shared -fPIC -DTTD_HOST_BUILD``, the flags of the self-test build in
``tests/test_device_templates.py``), plus one generated guard per symbol that catches the
emulation's failures.  The library is cached under ``$TTD_LOWER_CACHE/host_library/<hash>/``
(default ``~/.cache/ttd-lower/host_library``), the hash taken over every source, the symbol list,
the compiler and the flags: a changed source gives a new build.

API::

    lib = HostLibrary.load()                  # build (or reuse) and load; HostLibraryError without g++
    lib.symbols                               # every symbol of device_templates/symbols.txt (171)
    lib.params(symbol)                        # [Param(name, ctype, rank)]: rank 0 = scalar, R = memref
    heap = lib.heap(ranks=2, size=4096)       # R zeroed heaps of `size` bytes, one per PE
    heap.write(pe, offset, b"...")  /  heap.read(pe, offset, nbytes) -> bytes
    heap.store(pe, offset, "int32_t", [1, 2])  /  heap.load(pe, offset, "float", count) -> list
    out = heap.call("aclshmem_float_putmem", Ptr(64), Ptr(0), 16, 1, pe=0)
    out.value      # the return value (None for void; a Ptr for a memref result)
    out.blocked    # True: a wait was still polling after poll_limit rounds (it would block)
    out.polls      # the Ptr of every dcci_cacheline (each round of a wait, each _p flush)
    lib.blocking(symbol), NO_OPS              # the symbols that may block, and the no-ops (below)

Operands, in the symbol's order (``lib.params``) without the ``result`` out-parameter of
``aclshmem_ptr_<T>`` and ``aclshmem_consume_token_<T>_ptr_<R>d``:

* a memref parameter (``memref_t<T, R> *``) takes ``Ptr(offset, pe=None, sizes=None,
  strides=None)``: ``offset`` a byte offset in the heap of ``pe`` (default: the calling PE);
  sizes default to the elements up to the heap's end (rank 1; rank R: ``(1, …, n)``), strides to
  row-major.  Pointers are symmetric: the same offset names the same buffer on every PE.
* a scalar takes a Python int (``half``/``bfloat16_t``: the 16 raw bits) or float (``float``);
  integers are converted to the C type's width (wrapping), as a C call would.

``call(symbol, *operands, pe=0, poll_limit=256, on_poll=None)`` runs the symbol as PE ``pe``
(``aclshmem_my_pe`` answers ``pe``, ``aclshmem_n_pes`` R).  ``on_poll(heap, ptr, round)`` is
called on every ``dcci_cacheline``, before the wait reads, so a test can play the remote writer
(an exception it raises comes out of ``call``).  ``poll_limit`` counts every poll of the call (a
wait over n barriers polls at least n times).
An address outside every heap, a range running past a heap's end, or a ``pe`` outside 0…R−1
raises ``CallError`` (the emulation checks, the heaps stay as they were before the bad access).

What is callable, and what blocks: all 171 symbols are callable.
* Blocking: ``aclshmem_wait_<T>``, ``aclshmem_wait_until_<T>`` and ``aclshmem_signal_wait_until``
  (``BLOCKING``) return when their condition holds; one that still polls after ``poll_limit``
  rounds comes back with ``blocked = True`` (nothing else writes memory in a single call, so it
  would never return) and ``value = None``; ``polls`` then holds ``poll_limit`` entries.
* No-ops here: ``aclshmem_barrier_all``, ``aclshmem_barrier``, ``aclshmemx_barrier_all_vec``,
  ``aclshmemx_barrier_vec``, ``aclshmem_quiet``, ``aclshmem_fence`` (``NO_OPS``) return at once and
  touch nothing: one call at a time cannot show a rendezvous; a caller that compares a model of a
  barrier must compare only that it leaves memory alone.
* Teams: the host knows the world team (handle 0) only: ``team_my_pe``/``team_n_pes`` answer for
  handle 0 and −1 for any other handle, ``team_translate_pe`` maps 0→0 and gives −1 otherwise
  (SPEC §7's teams k+1 do not exist here).
* ``aclshmemx_signal_op`` (and the signal of ``putmem_signal``) follows SHMEM: SET=0, ADD=1
  (wrapping), any other code does nothing (SPEC §7's simulator calls that an error).
* RMA completes at once (``_nbi`` too) and counts BYTES.

Python 3 standard library only.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "device_templates"
FLAGS = ["-std=c++17", "-O1", "-shared", "-fPIC", "-DTTD_HOST_BUILD", f"-I{LIB / 'include'}", f"-I{LIB / 'host'}"]
BLOCKING_RE = re.compile(r"aclshmem_(wait_\w+|signal_wait_until)$")
NO_OPS = frozenset({"aclshmem_barrier_all", "aclshmem_barrier", "aclshmemx_barrier_all_vec",
                    "aclshmemx_barrier_vec", "aclshmem_quiet", "aclshmem_fence"})


class _Bits16(ctypes.Structure):
    """``half`` / ``bfloat16_t`` of the host stand-in (ascend_stub.h): a struct of 16 bits."""
    _fields_ = [("bits", ctypes.c_uint16)]


# C type -> (ctypes type, struct format)
SCALARS = {
    "int8_t": (ctypes.c_int8, "b"), "int16_t": (ctypes.c_int16, "h"), "int32_t": (ctypes.c_int32, "i"),
    "int64_t": (ctypes.c_int64, "q"), "uint8_t": (ctypes.c_uint8, "B"), "uint16_t": (ctypes.c_uint16, "H"),
    "uint32_t": (ctypes.c_uint32, "I"), "uint64_t": (ctypes.c_uint64, "Q"), "char": (ctypes.c_int8, "b"),
    "float": (ctypes.c_float, "f"), "half": (_Bits16, "H"), "bfloat16_t": (_Bits16, "H"),
}


class HostLibraryError(Exception):
    """The shared library could not be built (no g++, a compile error)."""


class CallError(Exception):
    """The emulation refused a call: an address outside the heaps, a bad PE."""


@dataclass(frozen=True)
class Param:
    """One C parameter: ``rank`` 0 for a scalar, R for a ``memref_t<ctype, R> *``."""
    name: str
    ctype: str
    rank: int


@dataclass(frozen=True)
class Ptr:
    """A pointer operand or result: a byte offset in PE ``pe``'s heap (None: the calling PE)."""
    offset: int
    pe: Optional[int] = None
    sizes: Optional[Tuple[int, ...]] = None
    strides: Optional[Tuple[int, ...]] = None


@dataclass
class Outcome:
    """What one call did: its value, whether it would block, and the addresses it polled."""
    value: object = None
    blocked: bool = False
    polls: List[Ptr] = field(default_factory=list)


def _split_params(text: str) -> List[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [p for p in parts + [cur.strip()] if p]


def parse_signature(signature: str) -> Tuple[str, List[Param]]:
    """``"RET _mlir_ciface_S(PARAMS)"`` (symbols.txt) -> (RET, params)."""
    match = re.fullmatch(r"(\w+) _mlir_ciface_\w+\((.*)\)", signature)
    if match is None:
        raise HostLibraryError(f"unreadable signature: {signature}")
    params = []
    for text in _split_params(match.group(2)):
        memref = re.fullmatch(r"memref_t<__gm__ (\w+), (\d)> \*(\w+)", text)
        if memref:
            params.append(Param(memref.group(3), memref.group(1), int(memref.group(2))))
        else:
            ctype, name = text.rsplit(" ", 1)
            params.append(Param(name, ctype, 0))
    return match.group(1), params


def _guard(symbol: str, signature: str) -> str:
    """C++ of ``int ttd_guard_S(PARAMS[, RET *ttd_ret])``: 0 done, 1 stuck (dcci limit), 2 error."""
    ret, params = parse_signature(signature)
    decl = _split_params(re.search(r"\((.*)\)", signature).group(1))
    args = ", ".join(p.name for p in params)
    call = f"_mlir_ciface_{symbol}({args})"
    out = [] if ret == "void" else [f"{ret} *ttd_ret"]
    body = call if ret == "void" else f"*ttd_ret = {call}"
    return (f'extern "C" {signature};\n'
            f'extern "C" int ttd_guard_{symbol}({", ".join(decl + out)}) {{\n'
            f"  try {{ {body}; return 0; }}\n"
            "  catch (const ttd_host_stuck &) { return 1; }\n"
            "  catch (const ttd_host_error &) { return 2; }\n}\n")


def read_symbols() -> dict:
    return dict(line.split("\t") for line in (LIB / "symbols.txt").read_text().splitlines())


def cache_root() -> Path:
    """``host_library`` of the project's one cache (``verify-downstream``'s ``project_cache()``:
    ``$TTD_LOWER_CACHE``, default ``~/.cache/ttd-lower``)."""
    import runpy

    tool = runpy.run_path(str(Path(__file__).with_name("verify-downstream")), run_name="verify_downstream")
    return Path(tool["project_cache"]()) / "host_library"


def build(symbols: dict) -> Path:
    """The shared library's path, compiled unless a build of the same inputs is cached."""
    cxx = shutil.which(os.environ.get("CXX") or "g++")
    if cxx is None:
        raise HostLibraryError("g++ (or $CXX) is required to build the host library")
    sources = sorted((LIB / "src").glob("*.cpp")) + [LIB / "host" / "aclshmem_host_impl.cpp"]
    inputs = sources + sorted((LIB / "include").rglob("*.h")) + sorted((LIB / "host").glob("*.h"))
    guards = '#include "aclshmem_host_impl.h"\n#include "ttd_aclshmem/templates.h"\n' + "".join(
        _guard(name, sig) for name, sig in sorted(symbols.items()))
    digest = hashlib.sha256("\0".join([cxx, *FLAGS, guards]).encode())
    for path in inputs:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    folder = cache_root() / digest.hexdigest()[:16]
    so = folder / "libttd_host.so"
    if so.exists():
        return so
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "guards.cpp").write_text(guards)
    tmp = folder / f"libttd_host.so.{os.getpid()}"
    proc = subprocess.run([cxx, *FLAGS, *map(str, sources), str(folder / "guards.cpp"), "-o", str(tmp)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise HostLibraryError(f"building the host library failed:\n{proc.stderr}")
    os.replace(tmp, so)
    return so


def _descriptor(rank: int):
    class Descriptor(ctypes.Structure):
        _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64),
                    ("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return Descriptor


DESCRIPTORS = {rank: _descriptor(rank) for rank in range(1, 6)}
_HOOK = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class HostLibrary:
    """The loaded shared library; ``heap()`` makes the PEs a call runs on."""

    def __init__(self, path: Path, symbols: dict):
        self.path = path
        self._signatures = {name: parse_signature(sig) for name, sig in symbols.items()}
        self.symbols = sorted(symbols)
        self.dll = ctypes.CDLL(str(path))
        self.dll.ttd_host_last_error.restype = ctypes.c_char_p
        self.dll.ttd_host_set_heaps.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_size_t,
                                                ctypes.c_int]
        self.dll.ttd_host_set_dcci_limit.argtypes = [ctypes.c_long]

    @classmethod
    def load(cls) -> "HostLibrary":
        symbols = read_symbols()
        return cls(build(symbols), symbols)

    def params(self, symbol: str) -> List[Param]:
        return self._signatures[symbol][1]

    def blocking(self, symbol: str) -> bool:
        return bool(BLOCKING_RE.match(symbol))

    def heap(self, ranks: int, size: int) -> "Heap":
        return Heap(self, ranks, size)


class Heap:
    """R zeroed symmetric heaps of ``size`` bytes (64 spare bytes after each, never addressed)."""

    def __init__(self, lib: HostLibrary, ranks: int, size: int):
        self.lib, self.ranks, self.size = lib, ranks, size
        self._buffers = [ctypes.create_string_buffer(size + 64) for _ in range(ranks)]
        self._bases = [ctypes.addressof(b) for b in self._buffers]

    def write(self, pe: int, offset: int, data: bytes) -> None:
        self._check(pe, offset, len(data))
        ctypes.memmove(self._bases[pe] + offset, data, len(data))

    def read(self, pe: int, offset: int, nbytes: int) -> bytes:
        self._check(pe, offset, nbytes)
        return ctypes.string_at(self._bases[pe] + offset, nbytes)

    def store(self, pe: int, offset: int, ctype: str, values: Sequence) -> None:
        self.write(pe, offset, struct.pack(f"<{len(values)}{SCALARS[ctype][1]}", *values))

    def load(self, pe: int, offset: int, ctype: str, count: int) -> list:
        fmt = SCALARS[ctype][1]
        return list(struct.unpack(f"<{count}{fmt}", self.read(pe, offset, count * struct.calcsize(fmt))))

    def _check(self, pe: int, offset: int, nbytes: int) -> None:
        if not (0 <= pe < self.ranks and 0 <= offset and offset + nbytes <= self.size):
            raise CallError(f"{nbytes} bytes at offset {offset} of PE {pe} are outside the heaps")

    def locate(self, address: int) -> Ptr:
        """The Ptr of a raw address inside one of the heaps."""
        for pe, base in enumerate(self._bases):
            if base <= address < base + self.size:
                return Ptr(address - base, pe)
        raise CallError(f"address {address:#x} is in no heap")

    def _memref(self, param: Param, ptr: Ptr, calling_pe: int):
        if not isinstance(ptr, Ptr):
            raise TypeError(f"parameter '{param.name}' is a memref: pass a Ptr, not {ptr!r}")
        pe = calling_pe if ptr.pe is None else ptr.pe
        size = struct.calcsize(SCALARS[param.ctype][1])
        self._check(pe, ptr.offset, size)  # at least its first element lies in the heap
        sizes = ptr.sizes or (1,) * (param.rank - 1) + ((self.size - ptr.offset) // size,)
        strides = ptr.strides or _row_major(sizes)
        base = self._bases[pe]
        whole, rest = divmod(ptr.offset, size)  # the descriptor's offset field counts elements
        aligned, offset = (base, whole) if rest == 0 else (base + ptr.offset, 0)
        return DESCRIPTORS[param.rank](base, aligned, offset, (ctypes.c_int64 * param.rank)(*sizes),
                                       (ctypes.c_int64 * param.rank)(*strides))

    def _decode(self, param: Param, desc) -> Ptr:
        size = struct.calcsize(SCALARS[param.ctype][1])
        where = self.locate(desc.aligned + desc.offset * size)
        return Ptr(where.offset, where.pe, tuple(desc.sizes), tuple(desc.strides))

    def call(self, symbol: str, *operands, pe: int = 0, poll_limit: int = 256,
             on_poll: Optional[Callable[["Heap", Ptr, int], None]] = None) -> Outcome:
        """Run ``symbol`` as PE ``pe`` on these heaps (see the module docstring)."""
        ret, params = self.lib._signatures[symbol]
        out_param = params[0] if params and params[0].name == "result" else None
        ins = params[1:] if out_param else params
        if len(operands) != len(ins):
            raise TypeError(f"{symbol} takes {len(ins)} operands ({', '.join(p.name for p in ins)}), got {len(operands)}")
        args, argtypes = [], []
        result_desc = DESCRIPTORS[out_param.rank]() if out_param else None
        if out_param:
            args.append(ctypes.byref(result_desc))
            argtypes.append(ctypes.c_void_p)
        for param, operand in zip(ins, operands):
            if param.rank:
                args.append(ctypes.byref(self._memref(param, operand, pe)))
                argtypes.append(ctypes.c_void_p)
            else:
                ctype = SCALARS[param.ctype][0]
                args.append(ctype(operand) if ctype is not _Bits16 else _Bits16(operand & 0xFFFF))
                argtypes.append(ctype)
        ret_value = SCALARS[ret][0]() if ret != "void" else None
        if ret_value is not None:
            args.append(ctypes.byref(ret_value))
            argtypes.append(ctypes.c_void_p)
        outcome = Outcome()
        raised: List[BaseException] = []  # ctypes would print and drop an exception of the hook

        def hook(address):
            ptr = self.locate(address)
            outcome.polls.append(ptr)
            if on_poll is not None and not raised:
                try:
                    on_poll(self, ptr, len(outcome.polls))
                except BaseException as err:  # re-raised after the call
                    raised.append(err)

        dll = self.lib.dll
        bases = (ctypes.c_void_p * self.ranks)(*self._bases)
        dll.ttd_host_set_heaps(bases, self.ranks, self.size, pe)
        dll.ttd_host_set_throw(1)
        dll.ttd_host_set_dcci_limit(poll_limit)
        c_hook = _HOOK(hook)
        dll.ttd_host_set_dcci_hook(c_hook)
        guard = getattr(dll, f"ttd_guard_{symbol}")
        guard.argtypes, guard.restype = argtypes, ctypes.c_int
        try:
            status = guard(*args)
        finally:
            dll.ttd_host_set_dcci_hook(None)
            dll.ttd_host_set_throw(0)
        if raised:
            raise raised[0]
        if status == 2:
            raise CallError(f"{symbol}: {dll.ttd_host_last_error().decode()}")
        outcome.blocked = status == 1
        if not outcome.blocked:
            if out_param:
                outcome.value = self._decode(out_param, result_desc)
            elif ret_value is not None:
                outcome.value = ret_value.bits if isinstance(ret_value, _Bits16) else ret_value.value
        return outcome


def _row_major(sizes: Sequence[int]) -> List[int]:
    strides, step = [], 1
    for n in reversed(sizes):
        strides.append(step)
        step *= n
    return list(reversed(strides))
