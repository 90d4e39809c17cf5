"""Where an op ends: MLIR's token-level answers, without looking at line breaks first.

``mlir-opt`` never ends an op at a newline: its lexer turns the buffer into tokens and the op's
own parser decides where the op ends.  ttd-lower reads the structure without parsing every op
in detail, so it answers the same question from the tokens around a line break (DESIGN.md,
"Where an op ends"; SPEC.md section 3):

* an op ends at a line break at bracket depth zero (``()``, ``[]``, ``<>``, ``{}`` that is not a
  region, strings) *after which the next token begins an item*: an op (``%x =``, a quoted name
  followed by ``(``, a dotted bare name, or a bare name of a default dialect such as ``return``),
  a block label ``^bb``, the ``}`` that closes the enclosing region, an alias definition or
  ``{-#`` metadata at the top level, or the end of the input;
* a line that ends in ``,``, ``=``, ``:`` or ``->`` never ends an op;
* a ``{`` opens a region when what follows it can only be an op or a block (``%x = op``, a
  block label, an op name not followed by ``=``, ``,`` or ``}``; a name and ``}`` on a later
  line, or ``}`` alone on a later line), except after ``attributes``, and in a generic op
  outside its ``(...)`` region list; otherwise it opens an attribute dictionary;
* at bracket depth zero, ``%x = op``, ``"op"(`` (not as the first token: a callee) and a
  ``distributed.``/``tt.dot`` name begin a new op even on the same line, so that no op the
  lowering must see hides in another op's text;
* an op whose syntax is known to hold no bare op name (:func:`ends_before_op_name`: the generic
  form, and the ``distributed`` ops, whose formats the tool declares) ends before a dotted bare
  name (or ``return``...) at bracket depth zero even on the same line, as MLIR's parser ends it
  where its format ends: ``%r = distributed.get_rank %n : i32 tt.return`` is two ops.

Comments (``// ...`` to the end of the line) stand anywhere between tokens and are skipped.
"""

from __future__ import annotations

import re

# blanks and comments, wherever MLIR allows whitespace (a comment runs to the end of its line:
# one way to match it, so a failing match never backtracks through it)
_WS = r"(?:[ \t\r\n]|//[^\n\r]*(?![^\n\r]))*"
SKIP = re.compile(_WS)
COMMENT_END = re.compile(r"[\n\r]")
# results of an op: `%a, %b:2 =` (not `==`)
DEF = re.compile(rf"%[\w$.\-]+(?::[0-9]+)?(?:{_WS},{_WS}%[\w$.\-]+(?::[0-9]+)?)*{_WS}=(?!=){_WS}")
# an op name: quoted (generic form) or bare
OP_NAME = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w$.]*')
BARE_ID = re.compile(r"[A-Za-z_][\w$.\-]*")
ALIAS_DEF = re.compile(rf"[#!][\w$.\-]+{_WS}=(?!=)")

# Ops that may be written without their dialect prefix: the default dialect of the op holding
# the region (``func.func`` -> ``return``, ``call``; ``builtin.module`` -> ``module``), and the
# ``func`` of MLIR's older printer.
DEFAULT_DIALECT_OPS = frozenset({"module", "return", "call", "call_indirect", "func"})
# a bare op name (dotted, or of a default dialect) where a token may begin: not inside a name,
# a value, a symbol, an alias, a type or attribute of a dialect (`!tt.ptr`, `#tt.x`), a number
BARE_OP_NAME = (r"(?<![\w$.@#!%^\-])(?:[A-Za-z_][\w$]*\.[A-Za-z_]|(?:return|call_indirect|call|module|func)"
                r"(?![\w$.\-]))")
# keywords that may follow `%iv =` inside an op (`affine.for %i = max #map(...)`)
_BOUND_KEYWORDS = frozenset({"max", "min"})


def ends_before_op_name(name: str) -> bool:
    """Whether an op named ``name`` (as written: quoted in generic form) ends before a bare op
    name at bracket depth zero, also on its own line.

    True for the generic form (MLIR: an op name, operands, successors, properties, regions,
    an attribute dictionary, ``:`` and a function type, a location: no bare op name outside
    brackets, types of dialects begin with ``!``) and for the ``distributed`` ops (their
    declared formats, SPEC.md section 1, hold only values, keywords, types and dictionaries).
    An undeclared op in custom form may hold any word, so it is never cut there.
    """
    return name[0] == '"' or name.startswith("distributed.")


def skip(text: str, pos: int) -> int:
    """The offset of the next token at or after ``pos`` (past whitespace and comments)."""
    return SKIP.match(text, pos).end()


def string_end(text: str, i: int) -> int:
    """Offset just past the string literal whose ``"`` is at ``i``; -1 when it is not closed on
    its line (MLIR string literals hold no raw newline)."""
    n = len(text)
    j = i + 1
    while j < n:
        c = text[j]
        if c == '"':
            return j + 1
        if c == "\\":
            if j + 1 < n and text[j + 1] in "\n\r":
                return -1  # no escape spans a line break
            j += 2
            continue
        if c == "\n":
            return -1
        j += 1
    return -1


def starts_item(text: str, pos: int, top_level: bool) -> bool:
    """Whether the token at ``pos`` (already past whitespace) begins a new item, so that an op
    that reached a line break before it ends there."""
    if pos >= len(text):
        return True
    c = text[pos]
    if c == "}":
        return True
    if c == "^":
        return is_block_label(text, pos)
    if c == "%":
        return starts_op_after_def(text, pos)
    if c == '"':
        end = string_end(text, pos)
        return end > 0 and text.startswith("(", SKIP.match(text, end).end())
    if c == "#" or c == "!":
        return top_level and ALIAS_DEF.match(text, pos) is not None
    if c == "{":
        return text.startswith("{-#", pos)
    if c.isalpha() or c == "_":
        m = OP_NAME.match(text, pos)
        if m is None:  # a letter outside ASCII: no name begins with it
            return False
        after = SKIP.match(text, m.end()).end()
        if text.startswith("=", after) and not text.startswith("==", after):
            return False  # `key = value` of a dictionary written over several lines
        word = m.group()
        return "." in word or word in DEFAULT_DIALECT_OPS
    return False


def is_block_label(text: str, pos: int) -> bool:
    """Whether ``^name`` at ``pos`` is a block label (``^bb1(%x: i32):``), not a successor of
    the op before it (``cf.br ^bb1(%x : i32)``, possibly on the next line)."""
    m = BARE_ID.match(text, pos + 1)
    if m is None:
        return False
    q = skip(text, m.end())
    if text.startswith("(", q):
        depth = 0
        n = len(text)
        while q < n:
            c = text[q]
            if c == '"':
                q = string_end(text, q)
                if q < 0:
                    return False
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            q += 1
        q = skip(text, q + 1)
    return text.startswith(":", q)


def starts_op_after_def(text: str, pos: int) -> bool:
    """Whether ``%...`` at ``pos`` is an op's results: ``%x =`` (or ``%a, %b:2 =``) followed by
    an op name, so that it begins the next op even on the same line (``scf.for %i = %a`` is
    not: a value follows the ``=``)."""
    m = DEF.match(text, pos)
    if m is None:
        return False
    q = m.end()
    if q >= len(text):
        return False
    c = text[q]
    if c == '"':
        return True
    name = OP_NAME.match(text, q)
    return name is not None and name.group() not in _BOUND_KEYWORDS


def continues(text: str, start: int, end: int) -> bool:
    """Whether the significant text ``text[start:end]`` ends in a token after which an op
    cannot end (``,``, ``=``, ``:``, ``->``)."""
    if end <= start:
        return False
    c = text[end - 1]
    return c in ",=:" or (c == ">" and end - 2 >= start and text[end - 2] == "-")


def opens_region(text: str, pos: int, generic: bool = False, in_parens: bool = False) -> bool:
    """Whether the ``{`` just before ``pos`` opens a region (else an attribute dictionary).

    ``generic``: the op is in generic form, whose regions stand only in ``({...}, ...)``;
    ``in_parens``: the ``{`` is inside brackets (a region there follows ``(`` or ``,``).  A
    ``{`` after the keyword ``attributes`` is always a dictionary.
    """
    j = pos - 2  # the last non-blank character before the `{` (no copy of the text before it)
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    if text.endswith("attributes", 0, j + 1) and not (j >= 10 and text[j - 10].isalnum()):
        return False
    if generic or in_parens:
        if not in_parens or j < 0 or text[j] not in "(,":
            return False
    q = skip(text, pos)
    if q >= len(text):
        return False
    c = text[q]
    if c == "}":
        return "\n" in text[pos:q]  # `{` and `}` on different lines: an empty region
    if c == "%":  # an op's results, not values in braces (`{%a, %b}` of a custom syntax)
        return starts_op_after_def(text, q)
    if c == "^":
        return is_block_label(text, q)
    if c == '"':
        end = string_end(text, q)
        if end < 0:
            return False
    elif c.isalpha() or c == "_":
        m = BARE_ID.match(text, q)
        if m is None:  # a letter outside ASCII: not an op name
            return False
        end = m.end()
    else:
        return False
    after = skip(text, end)
    if after >= len(text) or text[after] in "=,":
        return False
    if text[after] == "}":  # `{unit}` or a region holding one op without operands (`scf.yield`)
        return "\n" in text[end:after]
    return True


def trim_end(text: str, start: int, end: int) -> int:
    """``end`` moved back over blanks (and a CRLF's ``\\r``), not before ``start``."""
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end
