"""``--mlir-print-debuginfo``: every op printed with a location, even where the input left it implicit.

MLIR gives an op written without ``loc(...)`` the file position of its name, and
``mlir-opt --mlir-print-debuginfo`` prints it.  The generic printer already does so
(``emit/printer.py``: ``implicit_location``).  For the faithful path, which copies the input's
text, the locations are made explicit in the *text* before the stages run: each op whose own
text does not end with ``loc(...)`` gets `` loc("FILE":LINE:COL)`` appended right after it
(after its closing ``}`` for an op with regions).  Nothing else moves: no line is added, and
on each line only what follows an op's end shifts, so diagnostics keep their lines.  The ops
the lowering makes take their source op's location, so they print it too.

Limits: block arguments (``%arg0: i32`` of a function or a block label) keep implicit
locations on the faithful path (``--mlir-print-op-generic`` prints them); an input that does
not parse is left as it is (the stages report its errors).
"""

from __future__ import annotations

from typing import List, Optional, Tuple


def _ends_with_location(text: str) -> bool:
    """Does ``text`` (an op's own text) end with a top-level ``loc(...)`` trailer?"""
    end = len(text.rstrip()) - 1
    if end < 0 or text[end] != ")":
        return False
    opens: List[int] = []
    in_string = escaped = False
    for i, ch in enumerate(text[: end + 1]):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "(":
            opens.append(i)
        elif ch == ")" and opens:
            start = opens.pop()
            if i == end and not opens:
                return text[max(0, start - 3) : start] == "loc" and (start < 4 or not text[start - 4].isalnum())
    return False


def with_explicit_locations(text: str, filename: str, split_line: Optional[int] = None) -> str:
    """``text`` with `` loc("FILE":L:C)`` after every op that has no location of its own
    (``split_line``: the file line where ``text``, a split chunk, starts)."""
    from .diagnostics import DiagnosticError
    from .emit.printer import implicit_location
    from .parser import parse_module

    try:
        module = parse_module(text, filename, split_line)
    except DiagnosticError:
        return text
    inserts: List[Tuple[int, str]] = []
    for op in module.walk():
        if op.source is None or op.span is None:
            continue
        start, end = op.span
        if _ends_with_location(text[start:end]):
            continue
        loc = implicit_location(op)
        if loc is not None:
            inserts.append((end, " " + loc))
    out, pos = [], 0
    for offset, piece in sorted(inserts, key=lambda item: item[0]):
        out.append(text[pos:offset])
        out.append(piece)
        pos = offset
    out.append(text[pos:])
    return "".join(out)
