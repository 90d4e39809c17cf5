"""Transcendental ``math`` ops as the C library computes them (SPEC.md section 7, "Floats are
bit-exact": what the C library's function of the op's type gives; f16 and bf16 through f32, then
rounded).

f64 calls the ``double`` function (``exp``), f32 the ``float`` one (``expf``), through ctypes,
once per distinct bit pattern of the operands (so ``-0`` and ``+0`` stay apart).  The narrow
types (f16, bf16, f8) take their argument exactly to f32, call the ``float`` function and round
the result once to their type; a unary op over a type of at most 16 bits reads a table of every
input bit pattern, made once per function and type.

numpy's ufuncs are not used: their SIMD kernels differ from the C library in the last bit for
some arguments.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from typing import Callable, Dict, Tuple

import numpy as np

from ..errors import NotSimulated

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)

#: MLIR op name (without ``math.``) -> (C function of double, number of operands)
FUNCTIONS = {"exp": ("exp", 1), "exp2": ("exp2", 1), "expm1": ("expm1", 1), "log": ("log", 1),
             "log2": ("log2", 1), "log10": ("log10", 1), "log1p": ("log1p", 1), "sin": ("sin", 1),
             "cos": ("cos", 1), "tan": ("tan", 1), "asin": ("asin", 1), "acos": ("acos", 1),
             "atan": ("atan", 1), "sinh": ("sinh", 1), "cosh": ("cosh", 1), "tanh": ("tanh", 1),
             "erf": ("erf", 1), "powf": ("pow", 2), "atan2": ("atan2", 2)}
FUNCTIONS_ARITY = {c: n for c, n in FUNCTIONS.values()}  # C function -> number of operands

_LOCK = threading.Lock()
_BOUND: Dict[Tuple[str, np.dtype], Callable] = {}  # write-once under _LOCK
_TABLES: Dict[Tuple[str, np.dtype], np.ndarray] = {}  # write-once under _LOCK
_LIBM = []  # [the CDLL], bound at first use


def c_function(name: str, dtype: np.dtype) -> Callable:
    """The C library's function ``name`` (a C ``double`` function's name) for ``dtype``: ``name``
    for f64, ``name + "f"`` for every other float type (called on f32).

    Raises:
        NotSimulated: no C math library on this machine, or it lacks the function.
    """
    kind = F64 if dtype == F64 else F32
    key = (name, kind)
    f = _BOUND.get(key)
    if f is None:
        with _LOCK:
            f = _BOUND.get(key)
            if f is None:
                f = _BOUND[key] = _bind(name if kind == F64 else name + "f", kind, FUNCTIONS_ARITY[name])
    return f


def _bind(symbol: str, kind: np.dtype, arity: int) -> Callable:
    if not _LIBM:
        path = ctypes.util.find_library("m")
        if path is None:
            raise NotSimulated("needs the C math library (libm), which this machine lacks")
        _LIBM.append(ctypes.CDLL(path))
    try:
        f = getattr(_LIBM[0], symbol)
    except AttributeError:
        raise NotSimulated(f"needs the C library's {symbol}, which this machine's libm lacks") from None
    ctype = ctypes.c_double if kind == F64 else ctypes.c_float
    f.restype, f.argtypes = ctype, [ctype] * arity
    return f


def apply(name: str, dtype: np.dtype, *args):
    """``math.<name>`` of ``args`` (arrays or scalars of ``dtype``, broadcast together) as the
    C library computes it in ``dtype`` (module docstring); a numpy scalar for scalar operands.

    Raises:
        NotSimulated: no C math library, or it lacks the function.
    """
    c_name, arity = FUNCTIONS[name]
    dtype = np.dtype(dtype)
    arrays = np.broadcast_arrays(*(np.asarray(a, dtype=dtype) for a in args))
    scalar = arrays[0].ndim == 0
    if arity == 1 and dtype.itemsize <= 2:
        bits = arrays[0].view(f"u{dtype.itemsize}")
        out = _table(c_name, dtype)[bits]
    else:
        out = _per_distinct(c_function(c_name, dtype), dtype, arrays)
    return out[()] if scalar else out


def _table(c_name: str, dtype: np.dtype) -> np.ndarray:
    """The function's result for every bit pattern of a type of at most 16 bits."""
    key = (c_name, dtype)
    table = _TABLES.get(key)
    if table is None:
        inputs = np.arange(2 ** (8 * dtype.itemsize), dtype=f"u{dtype.itemsize}").view(dtype)
        made = _per_distinct(c_function(c_name, dtype), dtype, [inputs])
        with _LOCK:
            table = _TABLES.setdefault(key, made)
    return table


def _per_distinct(f: Callable, dtype: np.dtype, arrays) -> np.ndarray:
    """``f`` (a C function of f32 or f64) on each distinct tuple of operand bit patterns of
    ``arrays`` (all of one shape and of ``dtype``), the results in ``dtype`` (rounded once from
    f32 for the narrow types)."""
    kind = F64 if dtype == F64 else F32
    shape = arrays[0].shape
    bits = [np.ascontiguousarray(a).reshape(-1).view(f"u{dtype.itemsize}") for a in arrays]
    if len(bits) == 1:
        keys = bits[0]
    elif dtype.itemsize <= 4:  # two patterns of at most 32 bits in one 64-bit key
        keys = (bits[0].astype(np.uint64) << np.uint64(32)) | bits[1].astype(np.uint64)
    else:
        keys = np.stack(bits, axis=1)
    distinct, first, inverse = np.unique(keys, axis=0 if keys.ndim == 2 else None, return_index=True,
                                         return_inverse=True)
    columns = [b[first].view(dtype).astype(kind).tolist() for b in bits]
    results = np.array([f(*vs) for vs in zip(*columns)], dtype=kind)
    if kind != dtype:
        with np.errstate(over="ignore"):  # beyond the type's range: infinity, the IEEE result
            results = results.astype(dtype)  # f32 to a narrow type: one rounding to nearest even
    return results[np.asarray(inverse).reshape(-1)].reshape(shape)
