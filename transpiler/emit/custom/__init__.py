"""Print hooks for ops whose syntax no ODS format declares (``OpDef.custom_syntax``).

A hook is ``hook(op, name_of) -> str | [str | RegionPiece, ...]``: the op's text after its
name, with its regions as :class:`~transpiler.emit.op_view.RegionPiece` items.
"""

from __future__ import annotations

import functools
from typing import Callable, Dict, Optional


@functools.lru_cache(maxsize=None)
def _hooks() -> Dict[str, Callable]:
    from . import arith, hivm, scf, tt

    return {
        "arith.select": arith._print_select,
        "hivm.hir.custom": hivm.print_custom,
        "scf.for": scf.print_for,
        "scf.if": scf.print_if,
        "scf.while": scf.print_while,
        "tt.func": tt.print_function,
        "tt.dot_scaled": tt.print_dot_scaled,
    }


def print_hook(name: str) -> Optional[Callable]:
    """The print hook of op ``name`` (None when its declared format is enough)."""
    return _hooks().get(name)
