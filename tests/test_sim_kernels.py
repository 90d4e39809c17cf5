"""Criterion 1 of issue 23: every example and every realistic kernel of ``../shared/corpus/distributed/``
runs on 2, 4 and 8 simulated ranks and ends with the buffers of a numpy reference of what it
computes, before lowering, after lowering in-process, and (examples) from the checked-in lowered file."""

from __future__ import annotations

import pytest

from sim_kernels import BUILDERS, DISTRIBUTED, EXAMPLES, KERNELS, check_against
from transpiler.sim import lower_plan, simulate

needs_corpus = pytest.mark.skipif(not DISTRIBUTED.is_dir(), reason="../shared/corpus/distributed is not next to the repository")


@needs_corpus
@pytest.mark.parametrize("ranks", [2, 4, 8])
@pytest.mark.parametrize("kernel", KERNELS)
def test_corpus_kernel_before_and_after_lowering(kernel, ranks):
    text = (DISTRIBUTED / f"{kernel}.ttir").read_text()
    plan, ref = BUILDERS[kernel](text, ranks)
    check_against(simulate(plan, schedules=2), ref, plan)
    lowered = lower_plan(plan)
    assert "hivm.hir.custom" in lowered.steps[-1][-1].module
    check_against(simulate(lowered, schedules=2), ref, plan)


EXAMPLE_DIRS = sorted(d for d in EXAMPLES.iterdir() if d.is_dir())


@pytest.mark.parametrize("ranks", [2, 4, 8])
@pytest.mark.parametrize("example", EXAMPLE_DIRS, ids=[d.name for d in EXAMPLE_DIRS])
def test_example_before_and_after_lowering(example, ranks):
    text = (example / f"{example.name}.ttir").read_text()
    plan, ref = BUILDERS[example.name](text, ranks)
    check_against(simulate(plan), ref, plan)
    check_against(simulate(lower_plan(plan)), ref, plan)
    lowered_text = (example / f"{example.name}.ttadapter.mlir").read_text()
    plan_after, _ = BUILDERS[example.name](lowered_text, ranks)
    check_against(simulate(plan_after), ref, plan)
