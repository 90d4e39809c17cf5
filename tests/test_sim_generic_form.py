"""``ttd-sim`` reads the generic form as ``ttd-lower`` does (new-user trial of session 42): a
kernel printed by ``--mlir-print-op-generic`` (``"tt.func"() <{sym_name = ..., function_type =
(...) -> ()}>``) was refused with "'tt.func' op unexpected '('".  Its run, before and after
lowering, leaves bit-identical memory to the custom form's."""

from __future__ import annotations

import numpy as np
import pytest

from sim_kernels import BUILDERS, EXAMPLES
from transpiler.driver import PrintOptions, print_module_text
from transpiler.parser import parse_module
from transpiler.sim import check_lowering


@pytest.mark.parametrize("kernel", ["allgather_push", "reduce_scatter", "rma_putmem_signal"])
def test_the_generic_form_runs_as_the_custom_form(kernel):
    text = (EXAMPLES / kernel / f"{kernel}.ttir").read_text()
    generic = print_module_text(parse_module(text, f"{kernel}.ttir"), PrintOptions(generic=True))
    assert '"tt.func"() <{' in generic and "function_type = (" in generic
    results = [check_lowering(BUILDERS[kernel](t, 2)[0], schedules=2).buffers for t in (text, generic)]
    for rank, buffers in enumerate(results[0]):
        for name, a in buffers.items():
            b = results[1][rank][name]
            assert a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8)), (rank, name)
