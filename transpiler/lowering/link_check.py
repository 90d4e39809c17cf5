"""The link check: every symbol the lowering emits must exist in the device template library.

On the NPU a ``hivm.hir.custom`` resolves only when ``bishengir-compile`` links the template
library's bitcode (SPEC.md section 5; seed ``000_...`` "How Symbols Become Real Code").  A
symbol that is not there fails late, at link time, far from the kernel's source; this check
fails at once, at the op, naming the nearest symbols that do exist.

The symbol list is ``device_templates/symbols.txt`` (generated from the library's sources, see
``device_templates/gen_symbols.py``), shipped in the package; another version's list can be
given with ``--symbol-list``.  Each line is ``<symbol><TAB><C signature>``.
"""

from __future__ import annotations

import difflib
import functools
from pathlib import Path
from typing import Dict, List, Optional

import attrs

from ..diagnostics import ERROR, Diagnostic, DiagnosticEngine, op_location
from ..ir.attributes import StringAttr, UnitAttr
from ..ir.core import Module
from .naming import link_name


class SymbolListError(ValueError):
    """A symbol list file that cannot be read or is malformed."""


@attrs.frozen
class SymbolLibrary:
    """Symbols of a device template library and their C signatures; ``path`` is where they came from."""

    signatures: Dict[str, str]
    path: str

    def __contains__(self, symbol: str) -> bool:
        return symbol in self.signatures

    def nearest(self, symbol: str, count: int = 3) -> List[str]:
        """The known symbols most like ``symbol`` (for error messages)."""
        return difflib.get_close_matches(symbol, list(self.signatures), n=count, cutoff=0.5)

    def listing(self) -> str:
        """``symbol<TAB>signature`` lines, sorted (``ttd-lower --list-symbols``)."""
        return "".join(f"{s}\t{self.signatures[s]}\n" for s in sorted(self.signatures))


def parse_symbol_list(text: str, path: str) -> SymbolLibrary:
    """Read ``symbol<TAB>signature`` lines (``#`` comments and blank lines are skipped).

    Raises:
        SymbolListError: a line without a signature, or a signature whose function is not
            ``_mlir_ciface_<symbol>`` (the link name, seed ``002_...`` section 4.2).
    """
    signatures: Dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        symbol, sep, signature = line.partition("\t")
        symbol, signature = symbol.strip(), signature.strip()
        if not sep or not symbol or not signature:
            raise SymbolListError(f"{path}:{number}: expected '<symbol><TAB><C signature>'")
        if f" {link_name(symbol)}(" not in f" {signature}" and f"*{link_name(symbol)}(" not in signature:
            raise SymbolListError(f"{path}:{number}: the signature does not define {link_name(symbol)}")
        signatures[symbol] = signature
    if not signatures:
        raise SymbolListError(f"{path}: no symbols")
    return SymbolLibrary(signatures, path)


def load_library(path: Optional[str] = None) -> SymbolLibrary:
    """The bundled symbol list, or the one at ``path``.

    A file given by ``path`` is read again on every call (it is small), and parsed again only
    when its text changed: a list edited between two calls in one process is the one checked.

    Raises:
        SymbolListError: the file is missing, unreadable or malformed.
    """
    if not path:
        return _bundled_library()
    return _parsed(_read_list(Path(path), path), path)


@functools.lru_cache(maxsize=1)
def _bundled_library() -> SymbolLibrary:
    from ..resources import data_path

    file = data_path("device_templates", "symbols.txt")
    return parse_symbol_list(_read_list(file, str(file)), str(file))


@functools.lru_cache(maxsize=16)
def _parsed(text: str, path: str) -> SymbolLibrary:
    return parse_symbol_list(text, path)


def _read_list(file: Path, shown: str) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except OSError as e:
        raise SymbolListError(f"cannot read the symbol list '{shown}': {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise SymbolListError(f"the symbol list '{shown}' is not UTF-8 text ({e.reason})") from None


def check_symbols(module: Module, library: SymbolLibrary, diagnostics: DiagnosticEngine) -> int:
    """Report every distributed ``hivm.hir.custom`` whose symbol ``library`` lacks; returns how
    many custom ops were checked."""
    checked = 0
    for op in module.walk():
        if op.name != "hivm.hir.custom" or not isinstance(op.attributes.get("hivm.is_distributed"), UnitAttr):
            continue
        checked += 1
        symbol = op.attributes.get("symbol")
        name = symbol.value if isinstance(symbol, StringAttr) else None
        if name is not None and name in library:
            continue
        near = library.nearest(name or "")
        hint = f"; nearest: {', '.join(near)}" if near else ""
        source, offset = op_location(op)
        diagnostics.emit(Diagnostic(
            ERROR,
            f"this op lowers to symbol '{name}', which is not in the device template library ({library.path}){hint}; "
            f"it would not resolve when bishengir-compile links the library (use --symbol-list for "
            f"another library version, or --no-link-check)",
            source, offset,
        ))
    return checked
