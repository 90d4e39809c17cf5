#!/usr/bin/env python3
"""How many times reading a text enters each module of the reader (issue 30, "one walk").

    python benchmarks/structure_walk.py [FILE]     # default: examples/allgather_push/allgather_push.ttir

Counts, with ``sys.setprofile``, the runs of consecutive calls into each module of
``transpiler/parser/`` while ``parse_module`` reads ``FILE`` (the modules imported and warmed
up first, so that only the walk over the text counts): how often the walk goes back and forth
between the lexer, the op-boundary rules, the token classes and the builder, before the first
op exists and over the whole parse.  Issue 30's target: each structure module entered at most
twice before the first op.  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import collections
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
