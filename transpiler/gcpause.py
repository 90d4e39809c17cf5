"""Pausing Python's cyclic garbage collector while a module is compiled.

Parsing allocates one object per op, block and region and keeps all of them; the lowering and
the printers keep them too.  None of that is garbage, but the collector would walk the growing
heap again and again: measured on a 45k-line module, parsing was 1.8x slower with it running
and the time per line grew with the module (benchmarks/bench.py).
"""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def collector_paused():
    """Disable the cyclic collector inside the block (re-enabled after, if it was on)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
