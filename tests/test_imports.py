"""The package's import shape: every module imports on its own, and imports point one way.

The developers' guide fixes the direction: ``rules`` imports nothing of ours, ``vision`` and
``hardware`` import only ``rules`` (and themselves), ``webui`` never imports ``table``. A cycle
between two modules shows only when one of them is imported first, so each module is imported in
an interpreter where no ``arena_table`` module is loaded yet.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import arena_table

ROOT = Path(arena_table.__file__).parent

# package -> the packages of ours it may import (itself always allowed)
ALLOWED = {
    "rules": set(),
    "vision": {"rules"},
    "hardware": {"rules"},
}
FORBIDDEN = {"webui": {"table"}}


def _modules() -> list[str]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] == "__main__":
            continue
        out.append(".".join(parts))
    return out


def _our_imports(path: Path, module: str) -> set[str]:
    """The top-level packages of ours (``rules``, ``vision``...) that ``path`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                names = [".".join(base + ([node.module] if node.module else []))]
            else:
                names = [node.module or ""]
        for name in names:
            bits = name.split(".")
            if bits[0] == "arena_table" and len(bits) > 1:
                found.add(bits[1])
    return found


def test_imports_point_one_way():
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if len(rel.parts) < 2:
            continue
        pkg = rel.parts[0]
        module = "arena_table." + ".".join(rel.with_suffix("").parts)
        imported = _our_imports(path, module) - {pkg}
        if pkg in ALLOWED:
            bad = imported - ALLOWED[pkg]
        else:
            bad = imported & FORBIDDEN.get(pkg, set())
        if bad:
            wrong.append(f"{rel}: imports {sorted(bad)}")
    assert wrong == []


def _module_level_edges() -> dict[str, dict[str, bool]]:
    """``module -> {module of ours it loads at import time: whether it takes a name from it}``.

    Only statements at the module's top level count (an import inside a function runs later).
    ``from M import name`` takes a name from ``M``; ``import M`` and ``from pkg import module``
    only load the module."""
    modules = set(_modules())
    edges: dict[str, dict[str, bool]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        package = parts if path.name == "__init__.py" else parts[:-1]
        out = edges.setdefault(module, {})
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        out.setdefault(alias.name, False)
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            base = (".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level else (node.module or ""))
            if base not in modules:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    out.setdefault(sub, False)
                else:
                    out[base] = True
    return edges


def test_no_import_cycle_takes_a_name_from_a_half_loaded_module():
    edges = _module_level_edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            # a cycle breaks only where a module takes a name from one that is still loading
            inside = set(comp)
            if len(comp) > 1 and any(named for m in comp for w, named in edges.get(m, {}).items() if w in inside):
                cycles.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert cycles == []


def test_a_module_that_d4_render_needs_imports_first():
    """The cycle once found by hand: ``d4_render`` imported before ``kind_render``."""
    done = subprocess.run([sys.executable, "-c", "import arena_table.vision.d4_render"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT.parent)
    assert done.returncode == 0, done.stderr[-2000:]
