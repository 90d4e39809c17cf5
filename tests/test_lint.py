"""The protocol lint (issue 17) on real inputs, and its options.

* the realistic kernels of the distributed corpus give no warning, except ``multi_dtype.ttir``,
  whose loads through symm_at results rule 1 must flag; the focused ``cases/`` warn exactly as
  ``expectations.LINT_WARNINGS`` says (and why);
* the public files of ``../shared/corpus/external/`` give no warning (a chunk the reader refuses
  with a parse error is skipped, with that error as the reason);
* the lint never changes the output; ``no_warn``, ``warnings_as_errors``, ``lint()`` behave.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from expectations import DISTRIBUTED, LINT_WARNINGS, lint_warnings
from transpiler import LoweringError, LoweringWarning, lint, lower
from transpiler.diagnostics import DiagnosticError
from transpiler.parser import parse_module
from transpiler.split import split_input

SHARED = Path(__file__).parents[2] / "shared" / "corpus"
EXTERNAL = SHARED / "external"
ROOTS = [r for r in (DISTRIBUTED, SHARED / "distributed") if r.exists()]
INPUTS = [(root, p) for root in ROOTS for p in sorted(root.rglob("*.ttir"))]


def _id(item):
    root, path = item
    return f"{'shared' if root != DISTRIBUTED else 'tests'}/{path.relative_to(root).as_posix()}"


@pytest.mark.parametrize("item", INPUTS, ids=[_id(i) for i in INPUTS])
def test_corpus_warnings_are_exactly_the_expected_ones(item):
    root, path = item
    try:
        found = lint(path.read_text(), filename=str(path))
    except LoweringError as e:  # refused before the lint (the ttir stage): no lint warning either
        found = e.diagnostics
    got, want = lint_warnings(found, root, path)
    assert got == want, "\n".join(map(str, found))


def test_the_lint_runs_before_the_lowering_and_changes_nothing():
    """Same output with and without the lint; the warnings come with the lowering too."""
    for root, path in INPUTS:
        text = path.read_text()
        try:
            without = lower(text, filename=str(path), lint=False)
        except LoweringError:
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert lower(text, filename=str(path)) == without
        got, want = lint_warnings([w.message.diagnostic for w in caught if w.category is LoweringWarning], root, path)
        assert got == want, path


def test_multi_dtype_is_flagged_with_notes_at_the_wait_and_the_symm_at():
    path = DISTRIBUTED / "multi_dtype.ttir"
    first = lint(path.read_text(), filename=str(path))[0]
    assert first.line_col == (17, 5) and "[unordered-remote-load]" in first.message
    assert [(n.message, n.source.line_col(n.offset)) for n in first.notes] == [
        ("the wait it must be ordered after", (10, 5)),
        ("the symmetric buffer comes from this 'distributed.symm_at'", (15, 5))]
    assert str(first).startswith(f"{path}:17:5: warning: 'tt.load' op reads symmetric memory after a 'distributed.wait'")


EXTERNAL_FILES = sorted(p for p in EXTERNAL.rglob("*") if p.suffix in (".mlir", ".ttir")) if EXTERNAL.exists() else []


@pytest.mark.skipif(not EXTERNAL_FILES, reason="../shared/corpus/external is not there")
@pytest.mark.parametrize("path", EXTERNAL_FILES, ids=[str(p.relative_to(EXTERNAL)) for p in EXTERNAL_FILES])
def test_external_files_get_no_lint_warning(path):
    """Every chunk the reader reads gets no lint warning.  A chunk the reader refuses with a
    parse error is skipped (today's reader refuses ops written over several lines); the test
    covers it as soon as the reader reads it."""
    text = path.read_text()
    chunks = split_input(text) if "// -----" in text else [None]
    linted, refused = 0, []
    for chunk in chunks:
        body, line = (text, None) if chunk is None else (chunk.text, chunk.start_line)
        try:
            parse_module(body, str(path), line)
        except DiagnosticError as e:
            refused.append(e.diagnostics[0].render().splitlines()[0])
            continue
        try:
            found = lint(body, filename=str(path), split_line=line)
        except LoweringError as e:  # refused by the ttir stage (lower_wait.mlir's obsolete wait)
            found = e.diagnostics
            refused.append(found[0].render().splitlines()[0])
        else:
            linted += 1
        assert not [d for d in found if d.severity == "warning"], "\n".join(map(str, found))
    if not linted:
        pytest.skip(f"the reader refuses every chunk ({len(refused)}), first: {refused[0]}")


def test_external_triton_distributed_kernels_joined_on_one_line_get_no_warning():
    """The three TTIR strings of Triton-distributed's Ascend test write the function signature
    one argument per line, which today's reader refuses; with the signature joined they read,
    and get no lint warning (the test above covers them unchanged once the reader does)."""
    import re

    folder = EXTERNAL / "ByteDance-Seed__Triton-distributed/python/triton_dist/test/ascend/test_gm_addr_args_indices"
    files = sorted(folder.glob("*.ttir"))
    if not files:
        pytest.skip("../shared/corpus/external is not there")
    for path in files:
        joined = re.sub(r",\n\s+", ", ", path.read_text())
        assert lint(joined, filename=str(path)) == [], path


KERNEL = """module {
  tt.func public @k(%buf: !tt.ptr<f32>, %flag: !tt.ptr<i32>, %n: i32) {
    %c-1_i32 = arith.constant -1 : i32
    %c1_i32 = arith.constant 1 : i32
    %far = distributed.symm_at %buf, %c-1_i32, : !tt.ptr<f32>
    %tok = distributed.wait %flag, %n, %c1_i32, scope = gpu semantic = acquire : !tt.ptr<i32>, i32, i32 -> i32
    tt.return
  }
}
"""


def test_api_options():
    with pytest.warns(LoweringWarning) as caught:
        out = lower(KERNEL, filename="k.ttir")
    assert [w.message.diagnostic.message.split("[")[-1] for w in caught] == ["rank-out-of-range]", "unused-wait-token]"]
    assert lower(KERNEL, lint=False) == out
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lower(KERNEL, no_warn=("rank-out-of-range", "unused-wait-token")) == out
        assert lower(KERNEL, lint=False, warnings_as_errors=True) == out
    with pytest.warns(LoweringWarning) as caught:
        lower(KERNEL, no_warn="unused-wait-token")
    assert len(caught) == 1 and caught[0].message.diagnostic.message.endswith("[rank-out-of-range]")
    with pytest.raises(LoweringError) as info:
        lower(KERNEL, filename="k.ttir", warnings_as_errors=True)
    assert [d.severity for d in info.value.diagnostics] == ["error", "error"]
    assert "k.ttir:5:5: error: 'distributed.symm_at' op rank -1 is negative" in str(info.value)
    with pytest.raises(ValueError, match="unknown lint rule 'nope'"):
        lower(KERNEL, no_warn=["nope"])
    with pytest.raises(TypeError):
        lower(KERNEL, lint="yes")
    assert [d.line_col for d in lint(KERNEL, no_warn=["rank-out-of-range"])] == [(6, 5)]


def test_every_rule_is_documented_in_the_readme():
    from transpiler.analysis import RULES
    from transpiler.cli import LINT_RULES

    assert LINT_RULES == RULES
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    section = readme[readme.index("## Protocol lint"):]
    for rule in RULES:
        assert f"`{rule}`" in section and f"// expected-warning" in section, rule
