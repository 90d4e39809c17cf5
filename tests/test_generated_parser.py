"""The parsers generated from ``grammars/ttir.lark`` are the grammar's (issue 16).

* ``transpiler/parser/_structure_tables.py`` (the structure level's LALR(1) tables, driven
  without Lark at run time) is what ``python -m transpiler.parser.gen_tables`` makes from the
  grammar today;
* the detail parser's contextual lexer, whose per-state scanners try the terminals one by one
  instead of compiling one alternation per state, gives the same tokens and the same errors as
  Lark's own, on every detail text the corpus makes the tool parse and on damaged copies of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from transpiler.parser import gen_tables, grammar

TESTS = Path(__file__).parent


def test_structure_tables_are_generated_from_the_grammar():
    assert gen_tables.OUTPUT.read_text(encoding="utf-8") == gen_tables.generate(), (
        "grammars/ttir.lark changed: run python -m transpiler.parser.gen_tables")


def test_structure_tables_name_the_grammar_they_came_from():
    import hashlib

    from transpiler import resources
    from transpiler.parser import _structure_tables

    assert _structure_tables.GRAMMAR_SHA256 == hashlib.sha256(resources.grammar_text().encode()).hexdigest()


def _detail_texts():
    """(text, start rule) of every detail parse of the distributed corpus and the lit tests."""
    from transpiler.api import compile_checked
    from transpiler.driver import Request
    from transpiler.diagnostics import DiagnosticError
    from transpiler.pipeline import Options

    seen = []
    real = grammar.parse_detail_text

    def spy(text, start):
        seen.append((text, start))
        return real(text, start)

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


def _plain(tree):
    """A parse tree as nested tuples: rule names and (kind, text, offset) of the tokens."""
    children = getattr(tree, "children", None)
    if children is None:
        return str(tree.type), str(tree), tree.start_pos
    return (str(tree.data), *map(_plain, children))


def _outcome(parser, text, start):
    try:
        return "ok", _plain(parser.parse(text, start=start))
    except Exception as e:  # the error, as the callers read it
        token = getattr(e, "token", None)
        return ("error", type(e).__name__, getattr(token, "type", None), getattr(token, "start_pos", None),
                getattr(e, "pos_in_stream", None), sorted(getattr(e, "expected", None) or ()))


def test_ordered_contextual_lexer_gives_larks_tokens():
    texts = _detail_texts()
    assert len(texts) > 200
    stock = grammar._lark(kind="detail-stock-lexer", start=grammar.DETAIL_STARTS, lexer="contextual")
    ordered = grammar._lark(kind="detail-stock-lexer", start=grammar.DETAIL_STARTS, lexer="contextual",
                            _plugins={"ContextualLexer": grammar._contextual_lexer_class()})
    differ = []
    for text, start in texts:
        third = len(text) // 3
        for variant in (text, text[: len(text) // 2], text[:third] + ")" + text[third:], text[1:], text + " x",
                        text.replace(" ", "", 1)):
            if _outcome(stock, variant, start) != _outcome(ordered, variant, start):
                differ.append((start, variant))
    assert not differ[:5]
