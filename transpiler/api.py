"""The Python API: lower TTIR text in-process.

>>> from transpiler import lower
>>> out = lower(ttir_text, filename="kernel.ttir")          # doctest: +SKIP

Errors are raised as one exception type, :class:`LoweringError`, whose ``diagnostics`` list
holds every located problem (``str(e)`` is their MLIR-style rendering).
"""

from __future__ import annotations

from typing import Optional

from .diagnostics import DiagnosticError
from .driver import PrintOptions, Request, Result, compile_text
from .pipeline import Options


class LoweringError(DiagnosticError):
    """Raised by :func:`lower` when the input cannot be lowered; see ``diagnostics``."""


class LoweringWarning(UserWarning):
    """Issued (``warnings.warn``) by :func:`lower` for each warning diagnostic of a successful
    lowering; ``diagnostic`` is the :class:`~transpiler.diagnostics.Diagnostic` itself."""

    def __init__(self, diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


def lower(text: str, *, filename: str = "<input>", core_type_fallback: bool = False, link_check: bool = True,
          symbol_list: Optional[str] = None, device_library: str = "bundled", generic: bool = False,
          strip_debuginfo: bool = False, split_line: Optional[int] = None) -> str:
    """Lower every ``distributed.*`` op of a TTIR module to ``hivm.hir.custom``.

    Args:
        text: the module as printed by Triton (``module.str()``, a ``.ttir`` dump).
        filename: the name used in diagnostics.
        core_type_fallback: infer the core type of extern_calls without a
            ``distributed.core_type`` annotation from their symbol (older frontends).
        link_check / symbol_list: check emitted symbols against the bundled device library
            (or the list in ``symbol_list``), as ``--no-link-check`` / ``--symbol-list``.
        device_library: the library to link against, as ``--device-library``: ``"bundled"``
            (``device_templates/``) or an AscendNPU-IR release, ``"1.2.0"``, ``"1.2.0-post"``,
            ``"master"`` (SPEC.md section 5: its missing symbols and operand mismatches are
            errors, its wider integer parameters get an ``arith.extsi``).
        generic / strip_debuginfo: print as ``--mlir-print-op-generic`` / ``--strip-debuginfo``.
        split_line: when ``text`` is one chunk of a ``--split-input-file`` input, the file line
            where it starts (diagnostics and implicit locations then give the file's lines).

    Returns:
        The module text, with everything but the distributed ops unchanged.

    Warns:
        LoweringWarning: for each warning of the lowering (the result is still returned).

    Raises:
        LoweringError: on malformed input or unsupported distributed ops.
        TypeError: ``text`` is not a ``str`` (decode bytes as UTF-8 first).
        ValueError: ``device_library`` is not one of the shipped libraries.
    """
    if not isinstance(text, str):
        raise TypeError(f"lower() takes the module as text (str), not {type(text).__name__}; "
                        f"decode bytes as UTF-8 first")
    for name, flag in (("core_type_fallback", core_type_fallback), ("link_check", link_check), ("generic", generic),
                       ("strip_debuginfo", strip_debuginfo)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, not {flag!r}")
    from .lowering.link_check import LIBRARIES

    if device_library not in LIBRARIES:
        raise ValueError(f"device_library must be one of {', '.join(LIBRARIES)}, not {device_library!r}")
    options = Options(core_type_fallback=core_type_fallback, link_check=link_check, symbol_list=symbol_list,
                      device_library=device_library)
    printing = PrintOptions(generic=generic, debuginfo=not strip_debuginfo)
    result = compile_checked(Request(text, filename, options, printing, split_line=split_line,
                                     stage_from_name=False))
    if result.warnings:
        import warnings

        for d in result.warnings:
            warnings.warn(LoweringWarning(d), stacklevel=2)
    return result.text


def compile_checked(request: Request) -> Result:
    """:func:`transpiler.driver.compile_text`, with errors raised as :class:`LoweringError`."""
    try:
        return compile_text(request)
    except DiagnosticError as e:
        raise LoweringError(e.diagnostics) from None
