"""Builds the two Lark LALR parsers of ``grammars/ttir.lark`` (loaded once, cached on disk).

* :func:`structure_parser` - start ``file``, our :class:`~transpiler.parser.lexer.StructureLexer`,
  IR built while parsing by :class:`~transpiler.parser.structure.StructureBuilder`.
* :func:`detail_parser` - starts ``custom_body``, ``generic_body``, ``type``, ``attribute``,
  ``location``, ``block_label``, ``alias_definition``; Lark's contextual lexer; trees turned
  into IR pieces by :class:`~transpiler.parser.detail.DetailBuilder`.

Building the tables takes a few hundred milliseconds; Lark's cache (``cache=<file>``) brings a
reload down to milliseconds.  The cache lives in ``$TTD_CACHE_DIR`` or
``~/.cache/ttd-lower`` (falling back to no cache when that is not writable).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Optional

from .. import resources
from .._compat import LARK_OPTIONS

DETAIL_STARTS = ["custom_body", "generic_body", "type", "attribute", "location", "block_label", "alias_definition"]


def _cache_file(kind: str) -> Optional[str]:
    base = os.environ.get("TTD_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "ttd-lower")
    try:
        Path(base).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(base, os.W_OK):
        return None
    return os.path.join(base, f"lark-{kind}.cache")


def _lark(**options):
    from lark import Lark

    grammar = resources.grammar_text()
    cache = _cache_file(options.pop("kind"))
    return Lark(grammar, parser="lalr", maybe_placeholders=False, cache=cache or False, **LARK_OPTIONS, **options)


@functools.lru_cache(maxsize=None)
def structure_parser():
    """The ``file`` parser: coarse tokens, IR built at parse time."""
    from .lexer import StructureLexer
    from .structure import StructureBuilder

    return _lark(kind="structure", start="file", lexer=StructureLexer, transformer=StructureBuilder())


@functools.lru_cache(maxsize=None)
def detail_parser():
    """The parser of op bodies, types, attributes, locations, block labels and aliases."""
    from .detail import DetailBuilder

    return _lark(kind="detail", start=DETAIL_STARTS, lexer="contextual", transformer=DetailBuilder())


def parse_detail_text(text: str, start: str):
    """Parse ``text`` from the level-2 rule ``start``.

    Raises:
        lark.exceptions.UnexpectedInput: the text does not fit the grammar.
        ValueError: a callback rejected a piece (a malformed type, escape or number); Lark's
            ``VisitError`` wrapper is removed so callers see the real problem.
    """
    from lark.exceptions import VisitError

    try:
        return detail_parser().parse(text, start=start)
    except VisitError as e:
        if isinstance(e.orig_exc, ValueError):
            raise e.orig_exc from None
        raise
