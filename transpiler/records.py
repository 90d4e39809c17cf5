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

``==`` and ``hash`` compare a tuple of the fields made by ``operator.attrgetter`` (about 0.2 us
slower a call than the generated ones; the IR's types and attributes, frozen value classes,
are compared about 150 times in a lowering of a typical kernel).
"""

from __future__ import annotations

import operator
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
    return self is other or self.__records_eq_key__(self) == other.__records_eq_key__(other)


def _hash(self) -> int:
    return hash((self.__class__, self.__records_hash_key__(self)))


def _key(cls: type, hashing: bool) -> Callable[[Any], tuple]:
    """A function of an instance: the tuple of its fields that take part in ``==`` (or ``hash``)."""
    names = [a.name for a in cls.__attrs_attrs__ if (a.hash if hashing and a.hash is not None else a.eq)]
    if not names:
        return lambda self: ()
    get = operator.attrgetter(*names)
    return get if len(names) > 1 else (lambda self: (get(self),))


def _finish(cls: type, own: dict, repr_: bool, eq: bool, hashable: bool) -> type:
    """Attach the shared methods the class body (``own``) does not define itself (as ``attrs``
    leaves a class's own ``__repr__`` / ``__eq__`` / ``__hash__`` alone)."""
    if repr_ and "__repr__" not in own:
        cls.__repr__ = _repr
    if eq and "__eq__" not in own:
        cls.__records_eq_key__ = staticmethod(_key(cls, hashing=False))
        cls.__eq__ = _eq
        if "__hash__" not in own:
            if hashable:
                cls.__records_hash_key__ = staticmethod(_key(cls, hashing=True))
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
