"""Dialect declarations, one module per dialect (or group of small ones).

A module registers its ops when it is imported.  :func:`transpiler.ir.dialect.lookup` imports
the modules of an op name's dialect on the first look-up of that dialect (:func:`load`), so
that a run creates the declarations of the dialects it meets only; :func:`load_all` imports
every module (``registered_names``, tests).  :data:`MODULES` says which modules declare the ops
of each dialect prefix (``tests/test_dialect_hooks.py`` checks it against the modules).
"""

from __future__ import annotations

import importlib
from typing import Dict, Tuple

MODULES: Dict[str, Tuple[str, ...]] = {
    "arith": ("arith",),
    "cf": ("cf",),
    "distributed": ("distributed",),
    "hivm": ("hivm",),
    "math": ("math",),
    "scf": ("scf",),
    "tt": ("tt", "tt_memory"),
    "gpu": ("misc",),
    "llvm": ("misc",),
    "ttg": ("misc",),
    "ub": ("misc",),
    "annotation": ("small",),
    "builtin": ("small",),
    "module": ("small",),
    "tensor": ("small",),
}
"""Dialect prefix of an op name (``module`` for the bare ``module``) -> the modules declaring its ops."""


def load(prefix: str) -> None:
    """Import the modules that declare the ops of dialect ``prefix`` (none for an unknown one)."""
    for name in MODULES.get(prefix, ()):
        importlib.import_module(f"{__name__}.{name}")


def load_all() -> None:
    """Import every dialect module."""
    for prefix in MODULES:
        load(prefix)
