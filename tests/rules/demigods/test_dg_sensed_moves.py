"""Sensed figure moves in Demigods: the camera's ``figure-moved`` is priced and checked as a typed
``dg-move`` ('Movement' p.21): within the character's AP, turns included, only in its turn; a
refused move changes nothing and asks to check the table until the figure goes back."""

import pytest

from arena_table.rules import Refused, table_view

from dg_helpers import Table, lineup_options

BOARD = {"cols": 8, "rows": 10, "obstacles": [[6, 2, "spike-pit"], [0, 0, "high-ground"], [7, 7, "pitfall"]]}


def knight_at(cell="[2,8]", facing=0) -> Table:
    return Table(lineup_options(board=BOARD)).until("knight").do(f"dg-place who=knight cell={cell} facing={facing}")


def test_the_books_knight_move_sensed_costs_five_ap():
    """p.31: two fields, a quarter turn right, two more: 5 of the Knight's 7 AP, facing east."""
    t = knight_at().do("figure-moved figure=knight from_cell=[2,8] to_cell=[4,6] facing=1 source=camera:0")
    assert (t.ch("knight").cell, t.ch("knight").facing, t.ch("knight").ap) == ((4, 6), 1, 2)
    assert not t.ts.desync


def test_beyond_the_ap_left_nothing_moves_and_the_table_is_checked():
    t = knight_at()
    before = t.st
    t.do("figure-moved figure=knight to_cell=[4,6] facing=1", "figure-moved figure=knight to_cell=[6,3] facing=1")
    assert t.ch("knight").cell == (4, 6) and t.ch("knight").ap == 2
    (d,) = t.ts.desync
    assert (d.recorded, d.seen) == ((4, 6), (6, 3))
    assert table_view(t.ts)["desync"][0]["message"].startswith("check the table: ")
    assert "AP" in d.reason
    t.do("figure-moved figure=knight to_cell=[4,6] facing=1")  # put back
    assert not t.ts.desync and t.ch("knight").ap == 2 and before.chars["knight"].ap == 7


def test_a_facing_change_costs_a_turn_and_another_figure_waits_its_turn():
    t = knight_at().do("figure-moved figure=knight to_cell=[2,8] facing=2")  # two quarter turns
    assert t.ch("knight").facing == 2 and t.ch("knight").ap == 5
    t.do("dg-place who=trapper cell=[5,1] facing=2", "figure-moved figure=trapper to_cell=[5,2] facing=2")
    assert t.ch("trapper").cell == (5, 1)
    assert "turn" in t.ts.desync[0].reason


def test_confirm_places_the_figure_as_seen_without_ap():
    t = knight_at().do("figure-moved figure=knight to_cell=[7,0] facing=3")
    assert t.ts.desync
    t.do("figure-confirm figure=knight")
    assert (t.ch("knight").cell, t.ch("knight").facing, t.ch("knight").ap) == ((7, 0), 3, 7) and not t.ts.desync
    with pytest.raises(Refused, match="nothing to override"):
        t.do("figure-override figure=knight")


def test_sensed_moves_replay_to_the_same_state():
    t = knight_at().do("figure-moved figure=knight to_cell=[6,3] facing=1", "figure-override figure=knight",
                       "figure-moved figure=knight to_cell=[2,6]")
    assert t.replayed_digest() == t.digest and t.ch("knight").cell == (2, 6) and not t.ts.desync
