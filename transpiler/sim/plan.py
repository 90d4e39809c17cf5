"""A run as data (SPEC.md section 7, ``--plan`` and the Python API).

    Plan(ranks=4,
         buffers={"x": "random(1024, f32)", "sig": "zeros(64, i32)", "out": "zeros(4096, f32)"},
         steps=[[Launch(ranks=[0, 1, 2, 3], module=text, function="allgather_push_kernel", grid=(4,),
                        args={"local_ptr": "x", "signal_ptr": "sig", "out_ptr": "out", "n_per_rank": 1024})]])

* ``buffers``: name -> VALUE, allocated in the order given, at the same offset in every heap:
  ``zeros(N, T)``, ``ones(N, T)``, ``arange(N, T)``, ``full(N, V, T)``, ``random(N, T)``
  (``numpy.random.default_rng(seed)``: floats uniform in [0, 1), integers in [0, 100)),
  ``rank(N, T)`` (every element the rank's number), ``FILE.npy`` (``{rank}``: one file per rank),
  a numpy array (every rank the same) or a list of arrays (one per rank).
* a step is a list of actions: :class:`Launch` (module text or parsed module, function, grid,
  arguments) and :class:`Fill` (host writes of buffers); the actions that name a rank run on it
  in the order written.
* a launch argument is a buffer name (a pointer to it), a number, ``"rank"`` or a list with one
  value per rank of the launch.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import attrs
import numpy as np

from .dtypes import dtype_named
from .errors import UsageError


@attrs.define
class Launch:
    """A launch on ``ranks`` of ``function`` of ``module`` (TTIR text, lowered text, or a module
    parsed by :func:`transpiler.parser.parse_module`) over ``grid`` programs with ``args``
    (argument SSA name without ``%``, or ``#i``, -> value).  ``filename`` names text in diagnostics.
    ``ranks`` left out: every rank of the plan; ``module`` may also be a file's path (its text is
    read, ``filename`` is the path)."""

    ranks: Optional[Sequence[int]] = None
    module: Any = None
    function: Optional[str] = None
    grid: Sequence[int] = (1,)
    args: Dict[str, Any] = attrs.Factory(dict)
    filename: str = "<kernel>"


@attrs.define
class Fill:
    """Host writes on ``ranks``: buffer name -> VALUE (as for ``Plan.buffers``; the element type
    may be left out: the buffer's)."""

    ranks: Optional[Sequence[int]] = None
    values: Dict[str, Any] = attrs.Factory(dict)


@attrs.define
class Plan:
    """``ranks`` ranks, ``teams`` ``[(start, stride, size)]`` (handle k + 1 for entry k),
    ``buffers`` name -> VALUE, ``steps``: lists of :class:`Launch` / :class:`Fill` (a bare action
    is a step of its own).  A VALUE may leave out its element type when the buffer is passed to
    a pointer argument: the pointee's, as ``ttd-sim --arg`` infers it.  ``origin``: the file a
    loaded plan came from (``plan_schema.PlanSource``: errors are located in it)."""

    ranks: int
    buffers: Dict[str, Any] = attrs.Factory(dict)
    steps: List[Union[List[Union[Launch, Fill]], Launch, Fill]] = attrs.Factory(list)
    teams: List[Tuple[int, int, int]] = attrs.Factory(list)
    base_dir: str = "."
    origin: Any = attrs.field(default=None, repr=False, eq=False)


_CALL = re.compile(r"\s*(zeros|ones|arange|full|random|rank)\s*\((.*)\)\s*\Z")


@attrs.frozen
class BufferValue:
    """A parsed VALUE: ``kind`` (zeros, ones, arange, full, random, rank, npy, array), element
    count ``n``, ``dtype``, ``fill`` (for ``full``), ``path`` (``npy``) or ``arrays`` (per rank)."""

    kind: str
    n: int
    dtype: np.dtype
    fill: Union[int, float] = 0
    path: str = ""
    arrays: Optional[tuple] = None

    def materialize(self, rank: int, rng: np.random.Generator) -> np.ndarray:
        """Rank ``rank``'s array (``rng`` draws ``random``); a constant (``zeros``, ``ones``,
        ``full``, ``rank``) is a read-only broadcast of its one element (numpy stride 0)."""
        d = self.dtype
        constant = {"zeros": 0, "ones": 1, "full": self.fill, "rank": rank}
        if self.kind in constant:  # one element seen n times: no memory per element (read-only)
            return np.broadcast_to(np.array(constant[self.kind]).astype(d), (self.n,))
        if self.kind == "arange":
            return np.arange(self.n).astype(d)
        if self.kind == "random":
            if d.kind in "iu":
                return rng.integers(0, 100, self.n).astype(d)
            return rng.random(self.n).astype(d)
        arrays = self.arrays if self.arrays is not None else (np.load(self.path.replace("{rank}", str(rank))),)
        return np.ascontiguousarray(arrays[rank] if len(arrays) > 1 else arrays[0])


def _fill(text: str, dtype: np.dtype):
    """``full``'s value: exact for an integer ``dtype`` (in its range, no fraction), else a float.

    Raises:
        ValueError: not a number; a fraction or out of range for an integer type.
    """
    from .arguments import scalar_value

    try:
        value = float(text) if dtype.kind not in "biu" else int(text, 0)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise ValueError("not a number") from None
    return value if dtype.kind not in "biu" else int(scalar_value(value, dtype, text))


def parse_value(value, dtype: Optional[np.dtype] = None, base_dir: str = ".", ranks: int = 1) -> BufferValue:
    """A VALUE as a :class:`BufferValue`; ``dtype`` is the element type when the text has none.

    Raises:
        UsageError: a malformed VALUE, a missing element type, a file that cannot be read.
    """
    if isinstance(value, BufferValue):
        return value
    if isinstance(value, np.ndarray):
        return BufferValue("array", value.size, value.dtype, arrays=(value.ravel(),))
    if isinstance(value, (list, tuple)) and value and all(isinstance(a, np.ndarray) for a in value):
        if len(value) != ranks:
            raise UsageError(f"{len(value)} arrays given for {ranks} ranks")
        sizes = {a.nbytes for a in value}
        if len(sizes) != 1:
            raise UsageError("every rank's copy of a buffer must have the same size in bytes")
        return BufferValue("array", value[0].size, value[0].dtype, arrays=tuple(a.ravel() for a in value))
    if not isinstance(value, str):
        raise UsageError(f"a buffer value must be text such as 'zeros(16, i32)' or numpy arrays, not {value!r}")
    text = value.strip()
    if text.endswith(".npy"):
        path = text if os.path.isabs(text) else os.path.join(base_dir, text)
        try:
            first = np.load(path.replace("{rank}", "0"))
            sizes = {np.load(path.replace("{rank}", str(r))).nbytes for r in range(ranks)} if "{rank}" in path else {first.nbytes}
        except (OSError, ValueError) as e:
            raise UsageError(f"cannot read {path}: {e}") from None
        if len(sizes) != 1:
            raise UsageError(f"{text}: every rank's copy of a buffer must have the same size in bytes")
        return BufferValue("npy", first.size, first.dtype, path=path)
    m = _CALL.match(text)
    if m is None:
        raise UsageError(f"'{text}' is not a buffer value (zeros(N), ones(N), arange(N), full(N,V), random(N), "
                         f"rank(N) or FILE.npy; an element type as last argument, e.g. zeros(N, i32), where the "
                         f"buffer is passed to no pointer argument)")
    kind, inner = m.group(1), [s.strip() for s in m.group(2).split(",") if s.strip()]
    want = 2 if kind == "full" else 1
    if len(inner) == want + 1:
        try:
            dtype = dtype_named(inner[-1])
        except ValueError as e:
            raise UsageError(f"'{text}': {e}") from None
        inner = inner[:-1]
    if len(inner) != want:
        raise UsageError(f"'{text}': {kind} takes {want} number{'s' if want > 1 else ''} and an element type")
    if dtype is None:
        raise UsageError(f"'{text}' needs its element type as last argument, e.g. {kind}({', '.join(inner)}, f32)")
    try:
        n = int(inner[0])
    except ValueError:
        raise UsageError(f"'{text}': not a number") from None
    try:
        fill = _fill(inner[1], np.dtype(dtype)) if kind == "full" else 0
    except ValueError as e:
        raise UsageError(f"'{text}': {e}") from None
    if n < 0:
        raise UsageError(f"'{text}': a negative element count")
    _check_range(kind, n, fill, np.dtype(dtype), text, ranks)
    return BufferValue(kind, n, np.dtype(dtype), fill=fill)


def _check_range(kind: str, n: int, fill, dtype: np.dtype, text: str, ranks: int = 1) -> None:
    """Refuse an ``arange`` whose last element, a ``rank`` whose last rank, or a ``full`` whose
    float value, the element type cannot hold: ``arange(300, i8)`` wrapped and ``full(4, 1e40, f16)``
    became inf with numpy's raw RuntimeWarning (attack of session 42), where ``full(4, -1, ui8)``
    was already refused.  An integer type holds what ``full`` takes (:func:`.arguments.int_in_range`:
    MLIR's integers are signless, ``i8`` takes -128 to 255); a float type, for ``rank``, each rank
    exactly (``rank(4, f16)`` of 4096 ranks rounded 2049 to 2048; attack of session 43).

    Raises:
        UsageError: naming the value and the type's largest one.
    """
    import ml_dtypes

    from .arguments import int_in_range

    top = {"arange": n - 1, "rank": ranks - 1}.get(kind)
    if top is not None and n > 0 and dtype.kind in "iu":
        try:
            int_in_range(top, dtype)
        except ValueError as e:
            what = "its last element" if kind == "arange" else "the last rank"
            raise UsageError(f"'{text}': {what} {e}") from None
    if kind == "arange" and n > 0 and dtype.kind == "f":
        largest = float(ml_dtypes.finfo(dtype).max)
        if top > largest:
            raise UsageError(f"'{text}': its last element {top} is outside {dtype.name} (largest {largest:g})")
    if kind == "rank" and dtype.kind not in "biu" and int(np.array(top).astype(dtype).astype(np.float64)) != top:
        raise UsageError(f"'{text}': rank {top} of {ranks} ranks is not exact in {dtype.name}")
    if kind == "full" and dtype.kind not in "biu":
        largest = float(ml_dtypes.finfo(dtype).max)
        if np.isfinite(fill) and abs(fill) > largest:
            raise UsageError(f"'{text}': {fill} is outside {dtype.name} (largest {largest:g})")
