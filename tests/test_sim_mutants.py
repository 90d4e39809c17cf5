"""Criterion 3 of issue 23: the mutation test.  Each lowering rule is broken mechanically in the
text ``ttd-lower`` prints for the corpus kernels (``../shared/corpus/distributed/``) and the
examples (``tests/lowering_mutants.py``), and ``check_lowering`` (the run before lowering against
the mutant, same inputs and schedules) must report every mutant as a finding (difference,
deadlock, out-of-bounds, schedule-dependent result, or an error at the op) on at least one kernel.

The signal buffers hold a non-zero pattern between their slots (every element but those at
multiples of 64 bytes), so that a wider read of a slot or an ADD where a SET belongs changes what
is seen.  Each kernel's unmutated lowering passes the same check first: the findings come from
the mutations, not from the plans.  No output is stored: the run before lowering is the reference.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from functools import lru_cache

import attrs
import numpy as np
import pytest

from lowering_mutants import MUTATORS, REORDER
from sim_kernels import BUILDERS, DISTRIBUTED, EXAMPLES, KERNELS
from transpiler import lower
from transpiler.api import LoweringWarning
from transpiler.sim import Fill, Finding, Launch, check_lowering
from transpiler.sim.plan import parse_value

RANKS, SCHEDULES = 4, 3
SIM = [sys.executable, "-c", "from transpiler.cli.sim import entry; entry()"]
SOURCES = [("corpus", k, DISTRIBUTED / f"{k}.ttir") for k in KERNELS] + \
          [("example", d.name, d / f"{d.name}.ttir") for d in sorted(EXAMPLES.iterdir()) if d.is_dir()]


def patterned(values: np.ndarray) -> np.ndarray:
    """``values`` (i32) with every element between the 64-byte slots replaced by a non-zero pattern."""
    out = values.copy()
    idx = np.arange(out.size)
    between = idx % 16 != 0
    out[between] = (0x5A5A0000 + idx[between]).astype(np.int32)
    return out


def _with_pattern(plan):
    """The plan with its i32 signal buffer ``sig`` (and any fill of it) patterned between slots."""
    if "sig" not in plan.buffers:
        return plan
    sig = parse_value(plan.buffers["sig"], None, plan.base_dir, plan.ranks)
    assert sig.kind == "zeros" and sig.dtype == np.int32
    buffers = dict(plan.buffers, sig=patterned(np.zeros(sig.n, np.int32)))
    steps = []
    for step in plan.steps:
        actions = []
        for a in step:
            if isinstance(a, Fill) and "sig" in a.values:
                v = np.zeros(sig.n, np.int32)
                given = np.asarray(a.values["sig"], np.int32)
                v[:given.size] = given
                a = attrs.evolve(a, values=dict(a.values, sig=patterned(v)))
            actions.append(a)
        steps.append(actions)
    return attrs.evolve(plan, buffers=buffers, steps=steps)


@lru_cache(maxsize=None)
def kernel(source: str, name: str):
    """``(patterned plan, kernel text, its lowering)``; the unmutated lowering checked first."""
    path = dict(((s, n), p) for s, n, p in SOURCES)[(source, name)]
    text = path.read_text()
    plan, _ = BUILDERS[name](text, RANKS)
    plan = _with_pattern(plan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LoweringWarning)  # multi_dtype's unordered-remote-load, on purpose
        lowered = lower(text, filename=str(path))
    for reorder in (False, True):
        check_lowering(plan, lowered={text: lowered}, schedules=SCHEDULES, reorder=reorder)
    return plan, text, lowered


def outcome(plan, text, mutant, reorder):
    """The kind of finding ``check_lowering`` reports for the mutant, or None."""
    try:
        check_lowering(plan, lowered={text: mutant}, schedules=SCHEDULES, reorder=reorder, max_ops=2_000_000)
    except Finding as f:
        return f.kind, f.message
    return None


@pytest.mark.parametrize("mutation", list(MUTATORS))
def test_mutant_is_a_finding(mutation):
    """Every mutant is reported on at least one kernel it applies to (each kernel's outcome is printed)."""
    seen = []
    for source, name, path in SOURCES:
        if not path.is_file():  # the shared corpus is not next to the repository: the examples still run
            continue
        plan, text, lowered = kernel(source, name)
        mutant = MUTATORS[mutation](lowered)
        if mutant is None:
            continue
        assert mutant != lowered
        found = outcome(plan, text, mutant, mutation in REORDER)
        seen.append((f"{source} {name}", found))
    # printed only when the test fails (captured; issue 31 item 2: a green run is quiet)
    print(f"\n{mutation}:")
    for where, found in seen:
        print(f"  {where}: {found[0] + ': ' + found[1][:110] if found else 'not caught'}")
    assert seen, f"{mutation} applies to no kernel"
    assert any(found for _, found in seen), f"{mutation} is caught on no kernel"


def test_mutant_through_ttd_sim_lowered(tmp_path):
    """The command line: ``ttd-sim KERNEL --lowered MUTANT`` exits 1 with a located finding."""
    path = EXAMPLES / "allgather_push" / "allgather_push.ttir"
    mutant = tmp_path / "mutant.mlir"
    mutant.write_text(MUTATORS["wait_int64"](lower(path.read_text(), filename=str(path))))
    sig = tmp_path / "sig.npy"
    np.save(sig, patterned(np.zeros(16 * 4, np.int32)))
    args = ["--arg", "local_ptr=arange(256)", "--arg", "symm_buf_ptr=zeros(1024)", "--arg", f"signal_ptr={sig}",
            "--arg", "out_ptr=zeros(1024)", "--arg", "n_per_rank=256", "--arg", "epoch=1"]
    ok = subprocess.run(SIM + [str(path), "--ranks", "4"] + args + ["--check-lowering"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    run = subprocess.run(SIM + [str(path), "--ranks", "4", "--lowered", str(mutant)] + args, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "'hivm.hir.custom' op rank" in run.stderr and "deadlock" in run.stderr
    assert "Traceback" not in run.stderr
    # the finding is located at the mutated custom op (the quoted line is cut to a window, so the
    # symbol is read from the line the location names)
    line = int(re.search(re.escape(str(mutant)) + r":(\d+):\d+: error:", run.stderr).group(1))
    assert 'symbol = "aclshmem_wait_int64"' in mutant.read_text().splitlines()[line - 1]
