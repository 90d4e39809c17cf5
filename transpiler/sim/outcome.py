"""The final memory of a run (:class:`Outcome`) and the comparison of two (:func:`first_difference`:
bit for bit, SPEC.md section 7, "Comparison"), for the schedule check and ``--check-lowering``."""

from __future__ import annotations

from typing import Dict, List, Optional

import attrs
import numpy as np


@attrs.define
class Outcome:
    """The final memory of one schedule: ``buffers[r][name]`` as in :class:`~.run.SimResult`, and
    ``loose[r][name]`` (or None), the elements last written by a float atomic add."""

    seed: int
    buffers: List[Dict[str, np.ndarray]]
    loose: Optional[List[Optional[Dict[str, np.ndarray]]]] = None

    @classmethod
    def of(cls, seed: int, run) -> "Outcome":
        """The outcome of the finished ``run`` under schedule ``seed``."""
        m = run.memory
        loose = None
        if m.loose is not None:  # per buffer of each rank, the elements a float atomic add wrote last
            loose = [{name: m.loose[r * m.heap_size + b.offset:][: b.count * b.dtype.itemsize : b.dtype.itemsize].copy()
                      for name, b in m.buffers.items()} for r in range(m.ranks)]
        return cls(seed, [m.buffers_of(r) for r in range(m.ranks)], loose)


@attrs.frozen
class Fingerprint:
    """What is kept of an :class:`Outcome` to compare later ones with it, without its memory:
    a digest of each buffer's bytes per rank (issue 33: the outcomes held for the schedule and
    lowering comparisons kept two heaps alive each, 4 of a check's peak of about 5 heaps).  Equal
    digests mean the same bits; different ones, that the run must be repeated (it is
    deterministic) for the element that differs."""

    seed: int
    digests: tuple

    @classmethod
    def of(cls, outcome: Outcome) -> "Fingerprint":
        return cls(outcome.seed, _digests(outcome))

    def matches(self, outcome: Outcome) -> bool:
        """Whether ``outcome`` holds the same bits in every buffer of every rank."""
        return _digests(outcome) == self.digests


def kept(outcome: Outcome):
    """What a comparison needs of ``outcome`` later: its :class:`Fingerprint`, or the outcome itself
    when a float atomic add wrote some element last (those compare within a tolerance, which no
    digest can)."""
    return outcome if outcome.loose is not None else Fingerprint.of(outcome)


def same(kept_outcome, outcome: Outcome) -> bool:
    """Whether ``outcome`` equals what :func:`kept` returned, as :func:`first_difference` compares."""
    if isinstance(kept_outcome, Fingerprint):
        return outcome.loose is None and kept_outcome.matches(outcome)
    return first_difference(kept_outcome, outcome) is None


def _digests(outcome: Outcome) -> tuple:
    import hashlib

    out = []
    for buffers in outcome.buffers:
        rank = []
        for name, a in buffers.items():
            h = hashlib.blake2b(digest_size=16)
            h.update(np.ascontiguousarray(a).view(np.uint8).data)
            rank.append((name, str(a.dtype), a.shape, h.digest()))
        out.append(tuple(rank))
    return tuple(out)


def tolerance(dtype: np.dtype) -> float:
    """The relative and absolute tolerance of comparisons against an outside reference, and of
    elements last written by a float atomic add (SPEC.md section 7: their order is the
    schedule's): 1e-2 for 8-bit floats, 4e-3 for 16-bit, 1e-5 for wider."""
    if dtype.kind not in "fV" and "float" not in dtype.name:
        return 0.0
    return {1: 1e-1, 2: 4e-3}.get(dtype.itemsize, 1e-5)


def _loose(o, r: int, name: str):
    if isinstance(o, Outcome) and o.loose is not None and o.loose[r] is not None:
        return o.loose[r][name]
    return None


def first_difference(a, b):
    """``(rank, buffer, index, value in a, value in b)`` of the first element that differs, or None.

    ``a`` and ``b`` are :class:`Outcome` s, or lists (one per rank) of buffers by name.  Elements
    are compared bit for bit (SPEC.md section 7: the simulator sums in one fixed order), except
    elements either run last wrote by a float atomic add, compared within :func:`tolerance`
    (NaN equal to NaN)."""
    for r, (ra, rb) in enumerate(zip(_buffers(a), _buffers(b))):
        for name, x in ra.items():
            y = rb[name]
            x1, y1 = x.reshape(-1), y.reshape(-1)
            differ = np.flatnonzero(~_same_bits(x1, y1))  # the common case, none, costs one pass
            if not differ.size:
                continue
            la, lb = _loose(a, r, name), _loose(b, r, name)
            if (la is not None or lb is not None) and tolerance(x.dtype):
                near = (la if lb is None else lb if la is None else la | lb).reshape(-1)[differ]
                xf, yf = x1[differ].astype(np.float64), y1[differ].astype(np.float64)
                close = np.isclose(xf, yf, rtol=tolerance(x.dtype), atol=tolerance(x.dtype), equal_nan=True)
                differ = differ[~(near & close)]
            if differ.size:
                i = int(differ[0])
                return r, name, i, x1[i], y1[i]
    return None


def _buffers(o) -> List[Dict[str, np.ndarray]]:
    return o.buffers if isinstance(o, Outcome) else o


def _same_bits(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per element: ``x`` and ``y`` have the same bytes (NaN payloads and the sign of 0 included)."""
    size = x.dtype.itemsize
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    if size in (1, 2, 4, 8):  # one unsigned integer per element: one comparison, no byte axis
        word = np.dtype(f"u{size}")
        return x.view(word) == y.view(word)
    xb = x.view(np.uint8).reshape(x.shape + (size,))
    yb = y.view(np.uint8).reshape(y.shape + (size,))
    return (xb == yb).all(-1)
