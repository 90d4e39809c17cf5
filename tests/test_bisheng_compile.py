"""Lowered kernels through the real ``bishengir-compile`` up to ``hivmc`` (issue 32).

``tests/tools/bisheng_compile.py`` does the steps; here every example and every shared-corpus
distributed kernel that lowers must reach ``module.hivm.opt.mlir`` (stopping at "Cannot find
hivmc") with every custom op's symbol called with its operands in order.  Known limits are
``xfail(strict=True)``: they fail the run the day they pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import shared_corpus
import side_tools
from downstream_tools import require, skip_or_fail

sys.path.insert(0, str(Path(__file__).parent / "tools"))
import bisheng_compile  # noqa: E402

ROOT = Path(__file__).parents[1]
REPRODUCER = ROOT / "tests" / "corpus" / "bisheng" / "barrier_all_aiv_segfault.mlir"
SEGFAULT = ("bishengir-compile 1.2.0 segfaults on a CUBE_AND_VECTOR barrier in a vector-only kernel "
            "(tests/corpus/bisheng/barrier_all_aiv_segfault.mlir)")
#: kernel stem -> why it does not reach hivmc yet
KNOWN = {"allgather_pull": SEGFAULT, "mandatory_custom_attrs": SEGFAULT,
         "symm_at_custom_form": "its pointer comes from an unrealized_conversion_cast, which triton-adapter-opt 3.2.0 crashes on",
         "symm_at_generic_form": "its pointer comes from an unrealized_conversion_cast, which triton-adapter-opt 3.2.0 crashes on",
         "unknown_custom_op_kept": "keeps an op of an unknown dialect (acme), which no real tool parses",
         "unknown_generic_op_kept": "keeps an op of an unknown dialect (acme), which no real tool parses"}


@pytest.fixture(scope="module")
def tools():
    """(triton-adapter-opt, bishengir-compile), or skip/fail as for the other downstream tests."""
    tao = require("triton-adapter-opt")
    bindir = side_tools.require("ascendnpu-ir")
    found = sorted(bindir.parent.glob("lib/python3*/site-packages/ascendnpuir/bin/bishengir-compile"))
    if not found:
        skip_or_fail(f"no bishengir-compile in the ascendnpu-ir environment {bindir.parent}")
    return tao, str(found[0])


def _param(path: Path, stem: str):
    why = KNOWN.get(stem)
    return pytest.param(path, id=stem, marks=[pytest.mark.xfail(reason=why, strict=True)] if why else [])


EXAMPLES = [_param(p, p.parent.name) for p in sorted(ROOT.glob("examples/*/*.ttir"))]
CORPUS = [p if not isinstance(p, Path) else _param(p, p.stem)
          for p in shared_corpus.files("distributed/*.ttir", "distributed/cases/*.ttir")]


def _lower(path: Path):
    """The lowered module, or None for a negative case (its ``.expect.json`` says error)."""
    proc = subprocess.run([sys.executable, "-m", "transpiler", str(path)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        expect = path.with_suffix(".expect.json")
        assert expect.exists() and json.loads(expect.read_text()).get("error"), proc.stderr[-1000:]
        return None
    return proc.stdout


def _assert_reaches_hivmc(result):
    assert result.stage == "hivmc", f"stopped at {result.stage}: {result.error}"
    assert len(result.expected) == len(result.symbols), "a custom op was not carried through"
    assert not result.missing, f"symbols without a call in module.hivm.opt.mlir: {result.missing}"
    assert not result.misordered, f"called, but not with the custom op's operands in order: {result.misordered}"


@pytest.mark.parametrize("target", ["Ascend910B3", "Ascend910_9392"])
@pytest.mark.parametrize("path", EXAMPLES)
def test_example_reaches_hivmc(tools, path, target, tmp_path):
    """Every example, lowered, reaches module.hivm.opt.mlir with all its aclshmem calls; each
    ContinuousMemAccess mark is carried around the adapter into the compiler's input."""
    text = _lower(path)
    _assert_reaches_hivmc(bisheng_compile.check(text, *tools, target=target, keep=tmp_path))
    restored = (tmp_path / "2.restored.mlir").read_text()
    assert restored.count("{ContinuousMemAccess}") == text.count("{ContinuousMemAccess}")


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_kernel_reaches_hivmc(tools, path, tmp_path):
    """Every distributed kernel of the shared corpus that lowers reaches module.hivm.opt.mlir (a
    negative case must be one that its expectation says ttd-lower refuses)."""
    text = _lower(path)
    if text is not None:
        _assert_reaches_hivmc(bisheng_compile.check(text, *tools, keep=tmp_path))


def test_misspelled_symbol_is_not_caught_before_hivmc(tools, tmp_path):
    """A symbol the device library lacks still reaches hivmc: names are checked only when it links,
    and the check reports the call under the name the lowering gave."""
    text = _lower(ROOT / "examples" / "rma_putmem_signal" / "rma_putmem_signal.ttir")
    result = bisheng_compile.check(text.replace('symbol = "aclshmem_my_pe"', 'symbol = "aclshmem_my_pee"'), *tools,
                                   keep=tmp_path)
    assert result.stage == "hivmc" and "aclshmem_my_pee" in [c[0] for c in result.calls]


@pytest.mark.parametrize("core_type, crashes", [("CUBE_AND_VECTOR", True), ("VECTOR", False)])
def test_segfault_reproducer(tools, core_type, crashes, tmp_path):
    """The reduced module segfaults bishengir-compile with the core type upstream emits for
    aclshmem_barrier_all, and compiles to hivmc with VECTOR: the compiler is at fault."""
    src = tmp_path / "k.mlir"
    src.write_text(REPRODUCER.read_text().replace("CUBE_AND_VECTOR", core_type))
    temps = tmp_path / "temps"
    temps.mkdir()
    proc = subprocess.run([tools[1], str(src), "--target=Ascend910B3", *bisheng_compile.COMPILE_OPTIONS,
                           f"--save-temps={temps}", "-o", str(tmp_path / "k")], capture_output=True, text=True,
                          timeout=600)
    assert (proc.returncode < 0 or "Stack dump" in proc.stderr) == crashes, proc.stderr[-2000:]
    assert (temps / "module.hivm.opt.mlir").exists() != crashes
