"""``--split-input-file[=MARKER]``: one file, several independent modules separated by marker lines.

As in ``mlir-opt`` (``mlir/lib/Support/ToolUtilities.cpp``):

* a line whose text starts (after blanks) with the marker (``// -----`` by default) separates
  two chunks; each chunk is processed on its own;
* a line that starts with the marker less its last two characters (``// ---``) is a *near
  miss*: it separates nothing and earns a warning (``near miss with file split marker``;
  see :func:`near_misses`);
* diagnostics point at the line of the *file* (current ``mlir-opt`` does so since llvm-project PR 150982, July 2025;
  older ones said ``within split at FILE:N offset :L:C``): a chunk is compiled with as many
  blank lines in front as the file has before it (see ``driver.Request.split_line``);
* outputs are joined again with the marker lines exactly as the input wrote them (so a file
  without distributed ops comes back byte-identical), or with ``--output-split-marker``'s text.
"""

from __future__ import annotations

import re
from typing import List, Optional

from . import records

DEFAULT_MARKER = "// -----"


@records.define
class Chunk:
    """One chunk: its text, the file line it starts on, its offset in the file, and the
    marker line that ends it (empty for the last chunk)."""

    text: str
    start_line: int
    offset: int = 0
    marker: str = ""


def _marker_lines(marker: str) -> "re.Pattern[str]":
    return re.compile(r"^[ \t]*" + re.escape(marker) + r"[^\n]*(?:\n|\Z)", re.M)


def split_input(text: str, marker: str = DEFAULT_MARKER) -> List[Chunk]:
    """Split ``text`` at its marker lines (a file without markers is one chunk)."""
    chunks: List[Chunk] = []
    pos, line = 0, 1
    for m in _marker_lines(marker).finditer(text):
        body = text[pos : m.start()]
        chunks.append(Chunk(body, line, pos, m.group(0)))
        line += body.count("\n") + 1
        pos = m.end()
    chunks.append(Chunk(text[pos:], line, pos))
    return chunks


def near_misses(text: str, marker: str = DEFAULT_MARKER) -> List[int]:
    """Offsets of the lines that start like the marker less its last two characters but are
    not marker lines (``mlir-opt`` warns).  Only for markers that end in a run of one character
    longer than two (``// -----``): for others (``// ==``) the shorter prefix is any comment."""
    if len(marker) < 4 or not marker[-3] == marker[-2] == marker[-1]:
        return []
    prefix = re.compile(r"^[ \t]*(" + re.escape(marker[:-2]) + r")", re.M)
    full = _marker_lines(marker)
    return [m.start(1) for m in prefix.finditer(text) if not full.match(text, m.start())]


def join_outputs(chunks: List[Chunk], outputs: List[str], output_marker: Optional[str] = None) -> str:
    """The outputs of the chunks, separated by the input's marker lines (or by
    ``output_marker`` and a newline, as ``mlir-opt --output-split-marker`` does)."""
    if output_marker is None:
        return "".join(out + chunk.marker for chunk, out in zip(chunks, outputs))
    return (output_marker + "\n").join(outputs)
