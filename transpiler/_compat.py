"""Python 3.9 / 3.10 compatibility (the package supports 3.9 to 3.13).

The structure lexer's own regexes (its one-line path and its runs of lines) and the detail
parser's skipping scanners (:mod:`transpiler.parser.detail.scan`) use possessive quantifiers
(``*+``, ``++``), which the standard ``re`` module reads only from Python 3.11 on; they keep a
failing line from backtracking through what it already matched.  Before 3.11 the third-party
``regex`` module, which has them, is used instead (``pyproject.toml`` requires it there), and the
detail parser compiles the grammar's terminals with it too, so that one engine reads a text.
The grammar's terminals themselves (``grammars/ttir.lark``) have no possessive quantifier: Lark
needs no ``regex=True`` for them, and the tests run Lark without it (its standard ``re``
against the parser's ``regex`` before 3.11: the same tokens).
"""

import sys

if sys.version_info >= (3, 11):
    import re
else:  # pragma: no cover - exercised by the 3.9 CI run
    import regex as re

__all__ = ["re"]
