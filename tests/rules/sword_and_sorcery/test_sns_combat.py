"""Hand-computed attacks: the Domination bonus, Focus, Critical before DEF, Bleed, Blinded, Drain,
Break, Bash into Lava, AoE, rerolls, and the Time Phase's Poison and Fire (Rules Reference Sheet)."""

from __future__ import annotations

import dataclasses

import pytest

from arena_table.rules import Refused

from sns_helpers import battle, deployed
from arena_table.rules.games.sword_and_sorcery.state import put

HEROES = {
    "purple": [{"id": "shae", "hp": 10, "armor": 1, "defense": 2}, {"id": "thorgar", "hp": 10, "armor": 2, "defense": 3}],
    "red": [{"id": "artemis", "hp": 8, "armor": 1, "defense": 2,
             "weapons": {"sword": {"red": 2, "critical": ["bleed1"]}, "axe": {"red": 1}}},
            {"id": "thorgren", "hp": 10, "armor": 2, "defense": 3}],
}


def table(quest: str = "pvp1", **areas):
    """Deployed, then the figures moved to ``areas`` (hero -> area), Red first in the Battle Phase."""
    t = deployed({"quest": quest, "heroes": HEROES},
                 {"shae": "a2", "artemis": "a4", "thorgar": "b1", "thorgren": "b5"})
    st = t.st
    for hid, area in areas.items():
        st = put(st, dataclasses.replace(st.hero(hid), area=area))
    t.ts = dataclasses.replace(t.ts, state=st)
    return battle(t, ["red", "purple"])


def test_domination_focus_and_critical_before_def():
    """Artemis and Thorgren (2) against Shae (1) in a2: Red dominates, +1 hit. Focus +1. Dice: 2 hits,
    1 Critical (Bleed I, before DEF). 4 hits - 1 Armor = 3 -> Shae's 2 Blue Dice, 1 shield: 2 HP."""
    t = table(artemis="a2", thorgren="a2")
    t.do("sns-activate hero=artemis", "sns-action hero=artemis name=focus",
         "sns-attack who=artemis target=shae weapon=sword", 'sns-roll red=["hit+critical","hit"]',
         'sns-roll blue=["shield","blank"]', "sns-resolve")
    shae = t.st.hero("shae")
    assert shae.hp == 8 and shae.bleed == 1
    assert t.st.last.lines == ("2 rolled + 1 Focus + 1 Domination = 4 hits", "Shae: - 1 Armor",
                               "Shae: 3 hits - 1 shields = 2 HP")
    with pytest.raises(Refused, match="Focus is once per Round"):
        t.do("sns-action hero=artemis name=focus")
    with pytest.raises(Refused, match="Domination bonus is computed"):
        t.do('sns-attack who=artemis target=shae weapon=axe bonus={"Domination":1}')


def test_bleed_costs_1_hp_before_each_activity_and_slowed_allows_one():
    t = table(artemis="a3")
    t.do("sns-condition hero=artemis name=bleed2", "sns-activate hero=artemis",
         "sns-move hero=artemis to=a4", "sns-move hero=artemis to=a5")  # one Movement Activity: 1 HP
    assert t.hp("artemis") == 7
    t.do("sns-action hero=artemis name=dash")                             # a second Activity: 1 HP
    assert t.hp("artemis") == 6


def test_blinded_needs_a_save_before_each_activity_and_a_failed_one_wastes_it():
    t = table()
    t.do("sns-condition hero=artemis name=blinded", "sns-activate hero=artemis")
    with pytest.raises(Refused, match="Blinded: a Save is needed"):
        t.do("sns-move hero=artemis to=a3")
    t.do("sns-move hero=artemis to=a3 blind_save=false")
    assert t.st.hero("artemis").area == "a4" and t.st.turn.activities == 1
    t.do("sns-end-turn")
    assert t.st.hero("artemis").health == 0  # discarded at the end of her own Hero Turn


def test_drain_and_break():
    """Axe on Thorgar (Armor 2): 3 hits - 2 Armor = 1, 1 die blank: 1 HP; Drain 2 heals Artemis 1 (one
    wound); Break 1 then lowers his Armor for good to 1. A second Break on Armor 0 costs 1 HP."""
    t = table(artemis="b1")
    t.do("sns-hp hero=artemis amount=3", "sns-activate hero=artemis",
         "sns-attack who=artemis target=thorgar weapon=axe drain=2 breaks=1", 'sns-roll red=["hit+hit+hit"]',
         'sns-roll blue=["blank"]', "sns-resolve")
    assert t.hp("thorgar") == 9 and t.hp("artemis") == 6 and t.st.hero("thorgar").armor_now == 1
    t.do("sns-attack who=artemis target=thorgar weapon=axe breaks=2", 'sns-roll red=["blank"]', "sns-resolve")
    assert t.st.hero("thorgar").armor_now == 0 and t.hp("thorgar") == 8  # 1 Break to 0, then 1 HP


def test_bash_moves_the_defender_where_the_attacker_chooses_into_lava():
    t = table(artemis="a2")
    t.do("sns-token token=lava area=a3", "sns-activate hero=artemis",
         'sns-attack who=artemis target=shae weapon=axe bash=["a3"]', 'sns-roll red=["blank"]', "sns-resolve")
    shae = t.st.hero("shae")
    assert shae.area == "a3" and shae.fire == (1,) and shae.hp == 9  # Lava: Fire ACT I, 1 HP and a token
    t = table(artemis="a2")
    t.do("sns-activate hero=artemis")
    with pytest.raises(Refused, match="bash: c5 is not adjacent to a2"):
        t.do('sns-attack who=artemis target=shae weapon=axe bash=["c5"]')


def test_aoe_1_hits_every_opponent_within_one_area_each_defending_alone():
    """AoE 1 on Shae (a2) reaches Thorgar in a1 (adjacent), not Thorgren (Artemis's own Team, a3).
    1 against 1 in a2: no Domination. 3 hits each: Shae 3 - 1 = 2 -> 2 dice, 1 shield: 1 HP;
    Thorgar 3 - 2 = 1 -> 1 die, no shield: 1 HP."""
    t = table(artemis="a2", thorgar="a1", thorgren="a3")
    t.do("sns-activate hero=artemis", "sns-attack who=artemis target=shae weapon=sword aoe=1",
         'sns-roll red=["hit+hit","hit"]')
    assert t.st.combat.targets == ("shae", "thorgar")
    with pytest.raises(Refused, match="Shae rolls 2 Blue Dice"):
        t.do('sns-roll blue=["shield"]')
    t.do('sns-roll blue=["shield","blank"]', 'sns-roll blue=["blank"]', "sns-resolve")
    assert (t.hp("shae"), t.hp("thorgar"), t.hp("thorgren")) == (9, 9, 10)


def test_a_die_is_rerolled_once_at_most():
    t = table(artemis="a2")
    t.do("sns-activate hero=artemis", "sns-attack who=artemis target=shae weapon=sword", 'sns-roll red=["blank","hit"]',
         "sns-reroll die=red index=0 face=hit+hit")
    assert t.st.combat.red == ("hit+hit", "hit")
    with pytest.raises(Refused, match="rerolled once already"):
        t.do("sns-reroll die=red index=0 face=blank")
    t.do('sns-roll blue=["blank","blank"]', "sns-reroll die=def index=1 face=shield")
    with pytest.raises(Refused, match="HIT dice cannot be rerolled once the DEF dice are rolled"):
        t.do("sns-reroll die=red index=1 face=blank")
    t.do("sns-resolve")
    assert t.hp("shae") == 10 - (3 - 1 - 1)  # 3 hits - 1 Armor = 2, 1 shield after the reroll


def test_time_phase_poison_then_save_and_fire_deaths_give_no_kill_coin():
    """Time Phase: damage first (Fire 1 per token, Poison 1 per Rank), then a Poisoned Hero may Save."""
    t = table()
    t.do("sns-condition hero=shae name=poison2", "sns-condition hero=thorgar name=fire1 by=artemis",
         "sns-hp hero=thorgar amount=8 by=artemis")  # Thorgar 10 - 1 (Fire) - 8 = 1 HP
    for hero in ("artemis", "shae", "thorgren", "thorgar"):
        t.do(f"sns-activate hero={hero}", "sns-end-turn")
    st = t.st
    assert st.round == 2 and st.hero("shae").hp == 8 and st.hero("shae").poison == 2
    assert st.hero("thorgar").ghost and st.hero("artemis").kill_coins == 0  # a tick kills, nobody scores
    assert ("shae", "poison") in st.saves
    t.do("sns-save hero=shae ok=true")
    assert t.st.hero("shae").poison == 0


def test_a_trap_save_that_succeeds_leaves_the_trap():
    t = table(artemis="a3")
    t.do("sns-token token=trap area=a2", "sns-activate hero=artemis", "sns-move hero=artemis to=a2")
    assert t.st.evade is None or t.st.evade.hero == "artemis"
    with pytest.raises(Refused, match="awaiting first: artemis \\(trap\\)"):
        t.do("sns-end-turn")
    t.do("sns-save hero=artemis ok=true")
    assert t.st.board.traps == ("a2",)


def test_first_blood_needs_a_kill_an_attack_dealt():
    t = table(quest="pvp2")
    t.do("sns-hp hero=shae amount=10")  # a hazard or card death credited to nobody
    assert t.st.hero("shae").ghost and t.st.result is None


def test_time_phase_refreshes_flipped_powers_and_turns_cooldowns():
    """Time Phase: Powers Refresh (a flipped power with the refresh icon comes back), then Powers
    Cooldown (each rotated power turns 90°: a cooldown of 2 is ready after two Time Phases)."""
    t = table(artemis="a2")
    t.do("sns-activate hero=artemis", "sns-power hero=artemis name=Guard", "sns-power hero=artemis name=Volley cooldown=2")
    with pytest.raises(Refused, match="Guard is not ready"):
        t.do("sns-power hero=artemis name=Guard")
    t.do("sns-end-turn")
    for hero in ("shae", "thorgren", "thorgar"):
        t.do(f"sns-activate hero={hero}", "sns-end-turn")
    assert t.st.round == 2 and t.st.hero("artemis").powers == (("Volley", 1),)
    battle(t, ["red", "purple"])
    for hero in ("artemis", "shae", "thorgren", "thorgar"):
        t.do(f"sns-activate hero={hero}", "sns-end-turn")
    assert t.st.round == 3 and t.st.hero("artemis").powers == ()


def test_grey_lava_burns_nobody_and_flames_burn_on_entry():
    t = table(artemis="a3")
    t.do("sns-token token=lava area=a4", "sns-token token=lava-off area=a4", "sns-token token=flame area=a5")
    assert t.hp("artemis") == 8  # no Fire: she was not in a4 when the Lava came
    t.do("sns-activate hero=artemis", "sns-move hero=artemis to=a4")
    assert t.st.hero("artemis").fire == ()  # the grey side produces no effects
    t.do("sns-move hero=artemis to=a5")
    assert t.st.hero("artemis").fire == (1,) and t.hp("artemis") == 7  # Infernal Flame: Fire I
    assert t.st.board.flames == ("a5",)  # the Flame stays


@pytest.mark.parametrize("reading, coins", [(False, 0), (True, 1)])
def test_a_fire_tick_kill_scores_only_under_the_hazard_kill_coins_reading(reading, coins):
    t = deployed({"quest": "pvp1", "heroes": HEROES, "readings": {"hazard_kill_coins": reading}},
                 {"shae": "a2", "artemis": "a4", "thorgar": "b1", "thorgren": "b5"})
    battle(t, ["red", "purple"])
    t.do("sns-condition hero=thorgar name=fire1 by=artemis", "sns-hp hero=thorgar amount=8")  # 1 HP left
    for hero in ("artemis", "shae", "thorgren", "thorgar"):
        t.do(f"sns-activate hero={hero}", "sns-end-turn")
    assert t.st.hero("thorgar").ghost and t.st.hero("artemis").kill_coins == coins


def test_killing_a_companion_is_a_kill_coin_but_no_first_blood():
    t = table(quest="pvp2", artemis="a2")
    t.do("sns-summon hero=shae id=wolf name=Wolf area=a2 hp=1", "sns-activate hero=artemis",
         "sns-attack who=artemis target=wolf weapon=axe", 'sns-roll red=["hit+hit"]', 'sns-roll blue=["blank"]',
         "sns-resolve")
    assert t.st.hero("wolf").area is None and t.st.hero("artemis").kill_coins == 1
    assert t.st.result is None  # PvP II: "the first Team who kills a Hero of the opposite Team wins"


def test_a_ko_hero_stands_with_a_point_of_movement_or_a_dash():
    t = table(artemis="a2")
    t.do("sns-condition hero=artemis name=ko", "sns-condition hero=artemis name=slowed", "sns-activate hero=artemis")
    with pytest.raises(Refused, match="K.O.: a K.O. Character performs no attacks"):
        t.do("sns-attack who=artemis target=shae weapon=axe")
    t.do("sns-stand hero=artemis")          # the Movement Activity: Slowed allows no other
    assert not t.st.hero("artemis").ko and t.st.turn.activities == 1
    t.do("sns-move hero=artemis to=a3")       # still the same Movement Activity; leaving Shae: an Evade
    assert t.st.evade.reactors == ("shae",)
    t.do("sns-pass who=shae")
    assert t.st.hero("artemis").area == "a3" and t.st.turn.activities == 1
    with pytest.raises(Refused, match="Slowed: only a single Activity"):
        t.do("sns-action hero=artemis name=dash")
