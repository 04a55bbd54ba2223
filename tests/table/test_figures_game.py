"""A whole Theosis game whose Heroes move only by the camera: rendered photos of the Arena ->
figure reader -> tracker -> ``figure-moved`` -> the Theosis engine, on a running table.

The golden game ``pvp-3p`` (three players, nine Heroes, nine Arena turns) is played with every
``th-move`` taken out of the events: in its place the camera is shown a photo of the Arena with
each Hero still in the game on its hex, and the move reaches the engine only as the tracker's
``figure-moved``. Every other event (attacks, Rituals, the end of each turn) is typed, as a
player taps it. Rochon stands on the centre hex at the end of turn 9 and wins, as the rulebook's
"Winning the Game" says (``../shared/rulebooks/theosis.txt``, Arena Board, p.5 of the book: "If at the end of the ninth turn,
one of your Heroes is standing in the center Hex of the Arena, you have achieved victory"; the
errata for that page: with no one on it and more than one player's Heroes standing, a tie).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from arena_table.rules import apply, find_game, replay, table_view
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.table.figures import FigureReader
from arena_table.vision.board_film import BoardFilm
from arena_table.vision.frames import Frame
from arena_table.vision.tracking import TrackConfig

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "rules"))
from test_golden_transcripts import load  # noqa: E402 - one reader of golden transcripts

GOLDEN = HERE.parent / "rules" / "theosis" / "golden" / "pvp-3p.txt"
FPS = 10.0

pytestmark = pytest.mark.slow


def test_a_hero_the_camera_saw_on_the_centre_hex_at_the_end_of_turn_9_wins(tmp_path):
    events, meta = load(GOLDEN)
    start = events[0]
    heroes = [h for hs in start.options["heroes"].values() for h in hs]
    markers = {i + 1: f"theosis:hero:{h}" for i, h in enumerate(heroes)}
    ids = {h: i + 1 for i, h in enumerate(heroes)}
    first_move = next(k for k, e in enumerate(events) if e.KIND == "th-move")
    shadow = replay(events[:first_move])  # the game as the book played it, for the photos
    film = BoardFilm(find_game("theosis").board(shadow.state), margin_mm=10.0, seed=9)
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none")))
    table.start()
    try:
        reader = FigureReader(table.ports("figures"), film.calibration, markers, TrackConfig(marker_mm=20.0))
        t, index = 0.0, 0
        for e in events[:first_move]:
            table.submit(e)
        typed = sensed = 0
        for e in events[first_move:]:
            shadow = apply(shadow, e)
            if e.KIND != "th-move":
                table.submit(e)
                typed += 1
                continue
            standing = {ids[h]: (x.cell, None) for h, x in shadow.state.heroes.items() if x.cell is not None}
            image = film.frame(standing)
            for _ in range(5):  # half a second of the camera on the board as it now stands
                reader(Frame(image, t, index, f"camera:{index}"))
                t, index = t + 1 / FPS, index + 1
            sensed += 1
            now = table.state
            assert not now.desync, f"after {e}: {now.desync[0].message}"
            assert now.state.heroes[e.hero].cell == e.cell, f"the camera's {e.hero} is not where {e} put it"
        rows = table.rows()
    finally:
        table.close()
    assert sensed == 16 and typed > 50
    assert not [r for r in rows if r.event.KIND == "th-move"], "a Hero's move was typed"
    moved = [r for r in rows if r.event.KIND == "figure-moved" and r.status == "ok"]
    assert len(moved) == sensed and {r.event.source for r in moved} <= {f"camera:{k}" for k in range(index)}
    final = table.state
    out = table_view(final)["outcome"]
    assert {k: out[k] for k in ("winners", "reason", "draw")} == json.loads(meta["outcome"]) == {
        "winners": ["Ann"], "reason": "Rochon holds the centre hex at the end of turn 9", "draw": False}
    assert final.state.heroes["rochon"].cell == (0, 0)
    assert {h: x.cell for h, x in final.state.heroes.items()} == {h: x.cell for h, x in shadow.state.heroes.items()}


def test_euthia_heroes_and_eltreas_familiar_seen_on_the_rotunda_tile(tmp_path):
    """Rendered photos of the Rotunda Starting Map tile: Eltrea at the Rotunda, Áel beside her, her
    Will o' Wisp (3 Move points) off its card onto her hex, sent two hexes, then two more (refused:
    one Move point left, l.193-196), then one hex on (taken)."""
    from arena_table.rules import parse
    from arena_table.rules.games.euthia.sensed import rotunda

    setup = 'start game=euthia options={"combat_die":[["blank"],["gaar"],["silver"],["chaos"],["chaos","chaos"],' \
            '["gaar","chaos"]],"heroes":["eltrea","ael"],"leader":"ael","mode":"fellowship"}'
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none")))
    table.start()
    try:
        table.submit(parse(setup))
        film = BoardFilm(rotunda(), margin_mm=60.0, marker_mm=12.0,
                         base_mm=20.0, seed=5)
        reader = FigureReader(table.ports("figures"), film.calibration,
                              {1: "euthia:hero:eltrea", 2: "euthia:hero:ael", 3: "euthia:minion:will-o-wisp"},
                              TrackConfig(marker_mm=12.0))
        t, refused = 0.0, False
        for wisp in ((0, 0), (2, -1), (0, 0), (1, 0)):
            image = film.frame({1: ((0, 0), None, (-10.5, 0.0)), 2: ((0, 1), None),
                                3: (wisp, None, (10.5, 0.0) if wisp == (0, 0) else (0.0, 0.0))})
            for _ in range(5):
                reader(Frame(image, t, int(round(t * FPS)), "camera:0"))
                t += 1 / FPS
            if wisp == (2, -1):
                assert table.state.state.familiar.moved == 2 and not table.state.desync
            if table.state.desync:
                (d,) = table.state.desync
                assert d.message == ("check the table: Will o' Wisp cannot reach that hex (2 hexes away; "
                                     "1 Move point left, l.193-196)")
                refused = True
        state = table.state
        assert refused and not state.desync
        assert dict(state.state.stands) == {"ael": (0, 1), "eltrea": (0, 0), "will-o-wisp": (1, 0)}
        assert state.state.familiar.moved == 3
    finally:
        table.close()
