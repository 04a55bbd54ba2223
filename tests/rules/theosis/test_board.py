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
