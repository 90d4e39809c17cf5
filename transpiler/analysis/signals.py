"""Lint rules 3, 4 and 5 of issue 17: signals no notify sets, signal slots closer than a
64-byte line, negative constant ranks.

Sources: issue 17 (the rules), SPEC.md section 5 and seed ``002_...`` (the wait wrapper polls
barrier slots ``64 / sizeof(T)`` elements apart, because the NPU does not keep concurrent
writes to one 64-byte line coherent), SPEC.md section 1 (operands of wait, notify, symm_at).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Set, Tuple

from ..ir.core import BlockArgument, Operation, Value
from ..ir.dialects.distributed import SIGNAL_OP
from .dataflow import (attribute, byte_size, follow, int_constant, loop_carried_sources, operand, operands, pointee,
                       producer, wrap)
from .facts import FunctionFacts
from .report import Finding, describe

SIGNAL_NEVER_SET = "signal-never-set"
BARRIER_SLOT_STRIDE = "barrier-slot-stride"
RANK_OUT_OF_RANGE = "rank-out-of-range"
LINE_BYTES = 64  # SPEC.md section 5: one barrier slot per 64-byte line
SET, ADD = dict(SIGNAL_OP.values)["set"], dict(SIGNAL_OP.values)["add"]
_ROOT_STEPS = ("tt.addptr", "tt.splat", "tt.broadcast", "distributed.symm_at", "distributed.consume_token")


def pointer_root(value: Optional[Value], cache: Optional[Dict[Value, Optional[Value]]] = None) -> Optional[Value]:
    """The value a pointer is computed from: through addptr / splat / broadcast / symm_at /
    consume_token (operand 0) and loop-carried initial values.  ``cache`` (one per function)
    keeps every query linear in the ops."""
    return follow(value, {} if cache is None else cache, _root_step)


def _root_step(value: Value):
    if isinstance(value, BlockArgument):
        sources = loop_carried_sources(value)
        if sources is None:
            return None, value
        return (sources[0], None) if sources else (None, None)
    op = producer(value)
    if op is None or op.name not in _ROOT_STEPS:
        return None, value
    return operand(op, 0), None


def _sig_op(notify: Operation) -> Optional[int]:
    attr = attribute(notify, "sigOp")
    return getattr(attr, "value", None)


def signals_never_set(facts: FunctionFacts, is_called: Callable[[Operation], bool]) -> List[Finding]:
    """Rule ``signal-never-set`` (issue 17, rule 3): a wait for a constant value on slots of a
    kernel argument, where the module has SET notifies on that argument, none of them writes
    that value, and no ADD notify targets it.

    Silent when anything else may write there (a notify on a pointer of unknown origin, a store,
    an atomic, an ``extern_call`` or a call on that argument), when a signal is not a constant,
    or when the function is called from elsewhere in the module (its caller may notify).
    """
    if not facts.waits or not facts.notifies:
        return []
    arguments = set(facts.entry_arguments)
    roots: Dict[Value, Optional[Value]] = {}
    by_root: Dict[Value, List[Tuple[Operation, Optional[int], Optional[int]]]] = {}
    unknown_target = False
    for notify in facts.notifies:
        root = pointer_root(operand(notify, 0), roots)
        if root not in arguments:
            unknown_target = True
            break
        by_root.setdefault(root, []).append((notify, _sig_op(notify), int_constant(operand(notify, 1))))
    if unknown_target:
        return []
    findings = []
    written: Optional[set] = None
    # per (root, width): the values its notifies set, or None when one is not a constant SET;
    # made once, so that each wait costs the same however many notifies there are (issue 25)
    set_values: Dict[Tuple[Value, int], Optional[Set[int]]] = {}
    for wait in facts.waits:
        if len(operands(wait) or ()) != 3:
            continue  # a predicated wait (Triton 3.7) may never run
        value = int_constant(operand(wait, 2))
        root = pointer_root(operand(wait, 0), roots)
        element = pointee(operand(wait, 0)) if value is not None else None
        notifies = by_root.get(root, [])
        if value is None or root not in arguments or not notifies or getattr(element, "width", None) is None:
            continue
        width = element.width
        key = (root, width)
        if key not in set_values:
            set_values[key] = _values_set(notifies, width)
        values = set_values[key]
        if values is None or wrap(value, width) in values:
            continue
        if written is None:
            written = _other_writes(facts, roots)
            if written is None or is_called(facts.func):
                return findings
        if root in written:
            continue
        findings.append(Finding(
            SIGNAL_NEVER_SET, wait,
            f"waits for {value} on slots of {describe(root)}, but no notify sets that value: the SET notifies on "
            f"{describe(root)} write {', '.join(map(str, sorted(values)))} and no ADD notify targets it, so this "
            f"wait never returns",
            [(n, f"this notify sets {wrap(s, width)}") for n, _o, s in notifies]))
    return findings


def _values_set(notifies, width: int) -> Optional[Set[int]]:
    """The values (wrapped to ``width`` bits) the notifies set; None when one of them is an ADD
    or its signal is not a constant."""
    if any(op != SET or signal is None for _n, op, signal in notifies):
        return None
    return {wrap(signal, width) for _n, _op, signal in notifies}


def _other_writes(facts: FunctionFacts, roots: Dict[Value, Optional[Value]]) -> Optional[set]:
    """The roots of every pointer a store, atomic, call, inline asm or extern_call gets (None:
    an op that cannot be read)."""
    found = set()
    for op in facts.writers:
        values = operands(op)
        if values is None:
            return None
        found.update(pointer_root(v, roots) for v in values)
    return found


def barrier_slot_strides(facts: FunctionFacts) -> List[Finding]:
    """Rule ``barrier-slot-stride`` (issue 17, rule 4): slots addressed as ``base + k * C``
    (``arith.muli`` feeding ``tt.addptr``; k not a constant, C a constant) where C x sizeof(T)
    is not a multiple of 64 bytes, and the address is passed to ``notify`` or ``base`` to a
    wait with more than one barrier (a constant count above 1, or a count known only at run
    time): the wait wrapper polls slots 64 bytes apart (SPEC.md section 5)."""
    users: Dict[Operation, List[Tuple[Operation, str]]] = {}
    for notify in facts.notifies:
        slot = producer(operand(notify, 0))
        if slot is not None and slot.name == "tt.addptr":
            users.setdefault(slot, []).append((notify, "the slot is signalled by this notify"))
    bases: Dict[Value, Tuple[Operation, str]] = {}
    for wait in facts.waits:
        count = operand(wait, 1)
        n = int_constant(count)
        base = operand(wait, 0)
        if base is not None and count is not None and (n is None or n > 1):
            what = f"{n} barriers" if n is not None else f"{describe(count)} barriers"
            bases.setdefault(base, (wait, f"the base is waited on by this wait of {what}, polled 64 bytes apart"))
    if bases:
        for addptr in facts.addptrs:
            base = operand(addptr, 0)
            if base in bases:
                users.setdefault(addptr, []).append(bases[base])
    findings = []
    for addptr, notes in users.items():
        found = _stride(addptr)
        if found is None:
            continue
        base, scale, element = found
        size = byte_size(element)
        if size is None or (scale * size) % LINE_BYTES == 0:
            continue
        findings.append(Finding(
            BARRIER_SLOT_STRIDE, addptr,
            f"signal slots {describe(base)} + k * {scale} are {scale * size} bytes apart ({scale} x sizeof({element})), "
            f"not a multiple of {LINE_BYTES}: the wait wrapper polls slots {LINE_BYTES} bytes apart "
            f"({LINE_BYTES} / sizeof(T) elements) and the NPU does not keep concurrent writes to one {LINE_BYTES}-byte "
            f"line coherent, so the kernel may hang or read a torn flag", notes))
    return findings


def _stride(addptr: Operation):
    """(base, C, element type) of ``tt.addptr %base, (arith.muli %k, C)`` with k not constant;
    when k is itself ``arith.muli %j, C2`` (and so on), C is the product of the constants: the
    slots of ``(rank * 4) * 4`` are 16 elements apart (issue 25)."""
    values = operands(addptr)
    if values is None or len(values) != 2:
        return None
    base, offset = values
    found = _constant_factor(offset)
    if found is None:
        return None
    scale, variable = found
    seen = {offset}
    while variable not in seen:  # the variable factor a product with a constant too: multiply it in
        seen.add(variable)
        inner = _constant_factor(variable)
        if inner is None:
            break
        scale, variable = scale * inner[0], inner[1]
    element = pointee(base)
    return (base, scale, element) if element is not None else None


def _constant_factor(value: Optional[Value]) -> Optional[Tuple[int, Value]]:
    """(C, k) when ``value`` is ``arith.muli`` of a constant C and a value k that is not one
    (either order); else None (both constant: a constant offset, not a stride)."""
    mul = producer(value)
    if mul is None or mul.name != "arith.muli":
        return None
    factors = operands(mul)
    if factors is None or len(factors) != 2:
        return None
    constants = [int_constant(v) for v in factors]
    if (constants[0] is None) == (constants[1] is None):
        return None
    return (constants[0], factors[1]) if constants[0] is not None else (constants[1], factors[0])


def negative_ranks(facts: FunctionFacts) -> List[Finding]:
    """Rule ``rank-out-of-range`` (issue 17, rule 5): a constant rank passed to ``symm_at``
    (operand 1) or ``notify`` (operand 2) that is negative."""
    findings = []
    for op, index in [(o, 1) for o in facts.symm_ats] + [(o, 2) for o in facts.notifies]:
        rank = operand(op, index)
        value = int_constant(rank)
        if value is not None and value < 0:
            findings.append(Finding(
                RANK_OUT_OF_RANGE, op,
                f"rank {value} is negative: no PE has it (ranks are 0 to get_num_ranks - 1)",
                [(producer(rank), "the rank is this constant")]))
    return findings
