"""A strict JSON reader that remembers where every value is (issue 31, item 5).

``json.load`` gives values without positions; plan errors name ``FILE:LINE:COL`` of the
offending value, so :func:`load` returns, next to the value, the character offset of every
value and of every object key by *key path* (a tuple of keys and list indices, ``()`` for the
document).  Strings are read by ``json.decoder.scanstring`` and numbers by ``json.scanner``'s
own pattern, so what is accepted is exactly RFC 8259 JSON: no ``NaN``/``Infinity`` words, no
trailing commas; a key given twice is an error (``json`` would keep the last silently).
"""

from __future__ import annotations

from json import JSONDecodeError
from json.decoder import scanstring
from json.scanner import NUMBER_RE
from typing import Any, Dict, Tuple

import attrs

Path = Tuple[Any, ...]
_WS = " \t\n\r"
_WORDS = {"true": True, "false": False, "null": None}
MAX_DEPTH = 64  # a plan nests 5 deep; deeper is a mistake, and Python's stack stays well clear


@attrs.define
class Positions:
    """``values[path]``: offset of the value at ``path``; ``keys[path]``: offset of its key
    (paths whose last part is an object key only)."""

    values: Dict[Path, int] = attrs.Factory(dict)
    keys: Dict[Path, int] = attrs.Factory(dict)

    def of(self, path: Path) -> int:
        """The offset of the value at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path and path not in self.values:
            path = path[:-1]
        return self.values.get(path, 0)


def load(text: str) -> Tuple[Any, Positions]:
    """``(value, positions)`` of the JSON document ``text``.

    Raises:
        json.JSONDecodeError: not JSON (``pos``, ``lineno`` and ``colno`` say where).
    """
    reader = _Reader(text)
    value = reader.value(reader.skip(0), ())
    end = reader.skip(reader.end)
    if end != len(text):
        raise JSONDecodeError("extra data after the JSON value", text, end)
    return value, reader.positions


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.end = 0
        self.positions = Positions()

    def skip(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _WS:
            i += 1
        return i

    def value(self, i: int, path: Path) -> Any:
        """The value starting at ``i`` (whitespace skipped); ``self.end`` is set after it."""
        text = self.text
        if len(path) > MAX_DEPTH:
            raise JSONDecodeError(f"nested more than {MAX_DEPTH} deep", text, i)
        self.positions.values[path] = i
        c = text[i : i + 1]
        if c == "{":
            return self._object(i + 1, path)
        if c == "[":
            return self._array(i + 1, path)
        if c == '"':
            s, self.end = scanstring(text, i + 1)
            return s
        m = NUMBER_RE.match(text, i)
        if m is not None and m.group(0):
            whole, frac, exp = m.groups()
            self.end = m.end()
            return float(whole + (frac or "") + (exp or "")) if frac or exp else int(whole)
        for word, v in _WORDS.items():
            if text.startswith(word, i):
                self.end = i + len(word)
                return v
        raise JSONDecodeError("expected a JSON value" if c else "the JSON text ends where a value is expected", text, i)

    def _object(self, i: int, path: Path) -> dict:
        text, out = self.text, {}
        i = self.skip(i)
        if text[i : i + 1] == "}":
            self.end = i + 1
            return out
        while True:
            if text[i : i + 1] != '"':
                raise JSONDecodeError("expected a key in double quotes", text, i)
            start = i
            key, i = scanstring(text, i + 1)
            if key in out:
                raise JSONDecodeError(f"key '{key}' given twice", text, start)
            self.positions.keys[path + (key,)] = start
            i = self.skip(i)
            if text[i : i + 1] != ":":
                raise JSONDecodeError("expected ':' after the key", text, i)
            out[key] = self.value(self.skip(i + 1), path + (key,))
            i = self.skip(self.end)
            c = text[i : i + 1]
            if c == "}":
                self.end = i + 1
                return out
            if c != ",":
                raise JSONDecodeError("expected ',' or '}' in the object", text, i)
            i = self.skip(i + 1)

    def _array(self, i: int, path: Path) -> list:
        text, out = self.text, []
        i = self.skip(i)
        if text[i : i + 1] == "]":
            self.end = i + 1
            return out
        while True:
            out.append(self.value(i, path + (len(out),)))
            i = self.skip(self.end)
            c = text[i : i + 1]
            if c == "]":
                self.end = i + 1
                return out
            if c != ",":
                raise JSONDecodeError("expected ',' or ']' in the array", text, i)
            i = self.skip(i + 1)
