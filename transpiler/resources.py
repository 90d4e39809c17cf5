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


CACHE_ENV = "TTD_LOWER_CACHE"


def cache_dir():
    """The project's cache folder (a ``pathlib.Path``): ``$TTD_LOWER_CACHE``, default ``~/.cache/ttd-lower``."""
    from pathlib import Path

    return Path(os.path.expanduser(os.environ.get(CACHE_ENV) or os.path.join("~", ".cache", "ttd-lower")))
