"""Canonical printing: one op, or a whole module, in custom or generic form.

* Custom form comes from each op's declared format (or print hook), with MLIR's spacing and
  attribute dictionaries sorted by name; ops nobody declared print in generic form.
* Generic form is ``"name"(%a)[^succ] <{props}> ({regions}) {attrs} : (T) -> R``; inherent
  attributes go to the properties, the others to the dictionary (as MLIR prints them).

:func:`print_op` prints one op without regions (the faithful emitter uses it for new ops);
:class:`ModulePrinter` prints modules, with regions, blocks and labels, indented by two spaces
per level.  Values are named by their SSA names; values without one (built in memory) get
``%N`` / ``%argN`` names unique in the module.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from ..ir.attributes import DenseI32ArrayAttr, format_attr_dict, quote_string
from ..ir.core import Block, BlockArgument, Module, Operation, OpResult, Region, Value
from ..ir.dialect import lookup
from ..ir.source import REGION_SLOT, body_text
from .custom import print_hook
from .format_printer import Printer, print_format
from .location_text import one_line_location
from .op_view import NameOf, OpView, PrintError, RegionPiece, _types, value_name


def results_prefix(results: List[OpResult], name_of: NameOf = value_name) -> str:
    """``%a = ``, ``%a, %b = ``, ``%0:3 = `` (the group ``%0#0..%0#2``) or ``%a, %b:2 = ``:
    result groups are printed as the input wrote them (``%r:1`` stays ``%r:1``)."""
    if not results:
        return ""
    out: List[str] = []
    names = [name_of(r) for r in results]
    i = 0
    while i < len(names):
        base, _, index = names[i].partition("#")
        if index != "0":
            out.append(names[i])
            i += 1
            continue
        j = i + 1
        while j < len(names) and names[j] == f"{base}#{j - i}":
            j += 1
        out.append(f"{base}:{j - i}")
        i = j
    return ", ".join(out) + " = "


def generic_attributes(op: Operation):
    """(properties, attributes) of ``op`` as its generic form prints them."""
    detail = op.detail()
    opdef = lookup(op.name)
    props = dict(detail.properties)
    attrs_ = {}
    for k, v in detail.attributes.items():
        if opdef is not None and opdef.is_inherent(k):
            props[k] = v
        else:
            attrs_[k] = v
    if opdef is not None and opdef.segmented and detail.operand_groups:
        props["operandSegmentSizes"] = DenseI32ArrayAttr(tuple(n for _, n in detail.operand_groups))
    return props, attrs_


def generic_pieces(op: Operation, name_of: NameOf) -> list:
    """The generic form of ``op`` as text pieces and regions."""
    detail = op.detail()
    if not detail.known:
        raise PrintError(f"cannot print '{op.name}' in generic form: its custom syntax is not known to ttd-lower", op)
    opdef = lookup(op.name)
    name = (opdef.generic_name if opdef is not None and opdef.generic_name else None) or op.name
    props, attrs_ = generic_attributes(op)
    head = f'"{name}"(' + ", ".join(map(name_of, op.operands)) + ")"
    if detail.successors:
        head += "[" + ", ".join(detail.successors) + "]"
    if props:
        head += " <" + format_attr_dict(props) + ">"
    pieces: list = [head]
    regions = list(op.regions)
    if opdef is not None and len(opdef.regions) > len(regions):  # e.g. scf.if without else
        regions += [Region(parent=op) for _ in range(len(opdef.regions) - len(regions))]
    if regions:
        pieces.append(" (")
        for i, region in enumerate(regions):
            if i:
                pieces.append(", ")
            pieces.append(RegionPiece(region))
        pieces.append(")")
    tail = " " + format_attr_dict(attrs_) if attrs_ else ""
    ins = ", ".join(_types(op.operand_types, "operands", op))
    outs = _types(op.result_types, "results", op)
    res = outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"
    pieces.append(f"{tail} : ({ins}) -> {res}")
    return pieces


def op_pieces(op: Operation, name_of: NameOf, generic: bool = False, location: bool = True) -> list:
    """``op`` (without its results prefix) as text pieces and :class:`RegionPiece` objects."""
    opdef = lookup(op.name)
    hook = print_hook(op.name) if not generic and opdef is not None and opdef.custom_syntax else None
    if generic:
        pieces = generic_pieces(op, name_of)
    elif hook is not None:
        printed = hook(op, name_of)
        pieces = [op.name + printed] if isinstance(printed, str) else [op.name, *printed]
    elif opdef is not None and opdef.compiled_format:
        printer = Printer(op.name)
        print_format(opdef, OpView(op, opdef, name_of), printer)
        pieces = printer.pieces()
    else:
        pieces = generic_pieces(op, name_of)
    loc = op.location or (implicit_location(op) if generic else None)
    if location and loc:
        pieces.append(" " + one_line_location(loc))  # a source op's, as written: on this line
    return pieces


def implicit_location(op: Operation) -> Optional[str]:
    """The location MLIR gives a source op written without ``loc(...)``: the file position of
    its name (the same position MLIR gives the terminator it adds to the op's regions)."""
    if op.source is None or op.span is None:
        return None
    return _file_location(op.source, op.span[0] + len(op.def_text or ""))


def implicit_argument_location(block: Block, index: int, arg: BlockArgument) -> Optional[str]:
    """The location MLIR gives a block argument written without ``loc(...)``: the file position
    of its name, in the block's label or (entry arguments of ``tt.func``, ``scf.for``, ...) in
    the header of the op that holds the region, where the name first appears."""
    op = block.parent.parent if block.parent is not None else None
    if not arg.name or op is None or op.source is None:
        return None
    name = re.compile(re.escape(arg.name) + r"(?![\w$.\-])")
    if block.label is not None:
        match = name.search(block.label)
        return _file_location(op.source, block.label_offset + match.start()) if match else None
    if index != 0:
        return None
    text = body_text(op)
    match = name.search(text.text.split(REGION_SLOT)[0])
    offset = text.source_offset(match.start()) if match else None
    return _file_location(op.source, offset) if offset is not None else None


def _file_location(source, offset: int) -> str:
    line, col = source.line_col(offset)
    return f"loc({quote_string(source.filename)}:{line}:{col})"


def print_op(op: Operation, name_of: NameOf = value_name, with_location: bool = True) -> str:
    """One op without regions, in canonical custom form (generic if not declared).

    Raises:
        PrintError: a value has no name or a type is unknown; the op has regions.
    """
    pieces = op_pieces(op, name_of, location=with_location)
    if any(not isinstance(p, str) for p in pieces):
        raise PrintError(f"'{op.name}' has regions: print it with ModulePrinter", op)
    return results_prefix(op.results, name_of) + "".join(pieces)


class ModulePrinter:
    """Prints whole modules (see the module docstring).

    Args:
        generic: print every op in generic form, except those in ``custom_ops``.
        locations: print ``loc(...)`` trailers and block-argument locations.
        custom_ops: ops kept in custom form under ``generic`` (``hivm.hir.custom``: the real
            ``bishengir-opt`` reads it only that way).
    """

    def __init__(self, generic: bool = False, locations: bool = True, custom_ops=frozenset({"hivm.hir.custom"})):
        self.generic = generic
        self.locations = locations
        self.custom_ops = custom_ops
        self._names: Dict[int, str] = {}
        self._used: set = set()
        self._counter = 0
        self._arg_counter = 0

    # ---- names ----------------------------------------------------------------------------------
    def name_of(self, v: Value) -> str:
        if v.name:
            return v.name
        key = id(v)
        if key not in self._names:
            while True:
                if isinstance(v, BlockArgument):
                    name = f"%arg{self._arg_counter}"
                    self._arg_counter += 1
                else:
                    name = f"%{self._counter}"
                    self._counter += 1
                if name not in self._used:
                    break
            self._names[key] = name
            self._used.add(name)
        return self._names[key]

    def _collect_names(self, module: Module) -> None:
        for op in module.walk():
            for r in op.results:
                if r.name:
                    self._used.add(r.name.split("#")[0])
            for region in op.regions:
                for block in region.blocks:
                    for a in block.arguments:
                        if a.name:
                            self._used.add(a.name)

    # ---- printing -------------------------------------------------------------------------------
    def print_module(self, module: Module) -> str:
        self._collect_names(module)
        first = module.ops[0].span[0] if module.ops and module.ops[0].span else None

        def alias_lines(leading: bool) -> List[str]:
            """The alias definitions written before (``leading``) or after the first op."""
            return [f"{a.name} = {a.value}" for a in module.aliases
                    if (first is not None and a.span[0] < first) == leading
                    and (self.locations or not a.value.startswith("loc("))]

        out = alias_lines(True)
        for op in module.ops:
            self.print_op(op, "", out)
        out += alias_lines(False)
        return "\n".join(out) + "\n"

    def print_op(self, op: Operation, indent: str, out: List[str]) -> None:
        generic = self.generic and op.name not in self.custom_ops
        pieces = op_pieces(op, self.name_of, generic=generic, location=self.locations)
        line = indent + results_prefix(op.results, self.name_of)
        for piece in pieces:
            if isinstance(piece, str):
                line += piece
                continue
            out.append(line + "{")
            self.print_region(piece, indent + "  ", out)
            line = indent + "}"
        out.append(line)

    def print_region(self, piece: RegionPiece, indent: str, out: List[str]) -> None:
        region = piece.region
        for i, block in enumerate(region.blocks):
            args = block.arguments
            if i > 0 or (args and (piece.entry_args or self.generic)):
                out.append(indent[:-2] + self._label(block, i, args))
            for op in block.ops:
                self.print_op(op, indent, out)
        self._implicit_terminator(region, indent, out)

    def _implicit_terminator(self, region: Region, indent: str, out: List[str]) -> None:
        """In generic form, the terminator MLIR adds where the custom form leaves it out
        (``scf.yield`` of an ``scf.for`` without iter_args)."""
        op = region.parent
        opdef = lookup(op.name) if op is not None and self.generic else None
        name = opdef.implicit_terminator if opdef is not None else None
        if name is None or not any(r is region for r in op.regions):
            return  # a region the text leaves out (scf.if without else) stays empty
        last = region.blocks[-1].ops[-1] if region.blocks and region.blocks[-1].ops else None
        if last is not None and last.name == name:
            return
        loc = implicit_location(op) or op.location
        out.append(indent + f'"{name}"() : () -> ()' + (f" {loc}" if self.locations and loc else ""))

    def _label(self, block: Block, index: int, args: List[BlockArgument]) -> str:
        name = block.label.split("(")[0].rstrip(":").strip() if block.label else f"^bb{index}"
        if not args:
            return f"{name}:"
        parts = []
        for a in args:
            text = f"{self.name_of(a)}: {a.type}"
            loc = a.location or (implicit_argument_location(block, index, a) if self.generic else None)
            if self.locations and loc:
                text += f" {one_line_location(loc)}"
            parts.append(text)
        return f"{name}(" + ", ".join(parts) + "):"


def print_module(module: Module, generic: bool = False, locations: bool = True) -> str:
    """The module in canonical form (``generic``: every op but ``hivm.hir.custom`` generic).

    Raises:
        PrintError: an op cannot be printed (unknown syntax under ``generic``, unknown types).
    """
    return ModulePrinter(generic=generic, locations=locations).print_module(module)
