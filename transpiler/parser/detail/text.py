"""The detail level's parser, built once: op bodies, types, attributes, locations, block labels
and aliases (the starts :data:`DETAIL_STARTS` of ``grammars/ttir.lark``).

Lark's contextual lexer and LALR(1) parser replayed over the tables that
:mod:`transpiler.parser.detail.gen_tables` generates with Lark at development time
(``_tables.py``, committed; a test regenerates it), see :mod:`transpiler.parser.detail.lalr`.
The IR pieces are built at each reduction by :class:`~transpiler.parser.detail.builder.DetailBuilder`.
The entries :func:`parse_type` and :func:`parse_attribute` read one type or attribute.  No Lark
at run time.
"""

from __future__ import annotations

import functools

from ...ir.types import OpaqueType, Type
from .attributes import AttributeSyntaxError
from .builder import DetailBuilder
from .errors import UnexpectedInput
from .lalr import DetailParser
from .types import SHAPED_KEYWORD_BLANKS, TypeSyntaxError, quick_type

#: The rules the detail level starts from (the generator builds its tables for these).
DETAIL_STARTS = ("custom_body", "generic_body", "type", "attribute", "location", "block_label", "alias_definition")


@functools.lru_cache(maxsize=None)
def detail_parser():
    """The parser of op bodies, types, attributes, locations, block labels and aliases: the
    generated tables of :mod:`transpiler.parser.detail.lalr`, building with a ``DetailBuilder``."""
    return DetailParser(DetailBuilder(parse_type))


def parse_detail_text(text: str, start: str, compiled: bool = False):
    """Parse ``text`` from the level-2 rule ``start`` (``compiled``: with the compiled lexers,
    the same result; for the ops of a big input, see ``lexers.COMPILED_FROM``).

    Raises:
        transpiler.parser.detail.errors.UnexpectedInput: the text does not fit the grammar.
        ValueError: a callback rejected a piece (a malformed type, escape or number).
    """
    return detail_parser().parse(text, start, compiled)


@functools.lru_cache(maxsize=4096)
def parse_type(text: str) -> Type:
    """Parse one type (``i32``, ``!tt.ptr<f16>``, ``tensor<4x!tt.ptr<i8>>``, ...), once per
    distinct text (interned: DESIGN.md, "types parsed once and interned").

    Builtin scalar types take a fast path (:func:`~.types.quick_type`); other text goes through
    the grammar.  Types without a structured class (``vector<...>``, ``!tt.tensordesc<...>``,
    unknown dialects) come back as :class:`OpaqueType` with their exact text.

    Raises:
        TypeSyntaxError: if ``text`` is not a type.
    """
    shaped = SHAPED_KEYWORD_BLANKS.match(text)
    if shaped:  # `tensor <4xf32>`: blanks between the keyword and `<` (MLIR's lexer skips them)
        return parse_type(shaped.group(1) + text[shaped.end():])
    quick = quick_type(text)
    if quick is not None:
        return quick
    try:
        result = parse_detail_text(text, "type")
    except UnexpectedInput as e:
        raise TypeSyntaxError(f"malformed type '{text}'", getattr(e, "column", 1) or 1) from None
    return OpaqueType(text) if isinstance(result, OpaqueType) else result


@functools.lru_cache(maxsize=4096)
def parse_attribute(text: str):
    """Parse one attribute value (``3 : i64``, ``"s"``, ``array<i32: 0>``, ``{a = 1}``, ...).

    Raises:
        AttributeSyntaxError: if ``text`` is not an attribute.
    """
    try:
        return parse_detail_text(text, "attribute")
    except (UnexpectedInput, ValueError) as e:
        raise AttributeSyntaxError(f"malformed attribute '{text}': {e}") from None
