"""Where the data files the package needs live (the grammar, the device template library).

The package itself caches nothing on disk: both levels of the grammar run from tables generated
at development time (``transpiler/parser/structure/_tables.py``, ``detail/_tables.py``).

In a wheel they are installed inside the package (``transpiler/_data/``, see
``pyproject.toml``); in a source checkout (editable install, tests) they are read from the
repository's ``grammars/`` and ``device_templates/`` folders.
"""

from __future__ import annotations

import functools
import os

_PACKAGE = os.path.dirname(os.path.realpath(__file__))
_REPO = os.path.dirname(_PACKAGE)


def data_file(*parts: str) -> str:
    """Path (a string) of a data file: ``grammars/...`` or ``device_templates/...``.

    Raises:
        FileNotFoundError: if the file is in neither the installed nor the checkout layout.
    """
    for base in (os.path.join(_PACKAGE, "_data"), _REPO):
        candidate = os.path.join(base, *parts)
        if os.path.exists(candidate):
            return candidate
    raise FileNotFoundError("/".join(parts))


def data_path(*parts: str):
    """:func:`data_file` as a ``pathlib.Path`` (``pathlib`` is imported only here)."""
    from pathlib import Path

    return Path(data_file(*parts))


@functools.lru_cache(maxsize=None)
def grammar_text() -> str:
    """Text of ``grammars/ttir.lark``."""
    with open(data_file("grammars", "ttir.lark"), encoding="utf-8") as f:
        return f.read()
