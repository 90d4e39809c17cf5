"""Dialect declarations; importing this package registers all of them."""

from . import arith, distributed, hivm, scf, small, tt  # noqa: F401
