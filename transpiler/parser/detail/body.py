"""On-demand parsing of an op's text (level 2 of ``grammars/ttir.lark``).

:func:`parse_body` turns the BODY pieces of one source op into either a flat item list
(custom form: read next by the op's declared assembly format) or a :class:`GenericBody`
(generic form).  Region positions are marked with REGION_SLOT.  Errors become located
diagnostics pointing into the op's line.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ...diagnostics import ERROR, Diagnostic, DiagnosticError
from ...ir.core import Operation
from ...ir.source import BodyText, body_text
from ...ir.types import Type
from .errors import UnexpectedInput, nesting_note
from .lexers import compiled_mode
from . import text as detail_text  # called through the module: tests spy on it

_TOKEN_WORDS = {
    "VALUE_USE": "an SSA value",
    "CARET_ID": "a block name",
    "SYMBOL_REF": "a symbol",
    "BARE_ID": "a keyword",
    "TYPE": "a type",
    "ATTR": "an attribute",
    "STRING": "a string",
    "INTEGER": "an integer",
    "FLOAT": "a float",
    "LOC": "a location",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "ARROW": "'->'",
    "PROP_OPEN": "'<{'",
    "PROP_CLOSE": "'}>'",
    "REGION_SLOT": "a region",
    "$END": "the end of the op",
}


def parse_body(op: Operation):
    """Parse a source op's text: a list of items (custom form) or a :class:`GenericBody`.

    Raises:
        DiagnosticError: the op's text is not valid at the reported position.
    """
    return read_body(op)[1]


def read_body(op: Operation):
    """``(body_text(op), parse_body(op))``.

    Raises:
        DiagnosticError: the op's text is not valid at the reported position.
    """
    body = body_text(op)
    start = "generic_body" if op.generic else "custom_body"
    source = op.source
    compiled = compiled_mode(len(source.text) if source is not None else 0, len(body.text))
    try:
        return body, detail_text.parse_detail_text(body.text, start, compiled)
    except UnexpectedInput as e:
        raise DiagnosticError([_syntax_diagnostic(op, body, e)]) from None
    except ValueError as e:  # bad escapes, malformed types inside the body
        offset = body.source_offset(0)
        raise DiagnosticError([Diagnostic(ERROR, f"'{op.name}' op {e}", op.source, offset)]) from None


def _syntax_diagnostic(op: Operation, body: BodyText, e) -> Diagnostic:
    token = getattr(e, "token", None)
    if token is not None:
        pos = token.start_pos if token.type != "$END" else len(body.text.rstrip())
        found = _TOKEN_WORDS["$END"] if token.type == "$END" else f"'{token}'"
        expected = sorted({_TOKEN_WORDS.get(t, t) for t in (e.expected or ()) if not t.startswith("__")})
        message = f"unexpected {found}"
        if expected and len(expected) <= 6:
            message += "; expected " + ", ".join(expected)
    else:
        pos = getattr(e, "pos_in_stream", 0) or 0
        message = f"unexpected character '{body.text[pos:pos + 1]}'"
    message += nesting_note(body.text)
    offset = body.source_offset(pos)
    if offset is None and op.span is not None:
        offset = op.span[0]
    return Diagnostic(ERROR, f"custom op '{op.name}': {message}" if not op.generic else f"'{op.name}' op {message}", op.source, offset)


def parse_block_label(label: str) -> Tuple[str, List[Tuple[str, Type, Optional[str]]]]:
    """``^bb1(%x: f32 loc(#l)):`` to ``("^bb1", [("%x", f32, "loc(#l)")])``.

    Raises:
        ValueError: if the label is malformed (the message says where).
    """
    try:
        return detail_text.parse_detail_text(label, "block_label")
    except UnexpectedInput as e:
        raise ValueError(f"malformed block label '{label}'") from e
    except ValueError as e:
        raise ValueError(f"malformed block label '{label}': {e}") from None
