"""Parse hooks for ops whose syntax no ODS format declares (``OpDef.custom_syntax``).

Each module reads the ops of one dialect; :func:`parse_hook` finds the hook of an op name.
A hook is ``hook(op, items) -> OpDetail``: ``items`` is the op body's item list, read with a
:class:`~transpiler.parser.detail.format_reader.Cursor`.
"""

from __future__ import annotations

import functools
from typing import Callable, Dict, Optional


@functools.lru_cache(maxsize=None)
def _hooks() -> Dict[str, Callable]:
    from . import arith, distributed, hivm, scf, tt

    return {
        "arith.select": arith._parse_select,
        "distributed.wait": distributed._parse_wait,
        "distributed.notify": distributed._no_custom_form,
        "hivm.hir.custom": hivm.parse_custom,
        "scf.for": scf.parse_for,
        "scf.if": scf.parse_if,
        "scf.while": scf.parse_while,
        "tt.func": tt.parse_function,
        "tt.dot_scaled": tt.parse_dot_scaled,
    }


def parse_hook(name: str) -> Optional[Callable]:
    """The parse hook of op ``name`` (None when its declared format is enough)."""
    return _hooks().get(name)
