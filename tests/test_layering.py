"""The folders show the flow text -> parser/ -> ir/ -> lowering/ -> emit/ -> text (issue 12).

``ir/`` is the typed IR: it imports nothing from ``parser/`` or ``emit/``, neither at the top of
a module nor inside a function (the parser injects its detail reader into ``Source.reader``),
and no module of the package is much longer than 300 lines.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "transpiler"
MAX_LINES = 300


def _imported_modules(path: Path):
    """Every module an ``import`` or ``from ... import`` in ``path`` names, made absolute."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.module


def test_ir_imports_nothing_from_parser_or_emit():
    offenders = []
    for path in sorted((PACKAGE / "ir").rglob("*.py")):
        for module in _imported_modules(path):
            if module and module.startswith(("transpiler.parser", "transpiler.emit")):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert not offenders, "\n".join(offenders)


def test_importing_and_using_ir_loads_no_parser_or_emit():
    code = (
        "import sys\n"
        "import transpiler.ir, transpiler.ir.core, transpiler.ir.scope, transpiler.ir.verifier\n"
        "from transpiler.ir.builder import Builder\n"
        "from transpiler.ir.dialect import registered_names\n"
        "assert 'distributed.wait' in registered_names()\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('transpiler.parser', 'transpiler.emit')))\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_modules_are_small():
    long = [f"{p.relative_to(PACKAGE)}: {n} lines" for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES and p.name != "_tables.py"]  # generated
    assert not long, "\n".join(long)


def test_only_the_frontend_imports_triton():
    """``ttd-lower`` never imports Triton (issue 21): only the frontend (``transpiler/language/``)
    and the hook that runs inside triton-ascend's own compiler (``triton_ascend.py`` and its
    ``triton_files.py``) may."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] in ("language", "triton_ascend.py", "triton_files.py"):
            continue
        for module in _imported_modules(path):
            if module and module.partition(".")[0] in ("triton", "torch"):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert not offenders, "\n".join(offenders)

