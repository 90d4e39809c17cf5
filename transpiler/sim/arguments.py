"""A launch's function and arguments resolved against its kernel (SPEC.md section 7): each
error a :class:`UsageError` with the key path of the plan's value (``steps[0][0].args.n``)."""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Tuple

import numpy as np

from .dtypes import dtype_of, is_pointer, pointee, wrap_int
from .errors import UsageError


def function_of(c, name: Optional[str], at=()):
    """The compiled function ``name`` of compiler ``c`` (default: its only public one)."""
    if name is None:
        public = c.public_functions()
        if len(public) != 1:
            raise UsageError(f"the module has {len(public)} public functions ({', '.join(public)}): name one "
                             f"(--function)", at + ("function",) if at else None)
        name = public[0]
    if name not in c.functions:
        raise UsageError(f"the module has no function @{name} (it has {', '.join(c.functions)})",
                         at + ("function",) if at else None)
    return c.function(name)


def _positions(fn, given: Dict, at) -> Dict[int, object]:
    names = {a.name.lstrip("%"): i for i, a in enumerate(fn.arguments)}
    by_position = {}
    for key, v in given.items():
        pos = int(key[1:]) if str(key).startswith("#") and str(key)[1:].isdigit() else names.get(key)
        if pos is None or pos >= len(fn.arguments):
            import difflib

            near = difflib.get_close_matches(str(key), list(names), n=1)
            e = UsageError(f"@{fn.name} has no argument '{key}'" + (f" (did you mean '{near[0]}'?)" if near else "")
                           + f"; it has {', '.join(names)}", at + ("args", key) if at else None)
            e.at_key = True
            raise e
        if pos in by_position:  # `n` and `#4` for one argument: the last one won (attack of session 43)
            label = fn.arguments[pos].name.lstrip("%") or f"#{pos}"
            raise UsageError(f"argument '{label}' of @{fn.name} is given twice (by name and as '#{pos}')",
                             at + ("args", key) if at else None)
        by_position[pos] = v
    return by_position


def _label_and_key(a, i: int, given: Dict):
    """Argument ``i`` (``a``)'s name as the user writes it, and the key of ``given`` naming it."""
    label = a.name.lstrip("%") if a.name else f"#{i}"
    return label, next((k for k in given if k in (label, f"#{i}")), label)


def pointer_dtypes(fn, given: Dict, at=()) -> List[Tuple[str, np.dtype, tuple, str]]:
    """``(buffer name, pointee type, key path of the argument, its name)`` for each pointer
    argument of ``fn`` that ``given`` passes a buffer to, in order: a buffer passed to two
    arguments is listed twice, so that both pointee types are checked (only its last use was,
    attack of session 43).  Pointees without a numpy type are left out."""
    out = []
    by_position = _positions(fn, given, at)
    for i, a in enumerate(fn.arguments):
        v = by_position.get(i)
        if is_pointer(a.type) and isinstance(v, str):
            label, key = _label_and_key(a, i, given)
            try:
                out.append((v, dtype_of(pointee(a.type)), at + ("args", key), label))
            except Exception:  # a pointee the simulator has no numpy type for: no inference
                continue
    return out


def check_pointees(values: Dict, uses: Dict[str, list]) -> None:
    """Raise :class:`UsageError` (at the argument) when a buffer's element type is not the
    pointee type of a pointer argument it is passed to: the kernel would read its bytes as
    another type (a ``rank(8, i32)`` buffer read through ``!tt.ptr<f32>`` is 1e-45, not 1).  Integers
    of one width pass for each other (``i32`` for ``ui32``: MLIR's integers are signless).
    ``uses``: buffer name -> ``[(pointee type, key path, argument name, function name)]``."""
    for name, v in values.items():
        for want, where, label, function in uses.get(name, ()):
            same_bits = v.dtype.kind in "biu" and want.kind in "biu" and v.dtype.itemsize == want.itemsize
            if v.dtype != want and not same_bits:  # i32 for ui32: the same bits, a signless reading
                raise UsageError(f"buffer '{name}' holds {dtype_name(v.dtype)}, but argument '{label}' of "
                                 f"@{function} points to {dtype_name(want)}: give the buffer that element "
                                 f"type (or leave it out)", where)


def scalar_value(v, dtype: np.dtype, shown: Optional[str] = None):
    """``v`` (a number) as a scalar of ``dtype``; an integer held as two's complement.  An
    integer type of width w takes -2**(w-1) .. 2**w - 1 (MLIR's integers are signless: either
    reading), ``ui<w>`` 0 .. 2**w - 1; ``shown`` is the value as the user wrote it, for messages.

    Raises:
        ValueError: what is wrong (NaN or a fraction for an integer type, a value out of its range).
    """
    if dtype.kind in "biu":
        if isinstance(v, (float, np.floating)) and math.isfinite(v) and v != int(v) or v != v:
            raise ValueError(f"expected an integer for {dtype_name(dtype)}, got {shown or v}")
        return int_in_range(v, dtype, shown)
    return dtype.type(v)


def int_in_range(v, dtype: np.dtype, shown: Optional[str] = None):
    """``v`` as a scalar of the integer ``dtype`` when it is in the type's range (see
    :func:`scalar_value`).

    Raises:
        ValueError: ``v`` outside the range, naming it.
    """
    bits = 1 if dtype.kind == "b" else dtype.itemsize * 8
    lo, hi = (0 if dtype.kind == "u" else -(1 << (bits - 1))), (1 << bits) - 1
    if not lo <= v <= hi:
        raise ValueError(f"{shown or v} is out of range for {dtype_name(dtype)} ({lo} to {hi})")
    return wrap_int(int(v), dtype)


def dtype_name(dtype: np.dtype) -> str:
    """``i32``, ``f16``, ... as MLIR spells the type (numpy's name for one it has no name for)."""
    from .dtypes import NAMES

    return next((n for n, d in NAMES.items() if d == dtype), dtype.name)


def arguments(fn, given: Dict, index: int, rank: int, n: int, buffers, at=()) -> list:
    """The values of ``fn``'s arguments for the ``index``-th of the launch's ``n`` ranks (rank ``rank``)."""
    values = []
    by_position = _positions(fn, given, at)
    for i, a in enumerate(fn.arguments):
        label, key = _label_and_key(a, i, given)
        where = at + ("args", key) if at else None
        if i not in by_position:
            raise UsageError(f"argument '{label}' of @{fn.name} is not given", at + ("args",) if at else None)
        v = by_position[i]
        if is_pointer(a.type):
            if not isinstance(v, str) or v not in buffers:
                raise UsageError(f"pointer argument '{label}' must name a buffer, not {v!r}", where)
            values.append(("buffer", v))
            continue
        if isinstance(v, (list, tuple)):
            if len(v) != n:
                raise UsageError(f"argument '{label}': {len(v)} values for {n} ranks", where)
            v = v[index]
        if isinstance(v, str) and v == "rank":
            v = rank
        if isinstance(v, str):
            raise UsageError(f"scalar argument '{label}' must be a number or 'rank', not {v!r}", where)
        try:
            values.append(("scalar", scalar_value(v, dtype_of(a.type))))
        except (TypeError, ValueError, OverflowError) as e:
            raise UsageError(f"argument '{label}': {e}", where) from None
    return values
