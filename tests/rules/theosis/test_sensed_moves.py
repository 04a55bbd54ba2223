"""Sensed figure moves in Theosis: a Hero moves at most its speed and not through enemies (p.14
Movement, FAQ); a refused move changes nothing and is shown as "check the table" until the figure
goes back or a player confirms or overrides; every golden game played with sensed moves instead of
typed ones ends the same, the Hero on the centre hex at the end of turn 9 winning."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from arena_table.rules import Refused, apply, digest, find_game, parse, replay, table_view
from arena_table.rules.kernel.events import FigureConfirmed, FigureMoved, FigureOverridden, from_json, to_json

from th_helpers import ARENA, fast_blitz, lines_of

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))
from test_golden_transcripts import load  # noqa: E402 - one reader of golden transcripts

GOLDEN = sorted(HERE.glob("golden/*.txt")) + [HERE.parents[2] / "examples" / "theosis-pvp-12.txt"]

ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "despair", "valor", "lifeswap", "last-stand"]
SPEEDS = '"speeds":{"rac":3,"aer":3,"norn":3,"rochon":3}'


def seen(figure: str, cell, facing=None) -> FigureMoved:
    return FigureMoved(figure=figure, to_cell=None if cell is None else tuple(cell), facing=facing, source="camera:0")


def arena(**cells):
    """Blitz, Ranking 1 Rac (Bo), 2 Norn (Ann), 3 Rochon (Ann), 4 Aer (Bo); the figures entering
    on the hexes given, as the camera sees them: Rac acts first."""
    ts = replay([parse(x) for x in lines_of(fast_blitz(ANN, BO, extra_options=SPEEDS)) + lines_of(ARENA)])
    for hero, cell in cells.items():
        ts = apply(ts, seen(hero, cell))
    assert ts.state.acting_hero() == "rac" and not ts.desync
    return ts


def test_a_move_within_speed_is_the_heros_own_move():
    ts = apply(arena(rac=(0, 3), norn=(3, -3)), seen("rac", (0, 0)))
    assert ts.state.heroes["rac"].cell == (0, 0) and ts.state.moved == 3 and not ts.desync


def test_a_move_beyond_speed_changes_nothing_and_asks_to_check_the_table():
    ts = arena(rac=(0, 3), norn=(3, -3))
    after = apply(ts, seen("rac", (0, -1)))
    assert after.state == ts.state  # nothing applied
    (d,) = after.desync
    assert (d.figure, d.recorded, d.seen) == ("rac", (0, 3), (0, -1))
    assert d.message == "check the table: Rac cannot reach that hex (4 hexes away; 3 hexes of movement left)"
    assert table_view(after)["desync"][0]["message"] == d.message
    assert after.log[-1].text == d.message
    back = apply(after, seen("rac", (0, 3)))
    assert not back.desync and back.state == ts.state and back.log[-1].text == "Rac is back on [0, 3]"


def test_enemies_bar_the_way_allies_do_not():
    """(0,3) to (0,0) is three steps along one line, the only path of three; Norn (Ann's, an
    enemy of Rac) on (0,2) makes it four; Aer (Bo's, Rac's ally) there does not (FAQ)."""
    blocked = apply(arena(rac=(0, 3), norn=(0, 2)), seen("rac", (0, 0)))
    assert blocked.desync and "enemies bar the way" in blocked.desync[0].reason
    assert blocked.state.heroes["rac"].cell == (0, 3)
    ally = apply(arena(rac=(0, 3), aer=(0, 2)), seen("rac", (0, 0)))
    assert not ally.desync and ally.state.heroes["rac"].cell == (0, 0)


def test_a_hero_not_acting_moves_only_as_a_push():
    ts = arena(rac=(0, 3), norn=(3, -3))
    assert apply(ts, seen("norn", (3, -2))).state.heroes["norn"].cell == (3, -2)  # one hex: a push
    far = apply(ts, seen("norn", (1, -1)))
    assert far.desync and far.desync[0].reason.startswith("Norn cannot move there now: it is Rac's turn")


def test_confirm_takes_the_table_override_keeps_the_rules():
    off = apply(arena(rac=(0, 3), norn=(3, -3)), seen("rac", (0, -1)))
    confirmed = apply(off, FigureConfirmed(figure="rac"))
    assert confirmed.state.heroes["rac"].cell == (0, -1) and confirmed.state.moved == 0 and not confirmed.desync
    kept = apply(off, FigureOverridden(figure="rac"))
    assert kept.state == off.state and not kept.desync and kept.log[-1].text == "Rac stays on [0, 3] (the camera was overridden)"
    with pytest.raises(Refused, match="nothing to confirm"):
        apply(kept, FigureConfirmed(figure="rac"))


def test_moved_on_to_a_legal_hex_the_desync_ends_with_the_move():
    off = apply(arena(rac=(0, 3), norn=(3, -3)), seen("rac", (0, -1)))
    on = apply(off, seen("rac", (0, 1)))
    assert not on.desync and on.state.heroes["rac"].cell == (0, 1) and on.state.moved == 2


def test_the_desync_replays_and_stays_out_of_digests_when_closed():
    ts = arena(rac=(0, 3), norn=(3, -3))
    events = [seen("rac", (0, -1))]
    open_ = apply(ts, events[0])
    assert digest(open_) != digest(ts)  # an open desync is part of the table's state
    closed = apply(open_, seen("rac", (0, 3)))
    assert digest(closed) == digest(dataclasses.replace(ts, seq=closed.seq))


@pytest.mark.parametrize("ev", [
    FigureMoved(figure="rochon", from_cell=(4, -4), to_cell=(0, 0), facing=2, source="camera:0"),
    FigureMoved(figure="aria", from_cell="a1", to_cell="b2"),
    FigureMoved(figure="knight", from_cell=(3, 4), to_cell=None),
    FigureConfirmed(figure="rochon"), FigureOverridden(figure="rochon"),
])
def test_figure_events_round_trip(ev):
    assert parse(str(ev)) == ev
    assert from_json(json.loads(json.dumps(to_json(ev)))) == ev


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_games_played_with_sensed_moves_end_the_same(path):
    """Every ``th-move`` of a golden Theosis game replaced by the camera's ``figure-moved``: no move
    is refused, and the game ends with the same state and outcome -- in pvp-3p, heavy-2p and
    team-2x2 the Hero standing on the centre hex at the end of turn 9 wins."""
    events, meta = load(path)
    sensed = [seen(e.hero, e.cell) if e.KIND == "th-move" else e for e in events]
    assert any(isinstance(e, FigureMoved) for e in sensed)
    ts = replay(sensed)
    assert not ts.desync
    assert digest(ts) == meta["digest"]
    out = find_game("theosis").outcome(ts.state)
    assert {"winners": list(out.winners), "reason": out.reason, "draw": out.draw} == json.loads(meta["outcome"])


def test_the_centre_hex_winner_from_sensed_positions():
    winners = []
    for path in GOLDEN:
        events, meta = load(path)
        ts = replay([seen(e.hero, e.cell) if e.KIND == "th-move" else e for e in events])
        out = table_view(ts)["outcome"]
        if out and "holds the centre hex at the end of turn 9" in out["reason"]:
            winners.append((path.stem, tuple(out["winners"])))
    assert ("pvp-3p", ("Ann",)) in winners and ("team-2x2", ("Sun",)) in winners


def test_the_facing_seen_is_kept_and_drawn():
    ts = apply(arena(rac=(0, 3), norn=(3, -3)), seen("rac", (0, 1), facing=2))
    assert ts.state.heroes["rac"].facing == 2
    figures = {f["id"]: f for f in table_view(ts)["view"]["board"]["figures"]}
    assert figures["rac"]["facing"] == 2 and "facing" not in figures["norn"]
    turned = apply(ts, seen("rac", (0, 1), facing=5))  # turning on the spot is no move
    assert turned.state.heroes["rac"].facing == 5 and turned.state.moved == 2 and not turned.desync
    assert apply(turned, seen("rac", (0, 1), facing=9)).desync[0].reason.startswith("facing 9 is not a hex side")


def test_the_engine_says_whether_a_sensed_move_is_legal_now():
    from arena_table.rules.kernel.sensed import refusal
    ts = arena(rac=(0, 3), norn=(0, 2))
    game = find_game("theosis")
    assert refusal(game, ts.state, seen("rac", (1, 1))) == ""
    assert refusal(game, ts.state, seen("rac", (0, -1))) == "Rac cannot reach that hex (4 hexes away; 3 hexes of movement left)"
    assert refusal(game, ts.state, seen("rac", (0, 0))).startswith("Rac cannot reach that hex (enemies bar the way")
    assert refusal(game, ts.state, seen("nobody", (0, 0))) == ""
