"""Models of ``device_templates/src/rma.cpp``: ``aclshmem_<T>_{get,put}mem[_nbi]`` and
``aclshmem_<T>_putmem_signal[_nbi]``.

The count is a number of **bytes** whatever ``<T>`` is (SPEC.md sections 5 and 7: AscendNPU-IR's
wrappers pass it to the byte-wise ``aclshmem_getmem`` / ``aclshmem_putmem`` of CANN SHMEM, and the
public frontend names the operand ``bytes``; the bundled C is being brought to the same, issue 25
item 8).  Each call is one indivisible action and completes at once (``_nbi`` too).
"""

from __future__ import annotations

from functools import partial

from .table import SHMEM_TYPES, register
from .symmetric import remote
from .sync import aclshmemx_signal_op
from ..watch import watch_of


def getmem(dev, dst, src, nbytes, pe, dtype=None):
    """``_mlir_ciface_aclshmem_<T>_getmem[_nbi](dst, src, nbytes, pe)`` (ACLSHMEM_RMA_WRAPPER):
    copy ``nbytes`` bytes from ``aclshmem_ptr(src, pe)`` to the local ``dst``."""
    source = remote(dev, src, int(pe))
    yield
    mem = dev.memory
    mem.write_bytes(int(dst.addr), mem.read_bytes(int(source.addr), int(nbytes), source.buf, "getmem read"),
                    dst.buf, "getmem write")
    _watched(dev, source, dst, nbytes, pe)


def _watched(dev, src, dst, nbytes, pe) -> None:
    """An RMA call reads its source and writes its destination (SPEC.md section 7, "Races")."""
    w = watch_of(dev)
    if w is not None:
        w.rma(dev, (int(src.addr), int(nbytes)), (int(dst.addr), int(nbytes)), int(pe))


def putmem(dev, dst, src, nbytes, pe, dtype=None):
    """``_mlir_ciface_aclshmem_<T>_putmem[_nbi](dst, src, nbytes, pe)`` (ACLSHMEM_RMA_WRAPPER):
    copy ``nbytes`` bytes from the local ``src`` to ``aclshmem_ptr(dst, pe)``."""
    target = remote(dev, dst, int(pe))
    yield
    mem = dev.memory
    mem.write_bytes(int(target.addr), mem.read_bytes(int(src.addr), int(nbytes), src.buf, "putmem read"),
                    target.buf, "putmem write")
    _watched(dev, src, target, nbytes, pe)


def putmem_signal(dev, dst, src, nbytes, sig_addr, signal, sig_op, pe, dtype=None):
    """``_mlir_ciface_aclshmem_<T>_putmem_signal[_nbi](dst, src, nbytes, sig_addr, signal, sig_op,
    pe)`` (ACLSHMEM_RMA_SIGNAL_WRAPPER): :func:`putmem`, then ``aclshmemx_signal_op(sig_addr,
    signal, sig_op, pe)``, as one action (the signal is seen only with the data)."""
    target = remote(dev, dst, int(pe))
    mem = dev.memory
    gen = aclshmemx_signal_op(dev, sig_addr, signal, sig_op, pe)
    next(gen)  # validates sig_op and pe before anything is written
    yield
    data = mem.read_bytes(int(src.addr), int(nbytes), src.buf, "putmem_signal read")
    mem.write_bytes(int(target.addr), data, target.buf, "putmem_signal write")
    _watched(dev, src, target, nbytes, pe)
    for _ in gen:  # the signal update, in the same action
        pass


for _t in SHMEM_TYPES:
    for _suffix in ("", "_nbi"):
        register(f"aclshmem_{_t}_getmem{_suffix}", partial(getmem, dtype=_t), gen=True)
        register(f"aclshmem_{_t}_putmem{_suffix}", partial(putmem, dtype=_t), gen=True)
        register(f"aclshmem_{_t}_putmem_signal{_suffix}", partial(putmem_signal, dtype=_t), gen=True)
