"""The import graph of arena-table's own modules, read with ``ast`` (no module is imported).

Used by the layering and import-circle tests: an edge ``a -> b`` for every ``import`` or
``from ... import`` in ``a`` (at module level or inside a function) that names a module of ours.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "arena_table"


def module_name(path: Path) -> str:
    """``arena_table/rules/kernel/events.py`` -> ``arena_table.rules.kernel.events``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(under: str = PACKAGE) -> dict[str, Path]:
    """Every module of ours under the dotted package ``under``: name -> file."""
    base = ROOT.joinpath(*under.split("."))
    return {module_name(p): p for p in sorted(base.rglob("*.py"))}


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = current.split(".")
    if not is_package:
        parts.pop()
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ours that module ``name`` (file ``path``) imports, wherever in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, path.name == "__init__.py", node)
            # ``from pkg import mod`` imports the module pkg.mod when there is one
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        out.update(t for t in targets if t.split(".")[0] == PACKAGE)
    out.discard(name)
    return out


def graph(under: str = PACKAGE) -> dict[str, set[str]]:
    """``module -> modules of ours it imports`` for every module under ``under``."""
    everything = modules(PACKAGE)
    known = set(everything)
    return {n: imports(n, p, known) for n, p in modules(under).items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found
