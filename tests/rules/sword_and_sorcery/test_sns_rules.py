"""Hand-computed cases of the rules the issue names, each worked out from the book's text."""

import dataclasses

import pytest

from arena_table.rules import Refused, table_view
from arena_table.rules.games.sword_and_sorcery import areas, conditions, tiebreak
from arena_table.rules.games.sword_and_sorcery.state import put

from sns_helpers import RED4, battle, deployed

THREE = {"quest": "pvp1", "heroes": {"purple": ["shae"], "red": ["artemis"], "blue": ["thorgar"]}}


def test_three_team_tiebreak_rerolls_only_the_two_way_tie():
    """6.1: purple 2, red 3, blue 2 icons: red is First; purple and blue roll again (1 and 4), so
    blue is Second and purple Last; red does not roll again."""
    t = tiebreak.start("battle", ("purple", "red", "blue"))
    for team, n in (("purple", 2), ("red", 3), ("blue", 2)):
        t = tiebreak.roll(t, team, n)
    assert t.groups == (("red",), ("purple", "blue")) and t.to_roll() == ("purple", "blue")
    assert tiebreak.medals(t) == {"red": 1}
    with pytest.raises(ValueError, match="red is not to roll"):
        tiebreak.roll(t, "red", 4)
    t = tiebreak.roll(tiebreak.roll(t, "purple", 1), "blue", 4)
    assert tiebreak.ranking(t) == ("red", "blue", "purple")
    assert tiebreak.medals(t) == {"red": 1, "blue": 2, "purple": 3}


def test_three_team_tiebreak_through_events_counts_the_tiebreaker_icon():
    t = deployed(THREE, {"shae": "a2", "artemis": "a4", "thorgar": "e4"})
    t.do("sns-battle", 'sns-roll team=purple red=["tiebreaker","tiebreaker","hit","blank"]',
         'sns-roll team=red red=["tiebreaker+gate1","tiebreaker","tiebreaker","hit+hit"]',
         'sns-roll team=blue red=["hit","tiebreaker","shield","tiebreaker"]')
    assert t.st.order == () and t.st.tiebreak.to_roll() == ("blue", "purple")  # Teams listed by name
    with pytest.raises(Refused, match="red is not to roll"):
        t.do(f"sns-roll team=red red={RED4[4]}")
    t.do(f"sns-roll team=purple red={RED4[1]}", f"sns-roll team=blue red={RED4[1]}")  # still tied: again
    assert t.st.tiebreak.to_roll() == ("blue", "purple")
    t.do(f"sns-roll team=purple red={RED4[0]}", f"sns-roll team=blue red={RED4[3]}")
    assert t.st.order == ("red", "blue", "purple") and dict(t.st.medals) == {"red": 1, "blue": 2, "purple": 3}


def test_tie_reroll_once_reading_keeps_listing_order():
    t = tiebreak.start("battle", ("purple", "blue"), again=1)
    t = tiebreak.roll(tiebreak.roll(t, "purple", 2), "blue", 2)
    t = tiebreak.roll(tiebreak.roll(t, "purple", 1), "blue", 1)
    assert tiebreak.ranking(t) == ("purple", "blue")


def test_domination_with_a_ko_figure():
    """Battlefield: domination needs at least twice the opposing figures; K.O. counts 0. Red has
    Artemis and Thorgren against Shae: 2 vs 1, red dominates. Thorgren K.O.: 1 vs 1, nobody controls."""
    heroes = {"purple": ["shae", "thorgar"], "red": ["artemis", "thorgren"]}
    t = deployed({"quest": "pvp1", "heroes": heroes}, {"shae": "a2", "artemis": "a4", "thorgar": "b1", "thorgren": "b5"})
    st = t.st
    for hid in ("shae", "artemis", "thorgren"):
        st = put(st, dataclasses.replace(st.hero(hid), area="c3"))
    assert areas.strength(st, "c3", "red") == (2, 1)
    assert areas.dominates(st, "c3", "red") and areas.controls(st, "c3", "red")
    assert not areas.controls(st, "c3", "purple")
    st = put(st, dataclasses.replace(st.hero("thorgren"), ko=True))
    assert areas.strength(st, "c3", "red") == (1, 1)
    assert not areas.controls(st, "c3", "red") and not areas.dominates(st, "c3", "red")
    assert not areas.controls(st, "c3", "purple")
    st = put(st, dataclasses.replace(st.hero("shae"), ko=True))  # 1 against a K.O. figure: 1 >= 2 x 0
    assert areas.dominates(st, "c3", "red")


def test_evade_with_two_opponents_of_two_teams():
    """6.5: Shae leaves an area she does not dominate holding Artemis (red) and Thorgar (blue): a
    Reaction Attack from each first, the reacting Teams in Tiebreaker order; then she moves on."""
    heroes = {"purple": [{"id": "shae", "hp": 10, "armor": 0, "defense": 2}],
              "red": [{"id": "artemis", "weapons": {"bow": {"red": 1}}}],
              "blue": [{"id": "thorgar", "weapons": {"axe": {"red": 1}}}]}
    t = deployed({"quest": "pvp1", "heroes": heroes}, {"shae": "a2", "artemis": "a4", "thorgar": "e4"})
    st = t.st
    for hid in ("artemis", "thorgar"):
        st = put(st, dataclasses.replace(st.hero(hid), area="a2"))
    t.ts = dataclasses.replace(t.ts, state=st)
    battle(t, ["purple", "red", "blue"])
    t.do("sns-activate hero=shae", "sns-move hero=shae to=a3")
    assert t.st.evade.reactors == ("thorgar", "artemis") and t.st.hero("shae").area == "a2"
    assert t.st.tiebreak.purpose == "evade"
    with pytest.raises(Refused, match="Tiebreaker Procedure"):
        t.do("sns-attack who=artemis target=shae weapon=bow mode=reaction")
    t.do(f"sns-roll team=red red={RED4[1]}", f"sns-roll team=blue red={RED4[2]}")  # blue reacts first
    with pytest.raises(Refused, match="Team blue makes its Reaction Attacks first"):
        t.do("sns-attack who=artemis target=shae weapon=bow mode=reaction")
    with pytest.raises(Refused, match="equipped weapon only"):
        t.do('sns-attack who=thorgar target=shae weapon=axe mode=reaction bonus={"Focus":1}')
    # 2 hits, no Armor, 2 DEF dice with 1 shield: 1 HP; then Artemis: 1 hit, 1 die, no shield: 1 HP.
    t.do("sns-attack who=thorgar target=shae weapon=axe mode=reaction", 'sns-roll red=["hit+hit"]',
         'sns-roll blue=["shield","blank"]', "sns-resolve")
    assert t.st.hero("shae").area == "a2" and t.st.evade.reactors == ("artemis",)
    t.do("sns-attack who=artemis target=shae weapon=bow mode=reaction", 'sns-roll red=["hit"]',
         'sns-roll blue=["blank"]', "sns-resolve")
    assert t.st.evade is None and t.st.hero("shae").area == "a3" and t.hp("shae") == 8
    # leaving a3 with nobody there: no Evade
    t.do("sns-move hero=shae to=a4")
    assert t.st.evade is None and t.st.hero("shae").area == "a4"


def test_ko_and_ghost_opponents_force_no_evade():
    heroes = {"purple": ["shae"], "red": ["artemis"]}
    t = deployed({"quest": "pvp1", "heroes": heroes}, {"shae": "a2", "artemis": "a4"})
    st = put(t.st, dataclasses.replace(t.st.hero("artemis"), area="a2", ko=True))
    t.ts = dataclasses.replace(t.ts, state=st)
    battle(t, ["purple", "red"])
    t.do("sns-activate hero=shae", "sns-move hero=shae to=a3")
    assert t.st.evade is None and t.st.hero("shae").area == "a3"


def test_condition_rank_rule():
    """Body Conditions: a higher Rank replaces, an equal or lower one is ignored for 1 HP (Fire stacks)."""
    from arena_table.rules.games.sword_and_sorcery.state import Hero
    h = Hero("shae", "Shae", "purple", 10, 10, 1, 2, 1)
    h, lost = conditions.inflict(h, "slowed")
    assert (h.health, lost) == (1, 0)
    h, lost = conditions.inflict(h, "stunned")         # Rank III > Rank I: replaces
    assert (h.health, lost) == (3, 0)
    h, lost = conditions.inflict(h, "blinded")         # Rank II <= III: ignored, 1 HP
    assert (h.health, lost) == (3, 1)
    h, lost = conditions.inflict(h, "stunned")         # equal Rank: 1 HP
    assert (h.health, lost) == (3, 1)
    h, lost = conditions.inflict(h, "bleed2")
    h, lost = conditions.inflict(h, "bleed1")
    assert (h.bleed, lost) == (2, 1)
    h, lost = conditions.inflict(h, "poison1")
    h, lost = conditions.inflict(h, "poison2")
    assert (h.poison, lost) == (2, 0)
    h, lost = conditions.inflict(h, "fire1")           # Fire: 1 HP and a token, never the rank rule
    h, lost = conditions.inflict(h, "fire1")
    assert (h.fire, lost) == ((1, 1), 1)


def test_condition_rank_rule_through_events_costs_hp():
    t = deployed({"quest": "pvp1", "heroes": {"purple": ["shae"], "red": ["artemis"]}}, {"shae": "a2", "artemis": "a4"})
    t.do("sns-condition hero=shae name=stunned", "sns-condition hero=shae name=slowed")
    assert t.st.hero("shae").health == 3 and t.hp("shae") == 9


def test_fire_ii_ticks_to_fire_i_then_goes():
    """Fire: 1 HP and a token when suffered; each Time Phase 1 HP per token, Rank I discarded,
    Rank II flipped to Rank I."""
    t = deployed({"quest": "pvp1", "heroes": {"purple": ["shae"], "red": ["artemis"]}}, {"shae": "a2", "artemis": "a4"})
    t.do("sns-condition hero=shae name=fire2")
    assert t.st.hero("shae").fire == (2,) and t.hp("shae") == 9
    battle(t, ["purple", "red"])
    t.do("sns-activate hero=shae", "sns-end-turn", "sns-activate hero=artemis", "sns-end-turn")
    assert (t.st.round, t.st.phase) == (2, "time")
    assert t.st.hero("shae").fire == (1,) and t.hp("shae") == 8
    battle(t, ["purple", "red"])
    t.do("sns-activate hero=shae", "sns-end-turn", "sns-activate hero=artemis", "sns-end-turn")
    assert t.st.hero("shae").fire == () and t.hp("shae") == 7


def test_lethal_hits_skip_armor_and_dice():
    """DEF stage: Magic Shields block Lethal hits first; Armor never reduces Lethal hits and no Blue
    Die is rolled against them. 2 Lethal + 3 hits vs Armor 2, 1 Magic Shield, defense 3: the Shield
    takes a Lethal hit, Armor takes 2 hits, 1 Blue Die for the last hit (a shield): 1 HP."""
    heroes = {"purple": [{"id": "shae", "hp": 10, "armor": 2, "defense": 3}],
              "red": [{"id": "artemis", "weapons": {"sword": {"red": 2}, "scythe": {"red": 1, "lethal": True}}}]}
    t = deployed({"quest": "pvp1", "heroes": heroes}, {"shae": "a2", "artemis": "a4"})
    st = put(t.st, dataclasses.replace(t.st.hero("artemis"), area="a2"))
    t.ts = dataclasses.replace(t.ts, state=st)
    battle(t, ["red", "purple"])
    t.do("sns-magic-shield hero=shae", "sns-activate hero=artemis",
         "sns-attack who=artemis target=shae weapon=sword lethal=2", 'sns-roll red=["hit+hit","hit"]')
    assert table_view(t.ts)["view"]["prompt"] == "Shae: roll 1 Blue Dice (DEF)"
    t.do('sns-roll blue=["shield"]', "sns-resolve")
    assert t.hp("shae") == 9 and t.st.hero("shae").magic_shields == 0
    assert t.st.last.lines[2:] == ("Shae: - 1 Magic Shield (1 on Lethal) - 2 Armor", "Shae: 1 hits - 1 shields + 1 Lethal = 1 HP")
    # a Lethal weapon: every hit Lethal, no DEF dice at all, Armor ignored: 3 HP
    t.do("sns-end-turn", "sns-activate hero=shae", "sns-end-turn")
    battle(t, ["red", "purple"])
    t.do("sns-activate hero=artemis", "sns-attack who=artemis target=shae weapon=scythe", 'sns-roll red=["hit+hit+hit"]',
         "sns-resolve")
    assert t.hp("shae") == 6


def test_rotating_blades_turn_each_hero_turn():
    """4.2: Pitfall IX on Location A (b2); its Blade starts toward the centre (c3): b3. Placed, it
    turns 360° and hits the four areas of its ring (Shae in c2: ACT I = 1 HP). At the end of each
    Hero Turn IX turns 90° clockwise: b3 -> c2, hitting Shae again; then c2 -> b1."""
    heroes = {"purple": ["shae"], "red": ["artemis"]}
    t = deployed({"quest": "pvp2", "heroes": heroes}, {"shae": "b1", "artemis": "a4"})
    st = put(t.st, dataclasses.replace(t.st.hero("shae"), area="c2"))
    t.ts = dataclasses.replace(t.ts, state=st)
    t.do("sns-pitfall number=IX location=A")
    pit = t.st.board.pitfalls[0]
    from arena_table.rules.games.sword_and_sorcery import hazards
    assert hazards.blade_area(t.st, pit) == "b3" and t.hp("shae") == 9
    battle(t, ["red", "purple"])
    t.do("sns-activate hero=artemis", "sns-end-turn")
    assert hazards.blade_area(t.st, t.st.board.pitfalls[0]) == "c2" and t.hp("shae") == 8
    t.do("sns-activate hero=shae", "sns-move hero=shae to=c1")
    t.do("sns-end-turn")
    assert hazards.blade_area(t.st, t.st.board.pitfalls[0]) == "b1" and t.hp("shae") == 8


def test_pitfall_x_turns_counter_clockwise_and_bleeds():
    heroes = {"purple": ["shae"], "red": ["artemis"]}
    t = deployed({"quest": "pvp2", "act": 2, "heroes": heroes}, {"shae": "a2", "artemis": "a4"})
    t.ts = dataclasses.replace(t.ts, state=put(t.st, dataclasses.replace(t.st.hero("artemis"), area="d5")))
    t.do("sns-pitfall number=X location=C")  # d4: ring c4, d5, e4, d3; toward c3: c4 (index 0)
    from arena_table.rules.games.sword_and_sorcery import hazards
    assert hazards.blade_area(t.st, t.st.board.pitfalls[0]) == "c4"
    assert t.hp("artemis") == 8 and t.st.hero("artemis").bleed == 2  # 360° through d5: ACT II HP, Bleed II
    battle(t, ["purple", "red"])
    t.do("sns-activate hero=shae", "sns-end-turn")  # counter-clockwise: c4 -> d3
    assert hazards.blade_area(t.st, t.st.board.pitfalls[0]) == "d3"


def test_a_resistance_ignores_its_conditions_from_an_attack():
    heroes = {"purple": [{"id": "shae", "hp": 10, "armor": 0, "defense": 1, "resist": ["fire"]}],
              "red": [{"id": "artemis", "weapons": {"torch": {"red": 1}}}]}
    t = deployed({"quest": "pvp1", "heroes": heroes}, {"shae": "a2", "artemis": "a4"})
    t.ts = dataclasses.replace(t.ts, state=put(t.st, dataclasses.replace(t.st.hero("artemis"), area="a2")))
    battle(t, ["red", "purple"])
    t.do("sns-activate hero=artemis", 'sns-attack who=artemis target=shae weapon=torch effects=["fire2","bleed1"]',
         'sns-roll red=["hit"]', 'sns-roll blue=["blank"]', "sns-resolve")
    shae = t.st.hero("shae")
    assert shae.fire == () and shae.bleed == 1 and shae.hp == 9  # 1 hit; Fire resisted, Bleed taken


def test_dice_read_by_index_go_through_the_die_kinds():
    """``roll die=sns-red faces=[..]`` (camera or typed indices) is read through ``dice.DIE_KINDS``; the
    engine counts the same symbols as from ``sns-roll`` faces. Other dice are refused."""
    from arena_table.rules.games.sword_and_sorcery import dice
    t = deployed({"quest": "pvp1", "heroes": {"purple": ["shae"], "red": ["artemis"]}}, {"shae": "a2", "artemis": "a4"})
    t.do("sns-battle")
    red = dice.DIE_KINDS["sns-red"]["faces"]
    tb = [i + 1 for i, f in enumerate(red) if "tiebreaker" in f]
    blank = [i + 1 for i, f in enumerate(red) if "tiebreaker" not in f]
    t.do(f"roll die=sns-red faces=[{tb[0]},{tb[1]},{blank[0]},{blank[1]}]")  # purple (first to roll): 2 icons
    t.do(f"roll die=sns-red faces=[{tb[0]},{blank[0]},{blank[1]},{blank[2]}]")  # red: 1
    assert t.st.order == ("purple", "red")
    with pytest.raises(Refused):
        t.do("roll die=d6 faces=[3]")
