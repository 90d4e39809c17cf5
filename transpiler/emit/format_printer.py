"""Printing an op by its declared assembly format (:mod:`transpiler.ir.format`), with MLIR's
spacing rules (``shouldEmitSpaceBefore`` of mlir-tblgen's OpFormatGen)."""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from ..ir.attributes import format_attr_dict
from ..ir.format import AttrDictDirective, FunctionalType, Literal, OptionalGroup, Ref, TypeOf

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.dialect import OpDef


# ---- printing -----------------------------------------------------------------------------------


def _space_before(text: str, last_was_punct: bool) -> bool:
    # mlir-tblgen OpFormatGen: shouldEmitSpaceBefore
    if len(text) != 1 and text != "->":
        return True
    if last_was_punct:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


class Printer:
    """Accumulates an op's text with ODS spacing rules; starts with the op's name."""

    def __init__(self, head: str) -> None:
        self.parts: List[str] = [head]
        self.last_was_punct = False
        self.no_space_next = False

    def literal(self, text: str) -> None:
        if not self.no_space_next and _space_before(text, self.last_was_punct):
            self.parts.append(" ")
        self.parts.append(text)
        self.last_was_punct = not (text[0] == "_" or text[0].isalpha())
        self.no_space_next = len(text) == 1 and text in "<({["

    def word(self, text) -> None:
        """An element (operand, type, attribute) or a region object (rendered by the caller)."""
        if not self.no_space_next:
            self.parts.append(" ")
        self.parts.append(text)
        self.last_was_punct = False
        self.no_space_next = False

    def pieces(self) -> list:
        """The text, as strings and the region objects between them."""
        out: list = []
        for part in self.parts:
            if isinstance(part, str) and out and isinstance(out[-1], str):
                out[-1] += part
            else:
                out.append(part)
        return out

    def text(self) -> str:
        pieces = self.pieces()
        if len(pieces) != 1 or not isinstance(pieces[0], str):
            raise ValueError("this op has regions: print it with the module printer")
        return pieces[0]


def print_format(opdef: "OpDef", view, printer: Printer) -> None:
    """Print the op seen through ``view`` (names, types, attributes by format name)."""
    _print_elements(opdef, opdef.compiled_format, view, printer)


def _print_elements(opdef, elements, view, p: Printer) -> None:
    for element in elements:
        if isinstance(element, Literal):
            p.literal(element.text)
        elif isinstance(element, Ref):
            role = opdef.role(element.name)
            if role == "operand":
                names = view.operand_names(element.name)
                for i, n in enumerate(names):
                    if i:
                        p.literal(",")
                    p.word(n)
            elif role == "region":
                p.word(view.region(element.name))
            elif role == "successor":
                p.word(view.successor(element.name))
            else:
                p.word(opdef.attribute_kinds[element.name].print(view.attribute(element.name)))
        elif isinstance(element, TypeOf):
            for i, t in enumerate(view.types(element.name)):
                if i:
                    p.literal(",")
                p.word(str(t))
        elif isinstance(element, FunctionalType):
            ins = ", ".join(map(str, view.types(element.inputs)))
            outs = view.types(element.results)
            res = str(outs[0]) if len(outs) == 1 else "(" + ", ".join(map(str, outs)) + ")"
            p.word(f"({ins}) -> {res}")
        elif isinstance(element, AttrDictDirective):
            attrs_ = view.dict_attributes()
            if attrs_:
                if element.with_keyword:
                    p.word("attributes")
                p.word(format_attr_dict(attrs_))
        elif isinstance(element, OptionalGroup):
            if view.present(element.anchor):
                _print_elements(opdef, element.elements, view, p)
