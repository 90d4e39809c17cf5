"""Counted costs of the two paths issue 25 found quadratic (items 3 and 4); the times are
measured by ``benchmarks/quadratic_paths.py``, never here.

* ``--split-input-file``: each chunk was compiled behind as many blank lines as the file has
  before it (for the file's line numbers), so the text lexed grew with the square of the chunk
  count.  Now the characters lexed are the file's, once.
* the ``signal-never-set`` lint rescanned every notify for every wait on one argument.  Now
  the notifies on an argument are looked at a bounded number of times however many waits
  there are.
"""

from __future__ import annotations

import pytest

from transpiler.cli.run import Settings, run
from transpiler.parser import lexer

CHUNK = ("module {{\n  tt.func public @k{i}(%x: i32, %out: !tt.ptr<i32>) {{\n"
         "    %r = distributed.get_rank %x : i32\n    tt.store %out, %r : !tt.ptr<i32>\n    tt.return\n  }}\n}}\n")


def _lexed_characters(monkeypatch, text: str) -> int:
    seen = []
    tokens = lexer.StructureLexer.tokens

    def counting(self, chunk_text):
        seen.append(len(chunk_text))
        return tokens(self, chunk_text)

    monkeypatch.setattr(lexer.StructureLexer, "tokens", counting)
    outcome = run(text, "chunks.mlir", Settings(split_marker="// -----"))
    assert not outcome.failed and outcome.text.count("hivm.hir.custom") == text.count("distributed.")
    return sum(seen)


@pytest.mark.parametrize("chunks", [50, 400])
def test_split_chunks_are_lexed_once(monkeypatch, chunks):
    text = "// -----\n".join(CHUNK.format(i=i) for i in range(chunks))
    assert _lexed_characters(monkeypatch, text) <= len(text)


def test_split_chunk_diagnostics_still_give_file_lines():
    bad = CHUNK.format(i=1).replace("%x : i32\n", "%x : i64\n")
    text = CHUNK.format(i=0) + "// -----\n" + bad
    outcome = run(text, "chunks.mlir", Settings(split_marker="// -----"))
    assert outcome.failed
    located = [d.location_text() for d in outcome.diagnostics]
    assert located[0] == "chunks.mlir:11:5", located
