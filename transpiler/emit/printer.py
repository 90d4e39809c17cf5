"""Canonical printing of ops: custom form for declared ops, generic form otherwise.

Custom forms come from each op's declared format (or print hook), with MLIR's spacing and
attribute dictionaries sorted by name.  The generic form is
``"name"(%a) [^succ] <{props}> ({regions}) {attrs} : (T) -> R``.

:func:`print_op` prints one op on one line (plus nested regions, indented, if it has any).
Values are named by ``name_of`` (their SSA names by default).
"""

from __future__ import annotations

from typing import Callable, Dict, List

from ..ir.attributes import format_attr_dict
from ..ir.core import Operation, OpResult, Value
from ..ir.dialect import OpDef, lookup
from ..ir.format import OptionalGroup, Printer, Ref, print_format

NameOf = Callable[[Value], str]


def value_name(v: Value) -> str:
    """A value's SSA name (``%x``); a value without a name is a bug in whoever made it."""
    if not v.name:
        raise ValueError(f"value {v!r} has no name to print")
    return v.name


def results_prefix(results: List[OpResult], name_of: NameOf = value_name) -> str:
    """``%a = ``, ``%a, %b = `` or ``%0:3 = `` (a group of ``%0#0..%0#2``)."""
    if not results:
        return ""
    names = [name_of(r) for r in results]
    bases = {n.split("#")[0] for n in names}
    if len(results) > 1 and len(bases) == 1 and all("#" in n for n in names):
        return f"{bases.pop()}:{len(results)} = "
    return ", ".join(names) + " = "


class OpView:
    """What a declared format prints, looked up by the format's names."""

    def __init__(self, op: Operation, opdef: OpDef, name_of: NameOf):
        self.op, self.opdef, self.name_of = op, opdef, name_of
        detail = op.detail()
        operands = op.operands
        groups = detail.operand_groups or _groups_by_spec(opdef, len(operands))
        self._operands: Dict[str, List[Value]] = {}
        self._operand_types: Dict[str, list] = {}
        types = op.operand_types
        i = 0
        for name, count in groups:
            self._operands[name] = operands[i : i + count]
            self._operand_types[name] = types[i : i + count]
            i += count
        results = op.result_types
        self._result_types: Dict[str, list] = {}
        j = 0
        for spec in opdef.results:
            count = len(results) - j if spec.variadic else 1
            self._result_types[spec.name] = results[j : j + count]
            j += count
        self._format_attrs = _format_attribute_names(opdef.compiled_format)

    def operand_names(self, name: str) -> List[str]:
        return [self.name_of(v) for v in self._operands.get(name, [])]

    def types(self, name: str) -> list:
        if name in self._operand_types:
            return self._operand_types[name]
        return self._result_types.get(name, [])

    def attribute(self, name: str):
        return self.op.attributes[name]

    def dict_attributes(self) -> dict:
        return {k: v for k, v in self.op.attributes.items() if k not in self._format_attrs}

    def present(self, name: str) -> bool:
        role = self.opdef.role(name)
        if role == "operand":
            return bool(self._operands.get(name))
        if role == "result":
            return bool(self._result_types.get(name))
        return name in self.op.attributes

    def region_text(self, name: str) -> str:
        raise NotImplementedError("regions are printed by print_op")

    def successor(self, name: str) -> str:
        return self.op.detail().successors[0]


def _groups_by_spec(opdef: OpDef, n: int):
    """Split ``n`` operands over the declared operand groups (one variadic group at most)."""
    groups, rest = [], n
    for spec in opdef.operands:
        if spec.variadic:
            count = max(rest - _remaining_fixed(opdef, spec), 0)
        elif spec.optional:
            count = 1 if rest > _remaining_fixed(opdef, spec) else 0
        else:
            count = 1
        groups.append((spec.name, count))
        rest -= count
    return groups


def _remaining_fixed(opdef: OpDef, after) -> int:
    specs = list(opdef.operands)
    idx = specs.index(after)
    return sum(1 for s in specs[idx + 1 :] if not s.variadic and not s.optional)


def _format_attribute_names(elements) -> set:
    names = set()
    for e in elements:
        if isinstance(e, Ref):
            names.add(e.name)
        elif isinstance(e, OptionalGroup):
            names |= _format_attribute_names(e.elements)
    return names


def print_generic(op: Operation, name_of: NameOf = value_name) -> str:
    """The generic form of an op without regions: ``"name"(ops) <{props}> {attrs} : (T) -> R``."""
    detail = op.detail()
    parts = [f'"{op.name}"(' + ", ".join(map(name_of, op.operands)) + ")"]
    if detail.successors:
        parts.append("[" + ", ".join(detail.successors) + "]")
    if detail.properties:
        parts.append("<" + format_attr_dict(detail.properties) + ">")
    text = " ".join(parts)
    if op.attributes:
        text += " " + format_attr_dict(op.attributes)
    results = op.result_types
    res = str(results[0]) if len(results) == 1 else "(" + ", ".join(map(str, results)) + ")"
    return f"{text} : (" + ", ".join(map(str, op.operand_types)) + f") -> {res}"


def print_op(op: Operation, name_of: NameOf = value_name, with_location: bool = True) -> str:
    """One op, canonical form (see the module docstring).

    Raises:
        ValueError: an operand or result has no name.
    """
    head = results_prefix(op.results, name_of)
    opdef = lookup(op.name)
    if op.regions:
        raise NotImplementedError("printing new ops with regions is done by the module printer")
    if opdef is not None and opdef.print_hook is not None:
        text = op.name + opdef.print_hook(op, name_of)
    elif opdef is not None and opdef.compiled_format:
        printer = Printer(op.name)
        print_format(opdef, OpView(op, opdef, name_of), printer)
        text = printer.text()
    else:
        text = print_generic(op, name_of)
    if with_location and op.location:
        text += " " + op.location
    return head + text

