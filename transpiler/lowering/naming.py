"""Symbol naming of the distributed -> HIVM lowering (SPEC.md section 2.1, section 5).

Pure functions, no IR mutation:

* :func:`type_name` - ``bf16`` -> ``bfloat16``, ``f16`` -> ``half``, ``f32`` -> ``float``,
  ``i8``..``i64`` -> ``int8``..``int64``; ``!tt.ptr<T>`` -> ``<T>_ptr_1d``;
  ``tensor<...x!tt.ptr<T>>`` of rank R -> ``<T>_ptr_<R>d``.  Anything else raises
  :class:`UnsupportedType`, never a guess.
* :func:`symbol_for` - the device-library symbol of each op kind.
* :func:`custom_op_name` - ``"dist." + symbol``.
* :func:`link_name` - ``_mlir_ciface_`` + symbol when no operand or result is a memref
  (seed ``002_...`` section 4.2, step 1).
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..ir.types import FloatType, IntegerType, OpaqueType, PointerType, RankedTensorType, Type

SCALAR_NAMES = {
    FloatType("bf16"): "bfloat16",
    FloatType("f16"): "half",
    FloatType("f32"): "float",
    IntegerType(8): "int8",
    IntegerType(16): "int16",
    IntegerType(32): "int32",
    IntegerType(64): "int64",
}
SUPPORTED_ELEMENTS = "i8, i16, i32, i64, f16, bf16, f32"
MAX_POINTER_RANK = 5  # consume_token wrappers exist for ranks 1..5 (SPEC.md section 5)


class Unlowerable(ValueError):
    """A distributed op the lowering must refuse (the message says why, SPEC.md section 2)."""


class UnsupportedType(Unlowerable):
    """A type the device library has no wrapper for.  ``type`` is the offending type."""

    def __init__(self, type_: Type, why: str):
        super().__init__(why)
        self.type = type_


def scalar_name(t: Type) -> str:
    """Device-library name of an element type (``f32`` -> ``float``).

    Raises:
        UnsupportedType: for f64, fp8 kinds, i1, unsigned/signed-prefixed integers, ...
    """
    name = SCALAR_NAMES.get(t)
    if name is None:
        raise UnsupportedType(t, f"unsupported type {t} (supported: {SUPPORTED_ELEMENTS})")
    return name


def pointer_space_ok(p: PointerType) -> bool:
    """Only the default (global) address space has device wrappers."""
    return p.address_space in (None, "1")


def type_name(t: Type) -> str:
    """Name of a value type in device-library symbols (SPEC.md section 2.1 type names).

    Raises:
        UnsupportedType: for any type without a wrapper (including tensors of non-pointers,
            pointer tensors of rank > 5 and pointers in a non-default address space).
    """
    if isinstance(t, PointerType):
        return pointer_name(t, 1)
    if isinstance(t, RankedTensorType):
        if not isinstance(t.element, PointerType):
            raise UnsupportedType(t, f"unsupported type {t}: only scalars and tensors of pointers have wrappers")
        if not 1 <= t.rank <= MAX_POINTER_RANK:
            raise UnsupportedType(t, f"unsupported type {t}: pointer tensors of rank 1 to {MAX_POINTER_RANK} have wrappers, this one has rank {t.rank}")
        return pointer_name(t.element, t.rank)
    if isinstance(t, OpaqueType) and t.text.startswith("!tt.tensordesc<"):
        raise UnsupportedType(t, f"no device wrapper exists for a tensor descriptor ({t}): the dialect allows it, "
                                 f"but the device library's wrappers take scalars, pointers and tensors of pointers")
    if isinstance(t, OpaqueType):
        raise UnsupportedType(t, f"unsupported type {t} (supported: {SUPPORTED_ELEMENTS}, pointers to them and tensors of such pointers)")
    return scalar_name(t)


def pointer_name(p: PointerType, rank: int) -> str:
    """``<T>_ptr_<rank>d`` for a pointer (or a rank-``rank`` tensor of pointers)."""
    if not pointer_space_ok(p):
        raise UnsupportedType(p, f"unsupported pointer {p}: only the default address space has wrappers")
    return f"{scalar_name(p.pointee)}_ptr_{rank}d"


def pointee_name(t: Type) -> str:
    """Name of what a scalar ``!tt.ptr<T>`` points to (for ``symm_at``, ``wait``, ``aclshmem_ptr``).

    Raises:
        UnsupportedType: ``t`` is not a scalar pointer to a supported type.
    """
    if not isinstance(t, PointerType):
        raise UnsupportedType(t, f"expected a scalar !tt.ptr, found {t}")
    if not pointer_space_ok(t):
        raise UnsupportedType(t, f"unsupported pointer {t}: only the default address space has wrappers")
    return scalar_name(t.pointee)


def symbol_for(op_name: str, operand_types: Iterable[Type] = (), extern_symbol: Optional[str] = None) -> str:
    """The bare device-library symbol for a distributed op (SPEC.md section 2.1 table).

    ``operand_types`` are the source op's operand types (``notify`` is named by
    :func:`notify_symbol` instead, since it also depends on the signal op).

    Raises:
        UnsupportedType: the op's types have no wrapper.
        Unlowerable: an extern_call without a symbol.
        ValueError: ``op_name`` is not a distributed op with a fixed naming rule (a bug).
    """
    types = list(operand_types)
    if op_name == "distributed.get_rank":
        return "aclshmem_my_pe"
    if op_name == "distributed.get_num_ranks":
        return "aclshmem_n_pes"
    if op_name == "distributed.symm_at":
        return "aclshmem_ptr_" + pointee_name(types[0])
    if op_name == "distributed.wait":
        return "aclshmem_wait_" + pointee_name(types[0])
    if op_name == "distributed.consume_token":
        return "aclshmem_consume_token_" + type_name(types[0])
    if op_name == "distributed.extern_call":
        if extern_symbol == "aclshmem_ptr":  # remote_ptr: typed by operand 0's pointee
            if not types:
                raise UnsupportedType(OpaqueType("()"), "aclshmem_ptr needs a pointer operand")
            return "aclshmem_ptr_" + pointee_name(types[0])
        if not extern_symbol:
            raise Unlowerable("extern_call without a symbol")
        return extern_symbol
    raise ValueError(f"no naming rule for {op_name}")


# notify (SPEC.md section 2.2)
SIGNAL_OP_SET, SIGNAL_OP_ADD = 1, 2  # dialect numbering
ACLSHMEM_SIGNAL_SET, ACLSHMEM_SIGNAL_ADD = 0, 1  # ACLSHMEM numbering


def notify_symbol(signal_pointer: Type, sig_op: int) -> str:
    """Symbol of ``notify`` from its signal pointer type and its (dialect) signal op.

    i32 pointee: ``aclshmemx_signal_op``; i64 / ui64: ``aclshmem_int64_p`` /
    ``aclshmem_uint64_p`` (set only).  Any other pointee (the upstream pass's own test uses
    ``!tt.ptr<f32>``): named from the signal *value* type, i64, as the upstream pass does:
    ``aclshmem_int64_p`` (set only); :func:`notify_pointee_warning` says so (SPEC.md 2.2).

    Raises:
        UnsupportedType: add on anything but an i32 signal; a non-pointer or non-default
            address space.
        Unlowerable: ``sig_op`` is neither set (1) nor add (2).
    """
    if sig_op not in (SIGNAL_OP_SET, SIGNAL_OP_ADD):
        raise Unlowerable(f"unknown sigOp value {sig_op} (expected 1 = set or 2 = add)")
    if not isinstance(signal_pointer, PointerType):
        raise UnsupportedType(signal_pointer, f"signal address must be a scalar !tt.ptr, found {signal_pointer}")
    if not pointer_space_ok(signal_pointer):
        raise UnsupportedType(signal_pointer, f"unsupported pointer {signal_pointer}: only the default address space has wrappers")
    pointee = signal_pointer.pointee
    if pointee == IntegerType(32):
        return "aclshmemx_signal_op"
    if sig_op == SIGNAL_OP_ADD:
        raise UnsupportedType(pointee, f"signal add is not supported on an {pointee} signal: only int32 signals support add on Ascend")
    if pointee == IntegerType(64, "u"):
        return "aclshmem_uint64_p"
    return "aclshmem_int64_p"


def notify_pointee_warning(signal_pointer: Type) -> Optional[str]:
    """The warning for a notify whose signal pointer does not point to i32, i64 or ui64
    (SPEC.md 2.2: lowered as upstream does, but the store is an i64 one), else None."""
    if not isinstance(signal_pointer, PointerType) or signal_pointer.pointee in NOTIFY_POINTEES:
        return None
    return (f"the signal pointer's element type {signal_pointer.pointee} is not the signal's type (i64): lowered "
            f"as the upstream pass does, to aclshmem_int64_p, which stores an i64 at {signal_pointer}")


NOTIFY_POINTEES = (IntegerType(32), IntegerType(64), IntegerType(64, "u"))


def aclshmem_signal_op(sig_op: int) -> int:
    """Dialect SignalOp (set=1, add=2) to ACLSHMEM numbering (SET=0, ADD=1)."""
    return {SIGNAL_OP_SET: ACLSHMEM_SIGNAL_SET, SIGNAL_OP_ADD: ACLSHMEM_SIGNAL_ADD}[sig_op]


def custom_op_name(symbol: str) -> str:
    """The ``hivm.hir.custom`` name string: ``"dist." + symbol`` (SPEC.md section 2.1)."""
    return "dist." + symbol


def link_name(symbol: str, types: Iterable[Type] = ()) -> str:
    """Link-time name: ``_mlir_ciface_`` + symbol unless an operand or result is a memref."""
    if any(str(t).startswith("memref<") for t in types):
        return symbol
    return "_mlir_ciface_" + symbol
