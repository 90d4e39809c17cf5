"""Types of the typed IR: frozen, hashable ``attrs`` classes that print as MLIR prints them.

Only the types the lowering reasons about get a structured class (integers, floats, ``index``,
``!tt.ptr``, ranked tensors, function types).  Every other type (``!tt.tensordesc<...>``,
``vector<...>``, types of unknown dialects, aliases) is an :class:`OpaqueType` that keeps its
text, so it passes through unchanged (SPEC.md section 3).

Parsing text into these classes is done, once per distinct text, by
:func:`transpiler.parser.detail.types.parse_type`.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

from .. import records


class Type:
    """Base class of all types.  ``str(t)`` is the type's canonical MLIR text."""

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every subclass defines it
        raise NotImplementedError


@records.frozen(repr=False)
class IntegerType(Type):
    """``i<width>``, ``si<width>`` or ``ui<width>`` (``signedness`` is ``""``, ``"s"`` or ``"u"``)."""

    width: int
    signedness: str = ""

    def __str__(self) -> str:
        return f"{self.signedness}i{self.width}"

    __repr__ = __str__


@records.frozen(repr=False)
class FloatType(Type):
    """A builtin float type by its MLIR keyword: ``f16``, ``bf16``, ``f32``, ``f8E5M2``, ..."""

    name: str

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__


@records.frozen(repr=False)
class IndexType(Type):
    """The builtin ``index`` type."""

    def __str__(self) -> str:
        return "index"

    __repr__ = __str__


@records.frozen(repr=False)
class NoneType(Type):
    """The builtin ``none`` type."""

    def __str__(self) -> str:
        return "none"

    __repr__ = __str__


@records.frozen(repr=False)
class PointerType(Type):
    """Triton's scalar pointer ``!tt.ptr<pointee[, address_space]>``.

    ``address_space`` is the text of the second parameter as written (``"1"``,
    ``'"constant"'``) or ``None`` when absent (Triton's default, global memory).
    """

    pointee: Type
    address_space: Optional[str] = None

    def __str__(self) -> str:
        if self.address_space is None:
            return f"!tt.ptr<{self.pointee}>"
        return f"!tt.ptr<{self.pointee}, {self.address_space}>"

    __repr__ = __str__


Dim = Optional[int]  # None for a dynamic dimension (`?`)


@records.frozen(repr=False)
class RankedTensorType(Type):
    """``tensor<d0 x d1 x ... x element[, encoding]>``; ``encoding`` is attribute text or None."""

    shape: Tuple[Dim, ...]
    element: Type
    encoding: Optional[str] = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self) -> str:
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        enc = f", {self.encoding}" if self.encoding is not None else ""
        return f"tensor<{dims}{self.element}{enc}>"

    __repr__ = __str__


@records.frozen(repr=False)
class FunctionType(Type):
    """``(inputs) -> results``, as in generic op signatures and ``tt.func`` types."""

    inputs: Tuple[Type, ...]
    results: Tuple[Type, ...]

    def __str__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({ins}) -> {self.results[0]}"
        return f"({ins}) -> ({', '.join(map(str, self.results))})"

    __repr__ = __str__


@records.frozen(repr=False)
class OpaqueType(Type):
    """Any other type, kept as the exact text it was written with."""

    text: str

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


# Frequently used instances.
I1 = IntegerType(1)
I8 = IntegerType(8)
I16 = IntegerType(16)
I32 = IntegerType(32)
I64 = IntegerType(64)
UI64 = IntegerType(64, "u")
F16 = FloatType("f16")
BF16 = FloatType("bf16")
F32 = FloatType("f32")
F64 = FloatType("f64")

ShapedOrScalar = Union[RankedTensorType, Type]


def is_integer(t: Type, width: Optional[int] = None) -> bool:
    """True when ``t`` is an integer type (of ``width`` bits, when given)."""
    return isinstance(t, IntegerType) and (width is None or t.width == width)


def is_scalar_pointer(t: Type) -> bool:
    """True for ``!tt.ptr<T>`` (not a tensor of pointers)."""
    return isinstance(t, PointerType)
