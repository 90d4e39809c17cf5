"""Reading an op's detail: its operands, attributes, properties and types, from its text.

:func:`parse_detail` is the reader behind :meth:`transpiler.ir.core.Operation.detail` (the IR
asks the :class:`DetailReader` its source was parsed with): generic-form text by the generic
grammar, custom-form text by the op's declared format (:mod:`transpiler.parser.detail.format_reader`)
or its custom hook (:mod:`transpiler.parser.custom`), undeclared ops by the SSA names they
mention (their types stay unknown, SPEC.md section 3).
"""

from __future__ import annotations

from typing import Dict, Optional

from ...diagnostics import ERROR, Diagnostic, DiagnosticError, op_error
from ...ir.core import Operation
from ...ir.dialect import OpDef, OpDetail, lookup
from ...ir.format import FormatError
from ...ir.types import FunctionType
from ..custom import parse_hook
from .aliases import substitute_all
from .body import parse_block_label, read_body
from .builder import GenericBody
from .errors import Token, nesting_note
from .format_reader import detail_from_format, parse_format


class DetailReader:
    """What the IR calls back for the lazily read parts of source ops (injected as
    ``Source.reader`` by :func:`transpiler.parser.parse_module`, so that ``ir/`` never imports
    the parser)."""

    @staticmethod
    def detail(op: Operation) -> OpDetail:
        return parse_detail(op)

    @staticmethod
    def block_label(label: str):
        """``(name, [(SSA name, type, loc text), ...])`` of a block label's text.

        Raises:
            ValueError: the label is malformed.
        """
        return parse_block_label(label)


READER = DetailReader()


def parse_detail(op: Operation) -> OpDetail:
    """Parse a source op's detail by its declaration (or generically).

    Raises:
        DiagnosticError: the op's text does not fit its declared syntax.
    """
    text, body = read_body(op)
    opdef = lookup(op.name)
    if isinstance(body, GenericBody):
        detail = _generic_detail(op, body, opdef)
    elif opdef is None or (opdef.format is None and not opdef.custom_syntax):
        detail = _unknown_detail(op, body)
    else:
        try:
            hook = parse_hook(op.name) if opdef.custom_syntax else None
            if hook is not None:
                detail = hook(op, body)
            else:
                items = unstrip_types(list(body), opdef.stripped_types)
                detail = detail_from_format(opdef, parse_format(opdef, items))
                if detail.location is not None and op.location is None:
                    op.location = detail.location
                detail = detail.detail
        except (FormatError, ValueError) as e:  # ValueError: a malformed attribute or escape
            pos = getattr(getattr(e, "item", None), "start_pos", None)
            offset = text.source_offset(pos) if pos is not None else None
            if offset is None:
                offset = op.span[0] if op.span else None
            message = f"custom op '{op.name}' {e}{nesting_note(text.text)}"
            raise DiagnosticError([Diagnostic(ERROR, message, op.source, offset)]) from None
    _check_result_count(op, detail)
    _record_operand_offsets(text, detail)
    aliases = op.source.aliases if op.source is not None else None
    if aliases:
        try:
            substitute_all(detail.attributes, aliases)
            substitute_all(detail.properties, aliases)
        except ValueError as e:
            raise DiagnosticError([Diagnostic(ERROR, f"'{op.name}' op {e}", op.source,
                                              op.span[0] if op.span else None)]) from None
    return detail


def _record_operand_offsets(text, detail: OpDetail) -> None:
    """Keep where each operand is written (diagnostics about one operand point at it);
    ``text`` is the op's :class:`~transpiler.ir.source.BodyText`."""
    if any(getattr(n, "start_pos", None) is not None for n in detail.operand_names):
        detail.operand_offsets = [text.source_offset(n.start_pos) if getattr(n, "start_pos", None) is not None
                                  else None for n in detail.operand_names]
    detail.operand_names = [str(n) for n in detail.operand_names]


def _check_result_count(op: Operation, detail: OpDetail) -> None:
    if op.def_text is None or not detail.known:
        return
    n = len(op.results)
    if n != len(detail.result_types):
        raise DiagnosticError([op_error(op, f"defines {len(detail.result_types)} results but was provided {n} to bind")])


def _generic_detail(op: Operation, body, opdef: Optional[OpDef]) -> OpDetail:
    fn: FunctionType = body.function_type
    if len(body.operands) != len(fn.inputs):
        raise DiagnosticError([op_error(op, f"has {len(body.operands)} operands but {len(fn.inputs)} operand types")])
    if body.region_count != len(op.regions):
        raise DiagnosticError([op_error(op, "region list does not match the op's regions")])
    twice = sorted(set(body.properties) & set(body.attributes))
    if twice:
        raise DiagnosticError([op_error(op, f"attribute '{twice[0]}' is given both as a property and in the "
                                            f"attribute dictionary")])
    if body.location is not None and op.location is None:
        op.location = body.location
    return OpDetail(
        operand_names=list(body.operands),
        operand_type_hints=list(fn.inputs),
        attributes=dict(body.attributes),
        properties=dict(body.properties),
        result_types=list(fn.results),
        successors=list(body.successors),
    )


def _unknown_detail(op: Operation, items) -> OpDetail:
    names = [i for i in items if getattr(i, "type", None) == "VALUE_USE"]
    if items and getattr(items[-1], "type", None) == "LOC" and op.location is None:
        op.location = str(items[-1])
    return OpDetail(operand_names=names, known=False)


def unstrip_types(items: list, stripped: Dict[int, str]) -> list:
    """Give the dialect prefix back to types a format prints without it (``<tensor<..>>``
    after the last ``:`` becomes the TYPE ``!tt.ptr<tensor<..>>``), see ``OpDef.stripped_types``."""
    if not stripped:
        return items
    colon = max((i for i, it in enumerate(items) if getattr(it, "type", None) == "COLON"), default=None)
    if colon is None:
        return items
    position = 0
    for i in range(colon + 1, len(items)):
        kind = getattr(items[i], "type", None)
        if kind not in ("TYPE", "ANGLE"):
            continue
        if kind == "ANGLE" and position in stripped:
            items[i] = Token.new_borrow_pos("TYPE", stripped[position] + str(items[i]), items[i])
        position += 1
    return items
