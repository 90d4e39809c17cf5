"""Bad input never crashes the tool, never leaves partial output, always gets a located error.

Random truncations, deletions, duplicated lines and byte flips of every corpus file, fed to the
command line as bytes (issue 7).  The outcome must be: exit 0 with the output file written, or
exit 1 with at least one ``file:line:col: error:`` diagnostic and no output file.  Exit 3 (an
internal error) or a Python traceback is a bug.
"""

from __future__ import annotations

import re
from pathlib import Path

from click_compat import cli_runner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from transpiler import cli

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.rglob("*.ttir"))
LOCATED = re.compile(r"^\S.*:\d+:\d+: error: ", re.M)
KINDS = ("truncate", "delete_line", "duplicate_line", "flip_byte", "delete_span", "swap_lines")


def mutate(data: bytes, kind: str, a: int, b: int) -> bytes:
    """One mutation of ``data``; ``a`` and ``b`` are random numbers picking where."""
    if not data:
        return data
    lines = data.split(b"\n")
    i, j = a % len(lines), b % len(lines)
    if kind == "truncate":
        return data[: a % len(data)]
    if kind == "delete_line":
        return b"\n".join(lines[:i] + lines[i + 1 :])
    if kind == "duplicate_line":
        return b"\n".join(lines[: i + 1] + [lines[i]] + lines[i + 1 :])
    if kind == "swap_lines":
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if kind == "flip_byte":
        pos = a % len(data)
        return data[:pos] + bytes([data[pos] ^ (1 + b % 255)]) + data[pos + 1 :]
    start = a % len(data)
    return data[:start] + data[start + 1 + b % 40 :]


mutations = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 10**9), st.integers(0, 10**9)),
                     min_size=1, max_size=3)


def check_outcome(tmp_path: Path, data: bytes, name: str) -> str:
    out = tmp_path / "out.mlir"
    if out.exists():
        out.unlink()
    result = cli_runner().invoke(cli.main, ["-", "-o", str(out)], input=data)
    assert result.exit_code in (0, 1), f"exit {result.exit_code} on a mutation of {name}:\n{result.output[-3000:]}"
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        assert out.exists()
        return "ok"
    assert not out.exists(), "a failed run left an output file"
    assert LOCATED.search(result.stderr), f"no located diagnostic for a mutation of {name}:\n{result.stderr[-2000:]}"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".ttd-lower-")] == []
    return "error"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(FILES), edits=mutations)
def test_mutated_corpus_files(tmp_path, path, edits):
    data = path.read_bytes()
    for kind, a, b in edits:
        data = mutate(data, kind, a, b)
    check_outcome(tmp_path, data, path.name)


def test_every_corpus_file_survives_each_kind_of_mutation(tmp_path):
    """Deterministic sweep: every file, every mutation kind, at a few fixed places."""
    outcomes = {}
    for path in FILES:
        data = path.read_bytes()
        for kind in KINDS:
            for seed in (7, 104729, 15485863):
                mutated = mutate(data, kind, seed * 31, seed)
                outcomes[(path.name, kind, seed)] = check_outcome(tmp_path, mutated, path.name)
    assert "error" in outcomes.values() and "ok" in outcomes.values()
