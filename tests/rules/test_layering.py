"""The layers of arena-table hold (docs: the architecture): ``rules`` imports nothing else of ours,
``vision`` and ``hardware`` import only ``rules``, ``webui`` never imports ``table``; and no
import circle is left inside ``rules``, counting imports inside functions too."""

import pytest

import import_graph


def _layer(module: str) -> str:
    return module.split(".")[1] if "." in module else module


@pytest.mark.parametrize("layer, allowed", [
    ("rules", {"rules"}),
    ("vision", {"vision", "rules"}),
    ("hardware", {"hardware", "rules"}),
])
def test_a_layer_imports_only_the_layers_below_it(layer, allowed):
    edges = import_graph.graph(f"arena_table.{layer}")
    assert edges, f"no modules found under arena_table.{layer}"
    wrong = {m: sorted(t for t in ts if _layer(t) not in allowed) for m, ts in edges.items()}
    assert {m: ts for m, ts in wrong.items() if ts} == {}


def test_webui_never_imports_table():
    edges = import_graph.graph("arena_table.webui")
    assert {m: sorted(t for t in ts if _layer(t) == "table") for m, ts in edges.items()
            if any(_layer(t) == "table" for t in ts)} == {}


def test_the_kernel_imports_no_game():
    edges = import_graph.graph("arena_table.rules.kernel")
    assert {m: sorted(t for t in ts if t.startswith("arena_table.rules.games")) for m, ts in edges.items()
            if any(t.startswith("arena_table.rules.games") for t in ts)} == {}


def test_the_graph_sees_a_circle():
    """The checker itself: a circle of three modules and one beside it are told apart."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_graph.cycles(edges) == [["a", "b", "c"]]


def test_no_import_circle_is_left_in_rules():
    """Imports inside functions count: a function-local import that dodges a circle is still one."""
    assert import_graph.cycles(import_graph.graph("arena_table.rules")) == []
