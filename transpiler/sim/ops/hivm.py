"""``hivm`` ops: ``hivm.hir.custom`` runs the device library's model of its ``symbol`` on its
``ins`` operands in order (the ``outs`` destinations are not passed: SPEC.md sections 2.5 and 7),
in the release ``--device-library`` selects; ``hivm.hir.get_sub_block_idx`` is the sub-block's
index (triton-ascend's ``sub_vec_id()``, an i64)."""

from __future__ import annotations

import numpy as np

from ..attrs import attr
from ..dtypes import dtype_of, is_pointer
from ..errors import NotSimulated
from ..library import invoke
from ..library.binding import convert
from .table import implements
from .common import cast


@implements("hivm.hir.get_sub_block_idx")
def get_sub_block_idx(p, st, args):
    return np.int64(p.sub_block)


class CustomStatic:
    __slots__ = ("op", "binding", "n_ins", "dtypes", "snapshot")

    def __init__(self, op, c):
        self.op = op
        symbol = getattr(attr(op, "symbol"), "value", None)
        if not isinstance(symbol, str):
            raise NotSimulated("has no symbol attribute")
        groups = dict(op.detail().operand_groups)
        self.n_ins = groups.get("inputs", len(op.operands))
        self.binding = c.library.bind(symbol, self.n_ins, len(op.results))
        self.dtypes = [None if is_pointer(t) else dtype_of(t) for t in op.result_types]
        self.snapshot = c.snapshots_at(op)


@implements("hivm.hir.custom", gen=True, prepare=CustomStatic)
def custom(p, st, args, frame):
    run = p.run
    if st.snapshot and run.reorder:
        p.take_snapshot(st.op)
    mem = p.memory
    if mem.writers is not None:
        mem.writer = run.op_key(st.op)
    r = yield from invoke(p, st.binding.model, convert(st.binding, args[: st.n_ins]), st.op)
    if not st.dtypes:
        return None
    if len(st.dtypes) > 1:
        return tuple(r)
    return r if st.dtypes[0] is None else cast(r, st.dtypes[0])
