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
from transpiler.parser.structure import lexer

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


def _pairs_kernel(n: int) -> str:
    """``n`` notify/wait pairs on one signal argument, pair ``i`` on its own slot (64 bytes
    apart) with its own value ``i``: a correct kernel."""
    lines = ["module {", "  tt.func public @pairs(%sig: !tt.ptr<i32>, %buf: !tt.ptr<f32>, %peer: i32) {",
             "    %c1_i32 = arith.constant 1 : i32"]
    for i in range(n):
        lines += [f"    %o{i} = arith.constant {16 * i} : i32", f"    %v{i} = arith.constant {i} : i64",
                  f"    %w{i} = arith.constant {i} : i32",
                  f"    %s{i} = tt.addptr %sig, %o{i} : !tt.ptr<i32>, i32",
                  f'    "distributed.notify"(%s{i}, %v{i}, %peer) <{{commScope = 1 : i32, sigOp = 1 : i32}}> '
                  ": (!tt.ptr<i32>, i64, i32) -> ()",
                  f"    %t{i} = distributed.wait %s{i}, %c1_i32, %w{i}, scope = gpu semantic = acquire "
                  ": !tt.ptr<i32>, i32, i32 -> i32",
                  f"    %b{i} = distributed.consume_token %buf, %t{i}, : !tt.ptr<f32>, i32 -> !tt.ptr<f32>",
                  f"    %l{i} = tt.load %b{i} : !tt.ptr<f32>"]
    return "\n".join(lines + ["    tt.return", "  }", "}", ""])


@pytest.mark.parametrize("pairs", [40, 320])
def test_signal_never_set_looks_at_each_notify_a_bounded_number_of_times(monkeypatch, pairs):
    from transpiler import api
    from transpiler.analysis import signals

    calls = []
    wrap = signals.wrap

    def counting(value, width):
        calls.append(1)
        return wrap(value, width)

    monkeypatch.setattr(signals, "wrap", counting)
    assert [d for d in api.lint(_pairs_kernel(pairs), filename="pairs.ttir") if d.severity == "warning"] == []
    assert len(calls) <= 3 * pairs
