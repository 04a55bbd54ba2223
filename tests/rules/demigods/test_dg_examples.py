"""Every worked example of the rulebook, with the book's numbers, played through events.

Attack dice arrive as face indices (``data/dice.json``): the k-th printed result.
fire: 1 Burn, 2 Failure, 3 Critical, 4 "2", 5 "1", 6 "-1"; ice the same with
Freeze; slashing: 1-2 Enrage, 3 Critical, 4 "2", 5 "1", 6 "-1"; piercing:
1-2 Critical, 3 "2", 4 "1", 5 "-1", 6 "-3"; bludgeoning: 1 Knockdown, 2 Push,
3 Critical, 4 "2", 5 "1", 6 "-1".
"""

import pytest

from arena_table.rules import Refused
from arena_table.rules.games.demigods import rounds

from dg_helpers import Table, lineup_options

def on_board(t: Table, *who: str) -> Table:
    return t.do(*(f"dg-place who={w}" for w in who))


def test_black_wolf_fire_attack_on_the_trappers_weak_spot():
    """p.23: 'She rolls one fire die and gets a -1 ... 2 additional damage for a total of 10 damage.
    The Trapper has a magical defense of 2 ... reduces the Trapper's health by 8.'"""
    t = Table(lineup_options()).until("black-wolf")
    on_board(t, "black-wolf", "trapper")
    t.do("dg-use who=black-wolf targets=[\"trapper\"] side=[\"back\"] distance=2", "roll die=dg-fire faces=[6]")
    assert t.ch("trapper").wounds == 8 and t.ch("trapper").health_left == 22
    assert t.st.last_action.lines[-1] == "Trapper: 9 - 1 + 2 weak spot = 10 - magical defense 2 = 8 wounds"
    assert t.ch("trapper").divine == 3 - 1  # focus -1 for being attacked
    assert t.st.acting != "black-wolf"  # a base attack ends the turn


def test_black_wolf_weak_spot_measured_from_the_board():
    """The same attack with figure positions: Black Wolf two fields behind the Trapper."""
    t = Table(lineup_options(board={"cols": 8, "rows": 8})).until("black-wolf")
    t.do("dg-place who=black-wolf cell=[4,6] facing=0", "dg-place who=trapper cell=[4,4] facing=0",
         "dg-use who=black-wolf targets=[\"trapper\"]", "roll die=dg-fire faces=[6]")
    assert t.ch("trapper").wounds == 8
    assert t.st.last_action.lines[-1].endswith("= 10 - magical defense 2 = 8 wounds")
    with pytest.raises(Refused, match="board shows sides"):
        t2 = Table(lineup_options(board={"cols": 8, "rows": 8})).until("black-wolf")
        t2.do("dg-place who=black-wolf cell=[4,6] facing=0", "dg-place who=trapper cell=[4,4] facing=2",
              "dg-use who=black-wolf targets=[\"trapper\"] side=[\"back\"]")


def warlord_turn() -> Table:
    t = Table(lineup_options()).until("warlord")  # round 1: Demigods may not attack
    t.until("blacksmith").until("warlord")
    assert t.st.round == 2
    return on_board(t, "warlord", "blacksmith", "trapper")


def test_warlord_elemental_sword_with_cleave():
    """pp.28-29: Failure, Critical and 1 -> 13; Blacksmith from behind 15 - 1 = 14 (health 24);
    his Retaliation 8 - 2 = 6 (Warlord 44) with +1 rage for being attacked and none for retaliating;
    the Trapper facing him 13 - 2 = 11 (health 19) and -1 focus; two cooldown tokens."""
    t = warlord_turn()
    focus, rage = t.ch("trapper").divine, t.ch("blacksmith").divine
    t.do("dg-move who=warlord ap=2",
         "dg-use who=warlord use=elemental-sword targets=[\"blacksmith\",\"trapper\"] side=[\"back\",\"front\"]",
         "roll die=dg-ice faces=[2]", "roll die=dg-fire faces=[3]", "roll die=dg-slashing faces=[5]")
    la = t.st.last_action
    assert la.lines[1] == "Blacksmith: 10 - 2 Failure + 4 Critical + 1 + 2 weak spot = 15 - magical defense 1 = 14 wounds"
    assert la.lines[2] == "Trapper: 10 - 2 Failure + 4 Critical + 1 = 13 - magical defense 2 = 11 wounds"
    assert t.ch("blacksmith").health_left == 24 and t.ch("trapper").health_left == 19
    assert t.ch("trapper").divine == focus - 1 and t.ch("blacksmith").divine == rage + 1
    assert t.st.pending.retaliation and t.st.pending.attacker == "blacksmith"
    t.do("roll die=dg-bludgeoning faces=[4]")  # the Blacksmith's die: 2
    assert t.st.last_action.lines[-1] == "Warlord: 6 + 2 = 8 - physical defense 2 = 6 wounds"
    assert t.ch("warlord").health_left == 44
    assert t.ch("blacksmith").divine == rage + 1  # no rage for the retaliation itself
    assert dict(t.ch("warlord").cooldowns) == {"elemental-sword": 2}
    assert t.st.acting == "protector"  # the item ended the Warlord's turn


def test_elemental_sword_cooldown_tokens_come_off_one_a_turn():
    """p.18: 'At the end of the Demigod's next turn the first token will be removed ...'"""
    t = warlord_turn()
    t.do("dg-use who=warlord use=elemental-sword targets=[\"trapper\"]", "roll die=dg-ice faces=[4]",
         "roll die=dg-fire faces=[4]", "roll die=dg-slashing faces=[4]")
    t.until("warlord")
    with pytest.raises(Refused, match="on cooldown \\(2 tokens\\)"):
        t.do("dg-use who=warlord use=elemental-sword targets=[\"trapper\"]")
    t.do("dg-end-turn").until("warlord")
    assert dict(t.ch("warlord").cooldowns) == {"elemental-sword": 1}
    t.do("dg-end-turn").until("warlord")
    assert t.ch("warlord").cooldowns == ()
    t.do("dg-use who=warlord use=elemental-sword targets=[\"trapper\"]")
    assert t.st.pending is not None


def knight_turn() -> Table:
    t = Table(lineup_options()).until("knight")
    t.do("dg-divine who=knight value=3")  # 'the Knight began the turn with 3 rage'
    return on_board(t, "knight", "pegasus-knight")


def test_knight_base_attack_on_the_pegasus_knight():
    """p.31: 6 + 2 = 8 - 5 = 3 (health 35); from behind but a tank has no weak spot; +1 rage each."""
    t = knight_turn()
    t.do("dg-move who=knight ap=5")
    assert t.ch("knight").ap == 2  # 'he can use his 2 remaining AP'
    t.do("dg-use who=knight targets=[\"pegasus-knight\"] side=[\"back\"]", "roll die=dg-bludgeoning faces=[4]")
    assert t.st.last_action.lines[-1] == "Pegasus Knight: 6 + 2 = 8 - physical defense 5 = 3 wounds"
    assert t.ch("pegasus-knight").health_left == 35
    assert t.ch("knight").divine == 4 and t.ch("pegasus-knight").divine == 2
    assert t.st.acting != "knight" and t.ch("knight").ap == 0  # the last AP is forfeited


def test_knight_star_strike_alternative_is_pure_damage():
    """p.31: Star Strike, 3 rage and 2 AP, 11 pure damage, health 27, +1 rage for the Pegasus Knight.

    The book's 'a 2 and a 3' cannot be rolled on the printed bludgeoning and piercing dice (no 3);
    the book's total 11 is rolled here as bludgeoning 1 + piercing Critical."""
    t = knight_turn()
    t.do("dg-move who=knight ap=5", "dg-use who=knight use=star-strike targets=[\"pegasus-knight\"] side=[\"back\"]",
         "roll die=dg-bludgeoning faces=[5]", "roll die=dg-piercing faces=[1]")
    assert t.st.last_action.lines[-1] == "Pegasus Knight: 6 + 1 + 4 Critical = 11 pure = 11 wounds"
    assert t.ch("pegasus-knight").health_left == 27
    assert t.ch("knight").divine == 0 and t.ch("pegasus-knight").divine == 2


def test_star_strike_with_the_books_faces_when_configured():
    """With a piercing die configured to show 3 (``dice_faces``), the book's 2 + 3 gives 11."""
    faces = {"piercing": ["critical", "critical", 3, 1, -1, -3]}
    t = Table(lineup_options(dice_faces=faces)).until("knight")
    t.do("dg-divine who=knight value=3", "dg-place who=knight", "dg-place who=pegasus-knight",
         "dg-use who=knight use=star-strike targets=[\"pegasus-knight\"]",
         "roll die=dg-bludgeoning faces=[4]", "roll die=dg-piercing faces=[3]")
    assert t.st.last_action.lines[-1] == "Pegasus Knight: 6 + 2 + 3 = 11 pure = 11 wounds"
    assert t.ch("pegasus-knight").health_left == 27


def weaponsmith_turn() -> Table:
    t = Table(lineup_options()).until("weaponsmith", rolls={"Ann": 6, "Bo": 1})
    t.do("dg-divine who=weaponsmith value=6")  # 'Our Weaponsmith has 6 rage and 6 AP'
    assert t.ch("weaponsmith").ap == 6
    return on_board(t, "weaponsmith", "trapper", "blacksmith", "assassin")


def test_weaponsmith_line_a_base_attack_on_the_trappers_weak_spot():
    """p.33 A: 7 + Critical 4 + weak spot 2 = 13 - 1 = 12 (health 18), focus -1, rage stays 6."""
    t = weaponsmith_turn()
    t.do("dg-move who=weaponsmith ap=4", "dg-use who=weaponsmith targets=[\"trapper\"] side=[\"back\"]",
         "roll die=dg-slashing faces=[3]")
    assert t.st.last_action.lines[-1] == "Trapper: 7 + 4 Critical + 2 weak spot = 13 - physical defense 1 = 12 wounds"
    assert t.ch("trapper").health_left == 18 and t.ch("trapper").divine == 2
    assert t.ch("weaponsmith").divine == 6


def test_weaponsmith_line_b_sharpen_then_bolt_shot():
    """p.33 B: Sharpen (+3 damage to the Assassin, 3 rage, 3 AP, turn goes on); Bolt Shot 8 + Critical
    = 12, Master Armor die -3 (no Critical), 12 - 3 = 9 (health 29), On Critical: attack -3 for two turns."""
    t = weaponsmith_turn()
    t.do("dg-use who=weaponsmith use=sharpen targets=[\"assassin\"]")
    assert t.st.acting == "weaponsmith" and t.ch("weaponsmith").ap == 3 and t.ch("weaponsmith").divine == 3
    sharpen = t.ch("assassin").conditions[0]
    assert (sharpen.name, sharpen.stat, sharpen.amount, sharpen.turns) == ("Sharpen", "damage", 3, 2)
    t.do("dg-use who=weaponsmith use=bolt-shot targets=[\"blacksmith\"] distance=3", "roll die=dg-piercing faces=[1]")
    assert t.st.pending is not None  # the Blacksmith's Master Armor die
    t.do("roll die=dg-piercing faces=[6]")
    assert t.st.last_action.lines[-1] == "Blacksmith: 8 + 4 Critical = 12 - physical defense 3 = 9 wounds"
    assert t.ch("blacksmith").health_left == 29 and t.ch("blacksmith").divine == 2
    bolt = next(c for c in t.ch("blacksmith").conditions if c.name == "Bolt Shot")
    assert (bolt.stat, bolt.amount, bolt.turns) == ("damage", -3, 2)
    assert t.st.acting != "weaponsmith"


def test_master_armor_critical_ignores_the_attack_but_rage_is_gained():
    """p.15: 'If he rolls a Critical, he ignores the attack ... he will still gain 1 rage'."""
    t = weaponsmith_turn()
    t.do("dg-use who=weaponsmith use=bolt-shot targets=[\"blacksmith\"] distance=3",
         "roll die=dg-piercing faces=[3]", "roll die=dg-piercing faces=[2]")
    assert t.ch("blacksmith").wounds == 0 and t.ch("blacksmith").divine == 2


def test_trapper_and_weaponsmith_tie_settled_by_demigod_dice():
    """p.31: 'The Trapper's player rolls higher, so she may activate first.'"""
    t = Table(lineup_options()).until("black-wolf")  # past the 9, 8 and the 7-tie
    t.until("pegasus-knight")
    t.do("dg-end-turn")
    assert rounds.next_hero(t.st) == rounds.Next("roll", key="init:6", contenders=("Ann", "Bo"))
    t.do("roll die=dg-demigod faces=[2,5]")  # Ann (Weaponsmith) 2, Bo (Trapper) 5
    assert t.st.acting == "trapper"
    t.do("dg-end-turn")
    assert t.st.acting == "weaponsmith"
