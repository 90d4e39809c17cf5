"""Dialect declarations; importing this package registers all of them."""

from . import arith, cf, distributed, hivm, math, misc, scf, small, tt, tt_memory  # noqa: F401
