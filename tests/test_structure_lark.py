"""The structure driver is Lark's LALR(1) parser of the ``file`` rule (issue 22).

:func:`transpiler.parser.structure.lalr.parse_structure` runs generated tables without Lark.  Here
Lark's own parser of the same grammar (``parser="lalr"``, start ``file``, the structure lexer's
tokens given through Lark's custom-lexer interface) reads the same token streams, and both
must give the same tree (rules, inlined ``_rule`` children spliced, tokens) or the same error
(the token, where it stands, the terminals expected), on every corpus file and on damaged
copies: texts with lines dropped, doubled or cut (the lexer's errors are the lexer's, the same
for both) and token streams with a token dropped, doubled or moved (the parser's errors).
The detail level is compared the same way in ``tests/test_generated_parser.py``.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

import shared_corpus
from transpiler.parser.structure.lalr import UnexpectedToken as OurUnexpectedToken
from transpiler.parser.structure.lalr import parse_structure
from transpiler.parser.structure.lexer import StructureLexer
from transpiler.parser.structure.tokens import LexError

TESTS = Path(__file__).parent
FILES = (sorted((TESTS / "corpus").rglob("*.ttir")) + sorted((TESTS / "lit").glob("*.mlir"))
         + shared_corpus.files("**/*.ttir", "**/*.mlir"))


class _Stream(str):
    """The text Lark is asked to parse, carrying the token stream its custom lexer hands over."""

    tokens: list = []


def _lark_tokens(text: str):
    """The structure lexer's tokens of ``text`` as Lark tokens (a run's value spells its lines,
    so that two runs compare by what they hold), or the LexError."""
    from lark import Token

    out = []
    try:
        for tok in StructureLexer().tokens(text):
            if tok.type in ("OP_LINES", "ALIAS_LINES"):
                value = repr(tok.lines)
            elif tok.type == "OP_LINE":
                value = repr((tok.value, tok.def_text, tok.body.value if tok.body is not None else None))
            else:
                value = tok.value
            out.append(Token(tok.type, value, start_pos=tok.start_pos, end_pos=tok.end_pos))
    except LexError as e:
        return ("lex error", e.offset, e.message)
    return out


@functools.lru_cache(maxsize=None)
def _lark():
    """Lark's LALR(1) parser of the ``file`` rule, reading the tokens of a :class:`_Stream`."""
    from lark import Lark
    from lark.lexer import Lexer

    from transpiler import resources

    class Feed(Lexer):
        def __init__(self, conf):
            pass

        def lex(self, data):
            return iter(data.tokens)

    return Lark(resources.grammar_text(), parser="lalr", start="file", lexer=Feed, maybe_placeholders=False)


class _TreeBuilder:
    """A builder for :func:`parse_structure` that makes Lark's tree as plain data."""

    def __getattr__(self, rule):
        if rule.startswith("_") or rule == "SHIFTED":
            raise AttributeError(rule)
        return lambda children: (rule, [_plain(c) for c in children])


def _plain(node):
    """A Lark tree, a builder's (rule, children) or a token as plain data."""
    from lark import Tree

    if isinstance(node, Tree):
        return (str(node.data), [_plain(c) for c in node.children])
    if isinstance(node, tuple):
        return node
    return (node.type, str(node.value), node.start_pos)


def _outcome_ours(tokens):
    try:
        return "tree", parse_structure(iter(tokens), _TreeBuilder())
    except OurUnexpectedToken as e:
        return "error", e.token.type, e.token.start_pos, sorted(e.expected)


def _outcome_lark(text: str, tokens):
    from lark.exceptions import UnexpectedToken

    stream = _Stream(text)
    stream.tokens = tokens
    try:
        return "tree", _plain(_lark().parse(stream))
    except UnexpectedToken as e:
        return "error", e.token.type, e.token.start_pos, sorted(e.expected)


def _compare(text: str):
    """(our outcome, Lark's) on the tokens of ``text``; a LexError stands for both."""
    tokens = _lark_tokens(text)
    if isinstance(tokens, tuple):
        return tokens, tokens
    return _outcome_ours(tokens), _outcome_lark(text, tokens)


def _damaged_texts(rnd: random.Random, text: str, count: int):
    """Copies of ``text`` with a line dropped, doubled or cut short (a brace line often)."""
    lines = text.splitlines(keepends=True)
    braces = [i for i, line in enumerate(lines) if "{" in line or "}" in line or line.lstrip().startswith("^")]
    for _ in range(count):
        if not lines:
            return
        i = rnd.choice(braces) if braces and rnd.random() < 0.7 else rnd.randrange(len(lines))
        kind = rnd.random()
        if kind < 0.4:
            copy = lines[:i] + lines[i + 1:]
        elif kind < 0.7:
            copy = lines[:i + 1] + lines[i:]
        else:
            copy = lines[:i] + [lines[i][: len(lines[i]) // 2] + "\n"] + lines[i + 1:]
        yield "".join(copy)


def _damaged_streams(rnd: random.Random, tokens: list, count: int):
    """Copies of a token stream with one token dropped, doubled or moved elsewhere."""
    for _ in range(count):
        if not tokens:
            return
        i = rnd.randrange(len(tokens))
        kind = rnd.random()
        copy = list(tokens)
        if kind < 0.4:
            del copy[i]
        elif kind < 0.7:
            copy.insert(i, tokens[i])
        else:
            copy.insert(rnd.randrange(len(copy)), copy.pop(i))
        yield copy


def _id(path) -> str:
    return path.name if isinstance(path, Path) else "absent"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_structure_driver_gives_larks_trees_and_errors(path):
    rnd = random.Random(path.name)
    text = path.read_text(encoding="utf-8")
    compared = errors = 0
    for chunk in text.split("// -----"):
        for variant in (chunk, *_damaged_texts(rnd, chunk, 4)):
            ours, larks = _compare(variant)
            assert ours == larks, variant[:2000]
            compared += 1
        tokens = _lark_tokens(chunk)
        if isinstance(tokens, tuple):
            continue
        for stream in _damaged_streams(rnd, tokens, 6):
            ours, larks = _outcome_ours(stream), _outcome_lark(chunk, stream)
            assert ours == larks, [t.type for t in stream][:200]
            errors += ours[0] == "error"
    assert compared > 0


def test_the_comparison_sees_trees_and_errors():
    """The comparison is not vacuous: a corpus file gives a tree with ops, regions and runs,
    and a damaged stream an error that names the token and what was expected."""
    text = (TESTS / "corpus" / "ttir" / "triton-3.0" / "flash_attn_fwd.ttir").read_text(encoding="utf-8")
    ours, larks = _compare(text)
    assert ours == larks and ours[0] == "tree"
    flat = repr(ours)
    assert "'region'" in flat and "'OP_LINES'" in flat and "'op'" in flat
    tokens = _lark_tokens(text)
    closes = [i for i, t in enumerate(tokens) if t.type == "REGION_CLOSE"]
    stream = tokens[: closes[0]] + tokens[closes[0] + 1:]
    ours, larks = _outcome_ours(stream[:-1] + stream[-1:] * 2), _outcome_lark(text, stream[:-1] + stream[-1:] * 2)
    assert ours == larks and ours[0] == "error" and ours[3]
