"""The Python API: lower TTIR text in-process.

>>> from transpiler import lower
>>> out = lower(ttir_text, filename="kernel.ttir")          # doctest: +SKIP

Errors are raised as one exception type, :class:`LoweringError`, whose ``diagnostics`` list
holds every located problem (``str(e)`` is their MLIR-style rendering).
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Tuple

from .diagnostics import Diagnostic, DiagnosticError
from .driver import PrintOptions, Request, Result, compile_text
from .gcpause import collector_paused
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
          strip_debuginfo: bool = False, split_line: Optional[int] = None, lint: bool = True,
          no_warn: Iterable[str] = (), warnings_as_errors: bool = False) -> str:
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
        lint / no_warn / warnings_as_errors: the protocol lint (issue 17) runs before the
            lowering unless ``lint`` is False; ``no_warn`` names rules to leave out
            (``--no-warn``); ``warnings_as_errors`` makes every warning an error.

    Returns:
        The module text, with everything but the distributed ops unchanged.

    Warns:
        LoweringWarning: for each warning of the lowering (the result is still returned).

    Raises:
        LoweringError: on malformed input or unsupported distributed ops (with
            ``warnings_as_errors``, also on any warning).
        TypeError: ``text`` is not a ``str`` (decode bytes as UTF-8 first).
        ValueError: ``device_library`` is not one of the shipped libraries, or ``no_warn``
            names an unknown lint rule.
    """
    _check_text(text, "lower")
    for name, flag in (("core_type_fallback", core_type_fallback), ("link_check", link_check), ("generic", generic),
                       ("strip_debuginfo", strip_debuginfo), ("lint", lint),
                       ("warnings_as_errors", warnings_as_errors)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, not {flag!r}")
    from .lowering.link_check import LIBRARIES

    if device_library not in LIBRARIES:
        raise ValueError(f"device_library must be one of {', '.join(LIBRARIES)}, not {device_library!r}")
    options = Options(core_type_fallback=core_type_fallback, link_check=link_check, symbol_list=symbol_list,
                      device_library=device_library, lint=lint, no_warn=_rules(no_warn),
                      warnings_as_errors=warnings_as_errors)
    printing = PrintOptions(generic=generic, debuginfo=not strip_debuginfo)
    out, found = _text_and_warnings(Request(text, filename, options, printing, split_line=split_line,
                                            stage_from_name=False))
    if found:
        import warnings

        for d in found:
            warnings.warn(LoweringWarning(d), stacklevel=2)
    return out


def lint(text: str, *, filename: str = "<input>", no_warn: Iterable[str] = (), split_line: Optional[int] = None) -> List:
    """The protocol lint alone (``ttd-lower --lint-only``, issue 17): the warnings it reports
    for ``text``, as :class:`~transpiler.diagnostics.Diagnostic` objects; nothing is lowered.

    Raises:
        LoweringError: the text cannot be parsed or its distributed ops do not verify.
        TypeError: ``text`` is not a ``str``.
        ValueError: ``no_warn`` names an unknown lint rule.
    """
    _check_text(text, "lint")
    request = Request(text, filename, Options(no_warn=_rules(no_warn)), split_line=split_line,
                      stage_from_name=False, lint_only=True)
    return _text_and_warnings(request)[1]


def _check_text(text, function: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"{function}() takes the module as text (str), not {type(text).__name__}; "
                        f"decode bytes as UTF-8 first")


def _rules(names: Iterable[str]) -> tuple:
    from .analysis import check_rule_names

    if isinstance(names, str):
        names = (names,)
    return tuple(check_rule_names(names))


def _text_and_warnings(request: Request) -> Tuple[str, List[Diagnostic]]:
    """The printed module and its warnings, compiled with the cyclic collector paused until the
    module is dropped.

    The IR is full of reference cycles (parent pointers), so a dropped module is freed by the
    collector.  Re-enabling it while the compile's result is still held makes the first young
    collection move every object of the module to an older generation, which collects them
    later at several times the cost; here they are still young when the collector runs again.
    """
    with collector_paused():
        result = compile_checked(request)
        out, found = result.text, list(result.warnings)
        del result  # garbage now, while the collector is still paused
    return out, found


def compile_checked(request: Request) -> Result:
    """:func:`transpiler.driver.compile_text`, with errors raised as :class:`LoweringError`."""
    try:
        return compile_text(request)
    except DiagnosticError as e:
        raise LoweringError(e.diagnostics) from None
