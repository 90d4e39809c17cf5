"""transpiler.pyloc: the Python line of an op from its MLIR location (SPEC.md section 3's forms)."""

from __future__ import annotations

from transpiler.diagnostics import Diagnostic
from transpiler.ir.core import Source
from transpiler.pyloc import location_aliases, python_source_notes, resolve, trailing_location


def test_trailing_location_is_the_ops_own_top_level_loc():
    line = '    %x = tt.call @f(%a) {note = "loc(#fake)"} : (i32) -> i32 loc(#loc3)'
    assert trailing_location(line) == "#loc3"
    # a loc on an argument (inside the signature's parentheses) is not the op's
    assert trailing_location('  tt.func public @k(%a: i32 loc("a"(#loc))) {') is None
    assert trailing_location("    %c = arith.constant 0 : i32") is None
    assert trailing_location('  } loc("k.py":3:0)') == '"k.py":3:0'


def test_resolve_follows_aliases_names_and_call_sites_callee_first():
    aliases = location_aliases('#loc1 = loc("k.py":9:4)\n'
                               '#loc2 = loc("lib.py":20:8)\n'
                               '#loc3 = loc(callsite(#loc2 at #loc1))\n'
                               '#loc4 = loc("x"(#loc3))\n')
    assert resolve("#loc4", aliases) == [("lib.py", 20, 8), ("k.py", 9, 4)]
    assert resolve('fused[#loc1, "k.py":9:4]', aliases) == [("k.py", 9, 4)]
    assert resolve("unknown", aliases) == []
    assert resolve("#loc5", {"#loc5": "#loc5"}) == []  # malformed: self-reference stops


def test_notes_point_at_the_python_line(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("def k():\n    rank = dl.rank()\n")
    text = f'module {{\n  %r = distributed.get_rank %c : i32 loc(#loc1)\n}}\n#loc1 = loc("{kernel}":2:11)\n'
    source = Source(text=text, filename="k.ttir")
    diag = Diagnostic("error", "bad", source, text.index("%r"))
    (note,) = python_source_notes(diag, text)
    assert note.source.filename == str(kernel)
    assert note.source.line_col(note.offset) == (2, 12)  # Triton's 0-based column, printed 1-based
    gone = 'module {\n  %r = distributed.get_rank %c : i32 loc("/gone/k.py":2:11)\n}\n'
    (note,) = python_source_notes(Diagnostic("error", "bad", Source(text=gone), gone.index("%r")), gone)
    assert note.source.filename == "/gone/k.py:2:12" and note.offset is None
    assert python_source_notes(Diagnostic("error", "no place"), text) == []


def test_a_location_naming_no_regular_file_is_named_without_reading_it(tmp_path):
    """A location is input text: a FIFO in it blocked ``ttd-lower`` (reading its "Python
    source"), and a NUL in the name made linecache raise, exit 3 (attack of session 42).  Such
    places, and a directory, are named without a snippet."""
    import os

    fifo = tmp_path / "k.py"
    os.mkfifo(fifo)
    for name in (str(fifo), "a\\00b.py", str(tmp_path)):
        text = f'module {{\n  %r = distributed.get_rank %c : i32 loc("{name}":2:11)\n}}\n'
        (note,) = python_source_notes(Diagnostic("error", "bad", Source(text=text), text.index("%r")), text)
        assert note.offset is None and note.source.filename.endswith(":2:12"), note
