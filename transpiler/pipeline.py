"""The stage table, walked by the CLI and the Python API (SPEC.md section 4, seed ``003_...``).

Like Triton's ``add_stages``, an ordered mapping from a stage name to the function that makes
that stage's module from the previous one:

* ``ttir``      - parse the text and verify the distributed ops (SPEC.md section 1);
* ``ttadapter`` - the distributed -> HIVM lowering (section 2), then the link check (section 5).

:func:`run` walks the table from a start stage up to a stop stage.
"""

from __future__ import annotations

import time
from typing import Callable, Dict, List, Optional, Tuple

from . import records
from .diagnostics import ERROR, Diagnostic, DiagnosticEngine
from .ir.function_note import with_function_note
from .ir.core import Module


@records.define
class Options:
    """Everything a stage may need.

    Attributes:
        core_type_fallback: infer unannotated extern_calls' core type from the symbol.
        link_check: check every emitted symbol against the device template library.
        symbol_list: another library's symbol list file (it wins over ``device_library``).
        device_library: the shipped library to link against (SPEC.md section 5): ``bundled``
            (``device_templates/``), or the AscendNPU-IR release ``1.2.0``, ``1.2.0-post``, ``master``.
        error_limit: stop after this many errors.
        lint: run the protocol lint (issue 17) at the start of ``ttadapter``.
        no_warn: lint rules to leave out (``--no-warn=RULE``).
        warnings_as_errors: every warning is an error (``--warnings-as-errors``).
    """

    core_type_fallback: bool = False
    link_check: bool = True
    symbol_list: Optional[str] = None
    device_library: str = "bundled"
    error_limit: int = 20
    lint: bool = True
    no_warn: Tuple[str, ...] = ()
    warnings_as_errors: bool = False


def names_distributed_ops(module: Module) -> bool:
    """Whether ``module`` may hold a distributed op: False when the parser read none (the stages
    make ops only for the distributed ops they lower), so that a module without distributed ops
    is not walked op by op for them (a 40k-line module: 5 walks, about 25 ms)."""
    return module.names_distributed


def make_ttir(module: Module, options: Options) -> Module:
    """Stage ``ttir``: the module is parsed (the parser has checked that no distributed op
    hides in another op's text); verify its distributed ops.

    Raises:
        DiagnosticError: with every verification error.
    """
    if not names_distributed_ops(module):
        return module
    engine = DiagnosticEngine(options.error_limit)
    from .ir.verifier import verify_op
    from .lowering.distributed_to_hivm import DISTRIBUTED_OP_NAMES

    for op in module.walk():
        if op.name in DISTRIBUTED_OP_NAMES:
            diagnostics = verify_op(op)
            for d in diagnostics:
                engine.emit(with_function_note(d, op))
            op.verified = not diagnostics
    engine.check()
    return module


def run_lint(module: Module, options: Options) -> Module:
    """The protocol lint (issue 17): its warnings go to ``module.warnings``; nothing else changes.

    Every rule is about distributed ops: in a module the parser read none in, the lint finds
    nothing, and its modules are not even imported (unless ``no_warn`` names rules to check).
    """
    if not names_distributed_ops(module) and not options.no_warn:
        return module
    from .analysis import lint_module

    module.warnings.extend(lint_module(module, options.no_warn))
    return module


def make_ttadapter(module: Module, options: Options) -> Module:
    """Stage ``ttadapter``: the protocol lint (unless ``options.lint`` is off), then lower every
    distributed op to ``hivm.hir.custom`` and check that every emitted symbol is in the device
    template library (SPEC.md section 5).

    Raises:
        DiagnosticError: with every lowering or link-check error.
    """
    engine = DiagnosticEngine(options.error_limit)
    if options.lint:
        run_lint(module, options)
    library = None
    if options.link_check and (options.symbol_list or names_distributed_ops(module)):  # a given list is always read
        from .lowering.link_check import SymbolListError, load_library

        try:
            library = load_library(options.symbol_list, options.device_library)
        except SymbolListError as e:
            engine.emit(Diagnostic(ERROR, str(e)))
            engine.check()
    if not names_distributed_ops(module):
        return module  # nothing to lower, so no custom op of ours to check
    from .lowering.distributed_to_hivm import LoweringOptions, lower_distributed_to_hivm

    lower_distributed_to_hivm(module, LoweringOptions(core_type_fallback=options.core_type_fallback,
                                                      library=library), engine)
    if library is not None:
        from .lowering.link_check import check_symbols

        check_symbols(module, library, engine)
        engine.check()
    return module


StageFn = Callable[[Module, Options], Module]

STAGES: Dict[str, StageFn] = {
    "ttir": make_ttir,
    "ttadapter": make_ttadapter,
}

#: what ``--pipeline`` prints per stage (the rules: SPEC.md sections 1, 2 and 5; not cited in
#: the text, since an installed wheel has no SPEC.md)
DESCRIPTIONS: Dict[str, str] = {
    "ttir": "parse the input and verify its distributed ops (operands, results, attributes)",
    "ttadapter": "lower distributed.* ops to hivm.hir.custom calls of aclshmem_* symbols and check the "
                 "symbols against the device template library",
}


PASS_NAMES: Dict[str, str] = {
    "ttir": "VerifyDistributedOps",
    "ttadapter": "ConvertDistributedToHIVM",
}
"""The name of each stage as a pass, for ``--mlir-print-ir-after-all`` headers."""


def describe() -> str:
    """The stage table, one stage per line (``ttd-lower --pipeline``)."""
    width = max(map(len, STAGES))
    return "".join(f"{name:<{width}}  {DESCRIPTIONS[name]}\n" for name in STAGES)


@records.define
class StageTiming:
    name: str
    seconds: float


def timing_report(timings: List[StageTiming]) -> str:
    """A ``--mlir-timing``-style wall-time table."""
    total = sum(t.seconds for t in timings) or 1e-12
    rule = "===" + "-" * 73 + "==="
    lines = [rule, "  ... Execution time report ...".center(79).rstrip(), rule,
             f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]
    for t in timings:
        lines.append(f"  {t.seconds:8.4f} ({100 * t.seconds / total:5.1f}%)  {t.name}")
    lines.append(f"  {total:8.4f} (100.0%)  Total")
    return "\n".join(lines) + "\n"


def run(module: Module, options: Options, start: str = "ttir", stop: Optional[str] = None,
        on_stage: Optional[Callable[[str, Module], Module]] = None,
        before_stage: Optional[Callable[[str, Module], None]] = None) -> List[StageTiming]:
    """Run the stages from ``start`` to ``stop`` (inclusive, default: the last) on ``module``.

    ``before_stage(name, module)`` is called before each stage (IR printing);
    ``on_stage(name, module)`` after each stage, and may return a replacement module
    (dumps and overrides hook in here).  Returns the time each stage took.

    Raises:
        KeyError: an unknown stage name.
        DiagnosticError: a stage failed.
    """
    names = list(STAGES)
    first = names.index(start)
    last = names.index(stop) if stop is not None else len(names) - 1
    timings: List[StageTiming] = []
    for name in names[first : last + 1]:
        if before_stage is not None:
            before_stage(name, module)
        t0 = time.perf_counter()
        module = STAGES[name](module, options)
        timings.append(StageTiming(name, time.perf_counter() - t0))
        if on_stage is not None:
            module = on_stage(name, module) or module
    return timings

