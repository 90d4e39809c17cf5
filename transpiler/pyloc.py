"""The kernel's Python source line of an op, from its MLIR location (for diagnostics).

Triton prints every op of a TTIR module with a location that names the line of the
``@triton.jit`` function it came from (SPEC.md section 3 lists the forms)::

    %3 = distributed.symm_at %src, %me : !tt.ptr<f64> loc(#loc7)
    ...
    #loc7 = loc("/home/me/kernel.py":12:10)

A user reads errors in terms of that line, not of the TTIR.  :func:`python_source_notes` gives
the notes that say where an op came from: its own file location, resolving ``#locN`` aliases
(defined before or after the module), named locations ``loc("name"(#loc))``, call sites
``loc(callsite(#callee at #caller))`` (the callee first, then "called from" the callers) and
fused locations.  This works on the text alone, so it holds for any diagnostic that points at a
line of the module.

Triton writes the column as Python's ``ast`` ``col_offset`` (0-based,
``triton/compiler/code_generator.py``); the notes print it 1-based, as MLIR and editors count,
with the file's line and a caret under that character.
"""

from __future__ import annotations

import linecache
import os
import re
from typing import Dict, List, Optional, Tuple

from .diagnostics import Diagnostic, Note
from .ir.core import Source

_ALIAS_DEF = re.compile(r"^[ \t]*(#[\w$.-]+)[ \t]*=[ \t]*loc\((.*)\)[ \t]*\r?$", re.M)
_ALIAS_USE = re.compile(r"#[\w$.-]+")
_FILE_LINE_COL = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*(\d+)\s*:\s*(\d+)')
_MAX_EXPANSION = 64  # aliases are not recursive in valid MLIR; this bounds malformed input

#: (python file, line, column), 1-based as in MLIR's FileLineColLoc.
PyLocation = Tuple[str, int, int]


def location_aliases(text: str) -> Dict[str, str]:
    """``{"#loc7": '"k.py":12:10', ...}``: the body of each ``#name = loc(...)`` line."""
    return {m.group(1): m.group(2) for m in _ALIAS_DEF.finditer(text)}


def trailing_location(line: str) -> Optional[str]:
    """The body of the last top-level ``loc(...)`` of an op's line, or None.

    Strings are skipped, so a ``loc(`` inside an attribute string does not count.
    """
    depth, start, last, i, n = 0, None, None, 0, len(line)
    while i < n:
        c = line[i]
        if c == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
        elif c == "(":
            if depth == 0 and line.endswith("loc", 0, i) and (i < 4 or not (line[i - 4].isalnum() or line[i - 4] in "_.")):
                start = i + 1
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and start is not None:
                last, start = line[start:i], None
        i += 1
    return last


def resolve(body: str, aliases: Dict[str, str]) -> List[PyLocation]:
    """The file locations of a location body, innermost (the op's own line) first.

    ``callsite(A at B)`` gives A's locations, then B's; aliases are expanded in place.
    """
    for _ in range(_MAX_EXPANSION):
        expanded = _ALIAS_USE.sub(lambda m: f"({aliases[m.group()]})" if m.group() in aliases else m.group(), body)
        if expanded == body:
            break
        body = expanded
    found: List[PyLocation] = []
    for m in _FILE_LINE_COL.finditer(body):
        item = (m.group(1).encode().decode("unicode_escape") if "\\" in m.group(1) else m.group(1),
                int(m.group(2)), int(m.group(3)))
        if item not in found:
            found.append(item)
    return found


# a Python source larger than this is not read for a snippet (a location may name any file)
_MAX_SOURCE_BYTES = 16 << 20


def _source_lines(path: str) -> List[str]:
    """The lines of the Python file ``path`` names, or none when it is no regular file of a
    sensible size: a location is input text, and may name a FIFO (reading it would block), a
    device, a name with a NUL (linecache raises ValueError) or a huge file (attack of session 42)."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _MAX_SOURCE_BYTES:
            return []
    except (OSError, ValueError):
        return []
    return linecache.getlines(path)


def _note(message: str, where: PyLocation) -> Note:
    path, line, col = where
    lines = _source_lines(path)
    if 1 <= line <= len(lines):
        text = "".join(lines)
        offset = sum(len(x) for x in lines[: line - 1]) + min(col, len(lines[line - 1].rstrip("\r\n")))
        return Note(message, Source(text=text, filename=path), offset)
    # the file is not readable here (compiled elsewhere): name the place without a snippet
    return Note(message, Source(text="", filename=f"{path}:{line}:{col + 1}"), None)


def python_source_notes(diag: Diagnostic, text: str, aliases: Optional[Dict[str, str]] = None,
                        limit: int = 4) -> List[Note]:
    """Notes naming the Python lines the op of ``diag`` came from (none if it has no location).

    ``text`` is the module ``diag`` points into.  The first note is the op's own line
    (``kernel.py:12:10: note: in the kernel's Python source``, with that line and a caret when
    the file can be read), the next ones the call sites it was inlined from, at most ``limit``.
    """
    if diag.source is None or diag.offset is None or diag.source.text != text:
        return []
    body = trailing_location(diag.source.line_text(diag.offset))
    if body is None:
        return []
    places = resolve(body, location_aliases(text) if aliases is None else aliases)[:limit]
    return [_note("in the kernel's Python source" if i == 0 else "called from here", where)
            for i, where in enumerate(places)]


def add_python_source_notes(diagnostics: List[Diagnostic], text: Optional[str] = None) -> List[Diagnostic]:
    """Append :func:`python_source_notes` to each diagnostic (in place); returns the list.

    ``text``: the module the diagnostics point into; None for each diagnostic's own source
    text (the command line, whose split chunks are texts of their own).
    """
    aliases_of: Dict[str, Dict[str, str]] = {}
    for diag in diagnostics:
        module = text if text is not None else (diag.source.text if diag.source is not None else None)
        if module is None:
            continue
        if module not in aliases_of:
            aliases_of[module] = location_aliases(module)
        diag.notes.extend(python_source_notes(diag, module, aliases_of[module]))
    return diagnostics
