"""The parsers generated from ``grammars/ttir.lark`` are the grammar's (issue 16).

* ``transpiler/parser/structure/_tables.py`` (the structure level's LALR(1) tables, driven
  without Lark at run time) is what ``python -m transpiler.parser.structure.gen_tables`` makes from the
  grammar today;
* ``transpiler/parser/detail/_tables.py`` (the detail level: tables, terminals, the
  contextual lexers, the rules' tree shaping) is what ``python -m transpiler.parser.detail.gen_tables``
  makes from the grammar today;
* the detail parser that replays them without Lark (``transpiler/parser/detail/lalr.py``) gives
  what Lark's own parser gives with the same builder, and the same errors (kind, token, position,
  expected terminals, message), on every detail text of the corpora (op bodies, block labels,
  aliases, the types, attributes and locations in them, those the tool parses while compiling
  the distributed corpus and the lit tests) and on damaged copies of them.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import shared_corpus
from transpiler.parser.detail import gen_tables as gen_detail_tables
from transpiler.parser.detail import text as grammar
from transpiler.parser.structure import gen_tables

TESTS = Path(__file__).parent
SHARED = shared_corpus.SHARED


def test_structure_tables_are_generated_from_the_grammar():
    assert gen_tables.OUTPUT.read_text(encoding="utf-8") == gen_tables.generate(), (
        "grammars/ttir.lark changed: run python -m transpiler.parser.structure.gen_tables")


def test_structure_tables_name_the_grammar_they_came_from():
    import hashlib

    from transpiler import resources
    from transpiler.parser.structure import _tables as _structure_tables

    assert _structure_tables.GRAMMAR_SHA256 == hashlib.sha256(resources.grammar_text().encode()).hexdigest()


def test_detail_tables_are_generated_from_the_grammar():
    assert gen_detail_tables.OUTPUT.read_text(encoding="utf-8") == gen_detail_tables.generate(), (
        "grammars/ttir.lark changed: run python -m transpiler.parser.detail.gen_tables")


def test_detail_tables_name_the_grammar_and_starts_they_came_from():
    import hashlib

    from transpiler import resources
    from transpiler.parser.detail import _tables as tables

    assert tables.GRAMMAR_SHA256 == hashlib.sha256(resources.grammar_text().encode()).hexdigest()
    assert list(tables.STARTS) == list(grammar.DETAIL_STARTS) == list(gen_detail_tables.DETAIL_STARTS)


def test_no_lark_at_run_time(tmp_path):
    """Neither the command (``-X importtime`` lists every module it imports) nor the API imports
    Lark, and nothing is written to a cache folder."""
    import os
    import subprocess
    import sys

    kernel = sorted((TESTS / "corpus" / "distributed").rglob("*.ttir"))[0]
    env = dict(os.environ, TTD_LOWER_CACHE=str(tmp_path / "cache"), TTD_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "transpiler", str(kernel), "-o", os.devnull],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "transpiler.parser.detail.lalr" in run.stderr
    assert [line for line in run.stderr.splitlines() if "lark" in line.split("|")[-1]] == []
    code = ("import sys, transpiler\n"
            f"transpiler.lower(open({str(kernel)!r}).read())\n"
            "sys.exit(1 if [m for m in sys.modules if m == 'lark' or m.startswith('lark.')] else 0)\n")
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == 0
    assert not (tmp_path / "cache").exists()


def _compiled_texts():
    """(text, start rule) of every detail parse of the distributed corpus and the lit tests."""
    from transpiler.api import compile_checked
    from transpiler.driver import Request
    from transpiler.diagnostics import DiagnosticError
    from transpiler.pipeline import Options

    seen = []
    real = grammar.parse_detail_text

    def spy(text, start, compiled=False):
        seen.append((text, start))
        return real(text, start, compiled)

    grammar.parse_detail_text = spy
    try:
        files = sorted((TESTS / "corpus" / "distributed").rglob("*.ttir")) + sorted((TESTS / "lit").glob("*.mlir"))
        for path in files:
            for chunk in path.read_text(encoding="utf-8").split("// -----"):
                try:
                    compile_checked(Request(chunk, path.name, Options(link_check=False), stage_from_name=False))
                except DiagnosticError:
                    pass
    finally:
        grammar.parse_detail_text = real
    return sorted(set(seen))


def _corpus_files():
    roots = [TESTS / "corpus", SHARED]
    files = [p for root in roots if root.is_dir() for p in sorted(root.rglob("*")) if p.suffix in (".ttir", ".mlir")]
    return files + sorted((TESTS / "lit").glob("*.mlir"))


@functools.lru_cache(maxsize=None)
def _detail_inputs():
    """(text, start) of the op bodies, block labels and aliases of every corpus file, of the
    types, attributes and locations written in them and of what compiling parses."""
    from transpiler.diagnostics import DiagnosticError
    from transpiler.parser import parse_module
    from transpiler.ir.source import body_text

    found = set(_compiled_texts())
    for path in _corpus_files():
        for chunk in path.read_text(encoding="utf-8").split("// -----"):
            try:
                module = parse_module(chunk, path.name)
            except DiagnosticError:
                continue
            found.update((chunk[a.span[0]:a.span[1]], "alias_definition") for a in module.aliases)
            for top in module.ops:
                for op in top.walk():
                    found.add((body_text(op).text, "generic_body" if op.generic else "custom_body"))
                    found.update((b.label, "block_label") for r in op.regions for b in r.blocks if b.label)
    parser = grammar.detail_parser()
    words = {"TYPE": "type", "ATTR": "attribute", "LOC": "location"}
    for text, start in sorted(found):
        if start == "custom_body":
            try:
                items = parser.parse(text, start)
            except Exception:
                continue
            found.update((str(t), words[t.type]) for t in items if getattr(t, "type", None) in words)
    return sorted(found)


def _plain(value):
    """A builder result as plain data: tokens as (kind, text, [start, end)), attrs classes as
    (class name, fields)."""
    import attrs

    if isinstance(value, str) and hasattr(value, "type"):
        return ("token", value.type, str(value), value.start_pos, value.end_pos)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, *map(_plain, value))
    if isinstance(value, dict):
        return ("dict", *((k, _plain(v)) for k, v in value.items()))
    if attrs.has(type(value)):
        return (type(value).__name__, *(_plain(getattr(value, f.name)) for f in attrs.fields(type(value))))
    return value


def _message(e) -> str:
    """An error's message, the expected terminals sorted (Lark lists a set)."""
    lines, run = [], []
    for line in str(e).split("\n") + [""]:
        if line.startswith("\t* "):
            run.append(line)
            continue
        lines.extend(sorted(run) + [line])
        run = []
    return "\n".join(lines)


def _outcome(parse, text, start):
    try:
        return "ok", _plain(parse(text, start))
    except Exception as e:  # the error, as the callers read it
        e = getattr(e, "orig_exc", e)  # Lark's VisitError around a builder's exception
        token = getattr(e, "token", None)
        return ("error", type(e).__name__, getattr(token, "type", None), getattr(token, "start_pos", None),
                str(token) if token is not None else None, getattr(e, "pos_in_stream", None),
                getattr(e, "line", None), getattr(e, "column", None),
                sorted(getattr(e, "expected", None) or getattr(e, "allowed", None) or ()), _message(e))


def _variants(text):
    third = len(text) // 3
    return (text[: len(text) // 2], text[:third] + ")" + text[third:], text[1:], text + " x",
            text.replace(" ", "", 1), text[: len(text) - 1], text[:third] + "$" + text[third:])


def _parsers():
    """(Lark's detail parser, ours), each with its own DetailBuilder."""
    from lark import Lark

    from transpiler import resources
    from transpiler.parser.detail.builder import DetailBuilder
    from transpiler.parser.detail.lalr import DetailParser

    stock = Lark(resources.grammar_text(), parser="lalr", lexer="contextual", start=list(grammar.DETAIL_STARTS),
                 maybe_placeholders=False, transformer=DetailBuilder(grammar.parse_type))

    def lark_parse(text, start):
        return stock.parse(text, start=start)

    return lark_parse, DetailParser(DetailBuilder(grammar.parse_type))


def test_detail_inputs_include_the_shared_corpus():
    """The comparisons below read the shared corpus's texts too (skipped, with the reason,
    when it is absent; they then read the repository's own corpus only)."""
    shared_corpus.require()
    big = (SHARED / "bench" / "big.ttir").read_text(encoding="utf-8")
    texts = {text for text, _start in _detail_inputs()}
    assert sum(1 for text in texts if len(text) > 40 and text in big) > 100


def test_detail_parser_gives_larks_results_and_errors():
    inputs = _detail_inputs()
    starts = {start for _, start in inputs}
    assert len(inputs) > 2000 and starts == set(grammar.DETAIL_STARTS), (len(inputs), starts)
    lark_parse, ours = _parsers()

    differ, errors = [], 0
    for n, (text, start) in enumerate(inputs):
        for variant in (text,) + (_variants(text) if n % 3 == 0 else ()):
            expected = _outcome(lark_parse, variant, start)
            errors += expected[0] == "error"
            if _outcome(ours.parse, variant, start) != expected:
                differ.append((start, variant))
    assert errors > 1000
    assert not differ[:5], len(differ)


_PIECES = list("()[]{}<>,:=*?+-x#!@%^\"\\ \t\n\r\x00\u00e9.09") + [
    "//c\n", "// c", "loc(", "tensor", "index", "none", "vector", "->", "<{", "}>", "!tt.ptr<", "i32", "f16",
    "\r\n", "\u2028", "dense<", "#a", "tensor<4x", "?x"]


def _damaged(rnd, text: str) -> str:
    """``text`` with one to three random insertions (of ``_PIECES``), deletions or truncations."""
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randint(0, len(text))
        op = rnd.random()
        if op < 0.5:
            text = text[:i] + rnd.choice(_PIECES) + text[i:]
        elif op < 0.8:
            text = text[:i] + text[i + rnd.randint(1, 4):]
        else:
            text = text[:i]
    return text


def test_detail_parser_gives_larks_results_and_errors_on_random_damage():
    """Random insertions (brackets, keywords, comments, line breaks, non-ASCII...), deletions
    and truncations of the corpus texts, some read from another start rule."""
    import random

    rnd = random.Random(16)
    lark_parse, ours = _parsers()
    differ, errors = [], 0
    for text, start in rnd.sample(_detail_inputs(), 1500):
        for _ in range(2):
            variant = _damaged(rnd, text)
            rule = start if rnd.random() < 0.9 else rnd.choice(grammar.DETAIL_STARTS)
            expected = _outcome(lark_parse, variant, rule)
            errors += expected[0] == "error"
            if _outcome(ours.parse, variant, rule) != expected:
                differ.append((rule, variant))
    assert errors > 500
    assert not differ[:5], len(differ)


def test_compiled_lexers_skip_ignored_text_and_read_item_lists_in_a_lane():
    from transpiler.parser.detail import _tables as tables
    from transpiler.parser.detail import lexers as detail_lexers

    detail_lexers.compile_all()
    readers = [lexer for lexer in detail_lexers.LEXERS if set(lexer.names) - detail_lexers.IGNORE]
    assert all(lexer.compiled.scan is not None for lexer in readers)
    star = tables.ACTIONS[tables.STARTS["custom_body"][0]]["__custom_body_star_4"]
    lane = detail_lexers.LANES[star]
    assert lane is not None and lane.name == "__custom_body_star_4" and len(lane.shifts) > 20


def test_compiled_detail_parser_gives_larks_results_and_errors():
    """The same comparisons in the compiled mode (alternations, scanners and lanes), on the
    corpus texts, their variants and random damage: half of them read before every lexer is
    compiled (each lexer compiled when a parse first meets it), half after."""
    import random

    from transpiler.parser.detail import lexers as detail_lexers

    lark_parse, ours = _parsers()
    inputs = _detail_inputs()
    variants = [(variant, start) for n, (text, start) in enumerate(inputs)
                for variant in (text,) + (_variants(text) if n % 3 == 1 else ())]
    rnd = random.Random(17)
    variants += [(_damaged(rnd, text), start) for text, start in rnd.sample(inputs, 1500)]
    rnd.shuffle(variants)
    differ = []
    for n, (variant, start) in enumerate(variants):
        if n == len(variants) // 2:
            detail_lexers.compile_all()
        if _outcome(lambda t, s: ours.parse(t, s, compiled=True), variant, start) != _outcome(lark_parse, variant, start):
            differ.append((start, variant))
    assert not differ[:5], len(differ)


def test_the_mode_is_decided_before_each_parse_by_its_input_and_what_the_process_read():
    """Op bodies of a big module read with the compiled lexers at once; those of small modules
    with the plain ones until the process has read ``COMPILED_FROM`` characters of op bodies
    (the triton-ascend hook lowers every kernel of a process in one interpreter), then with the
    compiled ones.  The mode is a flag given to each parse: it never changes within one."""
    from transpiler.parser import parse_module
    from transpiler.parser.detail import lexers as detail_lexers
    from transpiler.parser.detail.body import read_body

    seen = []
    real = grammar.parse_detail_text

    def spy(text, start, compiled=False):
        seen.append(compiled)
        return real(text, start, compiled)

    small = "module {\n  %0 = arith.constant 1 : i32\n}\n"
    big = small + "// " + "x" * detail_lexers.COMPILED_FROM + "\n"
    saved = detail_lexers.BODY_CHARACTERS_READ.count
    grammar.parse_detail_text = spy
    try:
        detail_lexers.BODY_CHARACTERS_READ.count = 0
        read = 0
        for text in (small, big, small):
            for op in parse_module(text).walk():
                read += len(read_body(op)[0].text)
        assert seen == [False, False, True, True, False, False]
        assert detail_lexers.BODY_CHARACTERS_READ.count == read > 0  # small and big inputs alike
        detail_lexers.BODY_CHARACTERS_READ.count = detail_lexers.COMPILED_FROM
        seen.clear()
        for op in parse_module(small).walk():
            read_body(op)
        assert seen == [True, True]
    finally:
        grammar.parse_detail_text = real
        detail_lexers.BODY_CHARACTERS_READ.count = saved
