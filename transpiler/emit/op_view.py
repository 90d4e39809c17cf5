"""What a declared format prints, looked up by the format's names (:class:`OpView`), and the
pieces printers share: :class:`RegionPiece`, :func:`value_name`, :class:`PrintError`."""

from __future__ import annotations

from typing import Callable, Dict, Iterable, List, Optional
from ..ir.core import Operation, Region, Value
from ..ir.dialect import ALL_OPERANDS, ALL_RESULTS, OpDef, all_attributes, operand_groups


NameOf = Callable[[Value], str]


class PrintError(ValueError):
    """An op cannot be printed in the requested form (e.g. a type is unknown); ``op`` is it."""

    def __init__(self, message: str, op: Optional[Operation] = None):
        super().__init__(message)
        self.op = op


class RegionPiece:
    """A region inside an op's printed text; ``entry_args`` prints the entry block's label."""

    def __init__(self, region: Region, entry_args: bool = True):
        self.region = region
        self.entry_args = entry_args


def value_name(v: Value) -> str:
    """A value's SSA name (``%x``)."""
    if not v.name:
        raise PrintError(f"value {v!r} has no name to print")
    return v.name


def _types(types: Iterable, what: str, op: Operation) -> List[str]:
    out = []
    for t in types:
        if t is None:
            raise PrintError(f"cannot print '{op.name}': the type of one of its {what} is unknown", op)
        out.append(str(t))
    return out


class OpView:
    """What a declared format prints, looked up by the format's names (``print_format`` reads it).

    Attributes come from the properties and the attribute dictionary together (an op written in
    generic form keeps its inherent attributes as properties); ``$_operands`` / ``$_results``
    stand for all operands / results; types listed in the op's ``stripped_types`` print
    without their dialect prefix; the op's ``elided`` attributes are not printed.
    """

    def __init__(self, op: Operation, opdef: OpDef, name_of: NameOf):
        self.op, self.opdef, self.name_of = op, opdef, name_of
        self.attributes = all_attributes(op)
        self.elided = set(opdef.elided)
        self._type_position = 0
        operands, types = op.operands, op.operand_types
        self._operands: Dict[str, List[Value]] = {}
        self._operand_types: Dict[str, list] = {ALL_OPERANDS: list(types)}
        i = 0
        for name, count in operand_groups(op, opdef):
            self._operands[name] = operands[i : i + count]
            self._operand_types[name] = types[i : i + count]
            i += count
        results = op.result_types
        self._result_types: Dict[str, list] = {ALL_RESULTS: list(results)}
        fixed = sum(1 for spec in opdef.results if not spec.variadic)
        j = 0
        for spec in opdef.results:  # one variadic result group at most
            count = len(results) - fixed if spec.variadic else 1
            self._result_types[spec.name] = results[j : j + count]
            j += count
        self._format_names = opdef.format_names

    def operand_names(self, name: str) -> List[str]:
        return [self.name_of(v) for v in self._operands.get(name, [])]

    def types(self, name: str) -> list:
        found = self._operand_types[name] if name in self._operand_types else self._result_types.get(name, [])
        out = []
        for text in _types(found, "operands or results", self.op):
            prefix = self.opdef.stripped_types.get(self._type_position)
            if prefix is not None and text.startswith(prefix + "<"):
                text = text[len(prefix):]
            self._type_position += 1
            out.append(text)
        return out

    def attribute(self, name: str):
        return self.attributes[name]

    def dict_attributes(self) -> dict:
        return {k: v for k, v in self.attributes.items()
                if not (k in self._format_names and self.present(k)) and k not in self.elided}

    def present(self, name: str) -> bool:
        role = self.opdef.role(name)
        if role == "operand":
            return bool(self._operands.get(name))
        if role == "result":
            return bool(self._result_types.get(name))
        if name not in self.attributes:
            return False
        spells = getattr(self.opdef.attribute_kinds.get(name), "spells", None)
        return spells is None or spells(self.attributes[name])

    def region(self, name: str) -> RegionPiece:
        index = list(self.opdef.regions).index(name)
        return RegionPiece(self.op.regions[index])

    def successor(self, name: str) -> str:
        return self.op.detail().successors[list(self.opdef.successors).index(name)]
