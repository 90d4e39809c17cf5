"""Reading an op's attributes whether they come as an attribute dictionary or as properties
(generic form ``<{...}>``: SPEC.md section 1 gives both the same meaning)."""

from __future__ import annotations

from ..ir.attributes import BoolAttr, DenseI32ArrayAttr, IntegerAttr, StringAttr
from .errors import NotSimulated


def attr(op, name: str, default=None):
    """The attribute ``name`` of ``op`` (attributes first, then properties), or ``default``."""
    a = op.attributes.get(name)
    if a is None:
        a = op.properties.get(name)
    return default if a is None else a


def attr_value(op, name: str, default=None):
    """The Python value of an integer, bool, string or i32-array attribute.

    Raises:
        NotSimulated: the attribute is missing (and no default is given) or of another kind.
    """
    a = attr(op, name)
    if a is None:
        if default is not None:
            return default
        raise NotSimulated(f"has no '{name}' attribute")
    if isinstance(a, (IntegerAttr, BoolAttr, StringAttr)):
        return a.value
    if isinstance(a, DenseI32ArrayAttr):
        return list(a.values)
    text = str(a)
    try:
        return int(text.split(":")[0])
    except ValueError:
        raise NotSimulated(f"attribute '{name}' = {text} is not simulated") from None
