"""One run of the command line over its input: chunks compiled, diagnostics checked, output made.

Like ``mlir-opt``: each ``--split-input-file`` chunk is compiled on its own; the outputs of the
chunks that succeed are joined with the separators; the diagnostics of all chunks are reported,
with a note naming the kernel's Python line when the op's ``loc`` gives one (``pyloc.py``; or,
with ``--verify-diagnostics``, checked against the chunk's designators).  Whether the
joined output is written when a chunk failed is the caller's choice (stdout: yes, as
``mlir-opt`` prints every good chunk; a file: no, it is written only when everything succeeded).
"""

from __future__ import annotations

import re
from typing import Callable, List, Optional

import attrs

from .. import records
from ..diagnostics import ERROR, WARNING, Diagnostic
from .. import driver
from ..driver import PrintOptions, Request, stage_of
from ..pipeline import Options, StageTiming

COMMENT_LINE = r"^[ \t]*//[^\n]*(?:\n|\Z)"  # compiled (re's cache) only under --strip-comments


@records.define
class Settings:
    """What the options ask for (one field per behaviour; the CLI fills it)."""

    options: Options = attrs.Factory(Options)
    printing: PrintOptions = attrs.Factory(PrintOptions)
    split_marker: Optional[str] = None  # --split-input-file[=MARKER]
    output_marker: Optional[str] = None  # --output-split-marker
    verify: Optional[str] = None  # --verify-diagnostics[=all|only-expected]
    strip_comments: bool = False
    dump_dir: Optional[str] = None
    override_dir: Optional[str] = None
    stop_after: Optional[str] = None
    print_ir_before: bool = False
    print_ir_after: bool = False
    ir_stream: Callable[[str], None] = lambda text: None
    notify: Callable[[str], None] = lambda message: None
    lint_only: bool = False  # --lint-only: parse, verify and lint; no output


@records.define
class Outcome:
    """The joined output, every diagnostic to report (in order), the stage timings, and
    whether the run failed (an error, or a verification mismatch)."""

    text: str
    diagnostics: List[Diagnostic]
    timings: List[StageTiming]
    failed: bool


def run(text: str, filename: str, settings: Settings) -> Outcome:
    """Compile ``text`` (each chunk of it under ``--split-input-file``) as ``settings`` say.

    Raises:
        OSError: a dump or override folder cannot be used.
    """
    from ..diagnostics import DiagnosticError
    from ..ir.core import Source

    split = settings.split_marker is not None
    whole = Source(text, filename)
    diagnostics: List[Diagnostic] = []
    if split:
        from ..split import near_misses, split_input

        chunks = split_input(text, settings.split_marker)
        diagnostics += [Diagnostic(WARNING, "near miss with file split marker", whole, offset)
                        for offset in near_misses(text, settings.split_marker)]
    else:
        chunks = [_Whole(text)]
    stem = stage_of(filename)[0]
    outputs: List[str] = []
    timings: List[StageTiming] = []
    failed = False
    garbage = _ChunkGarbage(len(chunks) > _CHUNKS_PER_COLLECTION)
    for number, chunk in enumerate(chunks, 1):
        request = Request(chunk.text, filename, settings.options, settings.printing, dump_dir=settings.dump_dir,
                          override_dir=settings.override_dir, stop_after=settings.stop_after,
                          split_line=chunk.start_line if split else None,
                          dump_stem=f"{stem}.split{number}" if split else None, notify=settings.notify,
                          print_ir_before=settings.print_ir_before, print_ir_after=settings.print_ir_after,
                          ir_stream=settings.ir_stream, lint_only=settings.lint_only)
        try:
            result = driver.compile_text(request)  # looked up at call time (tests replace it)
            output = result.text
            timings.extend(result.timings)
            found = list(result.warnings)
        except DiagnosticError as e:
            output, found = "", e.diagnostics
        if settings.verify:
            from ..verify_diagnostics import check

            found = check(whole, found, chunk.offset, chunk.offset + len(chunk.text),
                          only_expected=settings.verify == "only-expected")
        elif found:
            from ..pyloc import add_python_source_notes

            add_python_source_notes(found)  # the kernel's Python line, from the op's loc (as the hook does)
        failed = failed or any(d.severity == ERROR for d in found)
        outputs.append(re.sub(COMMENT_LINE, "", output, flags=re.M) if settings.strip_comments else output)
        diagnostics.extend(found)
        if number % _CHUNKS_PER_COLLECTION == 0:
            garbage.collect()
    garbage.done()
    if split:
        from ..split import join_outputs

        joined = join_outputs(chunks, outputs, settings.output_marker)
    else:
        joined = outputs[0]
    return Outcome(joined, diagnostics, merge_timings(timings), failed)


_CHUNKS_PER_COLLECTION = 64


class _ChunkGarbage:
    """A chunk's IR is garbage once its output is made, but the command line runs with the
    cyclic collector off (``cli.entry``), so a file of many chunks kept the IR of all of them
    (issue 25: 517 MB for 12 000 chunks).  With the collector off and many chunks, what lives
    before the first chunk is frozen (``gc.freeze``: never walked again) and the garbage is
    collected every ``_CHUNKS_PER_COLLECTION`` chunks, the survivors frozen in turn: memory of
    a few chunks, each collection walking only theirs.  With the collector on (the API, tests) nothing changes."""

    def __init__(self, many_chunks: bool):
        import gc

        self._gc = gc if many_chunks and not gc.isenabled() else None
        if self._gc is not None:
            self._gc.freeze()

    def collect(self) -> None:
        if self._gc is not None:
            self._gc.collect()
            self._gc.freeze()  # what survived (outputs, timings) is not walked again either

    def done(self) -> None:
        if self._gc is not None:
            self._gc.unfreeze()
            self._gc = None


class _Whole:
    """The input as the one chunk of a run without ``--split-input-file`` (``split.Chunk``'s
    fields, without importing the split module)."""

    __slots__ = ("text",)
    start_line, offset, marker = 1, 0, ""

    def __init__(self, text: str):
        self.text = text


def merge_timings(timings: List[StageTiming]) -> List[StageTiming]:
    """Sum the timings of split chunks per stage name, keeping the first-seen order."""
    merged = {}
    for t in timings:
        merged[t.name] = merged.get(t.name, 0.0) + t.seconds
    return [StageTiming(name, seconds) for name, seconds in merged.items()]
