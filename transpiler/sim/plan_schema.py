"""A plan's shape checked as a schema (issue 31, item 5), for plan files and the Python API alike.

:func:`~transpiler.sim.plan_actions.check_plan` checks a :class:`~transpiler.sim.plan.Plan` made in Python or read from
JSON and returns it normalised (every launch's ranks a list, grids tuples, a bare action a
step of its own, a kernel path read); its errors are :class:`UsageError` s naming the key path
(``steps[0][1].grid: expected ...``).  :func:`read_plan` reads a plan file with the positions
of its values (``jsonpos``) and turns every error into a :class:`PlanError`, a located MLIR-style
diagnostic ``PLAN:LINE:COL: error: KEY.PATH: ...`` (exit status 1 of ``ttd-sim``, an error in
an input as ``ttd-lower`` reports one).  Checks that need the kernel (arguments, their types)
are ``arguments.py``'s, located the same way through ``Plan.origin``.
"""

from __future__ import annotations

import difflib
import json
import os
from typing import Any, Sequence

import attrs

from ..fileio import read_limited
from ..diagnostics import ERROR, Diagnostic
from ..ir.source import Source
from .errors import UsageError, format_path
from .jsonpos import Positions, load
from .plan import Fill, Launch, Plan
from .plan_actions import check_plan
from .plan_kinds import describe

PLAN_KEYS = ("ranks", "teams", "buffers", "steps")
LAUNCH_KEYS = ("ranks", "kernel", "function", "grid", "args")
FILL_KEYS = ("ranks", "fill")
_JSON_NAMES = {"module": "kernel", "values": "fill"}  # a Launch's / Fill's field -> the plan file's key


class PlanError(UsageError):
    """A malformed plan file: ``diagnostic`` is located at the offending value (or key)."""

    def __init__(self, diagnostic: Diagnostic, path=None):
        super().__init__(diagnostic.message)
        self.path = tuple(path) if path is not None else None
        self.diagnostic = diagnostic

    def __str__(self) -> str:
        return self.diagnostic.render()


@attrs.define(eq=False)
class PlanSource:
    """A plan file's text and the offsets of its values (``Plan.origin`` of a loaded plan)."""

    source: Source
    positions: Positions

    def error(self, path: Sequence, message: str, key: bool = False, offset=None) -> PlanError:
        """A :class:`PlanError` at the value at ``path`` (its key with ``key``; or ``offset``)."""
        path = tuple(_JSON_NAMES.get(p, p) if isinstance(p, str) else p for p in path)
        if offset is None:
            offset = self.positions.keys.get(path) if key else None
        if offset is None:
            offset = self.positions.of(path)
        text = f"{format_path(path)}: {message}" if path else message
        return PlanError(Diagnostic(ERROR, text, self.source, offset), path)

    def locate(self, e: UsageError) -> UsageError:
        """``e`` located in the file when it names a key path, else ``e``."""
        if isinstance(e, PlanError) or e.path is None:
            return e
        return self.error(e.path, e.message, key=getattr(e, "at_key", False))


def unknown_key(key: str, known: Sequence[str]) -> str:
    """``unknown key 'stpes' (did you mean 'steps'?); expected ...``."""
    near = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean '{near[0]}'?)" if near else ""
    return f"unknown key '{key}'{hint}; expected {', '.join(known)}"


def read_plan(path: str) -> Plan:
    """The plan in the JSON file ``path``, checked; kernels are read relative to the file.

    Raises:
        UsageError: the file cannot be read; PlanError (a UsageError): anything malformed in it.
    """
    try:
        with open(path, "rb") as f:
            raw = read_limited(f)
    except OSError as e:
        raise UsageError(f"cannot read the plan {path}: {e.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        src = PlanSource(Source(raw.decode("utf-8", "replace"), path), Positions())
        bad = len(raw[: e.start].decode("utf-8"))
        raise src.error((), "invalid UTF-8: the plan is not JSON text", offset=bad) from None
    try:
        data, positions = load(text)
    except json.JSONDecodeError as e:
        raise PlanSource(Source(text, path), Positions()).error((), f"not JSON: {e.msg}", offset=e.pos) from None
    src = PlanSource(Source(text, path), positions)
    try:
        return check_plan(_from_json(data, src, os.path.dirname(os.path.abspath(path))))
    except UsageError as e:
        raise src.locate(e) from None


def _from_json(data: Any, src: PlanSource, base: str) -> Plan:
    _keys(data, (), PLAN_KEYS, "a plan is an object", src)
    for key in ("ranks", "steps"):
        if key not in data:
            raise src.error((), f"a plan needs '{key}'; it has {', '.join(data) or 'no key'}")
    buffers = data.get("buffers", {})
    if not isinstance(buffers, dict):
        raise UsageError(f"expected an object (buffer name -> value such as \"zeros(16, i32)\"), got {describe(buffers)}",
                         ("buffers",))
    for name, v in buffers.items():
        if not isinstance(v, str):
            raise UsageError(f"expected a buffer value such as \"zeros(16, i32)\" or \"x.npy\", got {describe(v)}",
                             ("buffers", name))
    steps, texts = data["steps"], {}
    if not isinstance(steps, list):
        raise UsageError(f"expected a list of one or more steps, got {describe(steps)}", ("steps",))
    plan_steps = []
    for s, step in enumerate(steps):
        if not isinstance(step, list):
            raise UsageError(f"expected a list of actions (a step), got {describe(step)}", ("steps", s))
        actions = []
        for a, action in enumerate(step):
            at = ("steps", s, a)
            kind = "fill" if isinstance(action, dict) and "fill" in action else "kernel"
            _keys(action, at, FILL_KEYS if kind == "fill" else LAUNCH_KEYS, "an action is an object", src)
            if kind == "fill":  # no "ranks": every rank, as in the API
                actions.append(Fill(action.get("ranks"), _fill_values(action["fill"], at)))
                continue
            if "kernel" not in action:
                raise src.error(at, "an action needs 'kernel' (a launch) or 'fill' (host writes)")
            kernel = action["kernel"]
            if not isinstance(kernel, str):
                raise UsageError(f"expected a file name (a string), got {describe(kernel)}", at + ("kernel",))
            file = os.path.join(base, kernel)
            if file not in texts:
                texts[file] = _read_kernel(file, at)
            if not isinstance(action.get("args", {}), dict):
                raise UsageError(f"expected an object (argument name -> value), got {describe(action['args'])}",
                                 at + ("args",))
            actions.append(Launch(action.get("ranks"), texts[file], action.get("function"), action.get("grid", [1]),
                                  action.get("args", {}), filename=file))
        plan_steps.append(actions)
    teams = data.get("teams", [])
    teams = [tuple(t) if isinstance(t, list) else t for t in teams] if isinstance(teams, list) else teams
    return Plan(data["ranks"], buffers, plan_steps, teams, base, origin=src)


def _keys(obj, path, known, what, src: PlanSource) -> None:
    if not isinstance(obj, dict):
        raise UsageError(f"{what} ({', '.join(known)}), got {describe(obj)}", path)
    for key in obj:
        if key not in known:
            raise src.error(path + (key,), unknown_key(key, known), key=True)


def _fill_values(values, at):
    if not isinstance(values, dict):
        raise UsageError(f"expected an object (buffer name -> value such as \"zeros(4)\"), got {describe(values)}",
                         at + ("fill",))
    return values


def _read_kernel(file: str, at) -> str:
    try:
        with open(file, encoding="utf-8") as f:
            return read_limited(f)
    except OSError as e:
        raise UsageError(f"cannot read the kernel {file}: {e.strerror}", at + ("kernel",)) from None
    except UnicodeDecodeError:
        raise UsageError(f"the kernel {file} is not UTF-8 text", at + ("kernel",)) from None


def load_plan(path: str) -> Plan:
    """A plan from its JSON file (SPEC.md section 7, ``--plan``), checked as a schema
    (:func:`read_plan`); kernels relative to the file.

    Raises:
        UsageError: the file cannot be read; :class:`PlanError` (a UsageError, located at
            the value in the file): anything malformed in it.
    """
    return read_plan(path)
