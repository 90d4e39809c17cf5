"""Launching a ``@triton.jit`` kernel on simulated ranks (``transpiler.sim``, SPEC.md section 7).

:func:`launches` turns one host launch ``kernel[grid](*args)`` on several ranks into simulator
:class:`~transpiler.sim.Launch` actions: each rank's arguments are specialised as Triton would
(:func:`.compile.specialize`: a per-rank int equal to 1, a constexpr rank ...), ranks whose
TTIR is the same share one action, and only the arguments the compiled function still takes
are passed.  :func:`run` does it for one launch on every rank and returns each rank's buffers,
run before and after lowering (``transpiler.sim.check_lowering``) unless told otherwise.

Needs the ``sim`` extra (numpy) as well as the ``frontend`` one.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from .compile import Pointer, compile_ttir, specialize


def _buffer_dtype(value, ranks: int) -> str:
    from ..sim import parse_value

    return parse_value(value, ranks=ranks).dtype.name


def _per_rank(value, index: int, rank: int):
    if isinstance(value, list):
        return value[index]
    return rank if isinstance(value, str) and value == "rank" else value


def launches(kernel, ranks: Sequence[int], args: Dict[str, Any], buffers: Dict[str, Any], grid=(1,),
             world: Optional[int] = None) -> List[Any]:
    """Simulator launch actions of ``kernel`` on ``ranks`` (one per distinct specialisation).

    Args:
        kernel: a ``@triton.jit`` function.
        ranks: the ranks that launch it (in one step).
        args: every parameter by name: a buffer name (a pointer to that buffer), a number,
            ``"rank"`` or a list with one value per rank of ``ranks``; constexpr parameters
            the same way.
        buffers: the plan's buffers, name -> VALUE (their element types make the pointer types).
        grid: programs per axis.
        world: the plan's rank count (default: ``max(ranks) + 1``), for per-rank buffer VALUEs.

    Raises:
        TypeError: ``args`` misses a parameter or names one the kernel lacks.
        triton.compiler.errors.CompilationError: the kernel does not compile.
    """
    from ..sim import Launch

    world = world or max(ranks) + 1
    by_text: Dict[str, List[int]] = {}
    arguments: Dict[str, Dict[str, Any]] = {}
    for index, rank in enumerate(ranks):
        values = {}
        for name, value in args.items():
            value = _per_rank(value, index, rank)
            is_buffer = isinstance(value, str) and value in buffers
            values[name] = Pointer(_buffer_dtype(buffers[value], world)) if is_buffer else value
        signature = specialize(kernel, **values)[0]
        text = compile_ttir(kernel, filename=f"{kernel.__name__}.ttir", **values)
        by_text.setdefault(text, []).append(index)
        arguments[text] = {k: v for k, v in args.items() if signature.get(k) != "constexpr"}
    actions = []
    for text, indices in by_text.items():
        group = [ranks[i] for i in indices]
        passed = {k: ([v[i] for i in indices] if isinstance(v, list) else v) for k, v in arguments[text].items()}
        actions.append(Launch(ranks=group, module=text, grid=tuple(grid), args=passed,
                              filename=f"{kernel.__name__}.ttir"))
    return actions


def run(kernel, *, ranks: int, buffers: Dict[str, Any], args: Dict[str, Any], grid=(1,), lowering: bool = True,
        schedules: int = 1, teams=(), **options) -> List[Dict[str, Any]]:
    """Launch ``kernel`` once on each of ``ranks`` simulated ranks; each rank's buffers after it.

    Args:
        ranks / buffers / args / grid: as :func:`launches` (``buffers``: the plan's VALUEs,
            ``"zeros(16, i32)"``, numpy arrays ...).
        lowering: run before and after ``ttd-lower`` and require the same memory
            (``transpiler.sim.check_lowering``); False runs the TTIR only.
        schedules / teams / options: as ``transpiler.sim.simulate`` (``seed``, ``sub_blocks``,
            ``reorder``, ``max_ops`` ...) and ``Plan.teams``.

    Returns:
        ``[{buffer name: numpy array}]``, one dict per rank (after lowering when ``lowering``).

    Raises:
        transpiler.sim.Finding: deadlock, out-of-bounds access, a schedule-dependent result,
            a difference before/after lowering ... (``finding.diagnostic()`` is located).
    """
    from ..sim import Plan, check_lowering, simulate

    plan = Plan(ranks=ranks, buffers=dict(buffers), teams=list(teams),
                steps=[launches(kernel, list(range(ranks)), args, buffers, grid, ranks)])
    result = (check_lowering if lowering else simulate)(plan, schedules=schedules, **options)
    return result.buffers
