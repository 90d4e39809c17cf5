#!/usr/bin/env python3
"""Make the benchmark's input from files the repository has, so the benchmark runs from a clone.

    python benchmarks/make_input.py [--lines 40000] [-o bench.ttir]

The input is the repository's TTIR kernels one after the other, as one file: the corpus of
``tests/corpus/ttir/`` (Triton 3.0, 3.4 and 3.9 dumps, with and without locations) and the
distributed kernels of ``examples/``, less the files ``triton-adapter-opt`` 3.2.0 cannot read
(the C++ baseline must run on the same file: ``bench.UNREADABLE``, and, when the tool is
there, the files it refuses), repeated until the file has ``--lines`` lines.  Each copy's alias definitions are renamed (``#loc1`` -> ``#loc1_k7``), so
the result is one valid file and not a redefinition.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_LINES = 40000


_ALIAS_USE = re.compile(r"(?<![\w$.\-])([#!][\w$.\-]+)")


def rename_aliases(text: str, suffix: str) -> str:
    """``text`` with every alias it defines (``#loc1 = ...``, ``!t = ...``) renamed to ``<name><suffix>``."""
    names = set(re.findall(r"^([#!][\w$.\-]+)[ \t]*=", text, re.M))
    if not names:
        return text
    return _ALIAS_USE.sub(lambda m: m.group(1) + suffix if m.group(1) in names else m.group(1), text)


def sources(tao: Optional[str] = None) -> List[Path]:
    """The repository's kernels that both tools read, in a fixed order (``tao``: the
    ``triton-adapter-opt`` to ask, with their distributed ops in generic form)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench import UNREADABLE, generic_distributed

    files = sorted((ROOT / "tests" / "corpus" / "ttir").glob("*/*.ttir")) + sorted((ROOT / "examples").glob("*/*.ttir"))
    files = [f for f in files if not UNREADABLE.search(f.read_text(encoding="utf-8")) and "{-#" not in f.read_text()]
    if tao is None:
        return files
    with tempfile.TemporaryDirectory() as work:
        return [f for f in files
                if subprocess.run([tao, str(generic_distributed(f, Path(work))), "--allow-unregistered-dialect",
                                   "-o", os.devnull], capture_output=True).returncode == 0]


def generate(lines: int = DEFAULT_LINES, tao: Optional[str] = None) -> str:
    """The benchmark text: the kernels of :func:`sources`, repeated to at least ``lines`` lines."""
    files = sources(tao)
    texts = [f.read_text(encoding="utf-8") for f in files]
    out: List[str] = []
    total = k = 0
    while total < lines:
        text = texts[k % len(texts)]
        out.append(rename_aliases(text, f"_k{k}") if k else text)
        total += text.count("\n")
        k += 1
    return "".join(out)


def main() -> int:
    """Write the generated input (``-o``, default stdout)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=DEFAULT_LINES)
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("--triton-adapter-opt", dest="tao", help="keep only the files this tool reads")
    args = parser.parse_args()
    text = generate(args.lines, args.tao)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
