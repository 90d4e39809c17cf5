"""The public Triton-distributed Ascend kernels compile, lower and pass downstream (issue 21, item 1).

Every ``@triton.jit`` kernel of the seven public Ascend tests and the three tutorials is loaded
unchanged from ``../shared/corpus/external/stmoonar__Triton-distributed/`` (through
``transpiler.language.install_aliases``), compiled with upstream Triton 3.9 for each launch its
host code makes (``frontend_cases``), and must come out with its distributed ops in SPEC.md
section 1's forms, lower with ``ttd-lower`` and pass ``verify-downstream``.
"""

from __future__ import annotations

import pytest

import frontend_cases as fc

fc.require_frontend()

from transpiler import lower  # noqa: E402
from transpiler.ir.verifier import verify_op  # noqa: E402
from transpiler.language import compile_ttir, jit_functions  # noqa: E402
from transpiler.parser import parse_module  # noqa: E402

CASES = fc.cases()
_TTIR = {}


def ttir_of(case) -> str:
    key = (case.file, case.kernel, case.label)
    if key not in _TTIR:
        kernel = getattr(fc.load(case.file), case.kernel)
        _TTIR[key] = compile_ttir(kernel, *case.args)
    return _TTIR[key]


def _id(case) -> str:
    return f"{case.file}:{case.kernel}:{case.label}".rstrip(":")


@pytest.mark.parametrize("file", sorted(fc.FILES))
def test_every_kernel_of_every_public_file_has_a_launch(file):
    kernels = set(jit_functions(fc.load(file)))
    launched = {c.kernel for c in CASES if c.file == file}
    assert kernels, f"{file} defines no @triton.jit kernel"
    assert kernels == launched


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_public_kernel_compiles_to_spec_forms(case):
    ttir = ttir_of(case)
    assert "ttd$" not in ttir, "a stand-in call or declaration is left"
    module = parse_module(ttir, f"{case.kernel}.ttir")
    ops = [op for op in module.walk() if op.name.startswith("distributed.")]
    assert ops, "no distributed op"
    for op in ops:
        assert verify_op(op) == [], op.name  # SPEC.md section 1 operand rules
        assert op.location and op.location.startswith("loc("), op.name
        assert op.generic == (op.name == "distributed.notify"), op.name  # notify has no custom form
    externs = [op for op in ops if op.name == "distributed.extern_call"]
    assert all("distributed.core_type" in op.attributes for op in externs)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_public_kernel_lowers(case):
    ttir = ttir_of(case)
    lowered = lower(ttir, filename=f"{case.kernel}.ttir")
    before = [op.name for op in parse_module(ttir).walk()]
    after = [op.name for op in parse_module(lowered).walk()]
    assert not [n for n in after if n.startswith("distributed.")]
    assert after.count("hivm.hir.custom") == sum(n.startswith("distributed.") for n in before)


def test_public_kernels_pass_downstream(tmp_path):
    from test_downstream import verify

    written = []
    for case in CASES:
        out = tmp_path / (_id(case).replace(":", ".") + ".mlir")
        out.write_text(lower(ttir_of(case), filename=f"{case.kernel}.ttir"))
        written.append(out)
    proc = verify(written, "--canonicalize")
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-5000:]
    assert proc.stdout.count("PASS ") == len(written)
