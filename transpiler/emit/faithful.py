"""Span-preserving output: the input text with only the rewritten ops replaced.

Unchanged text (ops, comments, blank lines, aliases, locations) is copied byte for byte; a
source op that a rewrite erased loses its line; ops created by a rewrite are printed in
canonical form (:mod:`transpiler.emit.printer`) where the source op they were made for stood,
one per line, at its indentation (SPEC.md section 3, DESIGN.md "the fast, faithful path").  A
source op that shared its line with other ops (``%r = distributed.get_rank %n : i32 tt.return``)
gives new ops on lines of their own: the ops before and after it go to lines of their own, at
the same indentation (SPEC.md section 2.6: each custom op on one line, which the downstream
checks read line by line).

A module without edits comes out as its input text, untouched.
"""

from __future__ import annotations

import bisect
from typing import List, Optional, Tuple

from ..ir.core import Module, Operation

Span = Tuple[int, int]


class _Splicer:
    def __init__(self, module: Module, with_locations: bool):
        self.module = module
        self.text = module.source.text
        self.out: List[str] = []
        self.cursor = 0
        self.erased = sorted(module.erased)
        # (offset, line break and indentation): where the text after a replaced op resumes,
        # and what goes before it when another op follows on that line
        self.line_rest: Optional[Tuple[int, str]] = None
        self.with_locations = with_locations
        self.printer = None  # transpiler.emit.printer, imported for the first new op

    # ---- text copying --------------------------------------------------------------------------
    def copy_to(self, pos: int) -> None:
        """Copy source text up to ``pos``, dropping the lines of erased ops with no replacement."""
        text = self.text
        if self.line_rest is not None:
            self._break_line_rest()
        i = bisect.bisect_left(self.erased, (self.cursor, -1))
        while i < len(self.erased) and self.erased[i][1] <= pos:
            start, end = self.erased[i]
            i += 1
            if start < self.cursor:
                continue
            line_start = text.rfind("\n", 0, start)  # drop the line, and its newline before
            cut = line_start if line_start >= self.cursor else self.cursor
            self.out.append(text[self.cursor : cut])
            self.cursor = end
        if pos > self.cursor:
            self.out.append(text[self.cursor : pos])
            self.cursor = pos

    def _break_line_rest(self) -> None:
        """After a replaced op: when an op (not a comment, not the line's end) follows it on
        its line, that op begins a line of its own."""
        at, line_break = self.line_rest
        self.line_rest = None
        if self.cursor != at:
            return
        text = self.text
        q = at
        while q < len(text) and text[q] in " \t":
            q += 1
        if q < len(text) and text[q] not in "\r\n" and not text.startswith("//", q):
            self.out.append(line_break)
            self.cursor = q

    def _break_line_before(self, line_break: str) -> None:
        """Before a new op: when the output's last line holds an op already, the new op begins
        a line of its own (no blanks left at the end of the line before)."""
        for piece in reversed(self.out):
            nl = max(piece.rfind("\n"), piece.rfind("\r"))  # a CR alone ends a line too
            if piece[nl + 1:].strip(" \t"):
                while not self.out[-1].strip(" \t"):
                    self.out.pop()  # blanks only
                self.out[-1] = self.out[-1].rstrip(" \t")
                self.out.append(line_break)
                return
            if nl >= 0:
                return

    def indent_of(self, offset: int) -> str:
        """The leading blanks of the line holding ``offset`` (an op may not start its line)."""
        line_start = self.text.rfind("\n", 0, offset) + 1
        end = line_start
        while end < offset and self.text[end] in " \t":
            end += 1
        return self.text[line_start:end]

    def newline_at(self, offset: int) -> str:
        """The line ending of the line holding ``offset`` (CRLF files keep CRLF)."""
        eol = self.text.find("\n", offset)
        return "\r\n" if eol > 0 and self.text[eol - 1] == "\r" else "\n"

    # ---- ops -------------------------------------------------------------------------------------
    def run(self) -> str:
        """Walk the ops in program order (an explicit stack: any nesting depth), copying source
        text up to the end of each source op and splicing new ops where they belong."""
        # a frame: the ops still to visit in one op's regions, the op that owns them (None at
        # the top level) and the op visited last in that frame
        stack = [[iter(self.module.ops), None, None]]
        while stack:
            frame = stack[-1]
            op = next(frame[0], None)
            if op is None:
                stack.pop()
                if frame[1] is not None:
                    self.copy_to(frame[1].span[1])
                continue
            if op.source is self.module.source and op.span is not None and op.span[0] >= self.cursor:
                if op.regions:
                    nested = (o for region in op.regions for block in region.blocks for o in block.ops)
                    stack.append([nested, op, None])
                else:  # what its frame would do: nothing nested, copy up to its end
                    self.copy_to(op.span[1])
            else:
                self.new(op, frame[2])
            frame[2] = op
        self.copy_to(len(self.text))
        return "".join(self.out)

    def print_new(self, op: Operation, newline: str, indent: str) -> str:
        """A new op's text; one with regions (the ``scf.if`` guard of a predicated wait) takes
        several lines, the later ones at ``indent``."""
        printer = self.printer
        if printer is None:
            from . import printer  # only for a module with new ops, once per module

            self.printer = printer
        if not op.regions:
            return printer.print_op(op, with_location=self.with_locations)
        lines: List[str] = []
        printer.ModulePrinter(locations=self.with_locations).print_op(op, "", lines)
        return (newline + indent).join(lines)

    def new(self, op: Operation, previous: Optional[Operation]) -> None:
        origin = op.origin
        if origin is None:
            anchor = previous.span[0] if previous is not None and previous.span else self.cursor
            newline, indent = self.newline_at(anchor), self.indent_of(anchor)
            self.out.append(newline + indent + self.print_new(op, newline, indent))
            return
        indent = self.indent_of(origin[0])
        newline = self.newline_at(origin[0])
        text = self.print_new(op, newline, indent)
        if self.cursor <= origin[0]:
            self.copy_to(origin[0])
            self._break_line_before(newline + indent)
            self.out.append(text)
            if origin in self.module.erased:
                self.cursor = origin[1]
                self.line_rest = (origin[1], newline + indent)
            else:
                self.out.append(newline + indent)
        else:
            self.out.append(newline + indent + text)


def _edited(module: Module) -> bool:
    if module.erased:
        return True
    return any(op.source is None for op in module.walk())


def emit_module(module: Module, with_locations: bool = True, edited: Optional[bool] = None) -> str:
    """The module's text: its source with rewritten ops spliced in (or the source itself).

    ``edited``: whether any op was added or erased, when the caller knows (the driver: the
    stages edit only modules with distributed ops); None walks the module to find out.

    Raises:
        ValueError: the module has no source text (print in-memory modules with the
            canonical printer instead).
    """
    if module.source is None:
        raise ValueError("emit_module needs a module parsed from text")
    if not (_edited(module) if edited is None else edited):
        return module.source.text
    return _Splicer(module, with_locations).run()
