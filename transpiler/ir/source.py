"""The text an IR was parsed from (:class:`Source`): file name, line table, the reader of op details."""

from __future__ import annotations

import bisect
from typing import List, Optional, Tuple
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
