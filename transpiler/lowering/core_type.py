"""Core-type inference (``hivm.tcore_type``), SPEC.md section 2.3 (seed ``000_...``, newest rule).

* :func:`exist_dot` - is there a ``tt.dot`` / ``tt.dot_scaled`` anywhere in the module.
* :func:`core_type` - the core type of one op: the six core ops take
  ``existDot ? CUBE_AND_VECTOR : VECTOR``; an ``extern_call`` takes its
  ``distributed.core_type`` annotation; without one it is an error unless the opt-in
  symbol-table fallback (seed ``002_...`` section 3.4) is enabled.
"""

from __future__ import annotations

from typing import Iterable, Optional

CUBE = "CUBE"
VECTOR = "VECTOR"
CUBE_AND_VECTOR = "CUBE_AND_VECTOR"

DOT_OPS = frozenset({"tt.dot", "tt.dot_scaled"})
ANNOTATION = "distributed.core_type"
FALLBACK_OPTION = "--core-type-fallback=symbol-table"

_ANNOTATED = {"cube": CUBE, "vector": VECTOR, "cube_and_vector": CUBE_AND_VECTOR}
_INFERRED = "cube_or_vector"

# seed 002 section 3.4 / SPEC.md section 2.3: barriers exist in both halves of a mixed kernel
_BARRIERS_BOTH = frozenset({"aclshmem_barrier_all", "aclshmem_barrier"})
_BARRIERS_VECTOR = frozenset({"aclshmemx_barrier_all_vec", "aclshmemx_barrier_vec"})


class CoreTypeError(ValueError):
    """An extern_call whose core type cannot be decided (missing or invalid annotation)."""


def exist_dot(op_names: Iterable[str]) -> bool:
    """True when any op of the module is a dot (the kernel then has cube work)."""
    return any(name in DOT_OPS for name in op_names)


def inferred(has_dot: bool) -> str:
    """The rule for the six core ops and ``cube_or_vector``: mixed kernel or pure vector."""
    return CUBE_AND_VECTOR if has_dot else VECTOR


def is_rma_symbol(symbol: str) -> bool:
    """RMA symbols (get/put, ``_nbi``, ``putmem_signal``): vector cores only."""
    return "getmem" in symbol or "putmem" in symbol or symbol.endswith("_nbi")


def annotation_for_symbol(symbol: str) -> str:
    """The ``distributed.core_type`` the frontend writes on an extern_call of ``symbol``
    (SPEC.md section 2.3): barriers of both halves ``cube_and_vector``, vector barriers and RMA
    ``vector``, everything else ``cube_or_vector`` (decided by ``existDot`` at lowering)."""
    if symbol in _BARRIERS_BOTH:
        return "cube_and_vector"
    if symbol in _BARRIERS_VECTOR or is_rma_symbol(symbol):
        return "vector"
    return _INFERRED


def from_symbol_table(symbol: str, has_dot: bool) -> str:
    """The legacy rule for unannotated extern_calls (``--core-type-fallback=symbol-table``):
    the frontend's annotation of the symbol, applied."""
    return extern_call_core_type(annotation_for_symbol(symbol), symbol, has_dot)


def extern_call_core_type(annotation: Optional[str], symbol: str, has_dot: bool, fallback: bool = False) -> str:
    """Core type of an extern_call from its ``distributed.core_type`` string (None if absent).

    Raises:
        CoreTypeError: the annotation is absent (and ``fallback`` is off) or not one of
            cube, vector, cube_and_vector, cube_or_vector.
    """
    if annotation is None:
        if fallback:
            return from_symbol_table(symbol, has_dot)
        raise CoreTypeError(
            f"extern_call '{symbol}' has no '{ANNOTATION}' attribute, so its core type is unknown; "
            f"annotate it (cube, vector, cube_and_vector or cube_or_vector) or, for IR from older "
            f"frontends, pass {FALLBACK_OPTION} (core_type_fallback=True in the Python API)"
        )
    if annotation == _INFERRED:
        return inferred(has_dot)
    if annotation in _ANNOTATED:
        return _ANNOTATED[annotation]
    raise CoreTypeError(
        f"extern_call '{symbol}' has an invalid '{ANNOTATION}' value \"{annotation}\" "
        f"(expected cube, vector, cube_and_vector or cube_or_vector)"
    )
