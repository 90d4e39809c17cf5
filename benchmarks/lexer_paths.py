#!/usr/bin/env python3
"""What each path of the structure lexer pays: the same work with and without it (issue 22).

    python benchmarks/lexer_paths.py [--corpus ../shared/corpus] [--rounds 7]

The structure lexer has a reference path (the token walk of every op) and speed-ups of it that
must give its tokens (``tests/test_lexer_paths.py``).  Each configuration turns speed-ups off
the way the tests do (their regexes never match) and times, in process, rounds of alternating
configurations (so that a machine that slows down slows all of them):

* ``parse_module`` of ``bench/big.compat.ttir`` (40k lines);
* ``transpiler.lower`` of the typical kernel (``distributed/allgather_push.ttir``), steady state;
* ``transpiler.lower`` of ``benchmarks/scaling.py``'s 64k distributed ops in one block.

It prints the median of each and its ratio to the configuration with every path on; a path is
worth keeping where turning it off costs 5 % or more on one of them.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

_NEVER = re.compile(r"(?!)")


_LINES = "transpiler.parser.structure.line_runs"
_LEXER = "transpiler.parser.structure.lexer"
# {configuration: the (module, regex) pairs turned off}; the first has every path on
CONFIGS = {
    "every path": [],
    "no runs of lines": [(_LINES, "_LINE"), (_LINES, "_ALIAS_LINE")],
    "no one-line path": [(_LEXER, "_OP_LINE"), (_LEXER, "_REST_LINE_NEXT"), (_LEXER, "_ALIAS_LINE")],
    "no one-line op path": [(_LEXER, "_OP_LINE")],
    "no one-line rest after '}'": [(_LEXER, "_REST_LINE_NEXT")],
    "no one-line alias path": [(_LEXER, "_ALIAS_LINE")],
    "token walk only": [(_LINES, "_LINE"), (_LINES, "_ALIAS_LINE"), (_LEXER, "_OP_LINE"),
                        (_LEXER, "_REST_LINE_NEXT"), (_LEXER, "_ALIAS_LINE")],
}


@contextlib.contextmanager
def turned_off(names):
    """A context in which the regexes ``names`` ((module, attribute) pairs) never match."""
    saved = []
    try:
        for module_name, attribute in names:
            module = importlib.import_module(module_name)
            saved.append((module, attribute, getattr(module, attribute)))
            setattr(module, attribute, _NEVER)
        yield
    finally:
        for module, attribute, value in reversed(saved):
            setattr(module, attribute, value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--ops", type=int, default=64000, help="distributed ops of the scaling module")
    parser.add_argument("--lower-rounds", type=int, default=2, help="rounds of the scaling module's lowering")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="the configurations to compare (the first: "
                        "the baseline of the ratios), comma-separated: " + ", ".join(CONFIGS))
    parser.add_argument("--work", default="parse-big,kernel,parse-ops,lower-ops", help="what to time, comma-separated")
    args = parser.parse_args()
    corpus = Path(args.corpus)
    big = (corpus / "bench" / "big.compat.ttir").read_text()
    kernel_text = (corpus / "distributed" / "allgather_push.ttir").read_text()
    from scaling import kernel

    from transpiler import lower
    from transpiler.parser import parse_module

    scaling_text = kernel(args.ops)
    import warnings

    warnings.simplefilter("ignore")


    def timed(fn, scale=1.0):
        def run():
            t0 = time.perf_counter()
            fn()
            return scale * (time.perf_counter() - t0)
        return run

    every = {  # key: (what, one timing, rounds)
        "parse-big": ("parse big.compat.ttir (s)", timed(lambda: parse_module(big, "big.compat.ttir")), args.rounds),
        "kernel": ("lower typical kernel (ms)", timed(lambda: lower(kernel_text, filename="kernel.ttir"), 1e3),
                   30 * args.rounds),
        "parse-ops": (f"parse {args.ops // 1000}k ops (s)", timed(lambda: parse_module(scaling_text, "scaling.ttir")),
                      args.rounds),
        "lower-ops": (f"lower {args.ops // 1000}k ops (s)", timed(lambda: lower(scaling_text, filename="scaling.ttir")),
                      args.lower_rounds),
    }
    work = {every[key][0]: every[key][1:] for key in args.work.split(",")}
    configs = {name: CONFIGS[name] for name in args.configs.split(",")}
    results = {(c, w): [] for c in configs for w in work}
    for w, (fn, rounds) in work.items():
        for c, names in configs.items():
            with turned_off(names):
                fn()  # warm: imports, tables, caches
        for _ in range(rounds):  # the configurations alternate, one timing each
            for c, names in configs.items():
                with turned_off(names):
                    results[c, w].append(fn())
    print("| configuration | " + " | ".join(work) + " |")
    print("| --- |" + " ---: |" * len(work))
    base = {w: statistics.median(results[next(iter(configs)), w]) for w in work}
    for c in configs:
        cells = []
        for w in work:
            m = statistics.median(results[c, w])
            cells.append(f"{m:.3f} ({m / base[w]:.2f}x)")
        print(f"| {c} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
