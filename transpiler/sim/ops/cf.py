"""``cf`` ops: ``cf.br`` / ``cf.cond_br`` are block terminators (``interp.run_block`` follows
them to the successor block); ``cf.assert`` fails the run where its condition is false."""

from __future__ import annotations

import numpy as np

from ..attrs import attr_value
from ..errors import Finding
from .table import implements


@implements("cf.assert", prepare=lambda op, c: attr_value(op, "msg", ""))
def assert_(p, st, args):
    if not np.all(args[0]):
        raise Finding(f"assertion failed: {st}")
