"""``--split-input-file``: one file, several independent modules separated by ``// -----``.

As in ``mlir-opt``: a line starting with ``// -----`` separates chunks; each chunk is processed
on its own, its diagnostics name the chunk (``within split at FILE:N offset :L:C``), and the
outputs are joined again with the marker lines of the input.
"""

from __future__ import annotations

import re
from typing import List

import attrs

MARKER = "// -----"
_MARKER_LINE = re.compile(r"^// -----[^\n]*(?:\n|\Z)", re.M)


@attrs.define
class Chunk:
    """One chunk: its text, the file line it starts on, and the marker line that ends it."""

    text: str
    start_line: int
    marker: str = ""


def split_input(text: str) -> List[Chunk]:
    """Split ``text`` at marker lines (a file without markers is one chunk)."""
    chunks: List[Chunk] = []
    pos, line = 0, 1
    for m in _MARKER_LINE.finditer(text):
        body = text[pos : m.start()]
        chunks.append(Chunk(body, line, m.group(0)))
        line += body.count("\n") + 1
        pos = m.end()
    chunks.append(Chunk(text[pos:], line))
    return chunks


def join_outputs(chunks: List[Chunk], outputs: List[str]) -> str:
    """The outputs of the chunks, separated by the input's marker lines."""
    return "".join(out + chunk.marker for chunk, out in zip(chunks, outputs))
