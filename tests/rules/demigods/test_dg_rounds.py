"""Activation order: Demigod dice, initiative ties across players and between teammates,
initiative tokens, You're Next!, the Preparation Phase ('Playing the Game', pp.26-34)."""

import pytest

from arena_table.rules import Refused, TagPlaced, table_view
from arena_table.rules.games.demigods import rounds
from arena_table.rules.games.demigods.view import order_ids

from dg_helpers import Table, lineup_options

CUSTOM = {"name": "Extra", "class": "warrior", "race": "human", "ap": 5, "health": 30, "attack": 5,
          "attack_type": "slashing", "physical_defense": 2, "magical_defense": 1}


def test_demigod_dice_ties_are_rerolled():
    t = Table(lineup_options())
    t.do("roll die=dg-demigod faces=[3,3]")
    assert t.st.acting is None and rounds.demigod_ranking(t.st) == ((), ("Ann", "Bo"))
    t.do("roll die=dg-demigod faces=[2,5]")
    assert t.st.acting == "protector"  # Bo rolled higher: his Demigod goes first
    with pytest.raises(Refused, match="no Demigod dice roll is awaited"):
        t.do("roll die=dg-demigod faces=[1,2]")


def test_wrong_number_of_demigod_dice_is_named():
    t = Table(lineup_options())
    with pytest.raises(Refused, match="2 Demigod dice expected, one each for Ann, Bo"):
        t.do("roll die=dg-demigod faces=[4]")


def two_tied_against_one() -> Table:
    stats = {"gunner": {"initiative": 6, "race": "human"}, "trapper": {"initiative": 6}, "weaponsmith": {"initiative": 6}}
    lineup = {"Ann": {"demigod": "warlord", "heroes": ["knight", "weaponsmith", "gunner"]},
              "Bo": {"demigod": "protector", "heroes": ["pegasus-knight", "trapper", "blacksmith"]}}
    return Table({"players": ["Ann", "Bo"], "heroes": 3, "lineup": lineup, "hero_stats": stats})


@pytest.mark.parametrize("faces,expected", [
    ("[5,2]", ["weaponsmith", "trapper", "gunner"]),   # Ann higher: her left-most, then Bo's, then Ann's second
    ("[2,5]", ["trapper", "weaponsmith", "gunner"]),   # Bo higher
])
def test_only_the_leftmost_tied_hero_goes_until_each_tied_player_has_gone(faces, expected):
    """p.31: 'only the left-most in his or her formation may be activated until each tiebreaking
    player has activated one of their heroes'."""
    t = two_tied_against_one().until("pegasus-knight")
    t.do("dg-end-turn")
    assert rounds.next_hero(t.st).kind == "roll"
    t.do(f"roll die=dg-demigod faces={faces}")
    went = []
    for _ in expected:
        went.append(t.st.acting)
        t.do("dg-end-turn")
    assert went == expected
    assert t.st.acting == "blacksmith"


def test_ties_are_rolled_again_every_round():
    """p.26: 'Demigod dice are rolled every turn to determine activation order.'"""
    t = two_tied_against_one().until("pegasus-knight")
    t.do("dg-end-turn", "roll die=dg-demigod faces=[5,2]")
    t.until("pegasus-knight").do("dg-end-turn")
    assert t.st.round == 2 and rounds.next_hero(t.st).kind == "roll"


def test_initiative_tokens_change_the_order_not_the_formation():
    """p.31: 'The hero will activate using the new value but it will not change the formation.'"""
    t = Table(lineup_options()).until("warlord")
    t.do("dg-condition who=knight name=Howl stat=initiative amount=-4")
    ids = [cid for cid, _ in order_ids(t.st)]
    assert ids.index("knight") > ids.index("pegasus-knight")
    assert t.st.formations["Ann"][0] == "knight"


def test_teammates_tie_is_chosen_without_a_roll():
    """p.31: 'If an initiative tie exists only between teammates, the players ... may choose which
    player activates a hero first without rolling the Demigod dice.'"""
    stats = {f"extra-{i}": {**CUSTOM, "name": f"Extra {i}", "initiative": 3 - i % 3} for i in range(6)}
    stats["knight"] = {"initiative": 9}
    stats["pegasus-knight"] = {"initiative": 9}
    lineup = {"Ann": {"demigod": "warlord", "heroes": ["knight", "extra-0", "extra-1"]},
              "Bo": {"demigod": "warlord", "heroes": ["pegasus-knight", "extra-2", "extra-3"]},
              "Cy": {"demigod": "protector", "heroes": ["trapper", "blacksmith", "extra-4"]},
              "Di": {"demigod": "protector", "heroes": ["gunner", "ogre", "extra-5"]}}
    t = Table({"players": ["Ann", "Bo", "Cy", "Di"], "heroes": 3, "lineup": lineup, "hero_stats": stats})
    assert t.st.team_names == ("Ann & Bo", "Cy & Di")
    t.do("roll die=dg-demigod faces=[6,5,4,3]")
    for _ in range(4):
        t.do("dg-end-turn")
    assert t.st.phase == "hero" and t.st.acting is None
    assert rounds.next_hero(t.st) == rounds.Next("choice", ("knight", "pegasus-knight"))
    assert "choose who acts" in table_view(t.ts)["view"]["prompt"]
    t.do(str(TagPlaced(pad=1, uid="04AA", object="demigods:hero:trapper")))  # not a choice now: ignored
    assert t.st.acting is None
    with pytest.raises(Refused, match="cannot be chosen"):
        t.do("dg-activate who=trapper")
    t.do(str(TagPlaced(pad=1, uid="04AB", object="demigods:hero:pegasus-knight")))
    assert t.st.acting == "pegasus-knight"
    t.do("dg-end-turn")
    assert t.st.acting == "knight"


def test_preparation_phase_divine_power_and_knockdown():
    """p.34 steps 1 and 4: mana +1, focus +2 (never above 6); knockdown tokens removed."""
    t = Table(lineup_options()).until("gunner")
    t.do("dg-divine who=black-wolf value=4", "dg-divine who=trapper value=1", "dg-divine who=gunner value=5",
         "dg-condition who=knight name=Knockdown stat=knockdown")
    t.do("dg-end-turn")
    assert t.st.round == 2
    assert (t.ch("black-wolf").divine, t.ch("trapper").divine, t.ch("gunner").divine) == (5, 3, 6)
    assert t.ch("knight").conditions == ()


def test_knocked_down_hero_loses_its_turn():
    t = Table(lineup_options()).until("warlord")
    t.do("dg-condition who=knight name=Knockdown stat=knockdown")
    t.until("assassin")
    assert "knight" in t.st.activated and "Knight is knocked down" in t.st.notices[-1]


def test_view_marks_acting_and_next_and_counts_ap():
    t = Table(lineup_options()).until("knight")
    v = table_view(t.ts)["view"]
    acting = [e for e in v["order"] if e["acting"]]
    nxt = [e for e in v["order"] if e["next"]]
    assert [e["id"] for e in acting] == ["knight"] and [e["id"] for e in nxt] == ["assassin"]
    assert acting[0]["resources"] == {"AP": 7, "wounds": 0, "rage": 1, "morale": 0, "initiative": 9}
    assert v["phase"] == "Round 1 · Hero Phase" and v["acting"] == "knight"
    assert [e["id"] for e in v["order"][:3]] == ["warlord", "protector", "knight"]
    assert v["extra"]["youre_next"] == {"Ann": "assassin", "Bo": "pegasus-knight"}
    ties = [e["id"] for e in v["order"] if e.get("tie")]
    assert ties == ["black-wolf", "pegasus-knight", "weaponsmith", "trapper"]


def test_a_plain_d6_counts_as_demigod_dice_only_when_awaited():
    t = Table(lineup_options())
    t.do("roll die=d6 faces=[2,5]")
    assert t.st.acting == "protector"
    t.do("roll die=d6 faces=[3]")  # nobody waits for it: the tray keeps it, the game is unchanged
    assert t.st.acting == "protector" and len(t.ts.tray.rolls) == 2


def test_control_view_lists_what_the_acting_character_can_use():
    t = Table(lineup_options()).until("weaponsmith", rolls={"Ann": 6, "Bo": 1})
    uses = {u["use"]: u for u in table_view(t.ts, "control")["view"]["extra"]["uses"]}
    assert uses["attack"] == {"use": "attack", "name": "base attack", "ap": 1, "cost": 0, "blocked": ""}
    assert uses["sharpen"]["blocked"] == "needs 3 rage"
    assert "uses" not in table_view(t.ts)["view"]["extra"]


def test_leftover_tied_teammates_follow_the_rolls():
    """p.31: after each tiebreaking player has activated one hero, 'any additional heroes with the
    same initiative may be activated (in order of the rolls ...)': teammates left over after a rolled
    tie follow those rolls; they choose only when the tie was between teammates alone."""
    stats = {f"extra-{i}": {**CUSTOM, "name": f"Extra {i}", "initiative": 8} for i in range(5)}
    stats.update({"knight": {"initiative": 2}, "pegasus-knight": {"initiative": 1}, "trapper": {"initiative": 3},
                  "blacksmith": {"initiative": 4}, "gunner": {"initiative": 5}, "ogre": {"initiative": 6},
                  "extra-5": {**CUSTOM, "name": "Extra 5", "initiative": 7}})
    lineup = {"Ann": {"demigod": "warlord", "heroes": ["extra-0", "extra-1", "knight"]},
              "Bo": {"demigod": "warlord", "heroes": ["extra-2", "extra-3", "pegasus-knight"]},
              "Cy": {"demigod": "protector", "heroes": ["extra-4", "trapper", "blacksmith"]},
              "Di": {"demigod": "protector", "heroes": ["gunner", "ogre", "extra-5"]}}
    t = Table({"players": ["Ann", "Bo", "Cy", "Di"], "heroes": 3, "lineup": lineup, "hero_stats": stats})
    t.do("roll die=dg-demigod faces=[6,5,4,3]")
    for _ in range(4):
        t.do("dg-end-turn")
    assert rounds.next_hero(t.st) == rounds.Next("roll", key="init:8", contenders=("Ann", "Bo", "Cy"))
    t.do("roll die=dg-demigod faces=[6,5,4]")
    went = []
    for _ in range(5):
        went.append(t.st.acting)
        t.do("dg-end-turn")
    assert went == ["extra-0", "extra-2", "extra-4", "extra-1", "extra-3"]
    assert t.st.acting == "extra-5"
