"""The device library's model: one Python function per symbol of ``device_templates/src/``.

A ``hivm.hir.custom`` (after lowering) and an ``extern_call`` (before) run the model of the
symbol they name, with their ``ins`` operands **in order** (SPEC.md section 7, "The device
library, after lowering").  The models are grouped by the C file that defines the symbol:
:mod:`.pe_query`, :mod:`.symmetric`, :mod:`.sync`, :mod:`.rma`, :mod:`.consume_token`; each
function's docstring cites the C function it follows.

Symbol -> function
    :data:`MODELS` maps every symbol to a :class:`Model`.  Type families (``aclshmem_ptr_<T>``,
    ``aclshmem_<T>_p``, ``aclshmem_wait_<T>``, the RMA and consume_token families) are one
    function each, bound to the element dtype of ``<T>`` (``functools.partial``, the ``dtype``
    keyword), for the type lists of ``device_templates/include/ttd_aclshmem/types.h``.

Calling convention
    ``fn(dev, *operands)``, where ``dev`` is the calling device (a running program, or a
    :class:`HostDevice` in a test: attributes ``rank``, ``n_ranks``, ``memory``
    (:class:`~transpiler.sim.memory.Memory`) and ``teams`` (``[(start, stride, size)]``)), and the
    operands are what the C function receives, in order: pointers as
    :class:`~transpiler.sim.memory.Ptr`, integers as Python ints already at the C parameter's
    width and signedness (:func:`c_integer`), floats as numpy scalars.  A result the C returns
    through an out-parameter (``aclshmem_ptr_<T>``, consume_token of pointers) is the
    function's return value; the out-parameter is not passed.
    ``Model.gen`` is True for functions that touch memory or block: they are generators that
    yield ``None`` before each indivisible access and a :class:`~transpiler.sim.blocking.Park`
    or ``Barrier`` where they block; :func:`call` runs one to completion on a device (a test
    compares it with the C build), raising :class:`WouldBlock` where it would block.
Errors (a pe out of range, an unknown sig_op or team, an access outside a buffer) are
:class:`~transpiler.sim.errors.Finding` raised at the call; the interpreter locates them.
"""

from __future__ import annotations

from typing import Dict, Sequence, Tuple

from ..blocking import Park, relay
from ..watch import watch_of
from .table import MODELS, Model  # the models register there (sim/library/table.py)


class HostDevice:
    """A device for calling models outside a run: ``rank`` of ``n_ranks`` over ``memory``."""

    def __init__(self, memory, rank: int, teams: Sequence[Tuple[int, int, int]] = ()):
        self.memory, self.rank, self.n_ranks, self.teams = memory, rank, memory.ranks, list(teams)


class WouldBlock(RuntimeError):
    """:func:`call` reached a point where the model blocks (a wait not yet satisfied, a barrier)."""


def call(symbol: str, dev, *operands):
    """Run the model of ``symbol`` on ``dev`` with ``operands`` to completion; its result.

    Raises:
        KeyError: no model of ``symbol``.
        WouldBlock: the model would block.
    """
    model = _models()[symbol]
    if not model.gen:
        return model.fn(dev, *operands)
    gen = model.fn(dev, *operands)
    try:
        item = next(gen)
        while True:
            if item is not None:
                raise WouldBlock(f"{symbol} blocks" + (f": {item.describe(dev.memory)}" if isinstance(item, Park) else ""))
            item = gen.send(None)
    except StopIteration as stop:
        return stop.value


def invoke(dev, model: Model, operands, op):
    """Run ``model`` for ``op`` inside a program (a generator: ``yield from invoke(...)``)."""
    if not model.gen:
        return model.fn(dev, *operands)
    watch = watch_of(dev)
    if watch is not None:
        watch.at(dev, op)
    return (yield from relay(model.fn(dev, *operands), op))


def _models() -> Dict[str, Model]:
    from . import consume_token, pe_query, rma, symmetric, sync  # noqa: F401 (each registers its symbols)

    return MODELS


def models() -> Dict[str, Model]:
    """Every symbol's model (loaded on first use)."""
    return _models()
