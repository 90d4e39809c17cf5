"""``transpiler.sim``: run TTIR kernels with ``distributed.*`` ops (or their lowering) on
simulated ranks (SPEC.md section 7).  Needs the ``sim`` extra (numpy, ml_dtypes); ``ttd-lower``
never imports this package.

>>> from transpiler.sim import Launch, Plan, simulate                     # doctest: +SKIP
>>> text = open("examples/allgather_push/allgather_push.ttir").read()    # the kernel's TTIR
>>> plan = Plan(ranks=4, buffers={"x": "rank(256, f32)", "sig": "zeros(1024, i32)",
...                               "buf": "zeros(1024, f32)", "out": "zeros(1024, f32)"},
...             steps=[[Launch(ranks=range(4), module=text, grid=(1,),
...                            args={"local_ptr": "x", "symm_buf_ptr": "buf", "signal_ptr": "sig",
...                                  "out_ptr": "out", "n_per_rank": 256, "epoch": 1})]])
>>> result = simulate(plan, schedules=5)
>>> result.buffers[2]["out"]                 # rank 2's copy: every rank's input in rank order

* :func:`simulate` runs a :class:`Plan` under one or more seeded schedules and returns a
  :class:`SimResult` (``buffers[rank][name]`` as numpy arrays).
* :func:`check_lowering` runs the plan before and after lowering (``transpiler.api.lower``) and
  raises a :class:`Finding` of kind ``difference`` at the first element that differs.
* Findings (exit status 1 of ``ttd-sim``) are :class:`Finding` and its subclasses
  :class:`Deadlock`, :class:`OutOfBounds`, :class:`NotSimulated`, :class:`StepLimit`;
  ``finding.diagnostic()`` is the located MLIR-style error.  A malformed plan is a
  :class:`UsageError` naming the key path (``steps[0][0].grid: ...``); a plan file's is a
  ``plan_schema.PlanError`` located in the file (exit status 1 of ``ttd-sim``).
* ``Launch(module=...)`` also takes a file's path; a Launch without ``ranks`` runs on every rank;
  a bare Launch or Fill in ``steps`` is a step of its own; a buffer VALUE without an element
  type takes the pointee type of the pointer argument it is passed to.
* The device library's model, one function per symbol, is :mod:`transpiler.sim.library`.
"""

from __future__ import annotations

try:
    import ml_dtypes  # noqa: F401
    import numpy  # noqa: F401
except ImportError as e:  # a clear message, not a bare "No module named 'numpy'" (issue 31 item 9)
    raise ModuleNotFoundError("transpiler.sim needs numpy and ml_dtypes: pip install -e '.[sim]' in a clone of "
                              "ttd-lower ('ttd-lower[sim]' for a wheel; it is not on PyPI)", name=e.name) from e

from .errors import Deadlock, Finding, NotSimulated, OutOfBounds, StepLimit, UsageError
from .plan import Fill, Launch, Plan, parse_value
from .plan_schema import load_plan
from .outcome import first_difference
from .run import SimResult, simulate
from .validate import check_lowering, lower_plan

__all__ = ["Plan", "Launch", "Fill", "load_plan", "parse_value", "simulate", "check_lowering", "lower_plan",
           "SimResult", "first_difference", "Finding", "Deadlock", "OutOfBounds", "NotSimulated", "StepLimit",
           "UsageError"]
