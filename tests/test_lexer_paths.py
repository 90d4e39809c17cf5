"""The structure lexer's fast path (one regex per line that proves it holds a whole op or
alias) gives exactly the tokens of its careful path (the token walk), on every corpus file
(issue 16: "both paths give the same result"; ``test_reflow.py`` checks the same on re-flowed
text, where most lines take the careful path).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from transpiler.parser import lexer
from transpiler.parser.tokens import LexError

TESTS = Path(__file__).parent
SHARED = TESTS.parent.parent / "shared" / "corpus"
FILES = sorted((TESTS / "corpus").rglob("*.ttir")) + sorted((TESTS / "lit").glob("*.mlir"))
FILES += [p for p in (SHARED / "bench" / "big.compat.ttir", SHARED / "bench" / "big.ttir") if p.exists()]

_NEVER = re.compile(r"(?!)")


def _tokens(text: str):
    """(kind, text, start, end) of every token, an OP_LINE spelled as the DEF, OP_NAME and BODY
    tokens it stands for; or the LexError's (offset, message)."""
    out = []
    try:
        for tok in lexer.StructureLexer().tokens(text):
            if tok.type == "OP_LINE":
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
            for name in ("_OP_LINE", "_OP_LINE_NEXT", "_REST_LINE_NEXT", "_ALIAS_LINE"):
                m.setattr(lexer, name, _NEVER)
            careful = _tokens(chunk)
        assert fast == careful
