"""``scf`` ops as MLIR defines them: ``for`` (signed bounds), ``if``, ``while``,
``execute_region``; ``scf.yield`` / ``scf.condition`` are block terminators (``interp``)."""

from __future__ import annotations

from ..errors import Finding, StepLimit
from ..interp import run_block, run_region
from .table import implements


def _results(values):
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


def _check_limit(p):
    run = p.run
    if run.ops > run.max_ops:
        raise StepLimit(f"more than {run.max_ops} ops executed (--max-ops)")


@implements("scf.for", gen=True, prepare=lambda op, c: c.region(op.regions[0]))
def for_(p, st, args, frame):
    lb, ub, step = args[0], args[1], args[2]
    carried = list(args[3:])
    if step <= 0:
        raise Finding(f"has a step of {step} (must be positive)")
    i = lb
    if len(st) == 1 and st[0].targets is None:  # one block: run it without run_region's loop
        body = st[0]
        iv, slots = body.arg_slots[0], body.arg_slots[1:]
        while i < ub:
            frame[iv] = i
            for s, v in zip(slots, carried):
                frame[s] = v
            _, carried = yield from run_block(p, body, frame)
            _check_limit(p)
            i = i + step
        return _results(carried)
    while i < ub:
        carried = yield from run_region(p, st, frame, [i] + carried)
        _check_limit(p)
        i = i + step
    return _results(carried)


def _if_prepare(op, c):
    then = c.region(op.regions[0])
    other = c.region(op.regions[1]) if len(op.regions) > 1 and op.regions[1].blocks else None
    return then, other


@implements("scf.if", gen=True, prepare=_if_prepare)
def if_(p, st, args, frame):
    then, other = st
    if args[0]:
        return _results((yield from run_region(p, then, frame, [])))
    if other is None:
        return None
    return _results((yield from run_region(p, other, frame, [])))


def _while_prepare(op, c):
    return c.region(op.regions[0]), c.region(op.regions[1])


@implements("scf.while", gen=True, prepare=_while_prepare)
def while_(p, st, args, frame):
    before, after = st
    values = list(args)
    while True:
        out = yield from run_region(p, before, frame, values)
        if not out[0]:
            return _results(out[1:])
        values = yield from run_region(p, after, frame, out[1:])
        _check_limit(p)


@implements("scf.execute_region", gen=True, prepare=lambda op, c: c.region(op.regions[0]))
def execute_region(p, st, args, frame):
    return _results((yield from run_region(p, st, frame, [])))
