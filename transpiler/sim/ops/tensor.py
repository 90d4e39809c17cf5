"""``tensor.empty``: the destination the lowering passes as ``outs`` (SPEC.md section 2.5); its
contents are never read, so it is a zero array of its type (a tensor of pointers: null
addresses of no buffer)."""

from __future__ import annotations

import numpy as np

from ..dtypes import dtype_of, is_pointer, shape_of
from ..memory import Ptr
from .table import implements


def _empty(op, c):
    t = op.result_types[0]
    if is_pointer(t):
        return Ptr(np.zeros(shape_of(t), dtype=np.int64), None)
    return np.zeros(shape_of(t), dtype=dtype_of(t))


@implements("tensor.empty", prepare=_empty)
def empty(p, st, args):
    return st
