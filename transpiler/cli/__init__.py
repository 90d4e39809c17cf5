"""The ``ttd-lower`` command line.

``ttd-lower [options] <input file>``: lower the distributed ops of a TTIR file.  ``-`` is stdin / stdout;
without ``-o`` the output goes to stdout, so the tool pipes.  Options follow ``mlir-opt``'s
conventions (``options.py``): one or two dashes, ``--split-input-file[=MARKER]``, grouped help.

Exit status: 0 success, 1 errors in the input (diagnostics on stderr as
``file:line:col: error: message``, the source line and a caret), 2 usage errors (one line,
``ttd-lower: error: message. Try 'ttd-lower --help'``), 3 internal
errors (a short request for a bug report; the traceback only with ``--debug``), 128 + N when
signal N (SIGINT, SIGTERM, SIGHUP) stopped it.  On any failure no output file is written and
an existing one is left as it was.  A reader of stdout or stderr that goes away early changes
nothing but what it sees (``output.reader_may_close``).

The modules: ``options.py`` (argument conventions, help), ``output.py`` (input and output
files), ``signals.py`` (signal clean-up), ``run.py`` (the chunks of one run).
"""

from __future__ import annotations

import os
import sys
from typing import Optional

import click

from .. import BUG_REPORT_URL, __version__
from .help import DEBUGGING, DIAGNOSTICS, GENERIC, LOWERING, PRINTING
from .options import GroupedCommand, GroupedOption, option
from .output import echo, echo_err, read_input, reader_may_close, write_file, write_output  # noqa: F401  (the CLI's I/O)

STAGE_NAMES = ("ttir", "ttadapter")  # the stage table's names, without importing it at start-up
LINT_RULES = ("unordered-remote-load", "unused-wait-token", "signal-never-set", "barrier-slot-stride",
              "rank-out-of-range")  # transpiler.analysis.RULES, without importing it at start-up

EXIT_OK, EXIT_INPUT_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
USAGE_OPTIONS, USAGE_INPUT = "[options]", "<input file>"  # one usage line, as mlir-opt's: errors and --help
DUMP_ENV = "MLIR_ENABLE_DUMP"  # Triton's switch: print the IR before and after every stage
DUMP_PATH_ENV = "MLIR_DUMP_PATH"  # ... to this file (appended) instead of stderr


def _print_pipeline(ctx: click.Context, _param, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from ..pipeline import describe

        echo(describe(), nl=False)
        ctx.exit(EXIT_OK)


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    """``--version``: what ``click.version_option`` prints (``ttd-lower, version X``), without
    the translation look-ups that option makes at import."""
    if value and not ctx.resilient_parsing:
        echo(f"ttd-lower, version {__version__}", color=ctx.color)
        ctx.exit(EXIT_OK)


@click.command(cls=GroupedCommand, tool="ttd-lower", context_settings={"help_option_names": ["--help", "-h"]},
               options_metavar=USAGE_OPTIONS)
@click.argument("input_path", metavar=USAGE_INPUT, default="-")
@option("-o", "--output", "output_path", value_name="<filename>", default=None,
        help="Output file ('-' or absent: stdout); written only when everything succeeded.")
@option("--split-input-file", "split_marker", value_name="<marker>", implicit_value="// -----", default=None,
        help="Split the input at lines starting with the marker (default '// -----') and process each chunk "
             "on its own, as mlir-opt does.")
@option("--output-split-marker", value_name="<marker>", default=None,
        help="Join the outputs of split chunks with this line (default: the input's own marker lines).")
@option("--allow-unregistered-dialect", is_flag=True,
        help="Accepted for mlir-opt compatibility: ops of any dialect are always kept as they are.")
@option("--core-type-fallback", type=click.Choice(["none", "symbol-table"]), default="none", group=LOWERING,
        help="For extern_calls without a distributed.core_type annotation (older frontends): "
             "'symbol-table' infers the core type from the symbol; 'none' (default) reports an error.")
@option("--no-link-check", is_flag=True, group=LOWERING,
        help="Do not check emitted symbols against the device template library (for libraries of other versions).")
@option("--symbol-list", value_name="<file>", default=None, group=LOWERING,
        help="Check symbols against this list ('<symbol><TAB><C signature>' lines) instead of the bundled one.")
@option("--device-library", type=click.Choice(["bundled", "1.2.0", "1.2.0-post", "master"]), default="bundled",
        show_default=True, group=LOWERING,
        help="Device template library to link against: the bundled one (device_templates/) or an AscendNPU-IR "
             "release's (pick the release of your bishengir-compile).")
@option("--list-symbols", is_flag=True, group=LOWERING,
        help="Print the device template library's symbols with their C signatures, and exit.")
@option("--lint-only", is_flag=True, group=DIAGNOSTICS,
        help="Only parse, verify and run the protocol lint (warnings on stderr); write no output.")
@option("--no-lint", is_flag=True, group=DIAGNOSTICS, help="Do not run the protocol lint before the lowering.")
@option("--no-warn", "no_warn", value_name="<rule>", multiple=True, type=click.Choice(LINT_RULES), group=DIAGNOSTICS,
        help="Leave out this lint rule (repeatable): " + ", ".join(LINT_RULES) + ".")
@option("--warnings-as-errors", is_flag=True, group=DIAGNOSTICS,
        help="Treat every warning as an error (exit 1, no output).")
@option("--verify-diagnostics", "verify", type=click.Choice(["all", "only-expected"]), implicit_value="all",
        default=None, group=DIAGNOSTICS,
        help="Check the diagnostics against 'expected-error {{...}}' designators, as mlir-opt does; exit 0 when "
             "they match ('only-expected': ignore diagnostics nothing expects).")
@option("--debug", is_flag=True, group=DIAGNOSTICS, help="Show a Python traceback on internal errors.")
@option("--mlir-print-op-generic", "generic", is_flag=True, group=PRINTING,
        help="Print every op in generic form except hivm.hir.custom (for bishengir-opt --allow-unregistered-dialect).")
@option("--mlir-print-debuginfo", "print_debuginfo", is_flag=True, group=PRINTING,
        help="Print a location on every op, also where the input left it implicit (loc(\"FILE\":line:col)).")
@option("--strip-debuginfo", is_flag=True, group=PRINTING, help="Drop loc(...) trailers and the #loc aliases.")
@option("--strip-comments", is_flag=True, group=PRINTING,
        help="Drop whole-line '//' comments from the output, as mlir-opt's printer does "
             "(so FileCheck tests do not match their own CHECK lines).")
@option("--dump-dir", value_name="<dir>", envvar="TTD_DUMP_DIR", group=DEBUGGING,
        help="Write the parsed input and each stage's output to <dir>/<stem>.<stage>.mlir.")
@option("--override-dir", value_name="<dir>", envvar="TTD_OVERRIDE_DIR", group=DEBUGGING,
        help="Replace a stage's output by <dir>/<stem>.<stage>.mlir when it exists.")
@option("--stop-after", value_name="<stage>", type=click.Choice(list(STAGE_NAMES)), default=None, group=DEBUGGING,
        help="Stop after this stage and print its output.")
@option("--pipeline", is_flag=True, is_eager=True, expose_value=False, callback=_print_pipeline, group=DEBUGGING,
        help="Print the stage table and exit.")
@option("--timing", "--mlir-timing", "timing", is_flag=True, group=DEBUGGING,
        help="Print the time each stage took, on stderr.")
@option("--mlir-print-ir-before-all", "print_before", is_flag=True, group=DEBUGGING,
        help="Print the IR before each stage, on stderr (also MLIR_ENABLE_DUMP=1).")
@option("--mlir-print-ir-after-all", "print_after", is_flag=True, group=DEBUGGING,
        help="Print the IR after each stage, on stderr (also MLIR_ENABLE_DUMP=1).")
@option("--version", is_flag=True, is_eager=True, expose_value=False, callback=_print_version, group=GENERIC,
        help="Display the version of this program.")
def main(input_path: str, output_path: Optional[str], split_marker: Optional[str], output_split_marker: Optional[str],
         allow_unregistered_dialect: bool, core_type_fallback: str, no_link_check: bool, symbol_list: Optional[str],
         device_library: str, list_symbols: bool, lint_only: bool, no_lint: bool, no_warn: tuple,
         warnings_as_errors: bool, verify: Optional[str], debug: bool, generic: bool, print_debuginfo: bool,
         strip_debuginfo: bool, strip_comments: bool, dump_dir: Optional[str], override_dir: Optional[str],
         stop_after: Optional[str], timing: bool, print_before: bool, print_after: bool) -> None:
    """ttd-lower: lower the Triton-distributed ops of a TTIR file to hivm.hir.custom ops.

    Everything that is not a distributed op is copied unchanged.  The input file may be '-' for stdin.
    A file named <stem>.ttadapter.mlir is taken as already lowered (it is only re-printed).
    """
    from .signals import Interrupted, handling_signals

    if list_symbols:
        echo(_load_symbols(symbol_list, device_library).listing(), nl=False)
        return
    if input_path == "-" and sys.stdin is not None and sys.stdin.isatty():
        raise click.UsageError("no input: give a TTIR file, or pipe one to stdin")
    if print_debuginfo and strip_debuginfo:
        raise click.UsageError("--mlir-print-debuginfo and --strip-debuginfo exclude each other")
    for name, folder in (("--dump-dir", dump_dir), ("--override-dir", override_dir)):
        if folder and os.path.exists(folder) and not os.path.isdir(folder):
            raise click.UsageError(f"{name}: '{folder}' is not a folder")
    filename = "<stdin>" if input_path == "-" else input_path
    if split_marker == "":  # `--split-input-file=`: the default marker, as mlir-opt takes it
        split_marker = "// -----"
    try:
        with handling_signals():
            from ..diagnostics import DiagnosticError, print_diagnostics
            from ..driver import PrintOptions
            from ..pipeline import Options, timing_report
            from .run import Settings, run

            try:
                text = read_input(input_path)
                if not no_link_check and symbol_list is not None:
                    _load_symbols(symbol_list, device_library)  # a bad --symbol-list: a usage error, before any work
                env_dump, ir_stream = _ir_dump_from_environment(text)
                settings = Settings(
                    Options(core_type_fallback=core_type_fallback == "symbol-table", link_check=not no_link_check,
                            symbol_list=symbol_list, device_library=device_library, lint=not no_lint,
                            no_warn=tuple(no_warn), warnings_as_errors=warnings_as_errors),
                    PrintOptions(generic=generic, debuginfo=not strip_debuginfo, explicit_locations=print_debuginfo),
                    split_marker=split_marker, output_marker=output_split_marker, verify=verify,
                    strip_comments=strip_comments, dump_dir=dump_dir, override_dir=override_dir,
                    stop_after=stop_after, print_ir_before=print_before or env_dump,
                    print_ir_after=print_after or env_dump, ir_stream=ir_stream,
                    notify=echo_err, lint_only=lint_only)
                outcome = run(text, filename, settings)
            except DiagnosticError as e:  # the input could not be read as text
                with reader_may_close(sys.stderr):
                    print_diagnostics(e.diagnostics)
                sys.exit(EXIT_INPUT_ERROR)
            with reader_may_close(sys.stderr):
                print_diagnostics(outcome.diagnostics)
            if outcome.failed:
                if output_path in (None, "-"):
                    write_output(None, outcome.text)  # as mlir-opt: the chunks that succeeded
                sys.exit(EXIT_INPUT_ERROR)
            if not lint_only:
                write_output(output_path, outcome.text)
            if timing:
                echo_err(timing_report(outcome.timings), nl=False)
    except Interrupted as e:
        sys.exit(e.exit_code)
    except BrokenPipeError:  # a write outside the guarded ones (reader_may_close) lost its reader
        sys.exit(EXIT_INPUT_ERROR)
    except click.ClickException:
        raise  # usage errors: GroupedCommand.main prints them (ttd-lower: error: ...) and exits 2
    except OSError as e:  # a dump folder that cannot be made or written
        raise click.UsageError(_folder_error(e, dump_dir)) from None
    except Exception:  # a bug: say so briefly, never a traceback unless asked
        if debug:
            import traceback

            traceback.print_exc()
        echo_err(f"ttd-lower: internal error while processing '{filename}'. This is a bug; please report it at "
                 f"{BUG_REPORT_URL} with the input file and this command line"
                 + ("." if debug else " (rerun with --debug for a traceback)."))
        sys.exit(EXIT_INTERNAL)


def entry() -> None:
    """The ``ttd-lower`` console script: :func:`main`, then a fast process exit.

    A compile leaves tens of thousands of IR objects behind; tearing them down at interpreter
    exit costs about as much as printing them.  Output streams are flushed, then the process
    ends with ``os._exit`` and the status :func:`main` chose.
    """
    import gc

    from .signals import Interrupted, handling_signals

    gc.disable()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 8000))  # deeply nested regions
    try:
        with handling_signals():  # also while the arguments are read (main installs them again)
            main()
        code = EXIT_OK
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (EXIT_OK if e.code is None else EXIT_INPUT_ERROR)
    except Interrupted as e:
        code = e.exit_code
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                with reader_may_close(stream):
                    stream.flush()
        except (OSError, ValueError):
            code = code or EXIT_USAGE
    os._exit(code)


def _folder_error(e: OSError, dump_dir: Optional[str]) -> str:
    """A usage error's text for ``e``, naming ``--dump-dir`` when it is about that folder
    (worded as ``-o``'s: ``cannot write 'PATH': REASON``)."""
    where = f"'{e.filename}'" if e.filename else "a file"
    name = "--dump-dir: " if dump_dir and e.filename and str(e.filename).startswith(dump_dir) else ""
    return f"{name}cannot write {where}: {e.strerror or e}"


def _load_symbols(symbol_list: Optional[str], device_library: str = "bundled"):
    from ..lowering.link_check import SymbolListError, load_library

    try:
        return load_library(symbol_list, device_library)
    except SymbolListError as e:
        raise click.UsageError(str(e)) from None


def _ir_dump_from_environment(text: str):
    """(print the IR around every stage?, where IR prints go) from ``MLIR_ENABLE_DUMP`` and
    ``MLIR_DUMP_PATH``, as Triton reads them: ``1`` (or true/on/yes) for every input, a kernel
    name for inputs that define ``@name``, unset / ``0`` for none."""
    value = os.environ.get(DUMP_ENV, "").strip()
    if value.lower() in ("", "0", "false", "off", "no"):
        enabled = False
    elif value.lower() in ("1", "true", "on", "yes"):
        enabled = True
    else:
        enabled = f"@{value}(" in text or f"@{value} " in text
    path = os.environ.get(DUMP_PATH_ENV)

    def stream(chunk: str) -> None:
        """Append ``chunk`` to $MLIR_DUMP_PATH, or write it to stderr."""
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write(chunk)
        else:
            echo_err(chunk, nl=False)

    return enabled, stream
