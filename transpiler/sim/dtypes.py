"""MLIR types as numpy dtypes, and constants (``arith.constant`` values) as numpy values.

SPEC.md section 7: floats are computed in the op's type; f16 is numpy's ``float16``, bf16 and the
f8 kinds come from ``ml_dtypes``.  Integers are signless in MLIR; they are held as numpy's signed
integers of the same width (``i1`` as ``bool``), and ops that read them unsigned view them so.
``index`` is 64 bits.  A pointer (or a tensor of pointers) is not a dtype: see
:mod:`transpiler.sim.memory`.  A type the simulator cannot hold raises :class:`NotSimulated`.
"""

from __future__ import annotations

import re
from typing import Dict

import ml_dtypes
import numpy as np

from ..ir.attributes import BoolAttr, FloatAttr, IntegerAttr
from ..ir.types import FloatType, IndexType, IntegerType, PointerType, RankedTensorType, Type
from .errors import NotSimulated

INT_DTYPES = {1: np.dtype(np.bool_), 8: np.dtype(np.int8), 16: np.dtype(np.int16), 32: np.dtype(np.int32),
              64: np.dtype(np.int64)}
UNSIGNED = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}
FLOAT_DTYPES: Dict[str, np.dtype] = {
    "f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
    "bf16": np.dtype(ml_dtypes.bfloat16), "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn), "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz), "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz),
}
NAMES = {"i1": INT_DTYPES[1], "i8": INT_DTYPES[8], "i16": INT_DTYPES[16], "i32": INT_DTYPES[32],
         "i64": INT_DTYPES[64], "ui8": UNSIGNED[8], "ui16": UNSIGNED[16], "ui32": UNSIGNED[32], "ui64": UNSIGNED[64],
         **FLOAT_DTYPES}


def dtype_of(t: Type) -> np.dtype:
    """The numpy dtype of a scalar or of a tensor's elements (a pointer type: ``int64``, the
    address).  ``ui<N>`` is held unsigned.

    Raises:
        NotSimulated: a type without a numpy equivalent (``!tt.tensordesc``, f4, ...).
    """
    if isinstance(t, RankedTensorType):
        t = t.element
    if isinstance(t, IntegerType):
        if t.signedness == "u" and t.width in UNSIGNED:
            return UNSIGNED[t.width]
        if t.width in INT_DTYPES:
            return INT_DTYPES[t.width]
    elif isinstance(t, FloatType) and t.name in FLOAT_DTYPES:
        return FLOAT_DTYPES[t.name]
    elif isinstance(t, IndexType):
        return INT_DTYPES[64]
    elif isinstance(t, PointerType):
        return INT_DTYPES[64]
    raise NotSimulated(f"type {t} has no numpy equivalent in the simulator")


def dtype_named(name: str) -> np.dtype:
    """The dtype of an MLIR type name as a plan writes it (``i32``, ``f16``, ``bf16``).

    Raises:
        ValueError: an unknown name.
    """
    if name not in NAMES:
        raise ValueError(f"unknown element type '{name}' (one of {', '.join(NAMES)})")
    return NAMES[name]


def unsigned(dtype: np.dtype) -> np.dtype:
    """The unsigned dtype of an integer dtype's width (bool stays bool)."""
    return dtype if dtype.kind in "bu" else UNSIGNED[dtype.itemsize * 8]


def shape_of(t: Type):
    """The shape of a tensor type (``()`` for a scalar)."""
    return tuple(t.shape) if isinstance(t, RankedTensorType) else ()


def is_pointer(t: Type) -> bool:
    """A scalar pointer or a tensor of pointers."""
    return isinstance(t, PointerType) or (isinstance(t, RankedTensorType) and isinstance(t.element, PointerType))


def pointee(t: Type) -> Type:
    """The pointee of ``!tt.ptr<T>`` or of a tensor of them."""
    if isinstance(t, RankedTensorType):
        t = t.element
    return t.pointee


def wrap_int(value: int, dtype: np.dtype):
    """``value`` wrapped to the integer ``dtype`` (two's complement), as a numpy scalar."""
    if dtype.kind == "b":
        return np.bool_(value & 1)
    bits = dtype.itemsize * 8
    value &= (1 << bits) - 1
    if dtype.kind == "i" and value >= 1 << (bits - 1):
        value -= 1 << bits
    return dtype.type(value)


_HEX = re.compile(r"0x[0-9A-Fa-f]+\Z")


def float_from_text(text: str, dtype: np.dtype):
    """A float literal (decimal, ``inf``/``nan`` words or MLIR's hex bit pattern at the type's width)."""
    text = text.strip()
    if _HEX.match(text):
        bits = int(text, 16)
        width = dtype.itemsize
        raw = bits.to_bytes(8, "little")[:width]
        return np.frombuffer(raw, dtype=dtype)[0]
    return dtype.type(float(text))


def scalar_attr(attr, t: Type):
    """The numpy scalar of an integer/float/bool attribute, at the type ``t``.

    Raises:
        NotSimulated: an attribute of another kind.
    """
    dtype = dtype_of(t)
    if isinstance(attr, BoolAttr):
        return np.bool_(attr.value)
    if isinstance(attr, IntegerAttr):
        return wrap_int(attr.value, dtype) if dtype.kind in "biu" else dtype.type(attr.value)
    if isinstance(attr, FloatAttr):
        return float_from_text(attr.text, dtype)
    raise NotSimulated(f"constant {attr} is not simulated")


_DENSE = re.compile(r"dense<(.*)>\s*:\s*(tensor<.*>)\s*\Z", re.S)


def dense_value(text: str, t: RankedTensorType) -> np.ndarray:
    """A ``dense<...>`` attribute as an array of the tensor type ``t``: a splat (``dense<0.0>``,
    ``dense<0xFF800000>``, ``dense<true>``) or a nested list of elements.

    Raises:
        NotSimulated: a form this reader does not know (hex blobs of whole tensors, resources).
    """
    m = _DENSE.match(text.strip())
    if m is None:
        raise NotSimulated(f"constant {text} is not simulated")
    body = m.group(1).strip()
    dtype = dtype_of(t)
    shape = shape_of(t)
    items = [s for s in re.split(r"[\[\],\s]+", body) if s]
    if body.startswith('"0x'):
        raise NotSimulated(f"constant {text[:60]} (a hex blob) is not simulated")
    values = []
    for s in items:
        try:
            values.append(_element(s, dtype))
        except ValueError:
            raise ValueError(f"'{s}' is not an element of {t}") from None
    if len(items) == 1 and not body.startswith("["):
        return np.full(shape, values[0], dtype=dtype)
    if len(values) != int(np.prod(shape)):
        found = f"[{len(values)}]" if body.count("[") == 1 else f"{len(values)} elements"
        raise ValueError(f"inferred shape of elements literal ({found}) does not match type ({list(shape)})")  # MLIR's words
    return np.array(values, dtype=dtype).reshape(shape)


def _element(s: str, dtype: np.dtype):
    if s in ("true", "false"):
        return np.bool_(s == "true")
    if dtype.kind in "iub":
        if _HEX.match(s):
            return wrap_int(int(s, 16), dtype)
        return wrap_int(int(s), dtype)
    return float_from_text(s, dtype)
