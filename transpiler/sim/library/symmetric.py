"""Models of ``device_templates/src/symmetric.cpp``: ``aclshmem_ptr_<T>`` and ``aclshmem_<T>_p``."""

from __future__ import annotations

from functools import partial

from ..errors import Finding
from ..memory import Ptr
from ..provenance import with_heap
from ..watch import watch_of
from .table import C_TYPES, SHMEM_TYPES, register


def remote(dev, ptr: Ptr, pe: int) -> Ptr:
    """``aclshmem_ptr(ptr, pe)``: local address - local heap base + heap base of ``pe`` (seed
    ``002_...`` section 5.3; the host build aborts on an address outside the caller's heap or a
    bad pe: here an error at the op)."""
    mem = dev.memory
    if not 0 <= pe < dev.n_ranks:
        raise Finding(f"pe {pe} is not a PE (0..{dev.n_ranks - 1})")
    local = mem.base(dev.rank)
    off = ptr.addr - local
    if not (0 <= off < mem.heap_size if off.__class__ is int else ((off >= 0) & (off < mem.heap_size)).all()):
        raise Finding(f"pointer {hex(int(ptr.addr))} is not in the symmetric heap of rank {dev.rank}")
    return with_heap(mem, ptr, pe, mem.base(pe) + off)


def aclshmem_ptr(dev, symm_ptr, pe, dtype=None):
    """``_mlir_ciface_aclshmem_ptr_<T>(result, symm_ptr, pe)`` (ACLSHMEM_PTR_WRAPPER): the
    descriptor of ``aclshmem_ptr(symm_ptr, pe)``; returned (the ``result`` out-parameter)."""
    return remote(dev, symm_ptr, int(pe))


def aclshmem_p(dev, dst, value, pe, dtype=None):
    """``_mlir_ciface_aclshmem_<T>_p(dst, value, pe)`` (ACLSHMEM_P_WRAPPER, ttd_remote_store):
    store one element ``value`` at ``aclshmem_ptr(dst, pe)``."""
    target = remote(dev, dst, int(pe))
    yield
    mem = dev.memory
    mem.store(target, dtype, _wrap(value, dtype) if dtype.kind in "iu" else dtype.type(value))  # f16, f32, bf16 as given
    w = watch_of(dev)
    if w is not None:  # a _p store is a signal: release (SPEC.md section 7, "Races")
        w.release(dev, int(target.addr), False, value, library=True)


def _wrap(value, dtype):
    from ..dtypes import wrap_int

    return wrap_int(int(value), dtype)


for _t in SHMEM_TYPES:
    register(f"aclshmem_ptr_{_t}", partial(aclshmem_ptr, dtype=C_TYPES[_t]), gen=False)
    register(f"aclshmem_{_t}_p", partial(aclshmem_p, dtype=C_TYPES[_t]), gen=True)
