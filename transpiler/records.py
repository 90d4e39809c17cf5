"""``attrs`` classes that are cheap to create: generated ``__init__``, shared ``__repr__`` and ``__eq__``.

For every class, ``attrs`` writes the source of the methods it generates and compiles it; with
``__repr__`` and ``__eq__`` that is about 0.2 ms a class, most of the time the command line
spends on ``attrs`` at start-up.  Classes whose repr and equality are rarely called (options,
requests, results, declarations, diagnostics) are made with :func:`define` / :func:`frozen`
instead of ``attrs.define`` / ``attrs.frozen``: ``attrs`` generates the ``__init__`` only (fast,
and still a plain ``attrs`` class: ``attrs.fields``, ``attrs.evolve``, validators, factories),
and the class gets these shared methods, which read ``__attrs_attrs__`` and behave as the
generated ones do:

* ``repr``: ``Name(field=value, ...)`` of the fields declared with ``repr=True`` (a callable
  ``repr=`` formats its field), ``...`` for an object already being printed;
* ``==``: same class and equal fields (those with ``eq=True``), else ``NotImplemented``;
* ``hash``: of the fields (frozen classes); a mutable class that compares by value is
  unhashable, as ``attrs`` makes it.

Hot value classes (the IR's types and attributes, compared and hashed all the time) keep the
methods ``attrs`` generates.
"""

from __future__ import annotations

from typing import Any, Callable, Set

import attrs

_IN_REPR: Set[int] = set()


def _repr(self) -> str:
    key = id(self)
    if key in _IN_REPR:
        return "..."
    _IN_REPR.add(key)
    try:
        parts = []
        for a in type(self).__attrs_attrs__:
            if a.repr:
                value = getattr(self, a.name)
                parts.append(f"{a.name}={a.repr(value) if callable(a.repr) else repr(value)}")
        return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({', '.join(parts)})"
    finally:
        _IN_REPR.discard(key)


def _eq(self, other: Any):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return all(getattr(self, a.name) == getattr(other, a.name) for a in type(self).__attrs_attrs__ if a.eq)


def _hash(self) -> int:
    return hash((type(self),) + tuple(getattr(self, a.name) for a in type(self).__attrs_attrs__
                                      if (a.hash if a.hash is not None else a.eq)))


def _finish(cls: type, own: dict, repr_: bool, eq: bool, hashable: bool) -> type:
    """Attach the shared methods the class body (``own``) does not define itself (as ``attrs``
    leaves a class's own ``__repr__`` / ``__eq__`` / ``__hash__`` alone)."""
    if repr_ and "__repr__" not in own:
        cls.__repr__ = _repr
    if eq and "__eq__" not in own:
        cls.__eq__ = _eq
        if "__hash__" not in own:
            cls.__hash__ = _hash if hashable else None
    return cls


def define(maybe_cls: Any = None, *, repr: bool = True, eq: bool = True, frozen: bool = False,
           **kwargs: Any) -> Callable:
    """``attrs.define`` (same arguments) with the shared ``__repr__`` / ``__eq__`` (and, for
    frozen classes, ``__hash__``) instead of generated ones."""
    def wrap(cls: type) -> type:
        own = dict(cls.__dict__)
        made = attrs.define(cls, repr=False, eq=False, frozen=frozen, **kwargs)
        return _finish(made, own, repr, eq, hashable=frozen)

    return wrap if maybe_cls is None else wrap(maybe_cls)


def frozen(maybe_cls: Any = None, **kwargs: Any) -> Callable:
    """``attrs.frozen``: :func:`define` with ``frozen=True``."""
    return define(maybe_cls, frozen=True, **kwargs)
