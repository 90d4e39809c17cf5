"""Models of ``device_templates/src/sync.cpp``: barriers, quiet/fence, int32 signals and the
waits (SPEC.md section 7)."""

from __future__ import annotations

from functools import partial

import numpy as np

from ..blocking import Barrier, Park
from ..dtypes import wrap_int
from ..errors import Finding
from ..memory import Ptr
from .table import C_TYPES, WAIT_TYPES, WAIT_UNTIL_TYPES, register
from .pe_query import team_members
from .symmetric import remote
from ..watch import watch_of

SIGNAL_SET, SIGNAL_ADD = 0, 1  # ACLSHMEM_SIGNAL_SET / ACLSHMEM_SIGNAL_ADD
CMP = {0: "==", 1: "!=", 2: ">", 3: ">=", 4: "<", 5: "<="}  # ACLSHMEM_CMP_EQ ... ACLSHMEM_CMP_LE
SLOT_BYTES = 64  # TTD_DATA_CACHE_LINE_BYTES: one barrier per cache line
I32 = np.dtype(np.int32)


def aclshmem_barrier_all(dev):
    """``_mlir_ciface_aclshmem_barrier_all()`` (ACLSHMEM_VOID_WRAPPER): blocks until every
    program (sub-block) of every rank in the step has reached it."""
    yield Barrier(0)


def aclshmem_barrier(dev, team):
    """``_mlir_ciface_aclshmem_barrier(team)`` (ACLSHMEM_TEAM_VOID_WRAPPER): the same over the
    team's ranks."""
    team_members(dev, team)
    yield Barrier(team)


def aclshmem_quiet(dev):
    """``_mlir_ciface_aclshmem_quiet()``: completes outstanding operations (RMA completes at
    once here, so none are outstanding)."""
    return None


def aclshmem_fence(dev):
    """``_mlir_ciface_aclshmem_fence()``: orders outstanding operations (none are outstanding)."""
    return None


def aclshmemx_signal_op(dev, sig_addr, signal, sig_op, pe):
    """``_mlir_ciface_aclshmemx_signal_op(sig_addr, signal, sig_op, pe)``: on ``pe``'s copy of the
    int32 at ``sig_addr``, SET (0) stores ``signal``, ADD (1) adds it atomically; any other
    ``sig_op`` is an error at the op (SPEC.md section 7)."""
    if sig_op not in (SIGNAL_SET, SIGNAL_ADD):
        raise Finding(f"sig_op {sig_op} is neither ACLSHMEM_SIGNAL_SET (0) nor ACLSHMEM_SIGNAL_ADD (1)")
    target = remote(dev, sig_addr, int(pe))
    yield
    mem = dev.memory
    value = int(signal)
    if sig_op == SIGNAL_ADD:  # a hardware atomic add: wraps
        value += int(mem.load(target, I32)[()])
    mem.store(target, I32, wrap_int(value, I32))
    w = watch_of(dev)
    if w is not None:  # release (SPEC.md section 7, "Races")
        w.release(dev, int(target.addr), sig_op == SIGNAL_ADD, signal, library=True)


def aclshmem_signal_wait_until(dev, sig_addr, cmp, cmp_val):
    """``_mlir_ciface_aclshmem_signal_wait_until(sig_addr, cmp, cmp_val)``: spins while the
    negated comparison of the local int32 with ``cmp_val`` holds (a code outside 0..5 returns at
    once, as SHMEM's switch without a default); returns the int32 at ``sig_addr`` read after
    the wait (the host build's ``return *sig_addr``)."""
    seen = yield from _spin(dev, sig_addr, I32, cmp, I32.type(cmp_val))
    if seen is None:
        yield
        seen = dev.memory.load(sig_addr, I32)[()]
    return seen


def goes_on(v, cmp: int, value) -> bool:
    """True while a wait for ``v <cmp> value`` polls on: SHMEM's **negated** comparison spelt
    out per code, as ``ttd_wait_goes_on`` in ``ttd_aclshmem/wait.h`` spells it (GT polls while
    ``v <= value``, ...), so a NaN (in ``v`` or ``value``) stops GT, GE, LT, LE and NE at once and
    keeps EQ polling; a code outside 0-5 never polls (SPEC.md section 7)."""
    if cmp == 0:
        return bool(v != value)
    if cmp == 1:
        return bool(v == value)
    if cmp == 2:
        return bool(v <= value)
    if cmp == 3:
        return bool(v < value)
    if cmp == 4:
        return bool(v >= value)
    if cmp == 5:
        return bool(v > value)
    return False


def _spin(dev, ptr, dtype, cmp, value):
    """CANN SHMEM's wait_until loop (``ttd_wait_until``): a code outside 0-5 returns at once
    without reading (None); else read, stop unless :func:`goes_on`, park; the value seen."""
    if cmp not in CMP:
        return None
    text = CMP[cmp]
    mem = dev.memory
    w = watch_of(dev)
    while True:
        yield
        v = mem.load(ptr, dtype)[()]
        stop = not goes_on(v, cmp, value)
        if w is not None:  # acquire, every round
            w.poll(dev, int(ptr.addr), v, value, stop, library=True)
        if stop:
            return v
        yield Park(int(ptr.addr), ptr.buf, dtype, f"{text} {value}")


def aclshmem_wait(dev, barriers, num_barriers, wait_value, dtype=None):
    """``_mlir_ciface_aclshmem_wait_<T>(barriers, num_barriers, wait_value)`` (ttd_wait_barriers):
    for i = 0 .. num_barriers - 1 in order, polls the T at element ``i * 64 / sizeof(T)`` until it
    equals ``wait_value`` once (one read is one round); returns the token 0."""
    mem = dev.memory
    want = dtype.type(wait_value) if dtype.kind == "f" else np.array(wait_value).astype(dtype)[()]
    w = watch_of(dev)
    for i in range(int(num_barriers)):
        slot = Ptr(barriers.addr + i * SLOT_BYTES, barriers.buf)
        while True:
            yield
            seen = mem.load(slot, dtype)[()]
            if w is not None:  # acquire, every round
                w.poll(dev, int(slot.addr), seen, want, seen == want, library=True)
            if seen == want:
                break
            yield Park(int(slot.addr), slot.buf, dtype, f"== {want}")
    return np.int32(0)


def aclshmem_wait_until(dev, ivar, cmp, cmp_value, dtype=None):
    """``_mlir_ciface_aclshmem_wait_until_<T>(ivar, cmp, cmp_value)`` (ttd_wait_until): spins
    while the negated comparison holds (:func:`goes_on`: a NaN under GT/GE/LT/LE, or a code
    outside 0-5, returns at once); returns nothing."""
    yield from _spin(dev, ivar, dtype, cmp, dtype.type(cmp_value))
    return None


register("aclshmem_barrier_all", aclshmem_barrier_all, gen=True)
register("aclshmem_barrier", aclshmem_barrier, gen=True)
register("aclshmemx_barrier_all_vec", aclshmem_barrier_all, gen=True)
register("aclshmemx_barrier_vec", aclshmem_barrier, gen=True)
register("aclshmem_quiet", aclshmem_quiet, gen=False)
register("aclshmem_fence", aclshmem_fence, gen=False)
register("aclshmemx_signal_op", aclshmemx_signal_op, gen=True)
register("aclshmem_signal_wait_until", aclshmem_signal_wait_until, gen=True)
for _t in WAIT_TYPES:
    register(f"aclshmem_wait_{_t}", partial(aclshmem_wait, dtype=C_TYPES[_t]), gen=True)
for _t in WAIT_UNTIL_TYPES:
    register(f"aclshmem_wait_until_{_t}", partial(aclshmem_wait_until, dtype=C_TYPES[_t]), gen=True)
