"""The protocol lint (issue 17): distributed-protocol mistakes reported as MLIR warnings.

Run at the start of the ``ttadapter`` stage, before the lowering (and alone with
``--lint-only``), it never changes the module.  Rules (README "Protocol lint"):

* ``unordered-remote-load`` - a load of symmetric memory after a wait that nothing orders after it;
* ``unused-wait-token`` - a wait whose token no ``consume_token`` uses;
* ``signal-never-set`` - a wait for a value that no notify sets;
* ``barrier-slot-stride`` - signal slots closer than one 64-byte line;
* ``rank-out-of-range`` - a negative constant rank.

Each rule is a plain pass over one function's use-def chains (:mod:`.dataflow`) and its
structured dominance (:mod:`.facts`), linear in the ops; a rule that cannot be sure stays silent.
"""

from __future__ import annotations

from typing import Iterable, Iterator, List, Optional

from ..diagnostics import Diagnostic
from ..ir.core import Module, Operation
from .dataflow import CALL_OPS, attribute, is_function
from .facts import collect
from .ordering import UNORDERED_REMOTE_LOAD, UNUSED_WAIT_TOKEN, unordered_remote_loads, unused_wait_tokens
from .signals import (BARRIER_SLOT_STRIDE, RANK_OUT_OF_RANGE, SIGNAL_NEVER_SET, barrier_slot_strides, negative_ranks,
                      signals_never_set)

RULES = (UNORDERED_REMOTE_LOAD, UNUSED_WAIT_TOKEN, SIGNAL_NEVER_SET, BARRIER_SLOT_STRIDE, RANK_OUT_OF_RANGE)

__all__ = ["RULES", "lint_module", "check_rule_names"]


def check_rule_names(names: Iterable[str]) -> List[str]:
    """The names as a list.

    Raises:
        ValueError: a name is not one of :data:`RULES`.
    """
    names = list(names)
    unknown = [n for n in names if n not in RULES]
    if unknown:
        raise ValueError(f"unknown lint rule {unknown[0]!r} (rules: {', '.join(RULES)})")
    return names


def lint_module(module: Module, no_warn: Iterable[str] = ()) -> List[Diagnostic]:
    """Run every rule not in ``no_warn`` on each function of ``module`` (issue 17).

    Returns the warnings, in source order; the caller decides where they go (``--warnings-as-errors``
    is the driver's).  The module is not changed.

    Raises:
        ValueError: ``no_warn`` names an unknown rule.
    """
    skip = set(check_rule_names(no_warn))
    text = getattr(module.source, "text", None)
    if isinstance(text, str) and "distributed." not in text:
        return []  # no distributed op anywhere: nothing to check (one scan of the text, no walk)
    callees: Optional[set] = None

    def is_called(func: Operation) -> bool:
        nonlocal callees
        if callees is None:
            callees = _callees(module)
        name = attribute(func, "sym_name")
        return getattr(name, "value", None) in callees or None in callees

    findings = []
    for func in _functions(module):
        if not _holds_distributed(func):
            continue
        facts = collect(func)
        if not (facts.waits or facts.notifies or facts.symm_ats):
            continue
        if UNORDERED_REMOTE_LOAD not in skip:
            findings += unordered_remote_loads(facts)
        if UNUSED_WAIT_TOKEN not in skip:
            findings += unused_wait_tokens(facts)
        if SIGNAL_NEVER_SET not in skip:
            findings += signals_never_set(facts, is_called)
        if BARRIER_SLOT_STRIDE not in skip:
            findings += barrier_slot_strides(facts)
        if RANK_OUT_OF_RANGE not in skip:
            findings += negative_ranks(facts)
    findings.sort(key=lambda f: f.offset)
    return [f.diagnostic() for f in findings]


def _holds_distributed(func: Operation) -> bool:
    """Whether ``func`` holds a distributed op: a scan of its text when it has one (the text
    must name the op), else a walk."""
    source, span = getattr(func, "source", None), getattr(func, "span", None)
    text = getattr(source, "text", None)
    if isinstance(text, str) and span is not None and text.find("distributed.", span[0], span[1]) < 0:
        return False
    return any(op.name.startswith("distributed.") for op in func.walk())


def _functions(module: Module) -> Iterator[Operation]:
    """The function ops of the module (not descending into them)."""
    stack = list(reversed(module.ops))
    while stack:
        op = stack.pop()
        if is_function(op):
            yield op
            continue
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend(reversed(block.ops))


def _callees(module: Module) -> set:
    """Names of the functions some call in the module calls (None in it: a call we cannot read)."""
    names = set()
    for op in module.walk():
        if op.name in CALL_OPS:
            callee = attribute(op, "callee")
            text = str(callee) if callee is not None else None
            names.add(text.lstrip("@").strip('"') if text else None)
    return names
