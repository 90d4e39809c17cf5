"""The simulator's bound on memory, checked before anything is allocated (issue 31, item 4)."""

from __future__ import annotations

from typing import Sequence

from .errors import UsageError
from .memory import ALIGN

#: all ranks' heaps together (issue 31, item 4: refused before allocating).  A run's peak is about
#: twice its heaps (issue 33), so 8 GiB of heaps fits a 24 GiB machine with room to spare.
MAX_HEAP_BYTES = 8 << 30


def heap_bytes(sizes: Sequence[int]) -> int:
    """One rank's heap size in bytes for buffers of ``sizes`` bytes, each aligned to ``ALIGN``."""
    return max(sum(-(-max(n, 1) // ALIGN) * ALIGN for n in sizes), ALIGN)


def check_heaps(ranks: int, sizes: Sequence[int]) -> None:
    """Raise :class:`UsageError` when ``ranks`` heaps of buffers of ``sizes`` bytes exceed
    ``MAX_HEAP_BYTES`` together (checked before anything is allocated; issue 31, item 4)."""
    total = ranks * heap_bytes(sizes)
    if total > MAX_HEAP_BYTES:
        raise UsageError(f"{ranks} ranks x {heap_bytes(sizes):,} heap bytes = {total:,} bytes, over the limit of "
                         f"{MAX_HEAP_BYTES:,} bytes: use fewer ranks or smaller buffers")
