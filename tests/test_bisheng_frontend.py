"""The frontend's compiled public Ascend kernels through the real ``bishengir-compile`` (issue 32).

Each kernel of ``frontend_cases`` (the public Triton-distributed tests and tutorials, compiled
with Triton 3.9 for each launch their host code makes) is lowered and carried through
``tests/tools/bisheng_compile.py`` to ``hivmc``, as ``tests/test_bisheng_compile.py`` does for the
examples and the shared corpus.
"""

from __future__ import annotations

import pytest

import frontend_cases as fc

fc.require_frontend()

from test_bisheng_compile import SEGFAULT, _assert_reaches_hivmc, tools  # noqa: E402,F401
import bisheng_compile  # noqa: E402
from transpiler import lower  # noqa: E402
from transpiler.language import compile_ttir  # noqa: E402

#: kernels that use aclshmem_barrier_all / aclshmem_barrier (CUBE_AND_VECTOR) without tt.dot
SEGFAULTING = {"_increase_with_barrier_kernel", "_increase_with_barrier_all_kernel"}


def _param(case):
    marks = [pytest.mark.xfail(reason=SEGFAULT, strict=True)] if case.kernel in SEGFAULTING else []
    return pytest.param(case, id=f"{case.file}:{case.kernel}:{case.label}".rstrip(":"), marks=marks)


@pytest.mark.filterwarnings("ignore::UserWarning")  # triton 3.9's TRITON_DEFAULT_FP_FUSION notice
@pytest.mark.parametrize("case", [_param(c) for c in fc.cases()])
def test_public_kernel_reaches_hivmc(tools, case, tmp_path):  # noqa: F811
    """Every compiled public kernel reaches module.hivm.opt.mlir with all its aclshmem calls."""
    ttir = compile_ttir(getattr(fc.load(case.file), case.kernel), *case.args)
    text = lower(ttir, filename=f"{case.kernel}.ttir")
    _assert_reaches_hivmc(bisheng_compile.check(text, *tools, keep=tmp_path))
