"""Which loads ``--reorder`` may move above a wait (SPEC.md section 7, "Schedules").

A ``tt.load`` that follows a wait (``distributed.wait``, or after lowering the
``aclshmem_wait_<T>`` custom op) in the same block, and none of whose operands (pointer, mask,
other) depends on that wait's token, may read memory as it was when the program reached the
wait.  Dependence is followed forward through every op of the block (``consume_token`` and its
custom op included, and ops whose regions use a dependent value); ``extern_call`` waits never
move anything.  With several waits before a load, it may move above the earliest wait W such
that it depends on neither W nor any later wait.
"""

from __future__ import annotations

from typing import Dict, List

from ..ir.attributes import StringAttr


def is_wait(op) -> bool:
    """A wait whose loads may be reordered: ``distributed.wait`` or an ``aclshmem_wait_<T>`` custom op."""
    if op.name == "distributed.wait":
        return True
    if op.name == "hivm.hir.custom":
        sym = op.attributes.get("symbol")
        return isinstance(sym, StringAttr) and sym.value.startswith("aclshmem_wait_") and \
            not sym.value.startswith("aclshmem_wait_until")
    return False


def _used_values(op):
    """Operands of ``op`` and of every op nested in it."""
    if not op.regions:
        return op.operands
    values = []
    for inner in op.walk():
        values.extend(inner.operands)
    return values


def reorder_targets(ops: List) -> Dict[int, object]:
    """``{id(load op): wait op}`` for the loads of the block ``ops`` that may be reordered."""
    waits: List[object] = []
    tainted: List[set] = []  # per wait: ids of values that depend on its token
    out: Dict[int, object] = {}
    for op in ops:
        if not waits and not is_wait(op):
            continue
        used = [id(v) for v in _used_values(op)]
        depends = [any(u in t for u in used) for t in tainted]
        if op.name == "tt.load":
            chosen = None
            for w, dep in zip(reversed(waits), reversed(depends)):
                if dep:
                    break
                chosen = w
            if chosen is not None:
                out[id(op)] = chosen
        for t, dep in zip(tainted, depends):
            if dep:
                t.update(id(r) for r in op.results)
        if is_wait(op):
            waits.append(op)
            tainted.append({id(r) for r in op.results})
    return out
