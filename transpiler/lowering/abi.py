"""The ABI part of the link check: a custom op's operands against the C signature of its symbol
(SPEC.md section 5).

Each symbol list line holds the wrapper's C signature (``int _mlir_ciface_aclshmem_wait_int32(
memref_t<__gm__ int32_t, 1> barrierPtr, int64_t numBarriers, int32_t waitVal)``).
:func:`parse_signature` reads it into parameter kinds; :func:`match_operands` compares it with
the custom op's operands and results:

* the parameter count must match; a result returned through an out-parameter (a ``void``
  function whose first parameters are pointers) counts as the op's result;
* pointer and memref parameters, by value or by pointer, match any pointer operand (scalar
  ``!tt.ptr`` or tensor of pointers); element types are not compared;
* scalar integers compare by width, signedness ignored (``int``, ``int32_t``, ``uint32_t`` are 32
  bits); a wider parameter is reached by extending the operand (the lowering inserts
  ``arith.extsi`` or an i64 constant), a narrower one is an error;
* types the sources do not define (``aclshmem_team_t``) are not compared;
* a tensor of numbers fits a ``memref_t`` parameter only (its buffer once bufferized), no scalar;
* a result is compared as an operand is, with the return type or its out-parameter (a
  ``memref_t`` pointer: a pointer or tensor result) (``aclshmem_my_pe -> tensor<4xi32>`` and
  ``aclshmem_ptr -> i32`` lowered; attack of session 42).
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

from .. import records
from ..ir.types import FloatType, IntegerType, PointerType, RankedTensorType, Type

INT_WIDTHS = {"char": 8, "signed char": 8, "unsigned char": 8, "bool": 8, "short": 16, "unsigned short": 16,
              "int": 32, "unsigned": 32, "unsigned int": 32, "long": 64, "unsigned long": 64, "long long": 64,
              "unsigned long long": 64, "size_t": 64}
FLOATS = frozenset({"half", "float", "double", "bfloat16_t"})
_STDINT = re.compile(r"u?int(8|16|32|64)_t$")
INTEGER, POINTER, FLOAT, OPAQUE, VOID = "integer", "pointer", "float", "opaque", "void"
# the kind of an op's tensor of numbers: only a memref parameter takes one, which is the
# tensor's buffer once bufferized (a tensor of pointers is a pointer operand, SPEC.md section 5)
TENSOR = "tensor"


@records.frozen
class CParam:
    """One parameter (or the return value, ``name`` ""): its C spelling and its kind
    (integer, pointer, float, opaque or void); ``width`` for integers."""

    name: str
    spelling: str
    kind: str
    width: Optional[int] = None

    def describe(self) -> str:
        """``int64_t (64 bits)`` for integers, the C spelling otherwise (for messages)."""
        return f"{self.spelling} ({self.width} bits)" if self.kind == INTEGER else self.spelling


@records.frozen
class CSignature:
    """``returns`` and ``params`` of one wrapper; ``text`` is the signature as listed."""

    returns: CParam
    params: Tuple[CParam, ...]
    text: str


class AbiMismatch(ValueError):
    """The op's operands do not fit the signature (the message names the symbol, the parameter
    and both types)."""


def _classify(spelling: str, name: str) -> CParam:
    text = " ".join(spelling.replace("const ", " ").replace("volatile ", " ").split())
    if "*" in text or text.startswith("memref_t<"):
        return CParam(name, spelling, POINTER)
    base = text.replace("__gm__ ", "")
    if base == "void":
        return CParam(name, spelling, VOID)
    m = _STDINT.match(base)
    if m:
        return CParam(name, spelling, INTEGER, int(m.group(1)))
    if base in INT_WIDTHS:
        return CParam(name, spelling, INTEGER, INT_WIDTHS[base])
    if base in FLOATS:
        return CParam(name, spelling, FLOAT)
    return CParam(name, spelling, OPAQUE)  # aclshmem_team_t and other types the sources do not define


def _split_params(text: str) -> List[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "<("
        depth -= ch in ">)"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip() and p.strip() != "void"]


def parse_signature(text: str, function: str) -> CSignature:
    """The signature of ``function`` (``_mlir_ciface_<symbol>``) in ``text``; an unreadable one
    has no parameters of known kinds (an opaque return) so that nothing is compared wrongly.

    Raises:
        ValueError: ``text`` does not declare ``function``.
    """
    at = text.find(function + "(")
    if at < 0:
        raise ValueError(f"the signature does not declare {function}: {text}")
    returns = _classify(text[:at].strip(), "")
    inner = text[at + len(function) + 1 : text.rindex(")")]
    params = []
    for i, part in enumerate(_split_params(inner)):
        m = re.match(r"(.*?)([A-Za-z_]\w*)$", part)
        spelling, name = (m.group(1).strip(), m.group(2)) if m and m.group(1).strip() else (part, f"#{i}")
        params.append(_classify(spelling, name))
    return CSignature(returns, tuple(params), text)


def _kind(t: Type) -> str:
    if isinstance(t, PointerType) or (isinstance(t, RankedTensorType) and isinstance(t.element, PointerType)):
        return POINTER
    if isinstance(t, RankedTensorType):
        return TENSOR
    if isinstance(t, IntegerType):
        return INTEGER
    if isinstance(t, FloatType):
        return FLOAT
    if str(t).startswith("memref<"):
        return POINTER
    return OPAQUE


def _check(symbol: str, library: str, param: CParam, t: Type, what: str) -> Optional[int]:
    """None when ``t`` fits ``param``; the wider width to extend an integer operand to."""
    kind = _kind(t)
    if OPAQUE in (param.kind, kind):
        return None
    if kind == TENSOR and param.kind == POINTER and _is_memref(param):
        return None  # a tensor is a memref once bufferized (``ins`` / ``outs`` of hivm.hir.custom)
    if param.kind != kind:
        raise AbiMismatch(f"{what} has type {t}, but {_where(symbol, library, param)} is {param.describe()}")
    if kind != INTEGER or param.width == t.width:
        return None
    if param.width > t.width and what.startswith("operand"):
        return param.width
    raise AbiMismatch(f"{what} has type {t} ({t.width} bits), but {_where(symbol, library, param)} is "
                      f"{param.describe()}: "
                      + ("a narrower parameter would truncate it" if param.width < t.width else
                         "the widths differ"))


def _check_out(symbol: str, library: str, param: CParam, t: Type, what: str) -> None:
    """A result ``t`` written through the out-parameter ``param``: a ``memref_t`` one holds a
    pointer or a tensor; a ``T *`` one a value of ``T`` (compared as a return value) or a pointer."""
    kind = _kind(t)
    if OPAQUE in (param.kind, kind):
        return
    if _is_memref(param):
        if kind not in (POINTER, TENSOR):
            raise AbiMismatch(f"{what} has type {t}, but {_where(symbol, library, param)} is {param.describe()}, "
                              f"which holds a pointer or a tensor")
        return
    if kind != POINTER:
        pointee = _classify(param.spelling.rstrip().rstrip("*").replace("__gm__", " "), param.name)
        _check(symbol, library, pointee, t, what)


def _is_memref(param: CParam) -> bool:
    return param.spelling.replace("const ", "").lstrip().startswith("memref_t<")


def _where(symbol: str, library: str, param: CParam) -> str:
    if not param.name:
        return f"the return type of {symbol} in the {library} device library"
    return f"parameter '{param.name}' of {symbol} in the {library} device library"


def match_operands(symbol: str, library: str, signature: CSignature, operand_types: Sequence[Type],
                   result_types: Sequence[Type]) -> List[Optional[int]]:
    """For each operand, None or the integer width it must be extended to (SPEC.md section 5).

    Raises:
        AbiMismatch: a different parameter count, a narrower parameter, a pointer where an
            integer is expected (or the reverse), a result the function cannot return.
    """
    params = list(signature.params)
    returns = signature.returns
    if result_types and returns.kind == VOID:  # results through out-parameters
        outs, params = params[: len(result_types)], params[len(result_types):]
        if len(outs) < len(result_types) or any(p.kind not in (POINTER, OPAQUE) for p in outs):
            raise AbiMismatch(f"{symbol} returns void in the {library} device library and has no out-parameter "
                              f"for the op's result ({signature.text})")
        for i, (p, t) in enumerate(zip(outs, result_types)):
            _check_out(symbol, library, p, t, "the result" if len(result_types) == 1 else f"result {i}")
    elif len(result_types) > 1:
        raise AbiMismatch(f"the op has {len(result_types)} results, but {symbol} returns one value in the "
                          f"{library} device library ({signature.text})")
    elif result_types:
        _check(symbol, library, returns, result_types[0], f"the result")
    if len(params) != len(operand_types):
        raise AbiMismatch(f"{symbol} takes {len(params)} parameter{'s' * (len(params) != 1)} in the {library} device "
                          f"library ({signature.text}), but the op passes {len(operand_types)} "
                          f"operand{'s' * (len(operand_types) != 1)}")
    return [_check(symbol, library, p, t, f"operand {i} ({p.name})") for i, (p, t) in
            enumerate(zip(params, operand_types))]
