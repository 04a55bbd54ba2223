"""Every game's view fits docs/view-schema.md: read as a typed View, its JSON form comes back
unchanged, at every tenth event of every golden transcript and for both viewers."""

import json
from pathlib import Path

import pytest

from arena_table.rules import View, apply, find_game, new_table, parse
from arena_table.rules.games.demigods.view import view as demigods_view
from arena_table.rules.games.euthia.view import view as euthia_view
from arena_table.rules.games.sword_and_sorcery.view import view as sns_view
from arena_table.rules.games.theosis.view import view as theosis_view

RAW = {"theosis": theosis_view, "demigods": demigods_view, "euthia": euthia_view, "sword-and-sorcery": sns_view}
"""The games' view code, as it builds the JSON form their GAME.view reads into a View."""
FILES = sorted(Path(__file__).parent.glob("*/golden/*.txt"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_the_view_is_typed_after_the_schema(path):
    events = [parse(line) for line in path.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    ts = new_table()
    for seq, ev in enumerate(events, 1):
        ts = apply(ts, ev, seq)
        if seq % 10 and seq != len(events):
            continue
        for viewer in ("spectator", "control"):
            raw = RAW.get(ts.game, find_game(ts.game).view)
            shown = raw(ts.state, viewer)
            shown = shown.to_json() if isinstance(shown, View) else shown
            view = View.from_json(shown)
            assert json.dumps(view.to_json(), sort_keys=True) == json.dumps(shown, sort_keys=True)
            assert isinstance(view.phase, str) and all(e.id and e.name for e in view.order or ())


def test_a_view_holds_typed_parts():
    view = find_game("theosis").view(replay_blitz(), "spectator")
    assert isinstance(view, View)
    assert view.order_title == "Hero Ranking" and view.board.kind == "hex"
    assert view["order"][0]["id"] == view.order[0].id


def test_a_view_with_a_key_the_schema_does_not_list_is_refused():
    with pytest.raises(TypeError, match="'extra'"):
        View.from_json({"phase": "Turn 1", "gold": 3})
    with pytest.raises(TypeError, match=r"view.order\[0\].health: expected int or null"):
        View.from_json({"order": [{"id": "a", "name": "A", "health": "7"}]})


def replay_blitz():
    from arena_table.rules import replay
    lines = (Path(__file__).parent / "theosis" / "golden" / "blitz-2p.txt").read_text(encoding="utf-8").splitlines()
    return replay([parse(line) for line in lines if line.strip() and not line.startswith("#")]).state
