"""The shipped board definitions: every game's board as data, what the books give and what is to
enter, and the engines taking their cells and adjacency from them."""

import json
import sys
from importlib import resources
from pathlib import Path

import pytest

from arena_table.rules import find_game
from arena_table.rules.games.demigods import data as dg_data
from arena_table.rules.games.sword_and_sorcery import areas as sns_areas
from arena_table.rules.games.theosis import board as th_board
from arena_table.rules.games.theosis.state import CENTRE
from arena_table.rules.kernel.geometry import hexes
from arena_table.rules.kernel.geometry.boards import board_from, boards_from
from arena_table.rules.kernel.geometry.measure import measure


def shipped(package: str) -> dict:
    doc = json.loads(resources.files(package).joinpath("data", "boards.json").read_text(encoding="utf-8"))
    return boards_from(doc)


sys.path.insert(0, str(Path(__file__).parents[1] / "demigods"))
from dg_helpers import lineup_options  # noqa: E402 - the Demigods tests' line-up

GAMES = ["theosis", "demigods", "sword_and_sorcery", "euthia"]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_ships_boards_whose_unprinted_values_are_marked_to_enter(game):
    boards = shipped(f"arena_table.rules.games.{game}")
    assert boards
    for b in boards.values():
        assert b.source and "size_mm" in dict(b.to_enter), b.id
        for name, cells in b.features:
            assert cells and all(b.has(c) for c in cells), (b.id, name)


def test_theosis_arena_centre_and_starting_triads():
    b = th_board.definition()
    assert b.feature("centre") == (CENTRE,) and len(b.cells) == 91
    triads = [b.feature(f"triad-{i}") for i in range(1, 7)]
    assert all(len(t) == 3 for t in triads) and len({c for t in triads for c in t}) == 18
    for t in triads:  # three hexes that touch each other, at the edge, four hexes out
        assert all(hexes.distance(x, y) == 1 for x in t for y in t if x != y)
        assert all(hexes.distance(CENTRE, c) <= 4 for c in t) and any(hexes.distance(CENTRE, c) == 4 for c in t)
    assert "triad-1" in dict(b.to_enter)


def test_theosis_engine_takes_the_arena_from_the_definition():
    from arena_table.rules.games.theosis.setup import setup
    game = find_game("theosis")
    small = setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}, "arena_radius": 3})
    assert len(game.board(small).cells) == 37 and game.board(small).feature("triad-1") == ()
    assert game.board(small).has((3, 0)) and not game.board(small).has((4, 0))


def test_demigods_arena_is_surrounded_by_pitfalls_and_entered_one_field_in():
    b = dg_data.boards()["demigods-arena"]
    cols, rows = b.layout.cols, b.layout.rows
    assert set(b.feature("pitfall")) == {(c, r) for c in range(cols) for r in range(rows)
                                          if c in (0, cols - 1) or r in (0, rows - 1)}
    game = find_game("demigods")
    state = game.setup(lineup_options(board="demigods-arena"))
    assert (state.board.cols, state.board.rows, state.board.entry_inset) == (cols, rows, 1)
    assert state.board.entry_row(0) == rows - 2 and state.board.obstacle((0, 5)) == "pitfall"
    seen = game.board(state)
    assert seen.layout.size_mm == b.layout.size_mm and set(seen.feature("pitfall")) == set(b.feature("pitfall"))
    moved = game.setup(lineup_options(board={"id": "demigods-arena", "obstacles": [[0, 0, "boulder"]]}))
    assert moved.board.obstacle((0, 0)) == "boulder" and moved.board.obstacle((1, 0)) == "pitfall"
    with pytest.raises(ValueError, match="no battlefield 'moon'"):
        game.setup(lineup_options(board="moon"))
    dungeon = game.setup(lineup_options(board="demigods-dungeon-2"))
    assert (dungeon.board.cols, dungeon.board.rows, dungeon.board.obstacles) == (5, 8, ())


def test_sword_and_sorcery_adjacency_comes_from_the_rooms_edges():
    d = sns_areas.definition()
    board = sns_areas.default_board()
    assert dict(board.adjacent) == d.layout.adjacency()
    assert d.neighbours("a1") == ("a2", "b1") and d.neighbours("c3") == ("b3", "c2", "c4", "d3")
    assert dict(board.rings)["c3"] == ("b3", "c4", "d3", "c2")  # clockwise from north
    assert d.distance("a1", "e5") == 8 and d.cell_at((250.0, 250.0)) == "c3"
    walled = board_from({"id": "w", "kind": "areas", "areas": {n: [list(p) for p in poly] for n, poly in d.layout.polygons},
                         "walls": [[[100, 0], [100, 100]]]})
    assert walled.neighbours("a1") == ("b1",)


def test_euthia_rotunda_tile_centre_and_exalted_bottom_right():
    b = shipped("arena_table.rules.games.euthia")["euthia-rotunda"]
    (rotunda,), (exalted,) = b.feature("rotunda"), b.feature("exalted")
    assert len(b.cells) == 7 and b.neighbours(rotunda) == tuple(hexes.neighbours(rotunda))
    (cx, cy), (ex, ey) = b.centre(rotunda), b.centre(exalted)
    assert ex > cx and ey > cy  # right of and below the centre, as seen from above


def test_measuring_the_arena_from_four_markers():
    """Four markers on known hexes, seen in board mm, fit the hex size and place; the size is then
    no longer to enter."""
    true = hexes.HexLayout(size_mm=27.5, origin_mm=(410.0, 405.0), angle_deg=0.8)
    b = th_board.definition()
    marks = [(c, true.centre(c)) for c in [(0, 0), (5, -5), (-5, 0), (0, 5)]]
    fit = measure(b.layout, marks)
    assert abs(fit.layout.size_mm - 27.5) < 1e-6 and fit.worst_mm < 1e-6
    measured = b.with_layout(fit.layout)
    assert "size_mm" not in dict(measured.to_enter) and "triad-1" in dict(measured.to_enter)
    assert measured.cell_at(true.centre((2, -3))) == (2, -3) and measured.cell_at((2000.0, 0.0)) is None
