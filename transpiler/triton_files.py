"""Which file holds the TTIR text the hook's ``ttd_lower`` stage was given (for its diagnostics).

Inside Triton the stage gets the module, not a file, so a diagnostic's ``kernel.ttir:24:41``
would name a file that does not exist.  triton 3.2's ``compile`` (``triton/compiler/
compiler.py``) writes each stage's output, the ``ttir`` stage's too, before the next stage runs:

* with ``TRITON_KERNEL_DUMP=1``, to ``<TRITON_DUMP_DIR or $TRITON_HOME/.triton/dump>/<hash>/
  <kernel>.ttir`` (``<hash>`` is the source's hash, which the stage is not told: the folder is
  found by the file's content);
* always, to Triton's cache, ``get_cache_manager(metadata["hash"])``'s folder.

:func:`name_the_file` makes the diagnostics name the dump (else the cache copy), or, when
neither holds the text, adds a note that says what the name stands for and how to get the file.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import List, Mapping, Optional

from .diagnostics import NOTE, Diagnostic

_NAME_LIMIT = 150  # Triton cuts the kernel's name to 150 characters in its file names


def _holds(path: str, text: str) -> bool:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read() == text
    except (OSError, UnicodeDecodeError):
        return False


def dumped_ttir(text: str, kernel: str) -> Optional[str]:
    """The dump ``<dump dir>/<hash>/<kernel>.ttir`` that holds ``text`` (the newest), when
    ``TRITON_KERNEL_DUMP=1``; else None."""
    if os.environ.get("TRITON_KERNEL_DUMP", "0") != "1":
        return None
    home = os.environ.get("TRITON_HOME") or str(Path.home())
    root = os.environ.get("TRITON_DUMP_DIR", "").strip() or os.path.join(home, ".triton", "dump")
    found = [p for p in glob.glob(os.path.join(glob.escape(root), "*", f"{kernel[:_NAME_LIMIT]}.ttir"))
             if _holds(p, text)]
    return max(found, key=os.path.getmtime) if found else None


def cached_ttir(text: str, kernel: str, metadata: Optional[Mapping]) -> Optional[str]:
    """Triton's cache copy of the ``ttir`` stage's output, when it holds ``text``; else None
    (no Triton, no ``hash`` in ``metadata``, or a cache manager without files)."""
    if not metadata or "hash" not in metadata:
        return None
    try:
        from triton.runtime.cache import get_cache_manager

        path = get_cache_manager(metadata["hash"]).get_file(f"{kernel[:_NAME_LIMIT]}.ttir")
    except Exception:  # another Triton's cache API, or a remote cache: no file to name
        return None
    return path if isinstance(path, str) and _holds(path, text) else None


def name_the_file(diagnostics: List[Diagnostic], text: str, shown_as: str, kernel: str,
                  metadata: Optional[Mapping]) -> List[Diagnostic]:
    """Make ``diagnostics`` (about ``text``, which they call ``shown_as``) name a real file.

    The dump (:func:`dumped_ttir`), else the cache copy (:func:`cached_ttir`), replaces
    ``shown_as`` in every location; when there is neither, a last note says that ``shown_as``
    is the kernel's TTIR and how to have it written.  Returns the list (changed in place).
    """
    path = dumped_ttir(text, kernel) or cached_ttir(text, kernel, metadata)
    if path is None:
        diagnostics.append(Diagnostic(
            NOTE, f"{shown_as} is not a file: it is the TTIR of @{kernel} as Triton's ttir stage made it; "
                  f"to have it on disk, compile with TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR=DIR (it is then "
                  f"DIR/<hash>/{kernel[:_NAME_LIMIT]}.ttir)"))
        return diagnostics
    for diag in diagnostics:
        for source in (diag.source, *(note.source for note in diag.notes)):
            if source is not None and source.filename == shown_as:
                source.filename = path
    return diagnostics
