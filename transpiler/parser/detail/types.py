"""Type text to :mod:`transpiler.ir.types` objects, parsed once per distinct text (interned).

The same type text (``tensor<128x!tt.ptr<f32>>``) repeats thousands of times in a module; each
distinct text is parsed once with the ``type`` start rule of ``grammars/ttir.lark`` and the
result is shared (DESIGN.md, "types parsed once and interned").
"""

from __future__ import annotations

import re

from ...ir.types import FloatType, FunctionType, IndexType, IntegerType, NoneType, OpaqueType, PointerType, RankedTensorType, Type

_INT = re.compile(r"([su]?)i([1-9][0-9]*)\Z")
# MLIR's limit (IntegerType::kMaxWidth, 2**24 - 1), and its message when a type passes it
MAX_INTEGER_WIDTH = (1 << 24) - 1
# a dimension is an int64_t in MLIR
MAX_DIMENSION = (1 << 63) - 1
_FLOATS = {"bf16", "f16", "f32", "f64", "f80", "f128", "tf32"}
SHAPED_KEYWORD_BLANKS = re.compile(r"(tensor|vector|memref|tuple|complex)[ \t\r\n]+(?=<)")


class TypeSyntaxError(ValueError):
    """Type text that the grammar rejects; ``column`` is 1-based within the text."""

    def __init__(self, message: str, column: int = 1):
        super().__init__(message)
        self.column = column


def quick_type(text: str):
    """The type ``text`` spells when no grammar is needed: a builtin scalar (``i32``, ``f16``,
    ``index``, ``none``) or text kept opaque (``!dialect.x``, ``vector<...>``, ``memref<...>``);
    None when the grammar must read it (``!tt.ptr<...>``, ``tensor<...>``, a function type).

    Raises:
        TypeSyntaxError: ``text`` cannot start a type.
    """
    m = _INT.match(text)
    if m:
        if len(m.group(2)) > 8 or int(m.group(2)) > MAX_INTEGER_WIDTH:
            raise TypeSyntaxError(f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits")
        return IntegerType(int(m.group(2)), m.group(1))
    if text in _FLOATS or text.startswith(("f8E", "f6E", "f4E")):
        return FloatType(text)
    if text == "index":
        return IndexType()
    if text == "none":
        return NoneType()
    if text.startswith(("!tt.ptr<", "tensor<", "(")):
        return None
    if text.startswith(("!", "vector<", "memref<", "tuple<", "complex<")):
        return OpaqueType(text)
    raise TypeSyntaxError(f"expected a type, found '{text}'")


class TypeBuilder:
    """Parse-time callbacks of the ``type`` rules (mixed into the detail transformer).

    ``self.parse_type`` (the detail level's entry, :func:`transpiler.parser.detail.text.parse_type`,
    given to the builder when it is made) reads a type token's text.
    """

    def integer_type(self, c):
        return self.parse_type(str(c[0]))

    def float_type(self, c):
        return FloatType(str(c[0]))

    def index_type(self, c):
        return IndexType()

    def none_type(self, c):
        return NoneType()

    def tensor_type(self, c):
        dims = ()
        if c and getattr(c[0], "type", None) == "DIMS":
            dims = tuple(None if d.strip() == "?" else int(d) for d in str(c[0]).split("x")[:-1])
            if any(d is not None and d > MAX_DIMENSION for d in dims):
                raise TypeSyntaxError("invalid dimension: it does not fit in a 64-bit signed integer")
            c = c[1:]
        element = c[0]
        encoding = str(c[1]) if len(c) > 1 else None
        return RankedTensorType(dims, element, encoding)

    def unranked_tensor_type(self, c):
        return OpaqueType(f"tensor<*x{c[0]}>")

    def vector_type(self, c):
        """Kept as its text, so that an element type (``!tt.ptr<vector<4xf32>>``) prints as
        written (it printed the address of a placeholder object, attack of session 42)."""
        return OpaqueType(f"vector<{c[0]}{c[1]}>")

    def pointer_type(self, c):
        """``!tt.ptr<T[, space]>``: an integer address space as Triton prints it (decimal), and
        none for 1, Triton's default (``PointerType``'s ``addressSpace = 1``, printed only when
        it is not 1), so ``!tt.ptr<f32, 1>`` is ``!tt.ptr<f32>`` as it is to triton-adapter-opt."""
        space = str(c[1]) if len(c) > 1 else None
        if space is not None and space[0] != '"':
            number = int(space, 16) if "x" in space else int(space)  # `0x1`, `+1`, `01`
            space = None if number == 1 else str(number)
        return PointerType(c[0], space)

    def opaque_type(self, c):
        return OpaqueType(str(c[0]))

    def type_list(self, c):
        return [t for t in c if isinstance(t, Type)]

    def function_type_text(self, c):
        inputs = c[0]
        results = c[1] if isinstance(c[1], list) else [c[1]]
        return FunctionType(tuple(inputs), tuple(results))
