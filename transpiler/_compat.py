"""Python 3.9 / 3.10 compatibility (the package supports 3.9 to 3.13).

The grammar's terminals (``grammars/ttir.lark``) use possessive quantifiers (``*+``, ``++``),
which the standard ``re`` module reads only from Python 3.11 on; they keep a failing line from
backtracking exponentially.  Before 3.11 the third-party ``regex`` module, which has them, is
used instead: by the structure lexer, the detail parser (:mod:`transpiler.parser.detail_lalr`)
and, at development time, by Lark (``Lark(..., regex=True)``) in the table generators.
"""

import sys

if sys.version_info >= (3, 11):
    import re
else:  # pragma: no cover - exercised by the 3.9 CI run
    import regex as re

#: Extra keyword arguments for ``lark.Lark``: ``regex=True`` where ``re`` lacks possessive quantifiers.
LARK_OPTIONS = {} if sys.version_info >= (3, 11) else {"regex": True}

__all__ = ["re", "LARK_OPTIONS"]
