"""The Theosis board view sends the whole Arena, not only occupied hexes (docs/view-schema.md ``board``)."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused, find_game, parse, table_view
from arena_table.rules.games.theosis.setup import setup
from arena_table.rules.games.theosis.view import arena_cells

from th_helpers import ARENA, BLITZ_FAST, fast_blitz, play

ENTER = """
th-move hero=aer cell=[0,-5]
th-move hero=rochon cell=[4,-4]
"""


def test_arena_cells_counts_and_edges():
    # 3r² + 3r + 1 hexes; (5, 0) is on the edge of radius 5, (3, 3) is 6 hexes out.
    assert [len(arena_cells(r)) for r in (1, 4, 5)] == [7, 61, 91]
    assert (5, 0) in arena_cells(5) and (-5, 5) in arena_cells(5)
    assert (3, 3) not in arena_cells(5)


def test_board_has_every_hex_of_the_default_arena_before_anyone_enters():
    view = table_view(play(BLITZ_FAST, ARENA))["view"]
    board = view["board"]
    assert board["kind"] == "hex" and board["radius"] == 5
    assert len(board["cells"]) == 91
    assert [0, 0] in board["cells"] and [-5, 0] in board["cells"] and [0, 5] in board["cells"]
    assert board["figures"] == []


def test_board_keeps_the_whole_arena_with_figures_on_it():
    view = table_view(play(BLITZ_FAST, ARENA, ENTER))["view"]
    board = view["board"]
    assert len(board["cells"]) == 91
    assert {f["id"]: f["cell"] for f in board["figures"]} == {"aer": [0, -5], "rochon": [4, -4]}


def test_arena_radius_option_sets_the_board_and_refuses_moves_off_it():
    small = fast_blitz(["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "spell-ward"],
                       ["warcraft", "nova", "confusion", "valor", "lifeswap", "frigid-night"],
                       extra_options='"arena_radius":4')
    ts = play(small, ARENA)
    assert table_view(ts)["view"]["board"]["radius"] == 4
    assert len(table_view(ts)["view"]["board"]["cells"]) == 61
    game = find_game("theosis")
    with pytest.raises(Refused, match=r"\[0, -5\] is off the Arena \(radius 4"):
        game.apply(ts.state, parse("th-move hero=aer cell=[0,-5]"))
    assert game.apply(ts.state, parse("th-move hero=aer cell=[0,-4]")).heroes["aer"].cell == (0, -4)


def test_no_board_while_in_hierapolis_and_a_bad_radius_is_named():
    view = table_view(play(BLITZ_FAST))["view"]
    assert "board" not in view  # Fast Action Preparation: nobody is in the Arena yet
    with pytest.raises(ValueError, match="arena_radius must be 1-12 hexes, not 0"):
        setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]},
               "arena_radius": 0})


PVP = """
start game=theosis options={"players":["Ann","Bo"],"heroes":{"Ann":["rochon","rac","norn"],"Bo":["aer","lug","edhel"]}}
th-place hero=rochon location=guardian golden=true
th-place hero=aer location=deceitful golden=true target=Ann
th-place hero=rac location=warmonger
"""


def test_hierapolis_shows_each_placed_hero_at_its_location_and_the_golden_slots_taken():
    board = table_view(play(PVP))["view"]["board"]
    assert board["kind"] == "areas" and board["columns"] == 6 and board["sides"] == ["Ann", "Bo"]
    assert board["cells"][:6] == ["Warmonger quest", "Guardian quest", "Deceitful quest", "Righteous quest",
                                  "Vengeful quest", "Merciful quest"]  # paired as their tracks (p.4)
    assert board["cells"][6:] == ["Tavern", "Cathedral", "Thieves' Guild", "Mercenary Camp", "Market", "Mage Tower"]
    assert {f["id"]: f["cell"] for f in board["figures"]} == {
        "rochon": "Guardian quest", "aer": "Deceitful quest", "rac": "Warmonger quest"}
    assert board["labels"] == {"Guardian quest": "★ golden slot taken", "Deceitful quest": "★ golden slot taken"}


def test_the_alignment_tracks_show_each_cube_and_who_it_pays():
    tracks = table_view(play(PVP))["view"]["tracks"]
    # Rochon's Guardian quest and Rac's Warmonger quest cancel out on the first track; Aer's Deceitful
    # quest moves the second cube a step (Quests, p.11: a quest slot moves its track's cube)
    assert [(t["name"], t["value"]) for t in tracks] == [
        ("Warmonger / Guardian", 0), ("Deceitful / Righteous", 1), ("Vengeful / Merciful", 0)]
    assert tracks[1]["ends"] == ["Righteous", "Deceitful"] and (tracks[1]["min"], tracks[1]["max"]) == (-3, 3)
    assert tracks[1]["notes"] == ["Rochon (Ann), Aer (Bo)", "Rac (Ann)"]  # heroes.json alignments
