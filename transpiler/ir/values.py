"""SSA values: :class:`Value`, :class:`OpResult` (a result of an op) and :class:`BlockArgument`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Optional

from .types import Type

if TYPE_CHECKING:  # pragma: no cover
    from .core import Block, Operation


class Value:
    """An SSA value.  ``name`` is how it is printed (``%rank``, ``%0#1``) or None if unnamed."""

    __slots__ = ("name",)

    @property
    def type(self) -> Type:  # pragma: no cover - overridden
        raise NotImplementedError


class OpResult(Value):
    """Result ``index`` of ``op``.  Its type comes from ``op.result_types`` (parsed lazily)."""

    __slots__ = ("op", "index", "_type")

    def __init__(self, op: "Operation", index: int, name: Optional[str], type_: Optional[Type] = None):
        self.op = op
        self.index = index
        self.name = name
        self._type = type_

    @property
    def type(self) -> Type:
        """The result's type.

        Raises:
            LookupError: the producing op's types are unknown (an op nobody declared).
            DiagnosticError: the producing op's text cannot be read.
        """
        if self._type is None:
            types = self.op.result_types
            if self.index >= len(types):
                raise LookupError(f"the type of {self.name} is not known ({self.op.name} is not declared)")
            self._type = types[self.index]
        return self._type

    def __repr__(self) -> str:
        return f"<result {self.name} of {self.op.name}>"


class BlockArgument(Value):
    """Argument ``index`` of ``block`` (function arguments are the entry block's arguments)."""

    __slots__ = ("block", "index", "_type", "location")

    def __init__(self, block: Optional["Block"], index: int, name: Optional[str], type_: Type, location: Optional[str] = None):
        self.block = block
        self.index = index
        self.name = name
        self._type = type_
        self.location = location

    @property
    def type(self) -> Type:
        return self._type

    def __repr__(self) -> str:
        return f"<arg {self.name}: {self._type}>"


_RESULT_GROUP = re.compile(r"(%[\w$.\-]+)(?::([0-9]+))?")
_RESULT_NAME = re.compile(r"%[\w$.\-]+")
_COMMENT = re.compile(r"//[^\n\r]*")


def results_from_def(op: "Operation") -> List[OpResult]:
    """Result values of a source op, from its ``def_text`` (``%a, %b:2 = ``; blanks and
    comments may stand between the names)."""
    text = op.def_text
    if not text:
        return []
    if "//" in text:
        text = _COMMENT.sub("", text)
    if ":" not in text:  # no result group: one result per name (the common ``%x = ``)
        return [OpResult(op, i, name) for i, name in enumerate(_RESULT_NAME.findall(text))]
    results: List[OpResult] = []
    for m in _RESULT_GROUP.finditer(text):
        name, count = m.group(1), m.group(2)
        if count:
            base = len(results)
            results.extend([OpResult(op, base + k, f"{name}#{k}") for k in range(int(count))])
        else:
            results.append(OpResult(op, len(results), name))
    return results
