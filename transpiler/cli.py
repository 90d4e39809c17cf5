"""The ``ttd-lower`` command line.

``ttd-lower IN [-o OUT]``: lower the distributed ops of a TTIR file.  ``-`` is stdin / stdout;
without ``-o`` the output goes to stdout, so the tool pipes.

Exit status: 0 success, 1 errors in the input (diagnostics on stderr as
``file:line:col: error: message``, the source line and a caret), 2 usage errors, 3 internal
errors (a short request for a bug report; the traceback only with ``--debug``).  On any
failure no output file is written and an existing one is left as it was.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from typing import Optional

import click

from . import __version__

STAGE_NAMES = ("ttir", "ttadapter")  # the stage table's names, without importing it at start-up

EXIT_OK, EXIT_INPUT_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
COMMENT_LINE = re.compile(r"^[ \t]*//[^\n]*(?:\n|\Z)", re.M)


def write_file(path: str, text: str) -> None:
    """Write the output file ``path``.

    A regular file (or a new one) is written through a temporary file renamed over it, so a
    failure never leaves half a file; a symlink is written through (the link stays); a device
    or FIFO (``/dev/null``, a pipe) is written to directly: renaming over it would replace it.

    Raises:
        click.UsageError: the file cannot be written.
    """
    real = os.path.realpath(path)
    try:
        if os.path.exists(real) and not stat.S_ISREG(os.stat(real).st_mode):
            with open(real, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        else:
            write_atomic(real, text)
    except OSError as e:
        raise click.UsageError(f"cannot write '{path}': {e.strerror or e}") from None


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, renamed on success."""
    import tempfile  # only when a file is written (3 ms of start-up otherwise)

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ttd-lower-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_input(path: str) -> str:
    """The text of ``path`` (``-`` for stdin).

    Raises:
        click.UsageError: the file cannot be read.
        DiagnosticError: the file is not UTF-8 text (located at the first bad byte).
    """
    try:
        if path == "-":
            if sys.stdin is None:
                raise click.UsageError("stdin is closed: give a TTIR file")
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise click.UsageError(f"cannot read '{path}': {e.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        from .diagnostics import ERROR, Diagnostic, DiagnosticError
        from .ir.core import Source

        good = data[: e.start].decode("utf-8")
        shown = good + data[e.start :].decode("utf-8", errors="replace")
        source = Source(shown, "<stdin>" if path == "-" else path)
        raise DiagnosticError([Diagnostic(ERROR, f"invalid UTF-8: byte 0x{data[e.start]:02x} ({e.reason}); "
                                                 f"TTIR is UTF-8 text", source, len(good))]) from None


def write_output(path: Optional[str], text: str) -> None:
    if path is None or path == "-":
        if sys.stdout is None:
            raise click.UsageError("stdout is closed: use -o FILE")
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as e:
            raise click.UsageError(f"cannot write to stdout: {e.strerror or e}") from None
    else:
        write_file(path, text)


def _print_pipeline(ctx: click.Context, _param, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from .pipeline import describe

        click.echo(describe(), nl=False)
        ctx.exit(EXIT_OK)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_path", metavar="IN", default="-")
@click.option("-o", "--output", "output_path", metavar="OUT", default=None,
              help="Output file ('-' or absent: stdout). Written only on success.")
@click.option("--core-type-fallback", type=click.Choice(["none", "symbol-table"]), default="none", show_default=True,
              help="For extern_calls without a distributed.core_type annotation (older frontends): "
                   "'symbol-table' infers the core type from the symbol; 'none' reports an error.")
@click.option("--split-input-file", is_flag=True,
              help="Treat '// -----' lines as separators of independent modules (as mlir-opt does).")
@click.option("--mlir-print-op-generic", "generic", is_flag=True,
              help="Print every op in generic form except hivm.hir.custom (for bishengir-opt "
                   "--allow-unregistered-dialect).")
@click.option("--strip-debuginfo", is_flag=True, help="Drop loc(...) trailers and the #loc aliases.")
@click.option("--strip-comments", is_flag=True,
              help="Drop whole-line '//' comments from the output, as mlir-opt's printer does "
                   "(so FileCheck tests do not match their own CHECK lines).")
@click.option("--dump-dir", metavar="DIR", envvar="TTD_DUMP_DIR",
              help="Write each stage's output to DIR/<stem>.<stage>.mlir (env TTD_DUMP_DIR).")
@click.option("--override-dir", metavar="DIR", envvar="TTD_OVERRIDE_DIR",
              help="Replace a stage's output by DIR/<stem>.<stage>.mlir when it exists (env TTD_OVERRIDE_DIR).")
@click.option("--stop-after", metavar="STAGE", type=click.Choice(list(STAGE_NAMES)), default=None,
              help="Stop after this stage and print its output.")
@click.option("--pipeline", is_flag=True, is_eager=True, expose_value=False, callback=_print_pipeline,
              help="Print the stage table and exit.")
@click.option("--timing", is_flag=True, help="Print the time each stage took, on stderr (like --mlir-timing).")
@click.option("--verify-diagnostics", is_flag=True,
              help="Check the diagnostics against '// expected-error {{...}}' comments (like mlir-opt); "
                   "exit 0 when they all match.")
@click.option("--no-link-check", is_flag=True,
              help="Do not check emitted symbols against the device template library (for libraries of other versions).")
@click.option("--symbol-list", metavar="FILE", default=None,
              help="Check symbols against FILE ('<symbol><TAB><C signature>' lines) instead of the bundled list.")
@click.option("--device-library", type=click.Choice(["bundled", "1.2.0", "1.2.0-post", "master"]), default="bundled",
              show_default=True,
              help="Device template library to link against: the bundled one (device_templates/) or an AscendNPU-IR "
                   "release's (pick the release of your bishengir-compile).")
@click.option("--list-symbols", is_flag=True,
              help="Print the device template library's symbols with their C signatures, and exit.")
@click.option("--debug", is_flag=True, help="Show a Python traceback on internal errors.")
@click.version_option(__version__, prog_name="ttd-lower")
def main(input_path: str, output_path: Optional[str], core_type_fallback: str, split_input_file: bool, generic: bool,
         strip_debuginfo: bool, strip_comments: bool, dump_dir: Optional[str], override_dir: Optional[str],
         stop_after: Optional[str], timing: bool, verify_diagnostics: bool, no_link_check: bool,
         symbol_list: Optional[str], device_library: str, list_symbols: bool, debug: bool) -> None:
    """Lower the Triton-distributed ops of the TTIR file IN to hivm.hir.custom ops.

    Everything that is not a distributed op is copied unchanged.  IN may be '-' for stdin.
    A file named <stem>.ttadapter.mlir is taken as already lowered (it is only re-printed).
    """
    from .diagnostics import ERROR, DiagnosticError, print_diagnostics

    if list_symbols:
        _list_symbols(symbol_list, device_library)
        return
    if input_path == "-" and sys.stdin is not None and sys.stdin.isatty():
        raise click.UsageError("no input: give a TTIR file, or pipe one to stdin")
    filename = "<stdin>" if input_path == "-" else input_path
    try:
        text = read_input(input_path)
        from .driver import PrintOptions, Request, compile_text, stage_of, timing_report
        from .pipeline import Options
        from .split import Chunk, join_outputs, split_input

        if not no_link_check:
            _load_symbols(symbol_list, device_library)  # a bad --symbol-list is a usage error, found before any work
        options = Options(core_type_fallback=core_type_fallback == "symbol-table", link_check=not no_link_check,
                          symbol_list=symbol_list, device_library=device_library)
        printing = PrintOptions(generic=generic, debuginfo=not strip_debuginfo)
        chunks = split_input(text) if split_input_file else [Chunk(text, 1)]
        stem = stage_of(filename)[0]
        outputs, diagnostics, timings = [], [], []
        for number, chunk in enumerate(chunks, 1):
            request = Request(chunk.text, filename, options, printing, dump_dir=dump_dir, override_dir=override_dir,
                              stop_after=stop_after, split_line=chunk.start_line if split_input_file else None,
                              dump_stem=f"{stem}.split{number}" if split_input_file else None,
                              notify=lambda message: click.echo(message, err=True))
            try:
                result = compile_text(request)
                outputs.append(result.text)
                timings.extend(result.timings)
                found = list(result.warnings)
            except DiagnosticError as e:
                found = e.diagnostics
                outputs.append("")
            if verify_diagnostics:
                from .ir.core import Source
                from .verify_diagnostics import check

                found = check(Source(chunk.text, filename, request.split_line), found)
            diagnostics.extend(found)
        if any(d.severity == ERROR for d in diagnostics):
            raise DiagnosticError(diagnostics)
        print_diagnostics(diagnostics)  # warnings only: reported, and the output is written
        if strip_comments:
            outputs = [COMMENT_LINE.sub("", out) for out in outputs]
        write_output(output_path, join_outputs(chunks, outputs))
        if timing:
            click.echo(timing_report(_merge(timings)), err=True, nl=False)
    except DiagnosticError as e:
        print_diagnostics(e.diagnostics)
        sys.exit(EXIT_INPUT_ERROR)
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(EXIT_INPUT_ERROR)
    except click.ClickException:
        raise  # usage errors: click prints them and exits 2
    except OSError as e:  # dump or override folders that cannot be read or written
        raise click.UsageError(f"{e.strerror or e}: '{e.filename}'" if e.filename else str(e)) from None
    except Exception:  # a bug: say so briefly, never a traceback unless asked
        if debug:
            import traceback

            traceback.print_exc()
        click.echo(
            f"ttd-lower: internal error while processing '{filename}'. This is a bug; please report it "
            f"with the input file and this command line" + ("." if debug else " (rerun with --debug for a traceback)."),
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


def entry() -> None:
    """The ``ttd-lower`` console script: :func:`main`, then a fast process exit.

    A compile leaves tens of thousands of IR objects behind; tearing them down at interpreter
    exit costs about as much as printing them.  Output streams are flushed, then the process
    ends with ``os._exit`` and the status :func:`main` chose.
    """
    import gc

    gc.disable()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 8000))  # deeply nested regions
    try:
        main()
        code = EXIT_OK
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (EXIT_OK if e.code is None else EXIT_INPUT_ERROR)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = code or EXIT_USAGE
    os._exit(code)


def _load_symbols(symbol_list: Optional[str], device_library: str = "bundled"):
    from .lowering.link_check import SymbolListError, load_library

    try:
        return load_library(symbol_list, device_library)
    except SymbolListError as e:
        raise click.UsageError(str(e)) from None


def _list_symbols(symbol_list: Optional[str], device_library: str) -> None:
    click.echo(_load_symbols(symbol_list, device_library).listing(), nl=False)


def _merge(timings):
    """Sum the timings of split chunks per stage name, keeping the first-seen order."""
    from .pipeline import StageTiming

    merged = {}
    for t in timings:
        merged[t.name] = merged.get(t.name, 0.0) + t.seconds
    return [StageTiming(name, seconds) for name, seconds in merged.items()]
