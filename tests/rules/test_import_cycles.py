"""No import cycle of ours breaks on the order modules are first imported.

A cycle between two modules fails only when one of them is imported first and, while the other is
still loading, takes a name from it (``from a import f`` runs before ``a`` has defined ``f``).
``test_layering`` keeps ``rules`` free of cycles; this looks at every package, at what runs when a
module loads: statements at its top level, not imports inside functions.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import import_graph as ig


def _load_time_edges() -> dict[str, dict[str, bool]]:
    """``module -> {module of ours it loads at import time: whether it takes a name from it}``."""
    everything = ig.modules()
    known = set(everything)
    edges: dict[str, dict[str, bool]] = {}
    for name, path in everything.items():
        out = edges.setdefault(name, {})
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                out.update({a.name: out.get(a.name, False) for a in node.names if a.name in known})
            elif isinstance(node, ast.ImportFrom):
                base = ig._resolve(name, path.name == "__init__.py", node)
                if base not in known:
                    continue
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    if sub in known:
                        out.setdefault(sub, False)
                    else:
                        out[base] = True
        out.pop(name, None)
    return edges


def test_no_cycle_takes_a_name_from_a_module_still_loading():
    edges = _load_time_edges()
    plain = {m: set(ws) for m, ws in edges.items()}
    breaking = [comp for comp in ig.cycles(plain)
                if any(named for m in comp for w, named in edges[m].items() if w in comp)]
    assert breaking == []


def test_d4_render_imports_first():
    """The cycle once found by hand: ``vision.d4_render`` imported before ``vision.kind_render``."""
    done = subprocess.run([sys.executable, "-c", "import arena_table.vision.d4_render"],
                          capture_output=True, text=True, timeout=120, cwd=ig.ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
