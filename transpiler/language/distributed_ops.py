"""``triton_dist.language``'s distributed ops (``dl.*``) for upstream Triton.

Signatures and argument checks are those of the public frontend
(``python/triton_dist/language/distributed_ops.py``), with two differences:

* ``notify``'s dtype check is the Ascend one (seed ``000_...``, "dl.notify dtype validation";
  SPEC.md section 2.2): an int32 signal pointer takes ``set`` and ``add``, int64 / uint64 take
  ``set`` only; anything else is refused here (the public frontend accepts int64/uint64 only).
* ``wait``'s ``waitValue`` is made in the barrier's pointee type (SPEC.md section 1: the dialect
  requires it), not i32-unless-64-bit.

Each op is emitted as a stand-in call (:mod:`.stand_in`) that becomes the SPEC.md section 1 op.
Enum numbers are the dialect's (SPEC.md section 1, enum table).
"""

from __future__ import annotations

from triton.language import core as tlc

from ..ir.dialects.distributed import COMM_SCOPE, SIGNAL_OP
from ..ir.dialects.tt_memory import MEM_SEMANTIC, MEM_SYNC_SCOPE
from .stand_in import emit, emit_void

_SCOPE = dict(MEM_SYNC_SCOPE.values)
_SEMANTIC = dict(MEM_SEMANTIC.values)
_SIGNAL_OP = dict(SIGNAL_OP.values)
_COMM_SCOPE = dict(COMM_SCOPE.values)
_UINT64 = tlc.dtype("uint64")


def _enum(table, keyword, what: str, default: str) -> int:
    keyword = tlc._unwrap_if_constexpr(keyword) or default
    if keyword not in table:
        raise ValueError(f"{what} {keyword!r} not supported (expected one of {', '.join(table)})")
    return table[keyword]


def integer(value, dtype: tlc.dtype, what: str, _semantic) -> tlc.tensor:
    """``value`` (a Python int, constexpr or scalar integer tensor) as a scalar of ``dtype``.

    Raises:
        ValueError: a bool, float, block tensor or non-integer tensor; an int outside ``dtype``;
            a 64-bit tensor where 32 bits are required (the public frontend's rule: add
            ``.to(tl.int32)``).
    """
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, bool) or not isinstance(value, (int, tlc.tensor)):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        bits = dtype.primitive_bitwidth
        lo, hi = (0, 2**bits) if dtype.is_int_unsigned() else (-2**(bits - 1), 2**(bits - 1))
        if not lo <= value < hi:
            raise ValueError(f"{what} {value} does not fit in {dtype}")
        return _semantic.scalar_constant(value, dtype)
    if value.type.is_block() or not value.dtype.is_int():
        raise ValueError(f"{what} must be a scalar integer, got {value.type}")
    if value.dtype.primitive_bitwidth == 64 and dtype.primitive_bitwidth < 64:
        raise ValueError(f"{what} must be a 32-bit integer, got {value.dtype}; add a `.to(tl.int32)` to convert it")
    return _semantic.cast(value, dtype)


def scalar_pointer(ptr, what: str) -> tlc.tensor:
    """``ptr`` if it is a scalar pointer (the public frontend's "only support scalar pointer")."""
    if not isinstance(ptr, tlc.tensor) or ptr.type.is_block() or not ptr.type.is_ptr():
        raise ValueError(f"{what}: only support scalar pointer, got {getattr(ptr, 'type', ptr)}")
    return ptr


@tlc.builtin
def wait(barrierPtrs, numBarriers, scope: str, semantic: str, waitValue: int = 1, _semantic=None, _generator=None):
    """Block until ``numBarriers`` barriers (one per 64-byte line from ``barrierPtrs``) equal
    ``waitValue``; returns the i32 token (``distributed.wait``)."""
    if not isinstance(barrierPtrs, tlc.tensor) or not barrierPtrs.type.scalar.is_ptr():
        raise ValueError(f"Unsupported barrierPtrs type {getattr(barrierPtrs, 'type', barrierPtrs)!r} "
                         f"in `distributed.language.wait`")
    pointee = barrierPtrs.dtype.element_ty
    if not pointee.is_int():
        raise ValueError(f"wait: the barrier must point to integers, got {pointee}")
    n = integer(numBarriers, tlc.int32, "wait: numBarriers", _semantic)  # an i32 count (SPEC.md section 1)
    value = integer(waitValue, pointee, "wait: waitValue", _semantic)
    attributes = {"scope": ("i32", _enum(_SCOPE, scope, "Memory scope", "gpu")),
                  "semantic": ("i32", _enum(_SEMANTIC, semantic, "Memory semantic", "acq_rel"))}
    return emit("distributed.wait", [barrierPtrs, n, value], [tlc.int32], attributes, _semantic, _generator)[0]


@tlc.builtin
def consume_token(value, token, _semantic=None, _generator=None):
    """``value`` unchanged, ordered after the wait that made ``token`` (``distributed.consume_token``)."""
    if not isinstance(token, tlc.tensor) or not token.type.scalar.is_int():
        raise ValueError("token must be of int type")
    if isinstance(value, tlc.tensor_descriptor_base):
        raise ValueError("consume_token of a tensor descriptor has no device wrapper on Ascend")  # SPEC.md section 1
    if not isinstance(value, tlc.tensor):
        raise ValueError(f"consume_token takes a tensor, got {value!r}")
    return emit("distributed.consume_token", [value, token], [value.type], {}, _semantic, _generator)[0]


@tlc.builtin
def rank(axis=-1, _semantic=None, _generator=None):
    """This rank's number, i32 (``distributed.get_rank``)."""
    axis = integer(axis, tlc.int32, "rank: axis", _semantic)
    return emit("distributed.get_rank", [axis], [tlc.int32], {}, _semantic, _generator)[0]


@tlc.builtin
def num_ranks(axis=-1, _semantic=None, _generator=None):
    """The number of ranks, i32 (``distributed.get_num_ranks``)."""
    axis = integer(axis, tlc.int32, "num_ranks: axis", _semantic)
    return emit("distributed.get_num_ranks", [axis], [tlc.int32], {}, _semantic, _generator)[0]


@tlc.builtin
def symm_at(ptr, rank, _semantic=None, _generator=None):
    """``ptr``'s symmetric address on ``rank`` (``distributed.symm_at``; same type as ``ptr``)."""
    ptr = scalar_pointer(ptr, "symm_at")
    rank = integer(rank, tlc.int32, "symm_at: rank", _semantic)
    return emit("distributed.symm_at", [ptr, rank], [ptr.type], {}, _semantic, _generator)[0]


@tlc.builtin
def notify(ptr, rank, signal=1, sig_op="set", comm_scope="inter_node", _semantic=None, _generator=None):
    """Set (or add to) ``rank``'s copy of the signal ``ptr`` points to (``distributed.notify``).

    Raises:
        ValueError: a signal pointer other than int32 / int64 / uint64, or ``add`` on a 64-bit
            signal (SPEC.md section 2.2: only int32 signals support add on Ascend).
    """
    ptr = scalar_pointer(ptr, "notify")
    pointee = ptr.dtype.element_ty
    op = _enum(_SIGNAL_OP, sig_op, "Signal Op", "set")
    if pointee not in (tlc.int32, tlc.int64, _UINT64):
        raise ValueError(f"the dtype of signal ptr should be int32, int64 or uint64 on Ascend, got {pointee}")
    if op == _SIGNAL_OP["add"] and pointee != tlc.int32:
        raise ValueError(f"sig_op 'add' needs an int32 signal on Ascend (only int32 signals support add), "
                         f"got {pointee}")
    rank = integer(rank, tlc.int32, "notify: rank", _semantic)
    signal = integer(signal, tlc.int64, "notify: signal", _semantic)
    attributes = {"sigOp": ("i32", op), "commScope": ("i32", _enum(_COMM_SCOPE, comm_scope, "Comm Scope", "inter_node"))}
    return emit_void("distributed.notify", [ptr, signal, rank], attributes, _semantic, _generator)
