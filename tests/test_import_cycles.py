"""No import circle inside ``transpiler/`` (issue 30): a test builds the module graph from the
sources (``import`` nodes, lazy ones inside functions included, ``if TYPE_CHECKING:`` ones not)
and fails on any cycle, with no exemption, naming the edges of each."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "transpiler"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(tree: ast.AST):
    """The ``import`` nodes of ``tree`` that run: at module level or inside a function (a lazy
    import is an edge too), but not under ``if TYPE_CHECKING:`` (only a type checker runs those)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            node.body = []
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def import_graph():
    """``{module: {imported module: line}}`` over every module of the package.

    ``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``; an
    edge to a package is an edge to its ``__init__``.  Importing ``a.b.c`` first runs the
    ``__init__`` of ``a.b`` (and of ``a``): an edge to each such package too, unless the
    importing module is inside it (then that ``__init__`` has run already)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: {} for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
                subs = [f"{module}.{a.name}" for a in node.names]
                targets = [s for s in subs if s in modules]
                if len(targets) < len(subs):
                    targets.append(module)
            for target in targets:
                parts = target.split(".")
                for k in range(1, len(parts) + 1):
                    step = ".".join(parts[:k])
                    inside = k < len(parts) and (name == step or name.startswith(step + "."))
                    if step in modules and step != name and not inside:
                        graph[name].setdefault(step, node.lineno)
    return graph


def import_cycles(graph):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b": 1}, "b": {}}) == []


def test_no_import_circle_inside_the_package():
    """Each room's dependencies go one way (issue 30): no module reaches itself through imports,
    lazy ones included, with no exemption."""
    graph = import_graph()
    assert "transpiler.ir.source" in graph["transpiler.emit.printer"]  # the graph sees edges
    report = []
    for cycle in import_cycles(graph):
        report.append(" <-> ".join(cycle))
        report += [f"    {a} -> {b} (line {line})" for a in cycle for b, line in graph[a].items() if b in cycle]
    assert not report, "import circles:\n" + "\n".join(report)
