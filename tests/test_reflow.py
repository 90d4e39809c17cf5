"""Re-flowed corpus inputs give the same result as the originals (issue 12, "must be true" 2).

Every input of the corpus (``tests/corpus/ttir``, ``tests/corpus/distributed`` and, when it is
there, ``../shared/corpus/external``) is re-flowed by each variant of ``tests/reflow.py``: line
breaks at every blank between tokens, comments between tokens (naming an alias, which must not
count as a use), signatures one argument per line, ops joined on one line.  Then:

* an input without distributed ops comes back byte-identical (the re-flowed text itself);
* an input that lowers gives the same lowered ops;
* an input that is refused is refused with the same messages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import shared_corpus
from reflow import VARIANTS
from shared_corpus import EXTERNAL
from transpiler.api import LoweringError, compile_checked
from transpiler.driver import Request
from transpiler.emit.printer import print_op
from transpiler.pipeline import Options

TESTS = Path(__file__).parent
INPUTS = sorted((TESTS / "corpus").rglob("*.ttir")) + shared_corpus.files("**/*.mlir", "**/*.ttir", under=EXTERNAL)

_MESSAGE = re.compile(r"^\S*?:\d+:\d+: (error|warning): (.*)$", re.M)


def _chunks(text: str):
    """``// -----`` chunks, as ``--split-input-file`` reads them."""
    return re.split(r"^// -----[^\n]*\n", text, flags=re.M)


def _outcome(text: str, name: str):
    """('ok', the ops the lowering made, output unchanged) or ('error', messages) for each
    chunk of ``text``."""
    out = []
    for chunk in _chunks(text):
        try:
            result = compile_checked(Request(chunk, name, Options(link_check=False), stage_from_name=False))
            made = [print_op(op) for op in result.module.walk() if op.source is None]
            out.append(("ok", made, result.text == chunk))
        except LoweringError as e:
            out.append(("error", [m.group(2) for m in _MESSAGE.finditer(str(e))]))
    return out


def _id(path: Path) -> str:
    for root in (TESTS / "corpus", EXTERNAL):
        try:
            return str(path.relative_to(root))
        except ValueError:
            continue
    return path.name


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("path", INPUTS, ids=_id)
def test_reflowed_input_gives_the_same_result(path: Path, variant: str):
    text = path.read_text(encoding="utf-8")
    original = _outcome(text, path.name)
    reflowed_text = VARIANTS[variant](text)
    reflowed = _outcome(reflowed_text, path.name)
    assert len(reflowed) == len(original)
    for before, after in zip(original, reflowed):
        assert after[0] == before[0], (before[1], after[1])
        if before[0] == "error":
            assert after[1] == before[1]
            continue
        assert after[1] == before[1]
        if not before[1] and before[2]:  # no distributed op: the re-flowed text comes back as it is
            assert after[2], "the output of a module without distributed ops differs from its input"
