"""The ``ttd-sim`` command line (SPEC.md section 7, "Interface"): run a kernel on simulated ranks.

``ttd-sim KERNEL --ranks R [...]`` launches KERNEL once on every rank (one step);
``ttd-sim --plan PLAN.json`` runs a plan's steps.  Findings are printed as ``ttd-lower`` prints
errors (``file:line:col: error: message``, the source line, a caret, and a note with the
kernel's Python line where the op's ``loc`` gives one).

Exit status: 0 success (with ``--check-lowering`` / ``--lowered``: the same memory before and
after under every schedule), 1 a finding (difference, deadlock, out-of-bounds access,
schedule-dependent result, step limit, op not simulated), a kernel that cannot be read or
lowered, or a malformed plan file (located at the value, ``PLAN:LINE:COL: error: KEY.PATH: ...``),
2 usage (the command line: one line, ``ttd-sim: error: message. Try 'ttd-sim --help'``), 3 internal
error (a bug).  Needs the ``sim`` extra (numpy, ml_dtypes).
"""

from __future__ import annotations

import os
import sys
import time

import click

from .. import BUG_REPORT_URL, __version__
from .help import GENERIC
from .options import GroupedCommand, option
from .output import check_writable, read_input, write_output

EXIT_OK, EXIT_FINDING, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _grid(text: str):
    try:
        dims = tuple(int(g) for g in text.split(","))
    except ValueError:
        raise click.BadParameter(f"'{text}' is not G[,G[,G]]", param_hint="--grid") from None
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise click.BadParameter(f"'{text}': one to three positive sizes", param_hint="--grid")
    return dims


def _ranks(ctx, param, value):
    if value is None:
        return None
    try:
        ranks = int(value)
    except ValueError:
        ranks = 0
    if ranks < 1:
        raise click.BadParameter(f"'{value}' is not a number of ranks: give a positive integer, e.g. --ranks 4")
    return ranks


RUN, CHECK, OUTPUT = "Run options", "Lowering-check options", "Output options"
SECTION = "README, section \"Run a kernel on simulated ranks\""


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"ttd-sim, version {__version__}", color=ctx.color)
        ctx.exit(EXIT_OK)


@click.command(cls=GroupedCommand, tool="ttd-sim", context_settings={"help_option_names": ["--help", "-h"]},
               options_metavar="[options]")
@click.argument("kernel", metavar="<kernel file>", required=False)
@option("-o", "--output", "output_path", value_name="<filename>", group=OUTPUT,
        help="Write the report (what ran, every rank's buffers) to <filename> ('-' or absent: stdout); "
             "written only when the run succeeded.")
@option("--plan", "plan_path", value_name="<plan.json>", group=RUN, help="Run the steps of a plan (JSON; " + SECTION + ").")
@option("--ranks", callback=_ranks, value_name="<n>", group=RUN, help="Number of ranks (PEs).")
@option("--grid", value_name="<g[,g[,g]]>", group=RUN,
        help="Programs per launch, along axes x, y, z (default 1).")
@option("--function", "function", value_name="<name>", group=RUN,
        help="The function to launch (default: the module's only public one).")
@option("--arg", "args", multiple=True, value_name="<name=value>", group=RUN,
        help="An argument by SSA name (without %) or #i: a number, 'rank', v0,v1,... (one per rank); for a "
             "pointer zeros(N), ones(N), arange(N), full(N,V), random(N), rank(N) or FILE.npy ({rank}: per rank).")
@option("--schedules", type=click.IntRange(1), default=1, value_name="<k>", group=RUN, help="Schedules to run (default 1).")
@option("--seed", type=click.IntRange(0), default=0, value_name="<s>", group=RUN, help="Seed of the first schedule and of random(N) (default 0).")
@option("--reorder", is_flag=True, group=RUN, help="Let loads after a wait that do not depend on its token read early.")
@option("--sub-blocks", type=click.IntRange(1), default=2, value_name="<s>", group=RUN,
        help="Sub-blocks per program of a module that uses hivm.hir.get_sub_block_idx (default 2).")
@option("--max-ops", type=click.IntRange(1), default=10 ** 7, value_name="<n>", group=RUN,
        help="Stop with an error after this many ops (all ranks, programs and sub-blocks; default 10000000).")
@option("--races", is_flag=True, group=RUN, help="Report accesses not ordered by happens-before.")
@option("--check-lowering", is_flag=True, group=CHECK, help="Lower the kernel as ttd-lower would and compare both runs.")
@option("--lowered", "lowered_path", value_name="<file>", group=CHECK, help="Compare with the lowered module in <file>.")
@option("--device-library", type=click.Choice(["bundled", "1.2.0", "1.2.0-post", "master"]), default="bundled",
        group=CHECK, help="Device template library the lowered module links against (default bundled).")
@option("--core-type-fallback", type=click.Choice(["none", "symbol-table"]), default="none", group=CHECK,
        help="As ttd-lower's option, for --check-lowering.")
@option("--out", "out_dir", value_name="<dir>", group=OUTPUT, help="Write <dir>/rank<r>.npz (every buffer, first schedule).")
@option("--trace", "trace_path", value_name="<file>", group=OUTPUT,
        help="Write the first schedule's run as a Chrome trace (open it in Perfetto).")
@option("--debug", is_flag=True, hidden=True)
@option("--version", is_flag=True, is_eager=True, expose_value=False, callback=_print_version, group=GENERIC,
        help="Display the version of this program.")
def main(kernel, output_path, plan_path, ranks, grid, function, args, schedules, seed, reorder, sub_blocks, max_ops,
         races, check_lowering, lowered_path, device_library, core_type_fallback, out_dir, trace_path, debug):
    """Run a kernel (TTIR with distributed.* ops, or its lowering) on simulated ranks.

    ttd-sim <kernel file> --ranks R [options] launches the kernel once on every rank;
    ttd-sim --plan <plan.json> [options] runs a plan's steps (README, section "Run a kernel on
    simulated ranks").  Exit status: 0 success, 1 a finding or a bad input, 2 usage, 3 a bug."""
    try:
        import numpy  # noqa: F401  (first: ml_dtypes without numpy prints its own error)
        import ml_dtypes  # noqa: F401
    except ImportError:  # not a usage error: the command line is right, the environment is not
        click.echo("ttd-sim: error: ttd-sim needs numpy and ml_dtypes: pip install -e '.[sim]' in a clone of ttd-lower ('ttd-lower[sim]' for a wheel; it is not on PyPI)", err=True)
        sys.exit(EXIT_FINDING)
    from ..api import LoweringError
    from ..diagnostics import DiagnosticError
    from ..diagnostics import print_diagnostics
    from ..sim import Finding, UsageError
    from ..sim.plan_schema import PlanError
    from .sim_run import build_plan, describe, lowers_nothing, run_plan

    if check_lowering and lowered_path:
        raise click.UsageError("--check-lowering and --lowered exclude each other")
    check_writable(output_path, "-o")
    check_writable(out_dir, "--out", directory=True)
    check_writable(trace_path, "--trace")
    try:
        plan, kernel_text = build_plan(kernel, plan_path, ranks, grid and _grid(grid), function, args)
        lowered = None
        if lowered_path:
            lowered = {kernel_text: (read_input(lowered_path), lowered_path)}
        if check_lowering and lowers_nothing(plan):
            click.echo(f"ttd-sim: note: {kernel or plan_path} holds no distributed op (already lowered?), so "
                       f"--check-lowering compares each module with itself; give it the TTIR before lowering, "
                       f"or that TTIR with --lowered {kernel or 'FILE'}", err=True)
        t0 = time.perf_counter()
        with _progress() as on_progress:
            result = run_plan(plan, compare=check_lowering or lowered is not None, lowered=lowered, seed=seed,
                              schedules=schedules, reorder=reorder, sub_blocks=sub_blocks, max_ops=max_ops,
                              device_library=device_library, core_type_fallback=core_type_fallback == "symbol-table",
                              on_progress=on_progress, races=races, trace=trace_path)
        compared = check_lowering or lowered is not None
        write_output(output_path, describe(plan, result, time.perf_counter() - t0, compared, races) + "\n")
        if out_dir:
            _write_npz(out_dir, result)
    except PlanError as e:
        print_diagnostics([e.diagnostic], tool="ttd-sim")
        sys.exit(EXIT_FINDING)
    except UsageError as e:
        raise click.UsageError(_usage_message(e, plan_path)) from None
    except Finding as f:
        print_diagnostics([_with_python_notes(f.diagnostic())], tool="ttd-sim")
        sys.exit(EXIT_FINDING)
    except (LoweringError, DiagnosticError) as e:
        print_diagnostics(_in_sim_options(e.diagnostics), tool="ttd-sim")
        sys.exit(EXIT_FINDING)
    except click.ClickException:
        raise
    except Exception:
        if debug:
            import traceback

            traceback.print_exc()
        click.echo(f"ttd-sim: internal error. This is a bug; please report it at {BUG_REPORT_URL}"
                   + ("." if debug else " (rerun with --debug for a traceback)."), err=True)
        sys.exit(EXIT_INTERNAL)


def _in_sim_options(diagnostics):
    """The lowering's diagnostics with its option hints in ttd-sim's options (ttd-sim has no
    --symbol-list or --no-link-check; new-user trial of session 42)."""
    from ..lowering.link_check import OPTIONS_HINT, SIM_OPTIONS_HINT

    for d in diagnostics:
        d.message = d.message.replace(OPTIONS_HINT, SIM_OPTIONS_HINT)
    return diagnostics


def _usage_message(e, plan_path) -> str:
    """A usage error as the command line's user wrote it: ``--arg NAME: ...`` for the value of an
    argument (the plan the command line makes is not the user's, so no key path of it)."""
    path = getattr(e, "path", None)
    if plan_path is None and path:
        if path[0] == "buffers" or "args" in path[:-1]:
            return f"--arg {path[-1]}: {e.message}"
        if tuple(path) == ("ranks",):
            return f"--ranks: {e.message}"
        return e.message
    return str(e)


def _with_python_notes(diag):
    from ..pyloc import python_source_notes

    if diag.source is not None:
        diag.notes[:0] = python_source_notes(diag, diag.source.text)
    return diag


def _write_npz(out_dir: str, result) -> None:
    import numpy as np

    try:
        os.makedirs(out_dir, exist_ok=True)
        for r, bufs in enumerate(result.buffers):
            np.savez(os.path.join(out_dir, f"rank{r}.npz"), **bufs)
    except OSError as e:
        raise click.UsageError(f"--out: cannot write '{out_dir}': {e.strerror}") from None


class _progress:
    """A rich progress bar on stderr (a terminal only) once a run takes more than a second: the
    programs done of the current step, with the run, step and op count (``Progress.describe``)."""

    def __enter__(self):
        self.start = time.perf_counter()
        self.bar = None
        self.task = None
        return self.update if sys.stderr is not None and sys.stderr.isatty() else None

    def update(self, progress) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < 1.0:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("simulating"), BarColumn(), TextColumn("{task.description}"),
                                TimeElapsedColumn(), console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("", total=None)
        self.bar.update(self.task, completed=progress.done, total=progress.programs, description=progress.describe())

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


def entry() -> None:
    """The ``ttd-sim`` console script."""
    main()
