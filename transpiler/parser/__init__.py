"""Text to IR: :func:`parse_module` (the structure, eagerly) and, on demand, op details.

Diagnostics for malformed input are raised as :class:`~transpiler.diagnostics.DiagnosticError`
with ``file:line:col`` locations; no Lark exception escapes.
"""

from __future__ import annotations

import re
from typing import Optional

from ..diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.core import Module, Source
from ..gcpause import collector_paused
from .structure.tokens import LexError

_TOKEN_WORDS = {
    "DEF": "result names",
    "OP_NAME": "an operation",
    "OP_LINE": "an operation",
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
        DiagnosticError: on text that is not MLIR as printed (located, MLIR-style message),
            and at every distributed op name the structure did not read as an op (text before
            it the reader cannot read as MLIR does: :mod:`.structure.hidden_ops`), so that no
            caller (``ttd-lower`` whatever stage its input's name starts at, ``ttd-sim``, an
            override file) can copy or skip such an op unseen.
    """
    from .structure.lalr import UnexpectedToken, parse_structure
    from .structure.lexer import StructureLexer
    from .structure.builder import StructureBuilder

    from .detail.reader import READER

    source = Source(text, filename, split_line, reader=READER)
    with collector_paused():  # one lexer and one builder per parse: nothing shared between calls
        try:
            builder = StructureBuilder(source)
            module = parse_structure(StructureLexer().tokens(text), builder)
            _check_aliases(module)
            # the attribute aliases an op's attributes may use; location aliases (`#loc3 =
            # loc(...)`, most of a Triton dump) stand in `loc(...)` only, so a file with no
            # other alias substitutes nothing
            source.aliases.update({a.name: a.value for a in module.aliases
                                   if a.name[0] == "#" and not a.value.startswith("loc(")})
            if "distributed." in text:
                from .structure.hidden_ops import hidden_distributed_ops

                hidden = hidden_distributed_ops(module, builder.distributed_starts)
                if hidden:
                    raise DiagnosticError(hidden)
            return module
        except LexError as e:
            raise DiagnosticError([Diagnostic(ERROR, e.message, source, e.offset)]) from None
        except UnexpectedToken as e:
            raise DiagnosticError([_unexpected(e, source)]) from None


# `#name` of an attribute alias (no dot: `#tt.cache_policy<...>` is a dialect attribute), with
# strings and comments matched first so that neither defines nor uses an alias
_ALIAS_USE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n\r]*|#([A-Za-z_][\w$]*)(?![\w$.<\-])')
_ALIAS_CANDIDATE = re.compile(r'#([A-Za-z_][\w$]*)(?![\w$.<\-])')


def _check_aliases(module: Module) -> None:
    """Every alias is defined once, and every ``#name`` used is defined (as MLIR requires: a
    truncated dump often loses the ``#loc`` definitions at its end).  A ``#name`` inside a
    string or a comment (``// CHECK: #map``) is no use (SPEC.md section 3).

    Raises:
        DiagnosticError: at the second definition, or at the first use of an undefined alias.
    """
    source = module.source
    defined = {}
    for alias in module.aliases:
        if alias.name in defined:
            raise DiagnosticError([Diagnostic(ERROR, f"redefinition of alias '{alias.name}'", source, alias.span[0])])
        defined[alias.name] = alias
        problem = _alias_value_problem(alias.value)
        if problem:
            raise DiagnosticError([Diagnostic(ERROR, f"alias '{alias.name}': {problem}", source, alias.span[0])])
    text = source.text
    if "#" not in text:
        return
    # every `#name` of the text, strings and comments included, is a superset of the uses:
    # when all of them are defined, no use can be undefined (one findall instead of a
    # Python-level walk over every string, comment and use)
    if all("#" + name in defined for name in set(_ALIAS_CANDIDATE.findall(text))):
        return
    for m in _ALIAS_USE.finditer(text):
        if m.group(1) is None or "#" + m.group(1) in defined:
            continue
        raise DiagnosticError([Diagnostic(ERROR, f"undefined alias '#{m.group(1)}' (never defined in this file)",
                                          source, m.start())])


_BARE_VALUE = re.compile(r"[A-Za-z_][\w$.]*")
# bare words that are whole values: builtin types (an alias of a type, or a type attribute)
# and the keyword attributes
_BARE_WHOLE = re.compile(r"(?:[su]?i[1-9][0-9]*|bf16|f16|f32|f64|f80|f128|tf32|f[4-8]E\w+|index|none|true|false|unit)")


def _alias_value_problem(value: str):
    """A cheap check of an alias's value, which is read only when something needs it: a value
    cut short by a truncated file (``#loc1 = lo``, ``loc(... )`` with text after it) must not
    pass as an alias.  Returns what is wrong, or None."""
    if value.startswith("loc("):
        if not value.endswith(")"):
            return "expected a location 'loc(...)' (a truncated file?)"
    elif _BARE_VALUE.fullmatch(value) and not _BARE_WHOLE.fullmatch(value):
        return f"expected an attribute or a type, found '{value}' (a truncated file?)"
    return None


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
