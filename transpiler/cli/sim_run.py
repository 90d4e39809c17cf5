"""``ttd-sim``'s plan from the command line, its run, and what it prints (see ``cli/sim.py``)."""

from __future__ import annotations

from typing import Dict, Optional, Sequence

import numpy as np

from ..sim import Launch, Plan, UsageError, check_lowering, load_plan, simulate
from ..sim.dtypes import dtype_of, is_pointer, pointee


def _function_arguments(text: str, filename: str, function: Optional[str]):
    from ..parser import parse_module
    from ..sim.compiler import module_functions

    module = parse_module(text, filename)  # DiagnosticError: located, as ttd-lower prints it (issue 31 item 3)
    funcs = module_functions(module)
    if function is None:
        public = [n for n, (_, pub) in funcs.items() if pub]
        if not public:
            raise UsageError(f"{filename} has no public function to launch (a tt.func or func.func that is not private)")
        if len(public) != 1:
            raise UsageError(f"{filename} has {len(public)} public functions ({', '.join(public)}): name one with --function")
        function = public[0]
    if function not in funcs:
        raise UsageError(f"{filename} has no function @{function} (it has {', '.join(funcs)})")
    return module, function, list(funcs[function][0].regions[0].blocks[0].arguments)


def build_plan(kernel: Optional[str], plan_path: Optional[str], ranks: Optional[int], grid, function, args: Sequence[str]):
    """``(plan, kernel text)`` from the command line (a ``--plan`` file, or KERNEL and its options).

    Raises:
        UsageError: a missing KERNEL or --ranks, a malformed --arg, an argument not given.
        click.UsageError: KERNEL cannot be read.
        DiagnosticError: KERNEL is not UTF-8 text (as ``ttd-lower``).
    """
    if plan_path is not None:
        given = [o for o, v in (("KERNEL", kernel), ("--arg", args), ("--ranks", ranks), ("--grid", grid),
                                ("--function", function)) if v]
        if given:
            raise UsageError(f"--plan takes the kernels, ranks, grids and arguments from the plan: give no "
                             f"{' or '.join(given)}")
        plan = load_plan(plan_path)
        launches = [a for step in plan.steps for a in step if isinstance(a, Launch)]
        return plan, (launches[0].module if launches else None)
    if kernel is None:
        raise UsageError("give a KERNEL file (or --plan PLAN.json)")
    if kernel.endswith(".json"):  # a plan given as the kernel was told to give --ranks (new-user trial, session 43)
        raise UsageError(f"{kernel} looks like a plan, not a kernel: run it with --plan {kernel}")
    if ranks is None:
        raise UsageError("give the number of ranks (--ranks R)")
    from .output import read_input

    text = read_input(kernel)  # click.UsageError; DiagnosticError at the first byte that is not UTF-8
    _module, function, arguments = _function_arguments(text, kernel, function)
    given: Dict[str, str] = {}
    for a in args:
        name, eq, value = a.partition("=")
        if not eq or not name:
            raise UsageError(f"--arg '{a}' is not NAME=VALUE")
        if name in given:
            raise UsageError(f"--arg {a}: '{name}' is given twice (first as --arg {name}={given[name]})")
        given[name] = value
    names = [arg.name.lstrip("%") if arg.name else f"#{i}" for i, arg in enumerate(arguments)]
    _check_names(given, names, function)
    for i, n in enumerate(names):
        if n in given and f"#{i}" in given and n != f"#{i}":  # the name won, silently (attack of session 43)
            raise UsageError(f"--arg {n}={given[n]} and --arg #{i}={given[f'#{i}']} give one argument twice")
    missing = [n for i, n in enumerate(names) if n not in given and f"#{i}" not in given]
    if len(missing) > 1:  # all of them at once, not one per try (new-user trial of session 42)
        raise UsageError(f"{len(missing)} arguments of @{function} are not given: "
                         + " ".join(f"--arg {n}=VALUE" for n in missing))
    buffers, launch_args = {}, {}
    for i, arg in enumerate(arguments):
        name = arg.name.lstrip("%") if arg.name else f"#{i}"
        key = name if name in given else (f"#{i}" if f"#{i}" in given else None)
        if key is None:
            raise UsageError(f"argument '{name}' of @{function} is not given (--arg {name}=VALUE)")
        value = given.pop(key)
        if is_pointer(arg.type):
            from ..sim.plan import parse_value

            try:
                buffers[name] = parse_value(value, dtype_of(pointee(arg.type)), ".", ranks)
            except UsageError as e:
                raise UsageError(f"--arg {name}={value}: {e}") from None
            launch_args[name] = name
        else:
            launch_args[name] = _scalar(value, name, ranks)
            _check_scalar(launch_args[name], name, value, dtype_of(arg.type))
    launch = Launch(list(range(ranks)), text, function, grid or (1,), launch_args, filename=kernel)
    return Plan(ranks, buffers, [[launch]]), text


def _check_names(given: Dict[str, str], names: Sequence[str], function: str) -> None:
    """Raise :class:`UsageError` naming each ``--arg`` that is neither an argument's SSA name nor
    ``#i`` of one, with near names (``difflib.get_close_matches``; issue 31, item 4)."""
    import difflib

    known = set(names) | {f"#{i}" for i in range(len(names))}
    unknown = [n for n in given if n not in known]
    if not unknown:
        return
    parts = []
    for n in unknown:
        near = difflib.get_close_matches(n, names, n=3)
        parts.append(n + (f" (did you mean {' or '.join(near)}?)" if near else ""))
    raise UsageError(f"@{function} has no argument {', '.join(parts)}; its arguments: {', '.join(names)}")


def _scalar(value: str, name: str, ranks: int):
    value = value.strip()
    if value == "rank":
        return "rank"
    parts = value.split(",")
    try:
        numbers = [float(p) if any(c in p for c in ".eEn") else int(p, 0) for p in parts]
    except ValueError:
        raise UsageError(f"--arg {name}={value}: a number, 'rank' or one number per rank") from None
    if len(numbers) == 1:
        return numbers[0]
    if len(numbers) != ranks:
        raise UsageError(f"--arg {name}={value}: {len(numbers)} values for {ranks} ranks")
    return numbers


def _check_scalar(given, name: str, text: str, dtype) -> None:
    """Raise :class:`UsageError` naming ``--arg NAME=VALUE`` when a value does not fit the
    argument's type (NaN, infinity or a fraction for an integer; issue 31 item 5)."""
    from ..sim.arguments import scalar_value

    values, texts = (given, text.split(",")) if isinstance(given, list) else ([given], [text])
    for v, shown in zip(values, texts):
        if v != "rank":
            try:
                scalar_value(v, dtype, shown.strip())
            except (ValueError, OverflowError) as e:
                raise UsageError(f"--arg {name}={text}: {e}") from None


def lowers_nothing(plan: Plan) -> bool:
    """Whether no module the plan launches holds a distributed op (an already lowered module,
    say): ``--check-lowering`` then compares each module with itself (new-user trial of
    session 42)."""
    from ..parser import parse_module

    modules = {a.module for step in plan.steps for a in step if isinstance(a, Launch)}
    return all(isinstance(m, str) and not parse_module(m).names_distributed for m in modules)


def run_plan(plan: Plan, compare: bool, lowered, **options):
    """Run (or, with ``compare``, check the lowering of) ``plan``; the result."""
    if compare:
        return check_lowering(plan, lowered=lowered, **options)
    options.pop("core_type_fallback", None)
    return simulate(plan, **options)


def describe(plan: Plan, result, seconds: float, compared: bool, races: bool = False) -> str:
    """The summary ``ttd-sim`` prints: what ran, what was checked (the lowering's memory, the
    schedules', the absence of races with ``races``), then every rank's buffers (abridged)."""
    n = len(result.seeds)
    head = (f"ttd-sim: {plan.ranks} ranks, {len(plan.steps)} step{'s' if len(plan.steps) != 1 else ''}, "
            f"{n} schedule{'s' if n != 1 else ''} (seed {result.seeds[0]}): {result.ops:,} ops per run"
            + (" (of the lowered module)" if compared else ""))
    lines = [head]
    if compared:
        lines.append(f"ttd-sim: the lowered module gives the same memory under every schedule")
    elif n > 1:
        lines.append("ttd-sim: every schedule gives the same memory")
    if races:
        lines.append(f"ttd-sim: no data race{' before or after lowering' if compared else ''} "
                     f"(every two conflicting accesses ordered by happens-before)")
    with np.printoptions(threshold=8, edgeitems=3, precision=4, linewidth=120):
        for r, bufs in enumerate(result.buffers):
            for name, a in bufs.items():
                lines.append(f"rank {r} {name} ({a.dtype.name}[{a.size}]): {np.array2string(a, separator=' ')}")
    return "\n".join(lines)
