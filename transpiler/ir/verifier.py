"""Op verification: the op's shape against its declaration, MLIR's operand-type consistency,
then the op's own rules.

Only ops whose declarations carry a verifier are checked (the distributed ops, SPEC.md
section 1); verifying every op of a large module would mean parsing all of it, which the tool
does not need (everything else passes through and is verified downstream).  The shape check
(operand and result counts, types the op fixes, regions, successors) is what makes the generic
form as strict as the custom one: ``"distributed.symm_at"(%p)`` is refused like
``distributed.symm_at %p`` is.
"""

from __future__ import annotations

import re
from typing import Iterable, List

from ..diagnostics import Diagnostic, DiagnosticError, op_error
from .core import Operation
from .dialect import OpDef, known_type, lookup
from .scope import check_redefinitions
from .types import OpaqueType, Type

_ALIAS_NAME = re.compile(r"![\w$\-]+$")


def verify_op(op: Operation) -> List[Diagnostic]:
    """Diagnostics for ``op`` (empty when it is valid).  Parse errors are returned, not raised."""
    opdef = lookup(op.name)
    if opdef is None or opdef.verify is None:
        return []
    try:
        detail = op.detail()
        check_redefinitions(op)
        shape = [op_error(op, message) for message in _shape_problems(op, opdef)]
        shape += [op_error(op, f"type alias '{t}' is not expanded by ttd-lower: write the type in full")
                  for t in _type_aliases(op)]
        if shape:
            return shape  # the op's own rules assume its shape and real types
        diags = []
        offsets = detail.operand_offsets
        for i, (value, hint) in enumerate(zip(op.operands, detail.operand_type_hints)):
            actual = known_type(value)
            if hint is not None and actual is not None and actual != hint:
                diags.append(op_error(op, f"use of value '{value.name}' expects different type than prior uses: "
                                          f"'{hint}' vs '{actual}'", at=offsets[i] if i < len(offsets) else None))
        diags += [op_error(op, message) for message in opdef.verify(op)]
        return diags
    except DiagnosticError as e:
        return e.diagnostics


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _shape_problems(op: Operation, opdef: OpDef) -> List[str]:
    """Counts of operands, results, regions and successors, and the types the op fixes."""
    detail = op.detail()
    problems: List[str] = []
    specs = list(opdef.operands)
    fixed = sum(1 for s in specs if not s.variadic and not s.optional)
    all_fixed = fixed == len(specs)
    n = len(op.operands)
    optional = [s.name for s in specs if s.optional]
    if all_fixed:
        if n != len(specs):
            problems.append(f"expects {_count(len(specs), 'operand')}, found {n}")
    elif not any(s.variadic for s in specs) and not fixed <= n <= len(specs):  # wait's optional pred
        problems.append(f"expects {_count(fixed, 'operand')}, found {n} (up to {len(specs)} with the optional "
                        + ", ".join(f"'{name}'" for name in optional) + ")")
    elif n < fixed:
        problems.append(f"expects at least {_count(fixed, 'operand')}, found {n}")
    results = list(opdef.results)
    m = len(detail.result_types)
    if all(not r.variadic for r in results) and m != len(results):
        problems.append(f"expects {_count(len(results), 'result')}, found {m}")
    if len(op.regions) != len(opdef.regions):
        problems.append(f"expects {_count(len(opdef.regions), 'region')}, found {len(op.regions)}")
    if len(detail.successors) != len(opdef.successors):
        problems.append(f"expects {_count(len(opdef.successors), 'successor')}, found {len(detail.successors)}")
    if not problems and all_fixed:
        for spec, hint in zip(specs, op.operand_types):
            if spec.type is not None and hint is not None and hint != spec.type:
                problems.append(f"operand '{spec.name}' must be {spec.type}, found {hint}")
    return problems


def _type_aliases(op: Operation) -> List[Type]:
    """The distinct type-alias uses (``!name``) among the op's operand and result types.

    A name without a ``.`` is an alias: MLIR reserves dotted names for dialect types
    (LangRef, "Type aliases").
    """
    seen: List[Type] = []
    for t in list(op.operand_types) + list(op.detail().result_types):
        if isinstance(t, OpaqueType) and _ALIAS_NAME.match(t.text) and t not in seen:
            seen.append(t)
    return seen


def verify_ops(ops: Iterable[Operation]) -> List[Diagnostic]:
    """All diagnostics of ``ops``, in order."""
    out: List[Diagnostic] = []
    for op in ops:
        out.extend(verify_op(op))
    return out
