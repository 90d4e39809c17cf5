"""Where the data files the package needs live (the grammar, the device template library).

The package itself caches nothing on disk: both levels of the grammar run from tables generated
at development time (``transpiler/parser/_structure_tables.py``, ``_generated_detail_tables.py``).

In a wheel they are installed inside the package (``transpiler/_data/``, see
``pyproject.toml``); in a source checkout (editable install, tests) they are read from the
repository's ``grammars/`` and ``device_templates/`` folders.
"""

from __future__ import annotations

import functools
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent


def data_path(*parts: str) -> Path:
    """Path of a data file: ``grammars/...`` or ``device_templates/...``.

    Raises:
        FileNotFoundError: if the file is in neither the installed nor the checkout layout.
    """
    for base in (_PACKAGE / "_data", _REPO):
        candidate = base.joinpath(*parts)
        if candidate.exists():
            return candidate
    raise FileNotFoundError("/".join(parts))


@functools.lru_cache(maxsize=None)
def grammar_text() -> str:
    """Text of ``grammars/ttir.lark``."""
    return data_path("grammars", "ttir.lark").read_text(encoding="utf-8")

