#!/usr/bin/env python3
"""Derive symbols.txt, the machine-readable symbol list, from the library sources.

The sources are the single source of truth.  Each src/*.cpp is run through the
host C++ preprocessor (g++ -E -P, with the host stand-in header) and every
extern "C" function *definition* named _mlir_ciface_<symbol> is collected with
its full signature.  symbols.txt gets one line per symbol, sorted by symbol:

    <symbol>\t<C signature>

e.g. "aclshmem_my_pe\tint32_t _mlir_ciface_aclshmem_my_pe()".  The symbol is
the bare name the lowering writes into `symbol = "..."`; bishengir-compile
links it as _mlir_ciface_<symbol> (seed 002 section 4.2).

    gen_symbols.py            rewrite symbols.txt
    gen_symbols.py --check    exit 1, with a diff, if symbols.txt is stale

Regenerating needs g++ (or $CXX): without it the script says so and exits 2.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC_DIR = HERE / "src"
SYMBOLS_TXT = HERE / "symbols.txt"
PREFIX = "_mlir_ciface_"

# -D__gm__=__gm__ keeps the address-space qualifier in the signatures (the
# stand-in header would otherwise define it away).
PREPROCESS_FLAGS = [
    "-E", "-P", "-std=c++17", "-DTTD_HOST_BUILD", "-D__gm__=__gm__",
    f"-I{HERE / 'include'}", f"-I{HERE / 'host'}",
]

_NAME_RE = re.compile(r"\b" + PREFIX + r"(\w+)\s*\(")
_ATTRIBUTE_RE = re.compile(r"__attribute__\s*\(\(.*?\)\)")
_EXTERN_C_RE = re.compile(r'^extern\s+"C"\s+')


class SymbolError(Exception):
    """The sources break a rule the symbol list relies on."""


def find_cxx() -> str:
    cxx = os.environ.get("CXX") or "g++"
    path = shutil.which(cxx)
    if path is None:
        raise SymbolError(
            f"the C++ compiler '{cxx}' was not found.\n"
            "g++ is required to regenerate or check symbols.txt: the symbol list is read\n"
            "from the preprocessed sources.  Install it (e.g. `apt-get install g++`) or set CXX.")
    return path


def preprocess(cxx: str, source: Path) -> str:
    proc = subprocess.run(
        [cxx, *PREPROCESS_FLAGS, str(source)], capture_output=True, text=True, check=False,
    )
    if proc.returncode != 0:
        raise SymbolError(f"preprocessing {source} failed:\n{proc.stderr}")
    return proc.stdout


def normalise(text: str) -> str:
    """Whitespace-normalise a declaration: single spaces, none inside brackets."""
    text = " ".join(text.split())
    text = re.sub(r"\s*,\s*", ", ", text)
    text = re.sub(r"([(<])\s+", r"\1", text)
    text = re.sub(r"\s+([)>])", r"\1", text)
    return text


def _closing_paren(text: str, open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise SymbolError("unbalanced parentheses in preprocessed source")


def _declaration_start(text: str, end: int) -> int:
    """Index just after the statement boundary (';', '{' or '}') before end."""
    return max(text.rfind(ch, 0, end) for ch in ";{}") + 1


def parse_definitions(text: str, origin: str) -> dict[str, str]:
    """Map symbol -> signature for every _mlir_ciface_ definition in text."""
    found: dict[str, str] = {}
    for match in _NAME_RE.finditer(text):
        close = _closing_paren(text, match.end() - 1)
        rest = text[close + 1:].lstrip()
        if not rest.startswith("{"):
            continue  # a declaration or a call, not a definition
        head = text[_declaration_start(text, match.start()):match.start()]
        head = normalise(_ATTRIBUTE_RE.sub(" ", head))
        symbol = match.group(1)
        if not _EXTERN_C_RE.match(head + " "):
            raise SymbolError(
                f"{origin}: {PREFIX}{symbol} is not defined with its own extern \"C\" "
                "(use TTD_WRAPPER): a C++-mangled name would not link")
        return_type = _EXTERN_C_RE.sub("", head + " ").strip()
        if re.search(r"\b(static|inline)\b", return_type):
            raise SymbolError(
                f"{origin}: {PREFIX}{symbol} must not be static or inline: it would "
                "not be emitted into the bitcode")
        if symbol in found:
            raise SymbolError(f"{origin}: {PREFIX}{symbol} is defined twice")
        found[symbol] = normalise(f"{return_type} {text[match.start():close + 1]}")
    return found


def collect_symbols(cxx: str) -> dict[str, str]:
    symbols: dict[str, str] = {}
    origins: dict[str, str] = {}
    for source in sorted(SRC_DIR.glob("*.cpp")):
        for symbol, signature in parse_definitions(preprocess(cxx, source), source.name).items():
            if symbol in symbols:
                raise SymbolError(
                    f"{PREFIX}{symbol} is defined in both {origins[symbol]} and {source.name}")
            symbols[symbol] = signature
            origins[symbol] = source.name
    if not symbols:
        raise SymbolError(f"no {PREFIX} definitions found under {SRC_DIR}")
    return symbols


def render(symbols: dict[str, str]) -> str:
    return "".join(f"{name}\t{symbols[name]}\n" for name in sorted(symbols))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 with a diff if the file is out of date")
    parser.add_argument("--output", type=Path, default=SYMBOLS_TXT,
                        help=f"symbol list to write or check (default: {SYMBOLS_TXT})")
    args = parser.parse_args(argv)

    try:
        wanted = render(collect_symbols(find_cxx()))
    except SymbolError as err:
        print(f"gen_symbols.py: error: {err}", file=sys.stderr)
        return 2

    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current == wanted:
            print(f"{args.output}: up to date ({wanted.count(chr(10))} symbols)")
            return 0
        sys.stdout.writelines(difflib.unified_diff(
            current.splitlines(keepends=True), wanted.splitlines(keepends=True),
            fromfile=f"{args.output} (checked in)", tofile=f"{args.output} (from sources)"))
        print(f"{args.output} is out of date: run {Path(__file__).name} to regenerate it",
              file=sys.stderr)
        return 1

    args.output.write_text(wanted)
    print(f"wrote {args.output} ({wanted.count(chr(10))} symbols)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
