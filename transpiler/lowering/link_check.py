"""The link check: every symbol the lowering emits must exist in the device template library.

On the NPU a ``hivm.hir.custom`` resolves only when ``bishengir-compile`` links the template
library's bitcode (SPEC.md section 5; seed ``000_...`` "How Symbols Become Real Code").  A
symbol that is not there fails late, at link time, far from the kernel's source; this check
fails at once, at the op, naming the nearest symbols that do exist.

The symbol lists (``<symbol><TAB><C signature>`` lines) are shipped in the package: the bundled
``device_templates/symbols.txt`` (generated from the library's sources by
``device_templates/gen_symbols.py``) and one per AscendNPU-IR release under
``device_templates/releases/`` (generated from that release's ``Shmem.cpp``); ``--device-library``
selects one, ``--symbol-list`` reads another file.  The operand check against the signatures is
in :mod:`transpiler.lowering.abi`.
"""

from __future__ import annotations

import functools
from typing import Dict, List, Optional

import attrs

from ..fileio import read_limited
from .. import records
from ..diagnostics import ERROR, Diagnostic, DiagnosticEngine, op_location
from ..ir.attributes import StringAttr, UnitAttr
from ..ir.core import Module
from ..ir.dialect import all_attributes
from .abi import CSignature, parse_signature
from .naming import link_name


class SymbolListError(ValueError):
    """A symbol list file that cannot be read or is malformed, or an unknown library name."""


# --device-library NAME -> the list's path under the data folder (SPEC.md section 5): the project's
# own library, and one list per supported AscendNPU-IR release, generated from its Shmem.cpp by
# device_templates/releases/gen_release_symbols.py (each records its commit)
LIBRARIES = {
    "bundled": ("device_templates", "symbols.txt"),
    "1.2.0": ("device_templates", "releases", "ascendnpu-ir-1.2.0.txt"),
    "1.2.0-post": ("device_templates", "releases", "ascendnpu-ir-1.2.0-post.txt"),
    "master": ("device_templates", "releases", "ascendnpu-ir-master.txt"),
}
DEFAULT_LIBRARY = "bundled"


@records.frozen
class SymbolLibrary:
    """Symbols of a device template library and their C signatures.

    ``path`` is where they came from; ``name`` how messages call the library (``bundled``,
    ``AscendNPU-IR 1.2.0 (commit 8796a8ac1508)``, or the path of a ``--symbol-list``).
    """

    signatures: Dict[str, str]
    path: str
    name: str = ""
    _parsed: Dict[str, CSignature] = attrs.field(factory=dict, eq=False, repr=False)

    def __contains__(self, symbol: str) -> bool:
        return symbol in self.signatures

    def signature(self, symbol: str) -> CSignature:
        """The parsed C signature of ``symbol`` (which must be in the library)."""
        if symbol not in self._parsed:
            self._parsed[symbol] = parse_signature(self.signatures[symbol], link_name(symbol))
        return self._parsed[symbol]

    def nearest(self, symbol: str, count: int = 3) -> List[str]:
        """The known symbols most like ``symbol`` (for error messages)."""
        import difflib  # only for error messages

        return difflib.get_close_matches(symbol, list(self.signatures), n=count, cutoff=0.5)

    def listing(self) -> str:
        """``symbol<TAB>signature`` lines, sorted (``ttd-lower --list-symbols``)."""
        return "".join(f"{s}\t{self.signatures[s]}\n" for s in sorted(self.signatures))


#: what a missing symbol's error suggests, in ``ttd-lower``'s options (``ttd-sim``, which has
#: ``--device-library`` only, replaces it by :data:`SIM_OPTIONS_HINT`)
OPTIONS_HINT = "select another with --device-library or --symbol-list, or use --no-link-check"
SIM_OPTIONS_HINT = "select another with --device-library"

def parse_symbol_list(text: str, path: str, name: str = "") -> SymbolLibrary:
    """Read ``symbol<TAB>signature`` lines (``#`` comments and blank lines are skipped; a
    ``# release:`` / ``# commit:`` header names the library in messages).

    Raises:
        SymbolListError: a line without a signature, or a signature whose function is not
            ``_mlir_ciface_<symbol>`` (the link name, seed ``002_...`` section 4.2).
    """
    signatures: Dict[str, str] = {}
    header: Dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            key, sep, value = line.lstrip("# ").partition(":")
            if sep and key in ("release", "commit"):
                header[key] = value.strip()
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
    if not name and "release" in header:
        name = f"AscendNPU-IR {header['release']} (commit {header.get('commit', '?')[:12]})"
    return SymbolLibrary(signatures, path, name or path)


def load_library(path: Optional[str] = None, library: str = DEFAULT_LIBRARY) -> SymbolLibrary:
    """The list at ``path`` (``--symbol-list``), else the one of ``library`` (``--device-library``:
    ``bundled``, ``1.2.0``, ``1.2.0-post`` or ``master``).

    A file given by ``path`` is read again on every call (it is small), and parsed again only
    when its text changed: a list edited between two calls in one process is the one checked.
    The shipped lists are read once.

    Raises:
        SymbolListError: an unknown library name; the file is missing, unreadable or malformed.
    """
    if path:
        return _parsed(_read_list(path, path), path, "")
    if library not in LIBRARIES:
        raise SymbolListError(f"unknown device library '{library}' (known: {', '.join(LIBRARIES)})")
    return _shipped_library(library)


@functools.lru_cache(maxsize=None)
def _shipped_library(library: str) -> SymbolLibrary:
    from ..resources import data_file

    file = data_file(*LIBRARIES[library])
    return parse_symbol_list(_read_list(file, file), file, "bundled" if library == DEFAULT_LIBRARY else "")


@functools.lru_cache(maxsize=16)
def _parsed(text: str, path: str, name: str) -> SymbolLibrary:
    return parse_symbol_list(text, path, name)


def _read_list(file: str, shown: str) -> str:
    try:
        with open(file, encoding="utf-8") as f:
            return read_limited(f)
    except OSError as e:
        raise SymbolListError(f"cannot read the symbol list '{shown}': {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise SymbolListError(f"the symbol list '{shown}' is not UTF-8 text ({e.reason})") from None


def libraries_with(symbol: str) -> List[str]:
    """The names (``--device-library`` values) of the shipped libraries that have ``symbol``."""
    return [name for name in LIBRARIES if symbol in load_library(None, name)]


def check_symbols(module: Module, library: SymbolLibrary, diagnostics: DiagnosticEngine) -> int:
    """Report every distributed ``hivm.hir.custom`` the lowering emitted whose symbol ``library``
    lacks, naming the libraries that have it; returns how many custom ops were checked.  Custom
    ops that were already in the input (``op.source`` set) are someone else's calls, of
    libraries the tool does not know: they pass through unread (SPEC.md section 3)."""
    checked = 0
    for op in module.walk():
        if op.name != "hivm.hir.custom" or op.source is not None:
            continue
        attributes = all_attributes(op)
        if not isinstance(attributes.get("hivm.is_distributed"), UnitAttr):
            continue
        checked += 1
        symbol = attributes.get("symbol")
        name = symbol.value if isinstance(symbol, StringAttr) else None
        if name is not None and name in library:
            continue
        found = libraries_with(name or "")
        near = library.nearest(name or "")
        if found:
            hint = f"; it is in --device-library={', '.join(found)}"
        else:
            hint = f"; no shipped library has it" + (f"; nearest: {', '.join(near)}" if near else "")
        source, offset = op_location(op)
        diagnostics.emit(Diagnostic(
            ERROR,
            f"this op lowers to symbol '{name}', which is not in the device template library {library.name} "
            f"({library.path}){hint}; it would not resolve when bishengir-compile links the library "
            f"({OPTIONS_HINT})",
            source, offset,
        ))
    return checked
