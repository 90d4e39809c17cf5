#!/usr/bin/env python3
"""How many times reading a text enters each module of the reader (issue 30, "one walk").

    python benchmarks/structure_walk.py [FILE]     # default: examples/allgather_push/allgather_push.ttir

Counts, with ``sys.setprofile``, the runs of consecutive calls into each module of
``transpiler/parser/`` while ``parse_module`` reads ``FILE`` (the modules imported and warmed
up first, so that only the walk over the text counts): how often the walk goes back and forth
between the lexer, the op-boundary rules, the token classes and the builder, before the first
op exists and over the whole parse.  It also counts *passes*: how many times the regexes of each
module read a character of the text (the largest such count over the characters, before the first op
and over the whole parse).  A module entered once per token of a single left-to-right walk reads each
character once however often it is entered; a module that goes back over text another already
read shows a count above one.  Issue 30's target: each structure module passes the text at most
twice.  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from transpiler.parser import parse_module  # noqa: E402
from transpiler.parser.structure.builder import StructureBuilder  # noqa: E402

PARSER = "/transpiler/parser/"


def walk(text: str, filename: str):
    """(modules entered before the first op, over the whole parse): each a list of module names
    in the order the walk enters them (a run of calls in one module counted once)."""
    entered = []
    first_op = []
    original = StructureBuilder.op

    def op(self, children):
        if not first_op:
            first_op.append(len(entered))
        return original(self, children)

    def profile(frame, event, arg):
        if event == "call" and PARSER in frame.f_code.co_filename:
            module = frame.f_code.co_filename.split(PARSER, 1)[1]
            if not entered or entered[-1] != module:
                entered.append(module)

    StructureBuilder.op = op
    sys.setprofile(profile)
    try:
        parse_module(text, filename)
    finally:
        sys.setprofile(None)
        StructureBuilder.op = original
    return entered[:first_op[0]] if first_op else entered, entered


class _Reads:
    """A compiled pattern that records the spans of the text it reads: ``[pos, end of the
    match)`` for a match, up to the end of the searched range for a search that fails, charged to
    the module of the caller (``reads[module]``: a list of (start, end))."""

    def __init__(self, pattern, reads, text):
        self._pattern, self._reads, self._text = pattern, reads, text

    def __getattr__(self, name):
        return getattr(self._pattern, name)

    def _charge(self, string, start, end):
        if string is self._text and end > start:
            caller = sys._getframe(2).f_code.co_filename
            if PARSER in caller:
                self._reads[caller.split(PARSER, 1)[1]].append((start, end))

    def match(self, string, pos=0, endpos=sys.maxsize):
        m = self._pattern.match(string, pos, endpos)
        self._charge(string, pos, m.end() if m else pos + 1)
        return m

    fullmatch = match

    def search(self, string, pos=0, endpos=sys.maxsize):
        m = self._pattern.search(string, pos, endpos)
        self._charge(string, pos, m.end() if m else min(endpos, len(string)))
        return m

    def finditer(self, string, pos=0, endpos=sys.maxsize):
        last = pos
        for m in self._pattern.finditer(string, pos, endpos):
            last = m.end()
            yield m
        self._charge(string, pos, last)


def passes(text: str, filename: str):
    """{module: (largest reads of one character before the first op, over the whole parse)}, from
    the spans the structure modules' compiled regexes read (:class:`_Reads`)."""
    import transpiler.parser.structure as package

    reads = collections.defaultdict(list)
    first_op = []
    original = StructureBuilder.op

    def op(self, children):
        if not first_op:
            first_op.append({m: len(spans) for m, spans in reads.items()})
        return original(self, children)

    swapped = []
    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        module = sys.modules.get(f"{package.__name__}.{path.stem}")
        for name, value in list(vars(module).items()) if module else ():
            if isinstance(value, re.Pattern) or type(value).__name__ == "Pattern":
                swapped.append((module, name, value))
                setattr(module, name, _Reads(value, reads, text))
    StructureBuilder.op = op
    try:
        parse_module(text, filename)
    finally:
        StructureBuilder.op = original
        for module, name, value in swapped:
            setattr(module, name, value)
    cut = first_op[0] if first_op else {}
    return {m: (_most(spans[:cut.get(m, 0)]), _most(spans)) for m, spans in reads.items()}


def _most(spans) -> int:
    """The largest number of the spans that cover one character."""
    edges = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans], key=lambda x: (x[0], x[1]))
    depth = most = 0
    for _, step in edges:
        depth += step
        most = max(most, depth)
    return most


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(ROOT / "examples" / "allgather_push" / "allgather_push.ttir"))
    path = Path(ap.parse_args().file)
    parse_module("module {\n}\n")  # imports and caches, not counted
    before, whole = walk(path.read_text(encoding="utf-8"), str(path))
    lines = path.read_text(encoding="utf-8").count("\n")
    print(f"{path.name} ({lines} lines): modules of transpiler/parser/ entered (runs of calls)")
    print("| module | before the first op | whole parse |")
    print("| --- | ---: | ---: |")
    b, w = collections.Counter(before), collections.Counter(whole)
    for module, count in w.most_common():
        print(f"| {module} | {b.get(module, 0)} | {count} |")
    print()
    print("passes: the most times one character is read by the module's regexes")
    print("| module | before the first op | whole parse |")
    print("| --- | ---: | ---: |")
    for module, (first, all_) in sorted(passes(path.read_text(encoding="utf-8"), str(path)).items()):
        print(f"| {module} | {first} | {all_} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
