"""The Python API reads a ``symbol_list=`` file again when it changed (no cache by path)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from transpiler import LoweringError, lower
from transpiler.lowering.link_check import load_library

ROOT = Path(__file__).parents[1]
PUSH = ROOT / "examples" / "allgather_push" / "allgather_push.ttir"


def test_a_changed_symbol_list_is_read_again_both_ways(tmp_path):
    text = PUSH.read_text()
    full = load_library().listing()
    used = sorted(set(re.findall(r'symbol = "(\w+)"', lower(text, filename="k.ttir"))))
    assert used, "the kernel calls library symbols"
    missing_one = "".join(line + "\n" for line in full.splitlines() if not line.startswith(used[0] + "\t"))
    symbols = tmp_path / "symbols.txt"

    symbols.write_text(full)
    assert "hivm.hir.custom" in lower(text, filename="k.ttir", symbol_list=str(symbols))
    symbols.write_text(missing_one)  # the library lost a symbol: the next call must refuse
    with pytest.raises(LoweringError, match=f"lowers to symbol '{used[0]}', which is not in the device template"):
        lower(text, filename="k.ttir", symbol_list=str(symbols))
    symbols.write_text(full)  # and got it back: the next call must accept again
    assert "hivm.hir.custom" in lower(text, filename="k.ttir", symbol_list=str(symbols))
