"""Text to IR: :func:`parse_module` (the structure, eagerly) and, on demand, op details.

Diagnostics for malformed input are raised as :class:`~transpiler.diagnostics.DiagnosticError`
with ``file:line:col`` locations; no Lark exception escapes.
"""

from __future__ import annotations

import threading
from typing import Optional

from ..diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.core import Module, Source
from ..gcpause import collector_paused
from .lexer import LexError

_lock = threading.Lock()

_TOKEN_WORDS = {
    "DEF": "result names",
    "OP_NAME": "an operation",
    "BODY": "operation text",
    "REGION_OPEN": "'{'",
    "REGION_CLOSE": "'}'",
    "BLOCK_LABEL": "a block label",
    "ALIAS": "an alias definition",
    "_NL": "the end of the line",
    "$END": "the end of the input",
}


def parse_module(text: str, filename: str = "<input>", split_line: Optional[int] = None) -> Module:
    """Parse TTIR text into a :class:`Module` (structure only; op details are parsed lazily).

    Args:
        text: the whole file (or one ``// -----`` chunk).
        filename: the name diagnostics print.
        split_line: for a ``--split-input-file`` chunk, the file line where it starts.

    Raises:
        DiagnosticError: on text that is not MLIR as printed (located, MLIR-style message).
    """
    from lark.exceptions import UnexpectedInput

    from .grammar import structure_parser

    source = Source(text, filename, split_line)
    parser = structure_parser()
    builder = parser.options.transformer
    with _lock, collector_paused():
        builder.source = source
        try:
            return parser.parse(text)
        except LexError as e:
            raise DiagnosticError([Diagnostic(ERROR, e.message, source, e.offset)]) from None
        except UnexpectedInput as e:
            raise DiagnosticError([_unexpected(e, source)]) from None
        finally:
            builder.source = None


def _unexpected(e, source: Source) -> Diagnostic:
    token = getattr(e, "token", None)
    kind = getattr(token, "type", "$END")
    offset = getattr(token, "start_pos", None)
    if offset is None:
        offset = max(len(source.text) - 1, 0)
    if kind == "BLOCK_LABEL":
        message = "block label outside of a region"
    elif kind == "$END":
        message = "unexpected end of the input"
    else:
        expected = sorted({_TOKEN_WORDS.get(t, t) for t in getattr(e, "expected", ())})
        message = f"unexpected {_TOKEN_WORDS.get(kind, kind)}"
        if expected:
            message += "; expected " + " or ".join(expected)
    return Diagnostic(ERROR, message, source, offset)
