"""Op implementations, a table keyed by op name (one module per dialect, as ``ir/dialects/``).

An implementation is registered with :func:`implements`::

    @implements("arith.addi")
    def addi(p, st, args):          # p: the running Program, st: what prepare made, args: operand values
        return args[0] + args[1]

* ``prepare(op, compiler)``, run once per op when its function is compiled, returns the op's
  static data (result dtype, predicate, compiled regions, ...); the default is the op itself.
* ``point=True`` marks an op that touches global memory in one indivisible action (loads,
  stores, atomics): a plain function, before which the interpreter yields once, the point where
  another program may run (SPEC.md section 7, "Schedules").
* ``fast(st, ins, outs)``, optional, returns the op's instruction: a closure ``run(p, frame)``
  that reads the operand slots ``ins`` of ``frame``, computes what ``fn`` would, and stores the
  result in slot(s) ``outs`` (one Python call per op; :mod:`transpiler.sim.closures` makes one
  for every other plain op).
* ``gen=True`` marks a generator implementation (``r = yield from fn(p, st, args, frame)``,
  ``frame`` the running function's slots, for ops that run regions): every op
  that may block or yields more than once (notify, RMA, waits) and ops with regions.  It yields
  ``None`` at each point where another program may run (SPEC.md section 7, "Schedules") and a
  :class:`~transpiler.sim.scheduler.Park` / ``Barrier`` where it blocks.
* The return value is the op's result (one value), a tuple of them (several results), or None.
"""

from __future__ import annotations

from typing import Dict

from .table import IMPLS, Impl, implements  # noqa: F401 (the table, where the modules register)


def load_all() -> Dict[str, Impl]:
    """Import every dialect module (each registers its ops) and return the table."""
    from . import annotation, arith, cf, distributed, hivm, math, scf, tensor, tt, tt_memory  # noqa: F401

    return IMPLS
