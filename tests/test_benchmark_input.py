"""The benchmark's k-copy input is one valid file (its alias definitions are renamed per copy).

Not a timing test: it checks only that the linearity input of ``benchmarks/bench.py`` parses
and lowers to k times the custom ops of one copy.
"""

import importlib.util
import re
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


def test_generated_input_is_made_from_the_repository_and_lowers():
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from make_input import generate, sources

    assert sources() and all(ROOT in p.parents for p in sources())
    text = generate()  # the corpus comes first, the distributed examples after it
    assert text.count("\n") >= 40000
    assert lower(text, filename="generated.ttir").count("hivm.hir.custom") > 0


def test_the_readme_benchmark_command_runs_from_the_repository(tmp_path):
    """The README's one command, small: its own input, the C++ ratio when the tool is there."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--runs", "1", "--lines", "1500",
                           "--corpus", str(tmp_path / "no-corpus"), "--work-dir", str(tmp_path / "work")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "| generated.ttir |" in proc.stdout and "time per line at 4x" in proc.stdout
    if "triton-adapter-opt not found" not in proc.stderr:
        assert re.search(r"\| generated\.ttir \|.*\| \d+\.\d\dx \|", proc.stdout)
