"""One compilation: text in, stages walked, text out (used by the CLI and the Python API).

Triton's way of walking a stage table (seed ``003_...``):

* the input's name says which stage produced it: ``k.ttir`` is the ``ttir`` stage's output and
  ``k.ttadapter.mlir`` the ``ttadapter`` stage's, so the walk starts with the stage after it
  (any other name, or stdin, starts at the first stage);
* ``dump_dir`` receives every stage's output as ``<stem>.<stage>.mlir``;
* ``override_dir``: when it holds ``<stem>.<stage>.mlir``, that file replaces the stage's output
  (and a note says so);
* ``stop_after`` ends the walk early;
* ``print_ir_before`` / ``print_ir_after`` send each stage's input / output to ``ir_stream``
  under ``mlir-opt``'s ``// -----// IR Dump After ...`` headers (``transpiler/irdump.py``).

The parsed input is dumped too, as the output of the stage that produced it (``k.ttir`` gives
``k.ttir.mlir`` even though the walk starts after ``ttir``).
"""

from __future__ import annotations

import functools
import os
import time
from typing import Callable, List, Optional, Tuple

import attrs

from .fileio import read_limited
from . import records
from .diagnostics import ERROR, Diagnostic, DiagnosticError
from .gcpause import collector_paused
from .ir.core import Module, Source
from .parser import parse_module
from .pipeline import STAGES, Options, StageTiming, names_distributed_ops, run


@records.define
class PrintOptions:
    """How the final (and dumped) modules are printed.

    Attributes:
        generic: every op in generic form but ``hivm.hir.custom`` (``--mlir-print-op-generic``).
        debuginfo: keep locations (``--strip-debuginfo`` turns it off).
        explicit_locations: give every op written without ``loc(...)`` the location MLIR gives
            it (``--mlir-print-debuginfo``, see ``transpiler/debuginfo.py``).
    """

    generic: bool = False
    debuginfo: bool = True
    explicit_locations: bool = False


@records.define
class Request:
    """What to compile and how.  ``filename`` names the input in diagnostics and decides the
    first stage.  ``split_line`` is set for a ``--split-input-file`` chunk: the file line it
    starts on, from which its source counts lines, so that diagnostics and implicit locations
    give the lines of the file."""

    text: str
    filename: str = "<input>"
    options: Options = attrs.Factory(Options)
    printing: PrintOptions = attrs.Factory(PrintOptions)
    dump_dir: Optional[str] = None
    override_dir: Optional[str] = None
    stop_after: Optional[str] = None
    split_line: Optional[int] = None
    dump_stem: Optional[str] = None  # name dumps and overrides by this stem (split chunks)
    stage_from_name: bool = True  # a `k.ttadapter.mlir` input starts after that stage
    lint_only: bool = False  # parse, verify and lint (issue 17); nothing is lowered or printed
    notify: Callable[[str], None] = lambda message: None
    print_ir_before: bool = False
    print_ir_after: bool = False
    ir_stream: Callable[[str], None] = lambda text: None


@records.define
class Result:
    """The printed module, the time of each stage, the final module and the warnings the
    stages reported (``Diagnostic`` of severity warning, in order; exit status stays 0)."""

    text: str
    timings: List[StageTiming]
    module: Module

    @property
    def warnings(self) -> List[Diagnostic]:
        return self.module.warnings


def stage_of(filename: str) -> Tuple[str, Optional[str]]:
    """(stem, stage) of an input name: ``k.ttir`` -> (``k``, ``ttir``),
    ``k.ttadapter.mlir`` -> (``k``, ``ttadapter``), ``k.mlir`` -> (``k``, None)."""
    name = os.path.basename(filename).strip("<>")  # "<stdin>" -> "stdin"
    for stage in STAGES:
        for suffix in (f".{stage}.mlir", f".{stage}"):
            if name.endswith(suffix) and len(name) > len(suffix):
                return name[: -len(suffix)], stage
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return stem or "stdin", None


def print_module_text(module: Module, printing: PrintOptions) -> str:
    """The module's text under ``printing`` (faithful unless generic form is asked for)."""
    if printing.generic:
        from .emit.printer import PrintError, print_module

        try:
            return print_module(module, generic=True, locations=printing.debuginfo)
        except PrintError as e:
            from .diagnostics import op_location

            source, offset = op_location(e.op) if e.op is not None else (module.source, None)
            raise DiagnosticError([Diagnostic(ERROR, str(e), source, offset)]) from None
    from .emit.faithful import emit_module

    # the stages make ops only for the distributed ops they lower: a module the parser read
    # none in, with nothing erased, is its input (no walk over its ops to find out)
    text = emit_module(module, edited=None if names_distributed_ops(module) or module.erased else False)
    if not printing.debuginfo:
        from .emit.strip import strip_locations

        text = strip_locations(text)
    return text


def compile_text(request: Request) -> Result:
    """Parse, walk the stages, print (with the garbage collector paused, see ``gcpause``).

    Raises:
        DiagnosticError: parse, verification or lowering errors (all of them, located), an
            unreadable override file, or a stage file that still holds distributed ops.
        KeyError: ``stop_after`` names no stage.
    """
    with collector_paused():
        try:
            return _compile(request)
        except RecursionError:
            raise DiagnosticError([Diagnostic(ERROR, "regions are nested too deeply for ttd-lower",
                                              Source(request.text, request.filename))]) from None


def _compile(request: Request) -> Result:
    if request.lint_only:
        return _lint_only(request)
    result = _compile_all(request)
    _check_warnings_as_errors(request, result.module)
    return result


def _lint_only(request: Request) -> Result:
    """``--lint-only``: parse, run the ``ttir`` stage (unless the name says it is done), lint."""
    from .pipeline import run_lint

    t0 = time.perf_counter()
    module = parse_module(request.text, request.filename, request.split_line)
    timings = [StageTiming("parse", time.perf_counter() - t0)]
    if not request.stage_from_name or stage_of(request.filename)[1] is None:
        timings += run(module, request.options, "ttir", "ttir")  # as a full run does (a .ttir input is past it)
    t1 = time.perf_counter()
    run_lint(module, request.options)
    timings.append(StageTiming("lint", time.perf_counter() - t1))
    _check_warnings_as_errors(request, module)
    return Result("", timings, module)


def _check_warnings_as_errors(request: Request, module: Module) -> None:
    """``--warnings-as-errors``: any warning fails the run, reported as an error."""
    if request.options.warnings_as_errors and module.warnings:
        raise DiagnosticError([attrs.evolve(d, severity=ERROR) for d in module.warnings])


def _compile_all(request: Request) -> Result:
    names = list(STAGES)
    if request.stop_after is not None and request.stop_after not in STAGES:
        raise KeyError(request.stop_after)
    stem, produced_by = stage_of(request.filename)
    stem = request.dump_stem or stem
    if not request.stage_from_name:
        produced_by = None
    start = names.index(produced_by) + 1 if produced_by else 0
    text = request.text
    if request.printing.explicit_locations:
        from .debuginfo import with_explicit_locations

        text = with_explicit_locations(text, request.filename, request.split_line)
    t0 = time.perf_counter()
    module = parse_module(text, request.filename, request.split_line)
    timings = [StageTiming("parse", time.perf_counter() - t0)]
    printed = functools.partial(print_module_text, printing=request.printing)
    instrument = _instrumentation(request, stem)
    if produced_by is not None and request.dump_dir and not instrument.is_dump_of(produced_by, request.filename):
        instrument.dump(produced_by, printed(module))  # never over the input file itself

    overridden: List[str] = []  # stages whose output came from the override folder

    def after_stage(name: str, output: Module) -> Module:
        nonlocal module
        module = output
        replacement = _read_override(request, stem, name)
        if replacement is not None:
            replacement.warnings[:0] = output.warnings
            module = replacement
            overridden.append(name)
        instrument.after(name, lambda: printed(module))
        return module

    if start < len(names) and (request.stop_after is None or names.index(request.stop_after) >= start):
        try:
            timings += run(module, request.options, names[start], request.stop_after, on_stage=after_stage,
                           before_stage=lambda name, m: instrument.before(name, lambda: printed(m)))
        except DiagnosticError as e:  # the warnings reported before the error come first
            raise DiagnosticError(module.warnings + e.diagnostics) from None
    if request.stop_after in (None, names[-1]):
        if names[-1] in overridden:
            why = f"comes from the override file for stage '{names[-1]}'"
        elif produced_by == names[-1]:
            why = (f"is in '{os.path.basename(request.filename)}', which is named as the output of the last stage "
                   f"(nothing runs on it); name the file .ttir to lower it")
        else:
            why = "is left after the last stage"
        _check_no_distributed_left(module, why)
    t1 = time.perf_counter()
    text = printed(module)
    timings.append(StageTiming("print", time.perf_counter() - t1))
    return Result(text, timings, module)


class _NoInstrumentation:
    """What ``irdump.Instrumentation`` does when nothing is dumped or printed: nothing."""

    def is_dump_of(self, stage: str, path: str) -> bool:
        return False

    def dump(self, stage: str, text: str) -> None:
        pass

    def before(self, stage: str, text) -> None:
        pass

    def after(self, stage: str, text) -> None:
        pass


def _instrumentation(request: Request, stem: str):
    """The dumps and IR prints ``request`` asks for (``transpiler/irdump.py``, imported only then)."""
    if not (request.dump_dir or request.print_ir_before or request.print_ir_after):
        return _NoInstrumentation()
    from .irdump import Instrumentation

    return Instrumentation(request.dump_dir, stem, request.print_ir_before, request.print_ir_after, request.ir_stream)


def _read_override(request: Request, stem: str, stage: str) -> Optional[Module]:
    """The module of ``<override_dir>/<stem>.<stage>.mlir`` when that file exists (announced
    through ``request.notify``), else None.

    Raises:
        DiagnosticError: the file cannot be read or parsed.
    """
    if not request.override_dir:
        return None
    path = os.path.join(request.override_dir, f"{stem}.{stage}.mlir")
    if not os.path.exists(path):
        return None
    request.notify(f"ttd-lower: overriding stage '{stage}' with file {path}")
    try:
        with open(path, encoding="utf-8") as f:
            text = read_limited(f)
    except (OSError, UnicodeDecodeError) as e:
        raise DiagnosticError([Diagnostic(ERROR, f"cannot read the override file: {getattr(e, 'strerror', None) or e}",
                                          Source("", path))]) from None
    return parse_module(text, path)


def _check_no_distributed_left(module: Module, why: str) -> None:
    """A lowered module has no distributed op left (it would fail downstream)."""
    from .diagnostics import op_error

    if not names_distributed_ops(module):
        return
    left = [op for op in module.walk() if op.name.startswith("distributed.")]
    if left:
        raise DiagnosticError([op_error(op, why) for op in left[:5]])
