"""The table of op implementations (:data:`IMPLS`) and :func:`implements`, which the dialect
modules of this package register with; :func:`transpiler.sim.ops.load_all` imports them all.
A leaf: the modules import it, never the package that imports them (issue 30)."""

from __future__ import annotations

from typing import Callable, Dict, NamedTuple, Optional


class Impl(NamedTuple):
    fn: Callable
    gen: bool
    prepare: Optional[Callable]
    point: bool = False
    fast: Optional[Callable] = None


IMPLS: Dict[str, Impl] = {}


def implements(*names: str, gen: bool = False, prepare: Optional[Callable] = None, point: bool = False,
               fast: Optional[Callable] = None):
    """Register the decorated function as the implementation of the ops ``names``."""

    def register(fn):
        for name in names:
            if name in IMPLS:
                raise ValueError(f"'{name}' is implemented twice")
            IMPLS[name] = Impl(fn, gen, prepare, point, fast)
        return fn

    return register
