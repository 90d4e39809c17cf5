"""``triton_dist.language.extra.libshmem_device`` for Ascend (ACLSHMEM device API).

Every function of the public ``extra/ascend/libaclshmem_device.py`` with the symbol it gives
``extern_call`` and its argument conversions (``tl.cast`` of teams, PEs and sizes to the
library's types), and the ``ACLSHMEM_*`` constants of ``extra/libshmem_device.py``.  Each
call carries ``distributed.core_type`` (SPEC.md section 2.3, via :mod:`.extern`).

RMA sizes are **bytes** (the public parameter name; SPEC.md section 5).
"""

from __future__ import annotations

from triton.language import core as tlc

from .extern import call

# aclshmem_team_t
ACLSHMEM_TEAM_INVALID = -1
ACLSHMEM_TEAM_WORLD = 0
# aclshmem_cmp_op_type_t
ACLSHMEM_CMP_EQ = 0
ACLSHMEM_CMP_NE = 1
ACLSHMEM_CMP_GT = 2
ACLSHMEM_CMP_GE = 3
ACLSHMEM_CMP_LT = 4
ACLSHMEM_CMP_LE = 5
# aclshmem_signal_op_type_t
ACLSHMEM_SIGNAL_SET = 0
ACLSHMEM_SIGNAL_ADD = 1

#: Triton dtype name -> the library's type suffix, for the RMA dtypes Ascend SHMEM supports
RMA_SUFFIX = {"fp16": "half", "fp32": "float", "int8": "int8", "int16": "int16", "int32": "int32",
              "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
              "bf16": "bfloat16"}
_PI32 = tlc.pointer_type(tlc.int32)


def _cast(value, dtype, _semantic):
    return _semantic.cast(_semantic.to_tensor(value), dtype)


def _ints(values, _semantic):
    return [_cast(v, tlc.int32, _semantic) for v in values]


def _pointer(value, what: str, _semantic):
    value = _semantic.to_tensor(value, check_type=False)
    if not isinstance(value, tlc.tensor) or value.type.is_block() or not value.type.is_ptr():
        raise ValueError(f"{what} must be a scalar pointer, got {getattr(value, 'type', value)}")
    return value


def _signal_address(sig_addr, _semantic):
    sig_addr = _pointer(sig_addr, "sig_addr", _semantic)
    if sig_addr.dtype != _PI32:
        raise ValueError(f"sig_addr should be a pointer of pi_i32_t, got {sig_addr.dtype}")
    return sig_addr


def _rma_pair(dest, source, _semantic) -> str:
    """The suffix of the RMA symbol for ``dest``/``source`` (same pointee, one of RMA_SUFFIX)."""
    dest, source = _pointer(dest, "dest", _semantic), _pointer(source, "source", _semantic)
    pointee = dest.dtype.element_ty.name
    if source.dtype != dest.dtype or pointee not in RMA_SUFFIX:
        raise ValueError(f"input arg type does not match: dest {dest.dtype} and source {source.dtype} must point "
                         f"to the same one of {', '.join(RMA_SUFFIX)}")
    return RMA_SUFFIX[pointee]


# ---- queries ------------------------------------------------------------------------------------
@tlc.extern
def my_pe(_semantic=None, _generator=None):
    return call("aclshmem_my_pe", [], [tlc.int32], True, _semantic, _generator)


@tlc.extern
def n_pes(_semantic=None, _generator=None):
    return call("aclshmem_n_pes", [], [tlc.int32], True, _semantic, _generator)


@tlc.extern
def team_my_pe(team, _semantic=None, _generator=None):
    return call("aclshmem_team_my_pe", _ints([team], _semantic), [tlc.int32], True, _semantic, _generator)


@tlc.extern
def team_n_pes(team, _semantic=None, _generator=None):
    return call("aclshmem_team_n_pes", _ints([team], _semantic), [tlc.int32], True, _semantic, _generator)


@tlc.extern
def team_translate_pe(src_team, pe_in_src_team, dest_team, _semantic=None, _generator=None):
    args = _ints([src_team, pe_in_src_team, dest_team], _semantic)
    return call("aclshmem_team_translate_pe", args, [tlc.int32], True, _semantic, _generator)


# ---- memory -------------------------------------------------------------------------------------
@tlc.extern
def int_p(dest, value, pe, _semantic=None, _generator=None):
    """Store the int32 ``value`` at ``dest`` on ``pe`` (``aclshmem_int32_p``; no conversions)."""
    args = [_pointer(dest, "dest", _semantic), _semantic.to_tensor(value), _semantic.to_tensor(pe)]
    if args[0].dtype != _PI32 or args[1].dtype != tlc.int32 or args[2].dtype != tlc.int32:
        raise ValueError(f"input arg type does not match. Expect (pointer<int32>, int32, int32), "
                         f"got {tuple(a.dtype for a in args)}")
    return call("aclshmem_int32_p", args, [], False, _semantic, _generator)


@tlc.extern
def remote_ptr(local_ptr, pe, _semantic=None, _generator=None):
    """``local_ptr``'s address on ``pe`` (``aclshmem_ptr``, a pointer of the same type)."""
    local_ptr, pe = _pointer(local_ptr, "local_ptr", _semantic), _semantic.to_tensor(pe)
    if pe.type.is_block() or pe.dtype not in (tlc.int32, tlc.uint32):
        raise ValueError(f"input arg type does not match: pe must be int32 or uint32, got {pe.type}")
    return call("aclshmem_ptr", [local_ptr, pe], [local_ptr.dtype], False, _semantic, _generator)


def _rma(op: str, dest, source, nbytes, pe, _semantic, _generator):
    symbol = f"aclshmem_{_rma_pair(dest, source, _semantic)}_{op}"
    args = [_semantic.to_tensor(dest), _semantic.to_tensor(source), _cast(nbytes, tlc.uint32, _semantic),
            _cast(pe, tlc.int32, _semantic)]
    return call(symbol, args, [], False, _semantic, _generator)


@tlc.extern
def getmem(dest, source, bytes, pe, _semantic=None, _generator=None):
    return _rma("getmem", dest, source, bytes, pe, _semantic, _generator)


@tlc.extern
def putmem(dest, source, bytes, pe, _semantic=None, _generator=None):
    return _rma("putmem", dest, source, bytes, pe, _semantic, _generator)


@tlc.extern
def getmem_nbi(dest, source, bytes, pe, qp_id=0, _semantic=None, _generator=None):
    return _rma("getmem_nbi", dest, source, bytes, pe, _semantic, _generator)


@tlc.extern
def putmem_nbi(dest, source, bytes, pe, qp_id=0, _semantic=None, _generator=None):
    return _rma("putmem_nbi", dest, source, bytes, pe, _semantic, _generator)


def _putmem_signal(op: str, dest, source, nbytes, sig_addr, signal, sig_op, pe, _semantic, _generator):
    symbol = f"aclshmem_{_rma_pair(dest, source, _semantic)}_{op}"
    args = [_semantic.to_tensor(dest), _semantic.to_tensor(source), _cast(nbytes, tlc.uint32, _semantic),
            _signal_address(sig_addr, _semantic), *_ints([signal, sig_op, pe], _semantic)]
    return call(symbol, args, [], False, _semantic, _generator)


@tlc.extern
def putmem_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, _semantic=None, _generator=None):
    return _putmem_signal("putmem_signal", dest, source, nbytes, sig_addr, signal, sig_op, pe, _semantic,
                          _generator)


@tlc.extern
def putmem_signal_nbi(dest, source, nbytes, sig_addr, signal, sig_op, pe, _semantic=None, _generator=None):
    return _putmem_signal("putmem_signal_nbi", dest, source, nbytes, sig_addr, signal, sig_op, pe, _semantic,
                          _generator)


# ---- signals ------------------------------------------------------------------------------------
@tlc.extern
def signal_op(sig_addr, signal, sig_op, pe, _semantic=None, _generator=None):
    args = [_signal_address(sig_addr, _semantic), *_ints([signal, sig_op, pe], _semantic)]
    return call("aclshmemx_signal_op", args, [], False, _semantic, _generator)


@tlc.extern
def signal_wait_until(sig_addr, cmp_, cmp_val, _semantic=None, _generator=None):
    """Spin until ``*sig_addr <cmp_> cmp_val``; returns the value seen (int32)."""
    args = [_signal_address(sig_addr, _semantic), *_ints([cmp_, cmp_val], _semantic)]
    return call("aclshmem_signal_wait_until", args, [tlc.int32], False, _semantic, _generator)


# ---- barriers and ordering ----------------------------------------------------------------------
@tlc.extern
def barrier_all(_semantic=None, _generator=None):
    return call("aclshmem_barrier_all", [], [], False, _semantic, _generator)


@tlc.extern
def barrier_all_vec(_semantic=None, _generator=None):
    return call("aclshmemx_barrier_all_vec", [], [], False, _semantic, _generator)


@tlc.extern
def barrier(team, _semantic=None, _generator=None):
    return call("aclshmem_barrier", _ints([team], _semantic), [], False, _semantic, _generator)


@tlc.extern
def barrier_vec(team, _semantic=None, _generator=None):
    return call("aclshmemx_barrier_vec", _ints([team], _semantic), [], False, _semantic, _generator)


@tlc.extern
def quiet(_semantic=None, _generator=None):
    return call("aclshmem_quiet", [], [], False, _semantic, _generator)


@tlc.extern
def fence(_semantic=None, _generator=None):
    return call("aclshmem_fence", [], [], False, _semantic, _generator)
