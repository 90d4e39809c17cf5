"""The benchmark's k-copy input is one valid file (its alias definitions are renamed per copy).

Not a timing test: it checks only that the linearity input of ``benchmarks/bench.py`` parses
and lowers to k times the custom ops of one copy.
"""

import importlib.util
from pathlib import Path

from transpiler.api import lower

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "examples" / "allgather_push" / "allgather_push.ttir"


def _bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "benchmarks" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_copies_are_one_valid_file():
    text = KERNEL.read_text()
    assert "#loc1 = loc(" in text  # the kernel has aliases, so a plain repetition would redefine them
    once = lower(text, filename="k.ttir").count("hivm.hir.custom")
    assert once > 0
    thrice = _bench().copies(text, 3)
    assert "#loc1_c2 = loc(" in thrice and "#loc1_c3" not in thrice
    assert lower(thrice, filename="k3.ttir").count("hivm.hir.custom") == 3 * once
