"""The text an IR was parsed from (:class:`Source`): file name, line table, the reader of op details;
the alias definitions kept as text (:class:`Alias`)."""

from __future__ import annotations

import bisect
from typing import List, Optional, Tuple
import attrs


@attrs.define(eq=False, repr=False)
class Source:
    """The text an IR was parsed from, with its file name, for spans and diagnostics.

    ``split_line`` is set for a ``--split-input-file`` chunk: the line of the file where the
    chunk starts.  Lines stay relative to the chunk and diagnostics say which chunk, as
    ``mlir-opt`` does (``within split at FILE:N offset :L:C``).
    """

    text: str
    filename: str = "<input>"
    split_line: Optional[int] = None
    reader: Optional[object] = None  # reads ops' details on demand (the parser's DetailReader)
    _line_starts: Optional[List[int]] = attrs.field(default=None, init=False)

    def line_col(self, offset: int) -> Tuple[int, int]:
        """1-based (line, column) of a character offset."""
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        idx = bisect.bisect_right(self._line_starts, offset) - 1
        return idx + 1, offset - self._line_starts[idx] + 1

    @property
    def display_name(self) -> str:
        """How diagnostics name this text (the file, or the file's split chunk)."""
        if self.split_line is None:
            return self.filename
        return f"within split at {self.filename}:{self.split_line} offset "

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
