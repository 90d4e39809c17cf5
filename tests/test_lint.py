"""The protocol lint (issue 17) on real inputs, and its options.

* the realistic kernels of the distributed corpus give no warning, except ``multi_dtype.ttir``,
  whose loads through symm_at results rule 1 must flag; the focused ``cases/`` warn exactly as
  ``expectations.LINT_WARNINGS`` says (and why);
* the public files of ``../shared/corpus/external/`` give no warning (a chunk the reader refuses
  with a parse error is skipped, with that error as the reason);
* the lint never changes the output; ``no_warn``, ``warnings_as_errors``, ``lint()`` behave.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from expectations import DISTRIBUTED, lint_warnings
from transpiler import LoweringError, LoweringWarning, lint, lower
from transpiler.split import split_input
from shared_corpus import SHARED

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
            with warnings.catch_warnings(record=True) as unlinted:
                warnings.simplefilter("always")
                without = lower(text, filename=str(path), lint=False)
        except LoweringError:
            continue
        # without the lint, only the lowering's own warnings (no `[rule]`), as with it
        lowering_warnings = [str(w.message) for w in unlinted if w.category is LoweringWarning]
        assert not any(re.search(r" \[[a-z-]+\]\n", m) for m in lowering_warnings), lowering_warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert lower(text, filename=str(path)) == without
        assert set(lowering_warnings) <= {str(w.message) for w in caught}
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


# every public file but the obsolete 2025 wait, which the ttir stage refuses (tests/test_external.py)
EXTERNAL_FILES = sorted(p for p in EXTERNAL.rglob("*") if p.suffix in (".mlir", ".ttir")
                        and p.name != "lower_wait.mlir") if EXTERNAL.exists() else []


@pytest.mark.skipif(not EXTERNAL_FILES, reason="../shared/corpus/external is not next to the repository")
@pytest.mark.parametrize("path", EXTERNAL_FILES, ids=[str(p.relative_to(EXTERNAL)) for p in EXTERNAL_FILES])
def test_external_files_get_no_lint_warning(path):
    """Every chunk of every public file is read and gets no lint warning."""
    text = path.read_text()
    chunks = split_input(text) if "// -----" in text else [None]
    for chunk in chunks:
        body, line = (text, None) if chunk is None else (chunk.text, chunk.start_line)
        found = lint(body, filename=str(path), split_line=line)
        assert not [d for d in found if d.severity == "warning"], "\n".join(map(str, found))
