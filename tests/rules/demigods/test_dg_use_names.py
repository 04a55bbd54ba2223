"""The spectator view names what an attacker uses as its card prints it (a trial: the TV title-cased
the id, "Warlords Scythe"). Worked from ``examples/demigods-slayer.txt``."""

from __future__ import annotations

from pathlib import Path

from arena_table.rules import parse, replay, table_view
from arena_table.rules.games.demigods.view import _use_name

EXAMPLE = Path(__file__).parents[3] / "examples" / "demigods-slayer.txt"


def _table_after(n: int):
    lines = [ln for ln in EXAMPLE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return replay([parse(ln) for ln in lines[:n]])


def test_the_pending_attack_names_its_item_as_printed():
    ts = _table_after(31)  # dg-use who=warlord use=elemental-sword targets=["blacksmith"]
    pending = table_view(ts)["view"]["extra"]["pending"]
    assert (pending["attacker"], pending["use"], pending["use_name"]) == ("warlord", "elemental-sword",
                                                                           "Elemental Sword")
    assert _use_name(ts.state, "warlord", "warlords-scythe") == "Warlord's Scythe"  # the Warlord's primary
    assert _use_name(ts.state, "knight", "attack") == "base attack"
    assert _use_name(ts.state, "nobody", "attack") is None
