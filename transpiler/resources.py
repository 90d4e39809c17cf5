"""Where the data files the package needs live (the grammar, the device template library), and
the project's one cache folder.

The cache folder is ``$TTD_LOWER_CACHE`` (default ``~/.cache/ttd-lower``): the grammar's parse
tables, and under ``downstream/`` the downstream tools that ``tests/tools/verify-downstream``
installs.  The older variables keep working: ``TTD_CACHE_DIR`` (parse tables) and
``TTD_DOWNSTREAM_CACHE`` (downstream tools) win when set.

In a wheel they are installed inside the package (``transpiler/_data/``, see
``pyproject.toml``); in a source checkout (editable install, tests) they are read from the
repository's ``grammars/`` and ``device_templates/`` folders.
"""

from __future__ import annotations

import functools
import os
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


CACHE_ENV = "TTD_LOWER_CACHE"


def cache_dir() -> Path:
    """The project's cache folder: ``$TTD_LOWER_CACHE``, default ``~/.cache/ttd-lower``."""
    return Path(os.path.expanduser(os.environ.get(CACHE_ENV) or os.path.join("~", ".cache", "ttd-lower")))
