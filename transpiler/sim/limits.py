"""The simulator's bound on memory, checked before anything is allocated (issue 31, item 4)."""

from __future__ import annotations

import math
from typing import Sequence

from .errors import UsageError
from .memory import ALIGN

#: all ranks' heaps together (issue 31, item 4: refused before allocating).  A run's peak is about
#: twice its heaps (issue 33), so 8 GiB of heaps fits a 24 GiB machine with room to spare.
MAX_HEAP_BYTES = 8 << 30

#: what the simulator keeps per rank beside its heap (memory, queues, clocks, initial copies), counted
#: against ``MAX_HEAP_BYTES`` too, so that many ranks of tiny heaps are refused as well (measured: about
#: 5 KiB per rank at 20 000 ranks of 1-element buffers; 16 KiB leaves room for programs and findings).
RANK_BYTES = 16 << 10


def heap_bytes(sizes: Sequence[int]) -> int:
    """One rank's heap size in bytes for buffers of ``sizes`` bytes, each aligned to ``ALIGN``."""
    return max(sum(-(-max(n, 1) // ALIGN) * ALIGN for n in sizes), ALIGN)


def check_heaps(ranks: int, sizes: Sequence[int] = ()) -> None:
    """Raise :class:`UsageError` when ``ranks`` heaps of buffers of ``sizes`` bytes, each with
    ``RANK_BYTES`` of bookkeeping, exceed ``MAX_HEAP_BYTES`` together (checked before anything is
    allocated, and with no ``sizes`` before anything per rank is built; issue 31, item 4)."""
    per_rank = (heap_bytes(sizes) if sizes else 0) + RANK_BYTES
    total = ranks * per_rank
    if total > MAX_HEAP_BYTES:
        what = (f"{heap_bytes(sizes):,} heap + " if sizes else "") + f"{RANK_BYTES:,} bookkeeping bytes"
        raise UsageError(f"{ranks} ranks x {what} = {total:,} bytes, over the limit of "
                         f"{MAX_HEAP_BYTES:,} bytes: use fewer ranks or smaller buffers")


#: programs alive at once on all ranks: each is about 650 bytes (its generator and frame; measured
#: 131 MB for 200 000 programs of a one-op kernel), so this bounds them near 2.7 GB.  Without it a
#: ``--grid 10000000`` built every program (13 GB) before ``--max-ops`` counted anything
#: (attack of session 42).
MAX_PROGRAMS = 1 << 22


def check_programs(count: int, ranks: int) -> None:
    """Raise :class:`UsageError` when ``count`` programs per rank on ``ranks`` ranks (a launch's
    grid times its sub-blocks) would be more than :data:`MAX_PROGRAMS` alive at once."""
    if count * ranks > MAX_PROGRAMS:
        raise UsageError(f"{ranks} ranks x {count:,} programs = {count * ranks:,} programs at once, over the limit of "
                         f"{MAX_PROGRAMS:,}: use a smaller grid")


#: elements of one tensor value: 2^27 (512 MiB of f32, 1 GiB of pointers, which the simulator keeps
#: as int64 offsets).  Without it ``tt.make_range`` to 2^30 or a ``dense`` splat of 65536x65536
#: allocated gigabytes per program before anything was checked (attack of session 43).
MAX_VALUE_ELEMENTS = 1 << 27


def value_too_big(t) -> str:
    """What is wrong with a value of type ``t`` (a message), or "" when it fits
    :data:`MAX_VALUE_ELEMENTS`; a dynamic dimension (``?``) is not counted."""
    shape = getattr(t, "shape", None)
    if not shape or any(d is None for d in shape):
        return ""
    count = math.prod(shape)
    if count <= MAX_VALUE_ELEMENTS:
        return ""
    return (f"a value of {t} has {count:,} elements, over the simulator's limit of {MAX_VALUE_ELEMENTS:,} "
            f"per tensor")
