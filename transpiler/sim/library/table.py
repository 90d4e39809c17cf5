"""The table of the device library's models (:data:`MODELS`, :func:`register`) and the C type
lists they are registered for (``types.h``).  A leaf: the model modules import it, never the
package that imports them (issue 30)."""

from __future__ import annotations

from typing import Callable, Dict, NamedTuple

import ml_dtypes
import numpy as np


class Model(NamedTuple):
    fn: Callable
    gen: bool


#: The element types of the C type lists (types.h): symbol name -> numpy dtype.
C_TYPES = {"half": np.dtype(np.float16), "float": np.dtype(np.float32), "int8": np.dtype(np.int8),
           "int16": np.dtype(np.int16), "int32": np.dtype(np.int32), "int64": np.dtype(np.int64),
           "uint8": np.dtype(np.uint8), "uint16": np.dtype(np.uint16), "uint32": np.dtype(np.uint32),
           "uint64": np.dtype(np.uint64), "char": np.dtype(np.int8), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
SHMEM_TYPES = tuple(C_TYPES)  # TTD_FOR_EACH_SHMEM_TYPE
WAIT_TYPES = ("int8", "int16", "int32", "int64")  # TTD_FOR_EACH_WAIT_TYPE
WAIT_UNTIL_TYPES = ("float", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "char")
TOKEN_TYPES = ("int8", "int16", "int32", "int64", "half", "float", "char", "bfloat16")  # TTD_FOR_EACH_TOKEN_TYPE

MODELS: Dict[str, Model] = {}


def register(symbol: str, fn: Callable, gen: bool) -> None:
    """Add the model of ``symbol``."""
    if symbol in MODELS:
        raise ValueError(f"the model of {symbol} is registered twice")
    MODELS[symbol] = Model(fn, gen)


def c_integer(value, width: int, signed: bool) -> int:
    """``value`` as the C integer parameter of ``width`` bits receives it (wrapped)."""
    v = int(value) & ((1 << width) - 1)
    if signed and v >= 1 << (width - 1):
        v -= 1 << width
    return v
