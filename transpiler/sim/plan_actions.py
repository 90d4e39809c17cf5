"""The schema of a plan (:func:`check_plan`) and its parts: teams, buffers, steps and their
actions, each checked and normalised, each error a :class:`UsageError` with its key path."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Dict, List

import attrs
import numpy as np

from ..fileio import read_limited
from .errors import UsageError
from .limits import check_heaps
from .plan import BufferValue, Fill, Launch, Plan
from .plan_kinds import describe, is_int, is_number


def check_teams(teams, ranks: int) -> list:
    """``[(start, stride, size)]``, each a strided subset of the ``ranks`` ranks."""
    if not isinstance(teams, (list, tuple)):
        raise UsageError(f"expected a list of [start, stride, size], got {describe(teams)}", ("teams",))
    out = []
    for k, t in enumerate(teams):
        if not isinstance(t, (list, tuple)) or len(t) != 3 or not all(is_int(x) for x in t):
            raise UsageError(f"expected [start, stride, size] (three integers), got {describe(t)}", ("teams", k))
        start, stride, size = (int(x) for x in t)
        if not 1 <= size <= ranks or any(not 0 <= start + i * stride < ranks for i in range(size)):
            raise UsageError(f"team {[start, stride, size]} is not a strided subset of the {ranks} ranks", ("teams", k))
        out.append((start, stride, size))
    return out


def check_buffers(buffers) -> Dict[str, Any]:
    """name -> VALUE (text, a numpy array, a list of arrays, a parsed value); no buffer ``rank``."""
    if not isinstance(buffers, Mapping):
        raise UsageError(f"expected a mapping of buffer name -> value, got {describe(buffers)}", ("buffers",))
    for name, v in buffers.items():
        if not isinstance(name, str) or not name:
            raise UsageError(f"a buffer name is a non-empty string, not {describe(name)}", ("buffers",))
        if name == "rank":
            raise UsageError("no buffer may be named 'rank' (it is the rank's number as an argument)", ("buffers", name))
        arrays = isinstance(v, (list, tuple)) and v and all(isinstance(a, np.ndarray) for a in v)
        if not isinstance(v, (str, np.ndarray, BufferValue)) and not arrays:
            raise UsageError(f"expected a buffer value such as 'zeros(16, i32)', a numpy array or one per rank, "
                             f"got {describe(v)}", ("buffers", name))
    return dict(buffers)


def check_steps(steps, ranks: int, buffers: Dict[str, Any], base_dir: str) -> List[list]:
    """Steps as lists of actions; a bare :class:`Launch` / :class:`Fill` is a step of its own."""
    if isinstance(steps, (str, bytes)) or not isinstance(steps, (list, tuple)) or not steps:
        raise UsageError(f"expected a list of one or more steps, got {describe(steps)}", ("steps",))
    out = []
    for s, step in enumerate(steps):
        if isinstance(step, (Launch, Fill)):
            step = [step]
        if not isinstance(step, (list, tuple)) or not step:
            raise UsageError(f"expected a list of actions (a step: Launch and Fill), got {describe(step)}", ("steps", s))
        actions = []
        for a, action in enumerate(step):
            at = ("steps", s, a)
            if isinstance(action, Launch):
                actions.append(_launch(action, ranks, at, base_dir))
            elif isinstance(action, Fill):
                actions.append(_fill(action, ranks, buffers, at))
            else:
                raise UsageError(f"expected a Launch or a Fill, got {describe(action)}", at)
        out.append(actions)
    return out


def _ranks(value, ranks: int, at) -> List[int]:
    if value is None:
        return list(range(ranks))
    if is_int(value) or isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise UsageError(f"expected a list of rank numbers such as [0, 1] (every rank: range({ranks})), "
                         f"got {describe(value)}", at + ("ranks",))
    out = list(value)
    if not out:
        raise UsageError("expected one or more rank numbers, got []", at + ("ranks",))
    seen = set()
    for i, r in enumerate(out):
        if not is_int(r) or not 0 <= r < ranks:
            raise UsageError(f"{describe(r)} is not one of the {ranks} ranks (0 to {ranks - 1})", at + ("ranks", i))
        if r in seen:
            raise UsageError(f"rank {r} is named twice", at + ("ranks", i))
        seen.add(r)
    return [int(r) for r in out]


def _launch(launch: Launch, ranks: int, at, base_dir: str) -> Launch:
    members = _ranks(launch.ranks, ranks, at)
    module, filename = launch.module, launch.filename
    if isinstance(module, os.PathLike) or (isinstance(module, str) and "{" not in module and "\n" not in module
                                            and module.strip()):
        filename = os.fspath(module)
        path = filename if os.path.isabs(filename) else os.path.join(base_dir, filename)
        try:
            with open(path, encoding="utf-8") as f:
                module = read_limited(f)
        except OSError as e:
            raise UsageError(f"cannot read the kernel {filename}: {e.strerror}", at + ("module",)) from None
        except UnicodeDecodeError:
            raise UsageError(f"the kernel {filename} is not UTF-8 text", at + ("module",)) from None
    elif not isinstance(module, str) and not hasattr(module, "walk"):
        raise UsageError(f"expected the module as TTIR text, a file path or a parsed module, got {describe(module)}",
                         at + ("module",))
    if launch.function is not None and not isinstance(launch.function, str):
        raise UsageError(f"expected a function name, got {describe(launch.function)}", at + ("function",))
    grid = launch.grid
    if (isinstance(grid, (str, bytes, Mapping)) or not hasattr(grid, "__iter__") or not 1 <= len(list(grid)) <= 3
            or not all(is_int(g) and g >= 1 for g in grid)):
        raise UsageError(f"expected a list of 1 to 3 positive integers, got {describe(grid)}", at + ("grid",))
    args = launch.args
    if not isinstance(args, Mapping):
        raise UsageError(f"expected a mapping of argument name -> value, got {describe(args)}", at + ("args",))
    for name, v in args.items():
        if not isinstance(name, str):
            raise UsageError(f"an argument name is a string (its SSA name or #i), not {describe(name)}", at + ("args",))
        values = v if isinstance(v, (list, tuple)) else [v]
        if isinstance(v, (list, tuple)) and len(v) != len(members):
            raise UsageError(f"{len(v)} values for {len(members)} ranks", at + ("args", name))
        for x in values:
            if not (is_number(x) or isinstance(x, str)):
                raise UsageError(f"expected a number, 'rank', a buffer name or one of these per rank, got {describe(x)}",
                                 at + ("args", name))
    return attrs.evolve(launch, ranks=members, module=module, filename=filename, grid=tuple(int(g) for g in grid),
                        args=dict(args))


def _fill(fill: Fill, ranks: int, buffers: Dict[str, Any], at) -> Fill:
    members = _ranks(fill.ranks, ranks, at)
    if not isinstance(fill.values, Mapping):
        raise UsageError(f"expected a mapping of buffer name -> value, got {describe(fill.values)}", at + ("values",))
    import difflib

    for name, v in fill.values.items():
        if name not in buffers:
            near = difflib.get_close_matches(str(name), list(buffers), n=1)
            e = UsageError(f"no buffer '{name}'" + (f" (did you mean '{near[0]}'?)" if near else "")
                           + f"; the plan's buffers: {', '.join(buffers) or 'none'}", at + ("values", name))
            e.at_key = True
            raise e
        arrays = isinstance(v, (list, tuple)) and v and all(isinstance(a, np.ndarray) for a in v)
        if not isinstance(v, (str, np.ndarray, BufferValue)) and not arrays:
            raise UsageError(f"expected a buffer value such as 'zeros(4)', got {describe(v)}", at + ("values", name))
    return attrs.evolve(fill, ranks=members, values=dict(fill.values))


def check_plan(plan: Plan) -> Plan:
    """``plan`` checked and normalised (see the module's docstring).

    Raises:
        UsageError: naming the key path of the first value that is not as SPEC.md section 7 says.
    """
    if not isinstance(plan, Plan):
        raise UsageError(f"expected a Plan, got {describe(plan)}")
    ranks = plan.ranks
    if not is_int(ranks) or ranks < 1:
        raise UsageError(f"expected a positive integer, got {describe(ranks)}", ("ranks",))
    try:
        check_heaps(ranks)
    except UsageError as e:
        raise UsageError(e.message, ("ranks",)) from None
    teams = check_teams(plan.teams, ranks)
    buffers = check_buffers(plan.buffers)
    steps = check_steps(plan.steps, ranks, buffers, plan.base_dir)
    return attrs.evolve(plan, buffers=buffers, steps=steps, teams=teams)
