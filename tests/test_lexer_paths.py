"""The structure lexer's fast paths (runs of whole-op lines, ``line_runs``; one regex per line
that proves it holds a whole op or alias) give exactly the tokens of its careful path (the
token walk), on every corpus file
(issue 16: "both paths give the same result"; ``test_reflow.py`` checks the same on re-flowed
text, where most lines take the careful path).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import shared_corpus

from transpiler.parser.structure import lexer, line_runs
from transpiler.parser.structure.tokens import LexError

TESTS = Path(__file__).parent
FILES = sorted((TESTS / "corpus").rglob("*.ttir")) + sorted((TESTS / "lit").glob("*.mlir"))
FILES += shared_corpus.files("bench/big.compat.ttir", "bench/big.ttir")

_NEVER = re.compile(r"(?!)")


def _line_tokens(text: str, start: int, d0: int, n0: int, n1: int, b0: int, end: int):
    """The DEF, OP_NAME and BODY tokens of one op of an OP_LINES token."""
    out = [("DEF", text[d0:n0], d0, n0)] if d0 >= 0 else []
    out.append(("OP_NAME", text[n0:n1], n0, n1))
    if b0 >= 0:
        out.append(("BODY", text[b0:end], b0, end))
    return out


def _tokens(text: str):
    """(kind, text, start, end) of every token, an OP_LINE or OP_LINES spelled as the DEF,
    OP_NAME and BODY tokens it stands for; or the LexError's (offset, message)."""
    out = []
    try:
        for tok in lexer.StructureLexer().tokens(text):
            if tok.type == "OP_LINES":
                for line in tok.lines:
                    out.extend(_line_tokens(text, *line))
            elif tok.type == "ALIAS_LINES":
                out.extend(("ALIAS", text[start:end], start, end) for start, _n, _v, end in tok.lines)
            elif tok.type == "OP_LINE":
                name_at = tok.start_pos + len(tok.def_text or "")
                if tok.def_text is not None:
                    out.append(("DEF", tok.def_text, tok.start_pos, name_at))
                out.append(("OP_NAME", tok.value, name_at, name_at + len(tok.value)))
                if tok.body is not None:
                    out.append(("BODY", tok.body.value, tok.body.start_pos, tok.body.end_pos))
            else:
                out.append((tok.type, tok.value, tok.start_pos, tok.end_pos))
    except LexError as e:
        out.append(("error", e.offset, e.message))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fast_path_gives_the_careful_paths_tokens(path, monkeypatch):
    for chunk in path.read_text(encoding="utf-8").split("// -----"):
        fast = _tokens(chunk)
        with monkeypatch.context() as m:  # no line is taken whole: every op goes through the token walk
            for name in ("_OP_LINE", "_REST_LINE_NEXT", "_ALIAS_LINE"):
                m.setattr(lexer, name, _NEVER)
            m.setattr(line_runs, "_LINE", _NEVER)
            m.setattr(line_runs, "_ALIAS_LINE", _NEVER)
            careful = _tokens(chunk)
        assert fast == careful


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_runs_give_the_per_line_paths_tokens(path, monkeypatch):
    for chunk in path.read_text(encoding="utf-8").split("// -----"):
        with_runs = _tokens(chunk)
        with monkeypatch.context() as m:  # no run: every line takes the per-line paths
            m.setattr(line_runs, "_LINE", _NEVER)
            m.setattr(line_runs, "_ALIAS_LINE", _NEVER)
            per_line = _tokens(chunk)
        assert with_runs == per_line


def test_runs_take_most_lines_of_a_big_file():
    """The fastest path is taken where the text allows it (so that the tests above test it)."""
    path = TESTS / "corpus" / "ttir" / "triton-3.0" / "flash_attn_fwd.ttir"
    text = path.read_text(encoding="utf-8")
    toks = list(lexer.StructureLexer().tokens(text))
    in_runs = sum(len(t.lines) for t in toks if t.type == "OP_LINES")
    others = sum(1 for t in toks if t.type in ("OP_LINE", "OP_NAME"))
    assert in_runs > 2 * others
    aliases_in_runs = sum(len(t.lines) for t in toks if t.type == "ALIAS_LINES")
    assert aliases_in_runs > 10 * sum(1 for t in toks if t.type == "ALIAS")


@pytest.mark.parametrize("text, ops", [
    # a line whose `<` is closed on the next line, which begins with a dotted name: one op
    ("module {\n  %0 = test.a %x : !test.t<4x\n    test.b<f32>>\n  %1 = test.c %0\n}\n", 3),
    # brackets of two kinds on two lines that only balance together: per line (one op each)
    ("module {\n  %0 = test.a (%x] : i32\n  %1 = test.b [%y) : i32\n  %2 = test.c\n}\n", None),
    # a bracket in a comment between the lines of a run
    ("module {\n  %0 = test.a %x : i32 // (\n  %1 = test.b %0 : i32 // ]\n  %2 = test.c\n}\n", 4),
    # an op before a block label, an op before a `key = value` line
    ("module {\n  test.a\n^bb1:\n  test.b\n}\n", 3),
    # aliases: two on one line, a value over two lines, a value that does not balance
    ("#a = 1 : i32 #b = 2 : i64\n#c = loc(unknown)\nmodule {\n}\n", 1),
    ("#a = loc(\n  unknown)\n#c = loc(unknown)\nmodule {\n}\n", 1),
    ("#a = loc(unknown]\n#c = loc(unknown)\nmodule {\n}\n", None),
])
def test_runs_end_where_the_line_does_not_prove_the_op_whole(text, ops, monkeypatch):
    from transpiler.diagnostics import DiagnosticError
    from transpiler.parser import parse_module

    def count(module):
        return sum(1 for _ in module.walk())

    def read():
        try:
            return count(parse_module(text))
        except DiagnosticError as e:
            return str(e)

    with_runs = read()
    with monkeypatch.context() as m:
        m.setattr(line_runs, "_LINE", _NEVER)
        m.setattr(line_runs, "_ALIAS_LINE", _NEVER)
        per_line = read()
    assert with_runs == per_line
    if ops is not None:
        assert with_runs == ops


def _read_all_paths(text: str, monkeypatch):
    """(names of the ops, aliases) or the error text, read with runs, per line and carefully."""
    from transpiler.diagnostics import DiagnosticError
    from transpiler.parser import parse_module

    def read():
        try:
            module = parse_module(text, "in.mlir")
        except DiagnosticError as e:
            return str(e)
        return ([(op.name, op.def_text, op.span) for op in module.walk()],
                [(a.name, a.value, a.span) for a in module.aliases])

    results = [read()]
    with monkeypatch.context() as m:
        m.setattr(line_runs, "_LINE", _NEVER)
        m.setattr(line_runs, "_ALIAS_LINE", _NEVER)
        results.append(read())
        for name in ("_OP_LINE", "_REST_LINE_NEXT", "_ALIAS_LINE"):
            m.setattr(lexer, name, _NEVER)
        results.append(read())
    return results


@pytest.mark.parametrize("text, expect", [
    # a backslash before a CR does not escape it: the string is not closed on its line
    ('module {\n  test.a "x\\\r"\n  test.b\n}\n', "unterminated string"),
    # a CR ends a comment (MLIR's lexer): what follows it on the line is an op
    ("module {\n  test.a\n  // c\rtest.x\n  test.b\n}\n", ["module", "test.a", "test.x", "test.b"]),
    ("module {\n  test.a // c\rtest.b\n  test.c\n}\n", ["module", "test.a", "test.b", "test.c"]),
    ("module {\n  tt.func @k() {\n    %c = arith.constant 1 : i32 // n\r    distributed.extern_call {symbol = \"s\"}"
     " : () -> ()\n    tt.return\n  }\n}\n",
     ["module", "tt.func", "arith.constant", "distributed.extern_call", "tt.return"]),
    # an op after an alias's value on its line, a distributed op included
    ("#a = 1 : i32 distributed.get_rank %c : i32\nmodule {\n}\n", ["distributed.get_rank", "module"]),
    ("#a = 1 : i32 tt.dot\n#b = 2 : i32\nmodule {\n}\n", ["tt.dot", "module"]),
    ("#b = distributed.x\nmodule {\n}\n", "expected the alias's value"),
    # alias values stripped alike (a form feed, a no-break space)
    ("#loc = loc(unknown)\x0c\nmodule {\n}\n", ["module"]),
    ("#a = 1 : i32\xa0\nmodule {\n}\n", ["module"]),
    # results of a second op whose name has no dot, on the same line
    ("func.func @f() -> i32 {\n  %1 = arith.constant 1 : i32 %2 = call @f() : () -> i32\n  return %2 : i32\n}\n",
     ["func.func", "arith.constant", "call", "return"]),
    ("module {\n  test.a %0 = x\n}\n", "custom op 'x' is unknown"),
    # brackets matched, not counted
    ("module {\n  test.a ) (\n}\n", "unexpected ')'"),
    ("module {\n  %x = test.a (%x) > <\n}\n", "expected '>'"),
    # a comment inside braces
    ("module {\n  test.a {a = 1 // }\n  }\n}\n", ["module", "test.a"]),
    ("module {\n  test.a {a = 1 //}\n  test.b\n}\n", "region is not closed"),
    # a run that begins after another item on its line: its brackets are its own
    ('#loc1 = loc(unknown)\n#loc51 = loc("Y"(#loc = ))\nmodule {\n}\n', "unexpected ')'"),
    ('#loc7 = loc(callsite(#loc2 at #loc3=1))\nmodule {\n}\n', "unexpected ')'"),
    # a letter outside ASCII where an item may begin: no internal error
    ("module {\n  test.a {\n  \u00fc\n  }\n}\n", ["module", "test.a"]),
])
def test_every_path_reads_the_same(text, expect, monkeypatch):
    """Inputs an adversarial review found where the paths disagreed (or crashed)."""
    results = _read_all_paths(text, monkeypatch)
    assert results[0] == results[1] == results[2]
    if isinstance(expect, str):
        assert isinstance(results[0], str) and expect in results[0]
    else:
        assert [name for name, _d, _s in results[0][0]] == expect


@pytest.mark.parametrize("line, other", [
    ("  test.a %x > %y\n", "  test.b %x\n"),  # `>` alone: the line does not balance
    ("  %0 = test.a %x : !test.t<4x\n    test.b<f32>>\n", "  test.c %x\n"),  # a type over two lines
])
def test_runs_match_each_line_at_most_twice(line, other, monkeypatch):
    """Linear whatever the text: a line that does not balance does not make the lines after it
    be matched again (counted, not timed)."""
    text = "module {\n" + "".join(line if i % 2 == 0 else other for i in range(2000)) + "}\n"
    calls = [0]
    real = line_runs._LINE

    class Counting:
        def match(self, *args):
            calls[0] += 1
            return real.match(*args)

    monkeypatch.setattr(line_runs, "_LINE", Counting())
    list(lexer.StructureLexer().tokens(text))
    assert calls[0] <= 2 * text.count("\n") + 10


def test_bracket_check_passes_are_bounded():
    """Brackets nested deeper than the check follows take the per-line path (and the check
    makes a bounded number of passes over the run)."""
    deep = "module {\n  test.a " + "(" * 5000 + ")" * 5000 + "\n  test.b\n}\n"
    assert line_runs._bad_lines(deep) == [0, 1, 3]  # the region's `{` and `}` lines too
    toks = list(lexer.StructureLexer().tokens(deep))
    assert not any(t.type == "OP_LINES" and any(line[2] == 11 for line in t.lines) for t in toks)
