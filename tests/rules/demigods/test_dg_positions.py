"""Positions on the board: movement cost, line of sight, facing, Push, obstacles, minions
('Movement' p.21, 'Attacking' pp.22-23, 'Place Obstacles' p.9, 'Minions' p.20)."""

import pytest

from arena_table.rules import Refused, table_view
from arena_table.rules.games.demigods import positions

from dg_helpers import Table, lineup_options

BOARD = {"cols": 8, "rows": 10, "obstacles": [[6, 2, "spike-pit"], [0, 0, "high-ground"], [7, 7, "pitfall"]]}


def board_at(who: str, **extra) -> Table:
    return Table(lineup_options(board=BOARD, **extra)).until(who)


def test_the_knight_moves_two_turns_right_and_moves_two_for_five_ap():
    """p.31: 'He moves two fields for 2 action points and rotates 90 degrees to the right for 1 more
    AP. Finally, he moves forward twice more for a total of 5 action points of his 7 AP total.'"""
    t = board_at("knight").do("dg-place who=knight cell=[2,8] facing=0", "dg-move who=knight to=[4,6] facing=1")
    assert t.ch("knight").ap == 2 and t.ch("knight").cell == (4, 6)
    with pytest.raises(Refused, match="that move costs 1 AP, not 2"):
        t.do("dg-move who=knight to=[5,6] facing=1 ap=2")


def test_a_tank_cannot_sidestep_and_blocked_fields_cost_a_detour():
    assert positions.move_cost((2, 5), 0, (3, 5), 0, moves=["f", "b"], cols=8, rows=8) == 3  # turn, step, turn
    assert positions.move_cost((2, 5), 0, (2, 3), 0, moves=["f", "b"], cols=8, rows=8, blocked=[(2, 4)]) == 8
    assert positions.move_cost((0, 0), 0, (0, 1), None, moves=["f"], cols=1, rows=2, can_rotate=False) is None


def test_line_of_sight_blocked_by_a_friendly_hero_and_only_in_front():
    """p.22: Black Wolf cannot attack the Pegasus Knight because her line of sight is blocked by a
    friendly hero, nor figures outside the three front arrows."""
    t = board_at("black-wolf").do("dg-place who=black-wolf cell=[4,8] facing=0", "dg-place who=knight cell=[4,7]",
                                  "dg-place who=pegasus-knight cell=[4,5] facing=2",
                                  "dg-place who=blacksmith cell=[5,6] facing=2", "dg-place who=trapper cell=[2,6]")
    with pytest.raises(Refused, match=r"line of sight blocked at \(4, 7\)"):
        t.do('dg-use who=black-wolf targets=["pegasus-knight"]')
    with pytest.raises(Refused, match="on no line of sight"):
        t.do('dg-use who=black-wolf targets=["blacksmith"]')
    t.do('dg-use who=black-wolf targets=["trapper"]', "roll die=dg-fire faces=[5]")  # diagonal, 2 fields
    assert t.ch("trapper").wounds == 9 + 1 - 2


def test_range_and_retaliation_turning_to_face():
    t = board_at("knight").do("dg-place who=knight cell=[3,5] facing=0", "dg-place who=blacksmith cell=[3,3] facing=0")
    with pytest.raises(Refused, match="2 fields away, base attack reaches 1"):
        t.do('dg-use who=knight targets=["blacksmith"]')
    t.do("dg-place who=blacksmith cell=[3,4] facing=0", 'dg-use who=knight targets=["blacksmith"]',
         "roll die=dg-bludgeoning faces=[5]", "roll die=dg-piercing faces=[6]")
    assert t.st.last_action.lines[-1].startswith("Blacksmith: 6 + 1 + 2 weak spot = 9")
    assert t.st.pending.retaliation
    t.do("roll die=dg-bludgeoning faces=[5]")
    assert t.ch("blacksmith").facing == 2  # turned to face the Knight
    # The Knight was struck from his front: Deflect adds 2 (tank trait reading).
    assert t.st.last_action.lines[-1] == "Knight: 6 + 1 = 7 - (physical defense 4 + Deflect 2 = 6) = 1 wounds"


def test_push_into_a_spike_pit_and_pits():
    """p.24 Push; p.9: a spike pit wounds 5, a figure in a pit takes +3 damage and cannot attack."""
    t = board_at("knight").do("dg-place who=knight cell=[6,4] facing=0", "dg-place who=trapper cell=[6,3] facing=2",
                              'dg-use who=knight targets=["trapper"]', "roll die=dg-bludgeoning faces=[2]")
    assert t.ch("trapper").cell == (6, 2)
    assert t.ch("trapper").wounds == (6 - 1) + 5  # Push adds no damage; the spike pit wounds 5


def test_in_a_pit_no_attack_three_more_damage_and_out_in_the_preparation_phase():
    t = board_at("knight").do("dg-place who=knight cell=[7,8] facing=0", "dg-place who=trapper cell=[7,7] facing=2",
                              'dg-use who=knight targets=["trapper"]', "roll die=dg-bludgeoning faces=[5]")
    assert t.st.last_action.lines[-1] == "Trapper: 6 + 1 + 3 in a pit = 10 - physical defense 1 = 9 wounds"
    t.until("trapper", rolls={"Ann": 1, "Bo": 6})
    with pytest.raises(Refused, match="stands in a pit and cannot attack"):
        t.do('dg-use who=trapper targets=["knight"]')
    t.until("warlord")
    assert t.st.round == 2 and t.ch("trapper").cell != (7, 7)
    assert "leaves the pit" in " ".join(t.st.notices)


def test_high_ground_from_the_board():
    t = board_at("knight").do("dg-place who=knight cell=[0,0] facing=2", "dg-place who=trapper cell=[0,1] facing=2",
                              'dg-use who=knight targets=["trapper"]', "roll die=dg-bludgeoning faces=[5]")
    assert t.st.last_action.lines[-1] == ("Trapper: 6 + 1 + 2 high ground + 2 weak spot = 11 - physical defense 1 "
                                          "= 10 wounds")


def test_board_figures_in_the_view():
    t = board_at("knight").do("dg-place who=knight cell=[2,8] facing=0")
    board = table_view(t.ts)["view"]["board"]
    assert board["kind"] == "square" and len(board["cells"]) == 80
    assert {"id": "knight", "name": "Knight", "side": "Ann", "cell": [2, 8], "facing": 0} in board["figures"]
    assert {"cell": [6, 2], "kind": "spike-pit"} in board["obstacles"]


def minion_phase() -> Table:
    opts = lineup_options(mode="advanced-tactics", board=BOARD)
    opts["lineup"] = {"Ann": {"demigod": "warlord", "heroes": ["knight", "black-wolf", "weaponsmith", "gunner"]},
                      "Bo": {"demigod": "protector", "heroes": ["trapper", "high-elder", "blacksmith", "assassin"]}}
    t = Table(opts)
    for _ in range(40):
        if t.st.acting and t.st.acting.startswith("minions:"):
            return t
        if t.st.acting:
            t.do("dg-end-turn")
        else:
            t.do("roll die=dg-demigod faces=[6,1]")
    raise AssertionError("no minion phase")


def test_minions_enter_two_then_one_move_forward_and_score_on_the_far_edge():
    """p.20: two minions in the first round and one every round after; forward or diagonal-forward
    only, never rotating; leaving on the opponent's side scores one tactical point."""
    t = minion_phase()
    assert t.st.acting == "minions:Ann"  # Ann's Demigod went first
    t.do("dg-minion-enter player=Ann cell=[1,9]", "dg-minion-enter player=Ann cell=[2,9]")
    with pytest.raises(Refused, match="already entered 2 minion"):
        t.do("dg-minion-enter player=Ann cell=[3,9]")
    t.do("dg-move who=minion-1-Ann to=[1,6] facing=0")
    assert t.ch("minion-1-Ann").ap == 0
    with pytest.raises(Refused, match="cannot rotate"):
        t.do("dg-move who=minion-2-Ann to=[2,9] facing=1")
    with pytest.raises(Refused, match="not on the far edge"):
        t.do("dg-minion-exit who=minion-1-Ann")
    t.do("dg-end-turn", "dg-end-turn")
    assert t.st.round == 2
    t = minion_phase_again(t)
    with pytest.raises(Refused, match="already entered 1 minion"):
        t.do("dg-minion-enter player=Ann cell=[3,9]", "dg-minion-enter player=Ann cell=[4,9]")
    t.do("dg-move who=minion-1-Ann to=[1,3] facing=0", "dg-end-turn", "dg-end-turn")
    t = minion_phase_again(t)
    t.do("dg-move who=minion-1-Ann to=[1,0] facing=0", "dg-minion-exit who=minion-1-Ann")
    assert t.st.points["Ann"] == 1 and t.ch("minion-1-Ann").out == "scored"


def minion_phase_again(t: Table) -> Table:
    for _ in range(40):
        if t.st.acting == "minions:Ann":
            return t
        if t.st.acting:
            t.do("dg-end-turn")
        else:
            t.do("roll die=dg-demigod faces=[6,1]")
    raise AssertionError("no minion phase")


def test_silence_and_backfire_for_a_mage_next_to_an_opponent():
    """p.13: Silence - no skills with an opposing figure adjacent; Backfire - a successful melee attack
    costs the mage two wounds (mage traits read from the cards' icons)."""
    t = board_at("black-wolf").do("dg-place who=black-wolf cell=[3,5] facing=0",
                                  "dg-place who=trapper cell=[3,4] facing=2")
    with pytest.raises(Refused, match="Silence: Black Wolf cannot use skills"):
        t.do("dg-use who=black-wolf use=wolf-form")
    t.do('dg-use who=black-wolf targets=["trapper"]', "roll die=dg-fire faces=[5]")
    assert t.ch("trapper").wounds == 9 + 1 - 2 and t.ch("black-wolf").wounds == 2


def test_entering_costs_one_ap_on_the_entry_row():
    """p.26: entering costs 1 AP on a field closest to the player's edge; in the Arena one field in."""
    t = Table(lineup_options(board={**BOARD, "entry_inset": 1})).until("knight")
    with pytest.raises(Refused, match="entry row 8"):
        t.do("dg-enter who=knight cell=[3,9]")
    t.do("dg-enter who=knight cell=[3,8]")
    assert (t.ch("knight").ap, t.ch("knight").cell, t.ch("knight").facing) == (6, (3, 8), 0)
    with pytest.raises(Refused, match="already on the battlefield"):
        t.do("dg-enter who=knight cell=[4,8]")


def test_a_move_does_not_cross_a_pit_or_magma():
    """p.9: a figure that moves into a spike pit takes 5 wounds and may leave only by spending all its
    AP; magma wounds on entering. A route across such a field is refused (a new user's audit: the
    Knight walked over a spike pit for 3 AP and 0 wounds); ending the move on it applies it."""
    t = board_at("knight").do("dg-place who=knight cell=[6,4] facing=0")
    with pytest.raises(Refused, match="9 AP asked, Knight has 7"):  # around the pit; across it was 3
        t.do("dg-move who=knight to=[6,1] facing=0")
    assert t.ch("knight").cell == (6, 4) and t.ch("knight").wounds == 0
    t.do("dg-move who=knight to=[6,2] facing=0")
    assert t.ch("knight").cell == (6, 2) and t.ch("knight").wounds == 5 and t.ch("knight").ap == 5


def test_a_move_that_only_crosses_a_hazard_is_named():
    """With no way around, the refusal names the field that ends a move (p.9)."""
    board = {"cols": 1, "rows": 10, "obstacles": [[0, 5, "magma"]]}
    t = Table(lineup_options(board=board)).until("knight").do("dg-place who=knight cell=[0,7] facing=0")
    with pytest.raises(Refused, match="without crossing a pit, magma, flash freeze or portal field"):
        t.do("dg-move who=knight to=[0,4] facing=0")
    t.do("dg-move who=knight to=[0,5] facing=0")  # onto the magma: 1 wound and Burn
    assert t.ch("knight").wounds == 1 and any(c.stat == "burn" for c in t.ch("knight").conditions)


def test_a_portal_transports_to_the_other_free_portal():
    """p.9 Portal: entering one transports the figure to another portal at no AP; with more than
    two, the player chooses among the free ones (a notice names them)."""
    two = {"cols": 8, "rows": 10, "obstacles": [[6, 3, "portal"], [1, 1, "portal"]]}
    t = Table(lineup_options(board=two)).until("knight").do("dg-place who=knight cell=[6,4] facing=0")
    t.do("dg-move who=knight to=[6,3] facing=0")
    assert t.ch("knight").cell == (1, 1) and t.ch("knight").ap == 6  # 1 AP for the step, none for the portal
    three = {"cols": 8, "rows": 10, "obstacles": [[6, 3, "portal"], [1, 1, "portal"], [7, 9, "portal"]]}
    t = Table(lineup_options(board=three)).until("knight").do("dg-place who=knight cell=[6,4] facing=0")
    t.do("dg-move who=knight to=[6,3] facing=0")
    assert t.ch("knight").cell == (6, 3)
    assert "chooses the portal it comes out of ([1, 1], [7, 9])" in t.st.notices[-1]


def test_a_demigod_crosses_its_own_ascending_stone_for_free():
    """p.9 Ascending Stone: characters may not move onto a stone, 'however, a Demigod can move onto
    their own Ascending Stone, allowing them to rotate in any direction and move one field all at no
    AP cost. A Demigod cannot end their turn on an Ascending Stone.'"""
    board = {"cols": 8, "rows": 8, "obstacles": [[1, 6, "stone", "Ann"], [5, 6, "stone", "Bo"]]}
    t = Table(lineup_options(board=board)).do("roll die=dg-demigod faces=[6,1]")
    assert t.st.acting == "warlord"
    t.do("dg-enter who=warlord cell=[1,7] facing=0")  # 1 AP of 4
    with pytest.raises(Refused, match="is occupied or blocked"):
        t.do("dg-move who=warlord to=[5,6] facing=0")  # Bo's stone
    t.do("dg-move who=warlord to=[1,6] facing=1")  # onto its own stone and turned: free
    assert t.ch("warlord").cell == (1, 6) and t.ch("warlord").ap == 3
    with pytest.raises(Refused, match="cannot end its turn on its Ascending Stone"):
        t.do("dg-end-turn")
    t.do("dg-move who=warlord to=[2,6] facing=1")  # the one field off it: free as well
    assert t.ch("warlord").cell == (2, 6) and t.ch("warlord").ap == 3
    t.do("dg-end-turn")


def test_a_stone_owner_must_be_a_player():
    board = {"cols": 8, "rows": 8, "obstacles": [[1, 6, "stone", "Cy"]]}
    with pytest.raises(Refused, match="Ascending Stone owner.s. Cy are not players"):
        Table(lineup_options(board=board))
