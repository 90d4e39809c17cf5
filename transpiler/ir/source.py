"""The text an IR was parsed from (:class:`Source`): file name, line table, the reader of op details;
the alias definitions kept as text (:class:`Alias`)."""

from __future__ import annotations

import bisect
from typing import Dict, List, Optional, Tuple
import attrs


@attrs.define(eq=False, repr=False)
class Source:
    """The text an IR was parsed from, with its file name, for spans and diagnostics.

    ``split_line`` is set for a ``--split-input-file`` chunk: the line of the file where the
    chunk starts.  Lines are the file's (``line_col`` counts from it), as current ``mlir-opt``
    gives them (llvm-project PR 150982), without a copy of the text before the chunk: the cost
    of a chunk is its own length (issue 25).
    """

    text: str
    filename: str = "<input>"
    split_line: Optional[int] = None
    reader: Optional[object] = None  # reads ops' details on demand (the parser's DetailReader)
    #: the file's attribute aliases, ``#name`` -> value text (the reader substitutes them;
    #: location aliases, ``#loc3 = loc(...)``, are not among them)
    aliases: Dict[str, str] = attrs.Factory(dict)
    _line_starts: Optional[List[int]] = attrs.field(default=None, init=False)

    def line_col(self, offset: int) -> Tuple[int, int]:
        """1-based (line, column) of a character offset; the line is the file's (``split_line``)."""
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        idx = bisect.bisect_right(self._line_starts, offset) - 1
        return idx + (self.split_line or 1), offset - self._line_starts[idx] + 1

    @property
    def display_name(self) -> str:
        """How diagnostics name this text: its file (also for a split chunk)."""
        return self.filename

    def line_text(self, offset: int) -> str:
        """The whole source line that contains ``offset`` (without its newline)."""
        start = self.text.rfind("\n", 0, offset) + 1
        end = self.text.find("\n", offset)
        return self.text[start : end if end >= 0 else len(self.text)].rstrip("\r")

    def line_start(self, offset: int) -> int:
        return self.text.rfind("\n", 0, offset) + 1

    def line_end(self, offset: int) -> int:
        end = self.text.find("\n", offset)
        return len(self.text) if end < 0 else end


@attrs.define(eq=False, repr=False)
class Alias:
    """A top-level ``#name = value`` / ``!name = type`` definition, kept as text."""

    name: str
    value: str
    span: Tuple[int, int]


#: Where a region stands in an op's joined body text (:func:`body_text`).
REGION_SLOT = "\x00"


@attrs.define
class BodyText:
    """An op's BODY pieces joined (regions as REGION_SLOT) with the source offset of each piece."""

    text: str
    pieces: List[Tuple[int, int]]  # (offset in text, offset in source)
    source: Optional[Source]

    def source_offset(self, pos: int) -> Optional[int]:
        """The source offset of ``pos`` in :attr:`text` (None before the first piece)."""
        best = None
        for joined, src in self.pieces:
            if joined <= pos:
                best = src + (pos - joined)
        return best


def body_text(op) -> BodyText:
    """The BODY pieces of structure-read ``op`` (``op.body``: tokens with ``value`` and
    ``start_pos``, None for a region) joined, regions as :data:`REGION_SLOT`."""
    parts: List[str] = []
    pieces: List[Tuple[int, int]] = []
    pos = 0
    for piece in op.body or ():
        if piece is None:  # line breaks around the slot: a piece may end in a comment
            parts.append("\n" + REGION_SLOT + "\n")
            pos += 3
        else:
            pieces.append((pos, piece.start_pos))
            parts.append(piece.value)
            pos += len(piece.value)
    return BodyText("".join(parts), pieces, op.source)
