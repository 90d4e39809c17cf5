"""Pausing Python's cyclic garbage collector while a module is compiled.

Parsing allocates one object per op, block and region and keeps all of them; the lowering and
the printers keep them too.  None of that is garbage, but the collector would walk the growing
heap again and again: measured on a 45k-line module, parsing was 1.8x slower with it running
and the time per line grew with the module (benchmarks/bench.py).
"""

from __future__ import annotations

import gc


class collector_paused:
    """``with collector_paused():`` disables the cyclic collector inside the block (re-enabled
    after, if it was on).  A class rather than a ``contextlib`` generator: it is entered three
    times a compile (API, driver, parser), and costs a fraction of the generator's setup."""

    __slots__ = ("_was_enabled",)

    def __enter__(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info) -> None:
        if self._was_enabled:
            gc.enable()
