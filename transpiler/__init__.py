"""ttd-lower: lowers Triton-distributed ``distributed.*`` ops in TTIR to ``hivm.hir.custom`` ops.

The Python API is :func:`transpiler.lower` (see :mod:`transpiler.api`); the command line is
``ttd-lower`` (:mod:`transpiler.cli`).
"""

__version__ = "0.1.0"
BUG_REPORT_URL = "https://github.com/ttd-lower/ttd-lower/issues"


#: the API that ``import transpiler`` offers, loaded from :mod:`transpiler.api` on first use
__all__ = ["lower", "lint", "LoweringError", "LoweringWarning"]


def __getattr__(name):  # keep `import transpiler` cheap: load the API on first use
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(name)


def __dir__():
    """The module's names with the lazily loaded API (``dir(transpiler)``, completion)."""
    return sorted(set(globals()) | set(__all__))
