"""Rules of Playing with Fire and Fellowship beyond the worked examples, hand-computed, with the
refusals naming what was wrong."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused, find_game, new_table, apply, parse, table_view
from arena_table.rules.games.euthia import caches, fellowship, form

from .eu_helpers import GECKO, SHADOWBEAST, Table, start

COMBAT = 'eu-combat enemies=["shadowbeast"] heroes=["ael"]'


def fight(*lines, power="", **options):
    options.setdefault("monsters", {"shadowbeast": SHADOWBEAST})
    options.setdefault("difficulty", "hard")
    return Table(start(**options), COMBAT + (f" power={power}" if power else ""), "eu-monster-attack target=ael", *lines)


def test_air_turns_the_higher_of_two_different_dice_but_not_a_one_die_gaar_reroll():
    """Air Elemental Power (l.805); ambiguities.md: only two-dice rolls are turned."""
    t = fight("roll die=eu-attack faces=[1,5,1]", power="air")
    assert t.attack.dice == (1, 2) and t.attack.reroll == (0,)  # 5 -> 2; 3 < 10: the Gaar re-roll of the 1
    t.play("roll die=eu-monster faces=[6]")
    assert t.attack.dice == (6, 2)  # a one-die re-roll is not turned
    t = fight("roll die=eu-attack faces=[1,5,1]", "roll die=eu-monster faces=[6]", power="air", air_single=True)
    assert t.attack.dice[0] == 1 or t.attack.dice == (1, 2)  # 6 and 2 differ: the 6 turns to 1


def test_earth_and_corrupted_change_the_monsters_combat_value():
    """Earth +2 / Corrupted -2 (l.806-807), the Monster's Combat Value by default (ambiguities.md)."""
    t = fight("roll die=eu-attack faces=[5,5,1]", power="earth")
    assert t.v["extra"]["combat"]["attack"]["cv"] == 12
    t = fight("roll die=eu-attack faces=[5,5,1]", power="corrupted")
    assert t.v["extra"]["combat"]["attack"]["cv"] == 8
    t = fight("roll die=eu-attack faces=[5,5,1]", power="earth", earth="hero")
    assert t.v["extra"]["combat"]["attack"]["cv"] == 10
    t.play("eu-done", "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[3,4]")
    hr = t.v["extra"]["hero_roll"]
    assert (hr["value"], hr["band"]) == (9, 3)  # 7 + 2 Earth: the 9+ band of 2-5 / 6-8 / 9+


def test_gaar_loop_stops_when_no_die_shows_1_to_3_or_gaar_runs_out():
    """Monster Gaar tokens (l.821): 4 + 4 = 8 is below 10, but no die is 1-3: no Gaar spent."""
    t = fight("roll die=eu-attack faces=[4,4,1]")
    assert t.attack.step == "response" and t.s.combat.gaar == 2
    t = fight("roll die=eu-attack faces=[1,1,1]", "roll die=eu-monster faces=[2]", "roll die=eu-monster faces=[1]")
    assert t.attack.step == "response" and t.s.combat.gaar == 0 and t.attack.gaar_spent == 2
    assert t.v["extra"]["combat"]["attack"]["cv"] == 2 + 1 + 4


def test_shii_adds_one_to_the_die_of_hope_for_monster_dice_of_10():
    """Shii's Intervention (l.804) on the dice as they stand when step C ends."""
    t = fight("roll die=eu-attack faces=[1,6,1]", "roll die=eu-monster faces=[4]", "eu-done")
    assert t.s.combat.hope == 2
    t = fight("roll die=eu-attack faces=[1,6,1]", "roll die=eu-monster faces=[4]", "eu-done", shii="first")
    assert t.s.combat.hope == 1  # the first roll showed 7


def test_a_hero_tile_that_lowers_the_value_restarts_the_gaar_loop():
    """Hero response (l.823): Parry (-2, -1 Injury) takes 11 to 9; a die shows 3 and the Monster has Gaar."""
    t = fight("roll die=eu-attack faces=[1,6,1]", "roll die=eu-monster faces=[3]")
    assert t.s.combat.gaar == 1 and t.attack.step == "response"
    t.play("eu-tile hero=ael tile=parry")
    assert t.attack.reroll == (0,) and t.s.combat.gaar == 0
    t.play("roll die=eu-monster faces=[5]", "eu-done")
    assert t.s.last["cv"] == 5 + 6 + 4 - 2 and t.s.heroes["ael"].injuries == 3 - 1


def test_cyclone_deals_1_and_rerolls_both_dice_which_air_turns():
    """Cyclone (l.244): 1 Damage, then both Monster dice re-rolled: a two-dice roll, so Air turns it."""
    t = fight("roll die=eu-attack faces=[5,5,1]", "eu-tile hero=ael tile=cyclone choice=both", power="air")
    assert t.s.combat.enemies[0].damage == 1 and t.attack.reroll == (0, 1)
    t.play("roll die=eu-monster faces=[2,6]")
    assert t.attack.dice == (2, 1)  # the 6 turned to 1; 3 is below 10 and the 1 is 1-3: the Gaar loop again
    assert t.attack.reroll == (1,) and t.s.combat.gaar == 1


def test_one_eye_and_protection():
    """One Eye (l.527): one Monster die this Combat Round; Protection (l.285): -3 Injuries this round."""
    t = Table(start(monsters={"shadowbeast": {**SHADOWBEAST, "gaar": 0}}, difficulty="hard"), COMBAT,
              "eu-tile hero=ael tile=one-eye", "eu-tile hero=ael tile=protection",
              "eu-monster-attack target=ael")
    with pytest.raises(Refused, match="1 Monster die and the Combat die, got 3 faces"):
        t.play("roll die=eu-attack faces=[6,6,1]")
    t.play("roll die=eu-attack faces=[6,1]", "eu-done")
    assert t.s.last["cv"] == 6 and t.s.heroes["ael"].injuries == 0  # range 2 (2 Injuries) - 3


def test_silver_magic_completes_a_stack_with_one_silver_card():
    """Silver Magic (l.562-569): a Silver card completes its stack at once, with its second box."""
    t = Table(start(monsters={"gecko": {**GECKO, "silver_magic": True}}, silver=2),
              'eu-combat enemies=["gecko"] heroes=["ael"]', "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,4]", "eu-reveal card=enhancement")
    assert t.attack.step == "response" and t.attack.chaos.stacks == (("silver", ("enhancement",), True),)
    assert t.attack.injury_mods[-1][:2] == (2, "Enhancement")  # the second box
    assert t.s.silver == 1


def test_silver_cache_converts_4_to_1_gold_after_the_attack():
    """Adding Silver and Gold Cards (l.799) and Silver card symbol (l.815)."""
    assert caches.add(3, 0, add_silver=1) == (0, 1, 1)
    t = fight("roll die=eu-attack faces=[5,5,3]", "eu-done", silver=3)
    assert (t.s.silver, t.s.gold) == (0, 1)


def test_a_card_put_on_the_bottom_comes_up_again_in_its_turn():
    t = Table(start(monsters={"gecko": {**GECKO, "chaos": 2}}, gold=2),
              'eu-combat enemies=["gecko"] heroes=["ael"]', "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,4]", "eu-reveal card=power-strike", "eu-reveal card=healing", "eu-done",
              "eu-hero-roll hero=ael", "roll die=eu-hero faces=[1,1]", "eu-damage hero=ael amount=0",
              "eu-monster-attack target=ael", "roll die=eu-attack faces=[5,5,4]")
    assert t.s.bottom == (("gold", "healing"),) and t.s.gold == 1
    with pytest.raises(Refused, match="the top card of the Gold cache is the healing"):
        t.play("eu-reveal card=power-strike")
    t.play("eu-reveal card=healing")
    assert t.s.bottom == () and t.s.gold == 0


def test_enemies_attack_left_to_right_and_only_when_awaited():
    t = Table(start(mode="fellowship", heroes=["ael", "dral"], leader="ael", monsters={"gecko": GECKO}),
              'eu-round card={"enemy":"1"}', 'eu-combat enemies=["gecko","goblin-archer"] heroes=["ael","dral"]')
    with pytest.raises(Refused, match="Enemies attack left to right .* Gecko attacks first"):
        t.play("eu-monster-attack enemy=1 target=ael")
    with pytest.raises(Refused, match="the Monster attacks one of the Heroes in this Combat: ael, dral"):
        t.play("eu-monster-attack enemy=0")
    with pytest.raises(Refused, match="no Monster-Attack roll is awaited"):
        t.play("roll die=eu-attack faces=[1,1,1]")
    with pytest.raises(Refused, match="adds a Level 2 Monster to the right: name both cards"):
        Table(start(mode="fellowship", heroes=["ael"]), 'eu-round card={"enemy":"2"}',
              'eu-combat enemies=["gecko"] heroes=["ael"]')


def test_setup_refusals_name_the_rule():
    with pytest.raises(Refused, match="fierce card, not in the normal decks"):
        Table(start(), COMBAT)
    with pytest.raises(Refused, match="Playing with Fire is a solo game"):
        Table(start(heroes=["ael", "dral"]))
    with pytest.raises(Refused, match="a Fellowship II card"):
        Table(start(mode="fellowship", heroes=["ael"]), *['eu-round card={}'] * 7, 'eu-round card={"tier":"I"}')
    with pytest.raises(Refused, match="Leader token moves clockwise: Dral leads round 2"):
        Table(start(mode="fellowship", heroes=["ael", "dral"], leader="ael"), "eu-round", "eu-round leader=ael")
    with pytest.raises(Refused, match="has 20 rounds"):
        Table(start(mode="fellowship", heroes=["ael"]), *["eu-round"] * 21)
    with pytest.raises(Refused, match="Euthia: Fierce Powers uses no 'd8' die"):
        Table(start(), "roll die=d8 faces=[3]")


def test_leader_rotates_clockwise_and_move_tokens_by_players():
    t = Table(start(mode="fellowship", heroes=["ael", "dral", "maeldur", "keleia"], leader="maeldur"), "eu-round")
    leaders = [t.s.round.leader]
    for _ in range(4):
        t.play("eu-round")
        leaders.append(t.s.round.leader)
    assert leaders == ["maeldur", "keleia", "ael", "dral", "maeldur"] and t.s.round.move_tokens == 2
    assert fellowship.MOVE_TOKENS.get(2, 0) == 0


def test_a_hero_dying_in_combat_loses_1_reputation_and_a_combat_with_no_hero_left_is_lost():
    """Death of a Hero (l.962-964): 1 Reputation in Fellowship, in and outside of Combat."""
    t = Table(start(mode="fellowship", heroes={"ael": {"health": 2, "reputation": 3}}, monsters={"gecko": GECKO}),
              "eu-round", 'eu-combat enemies=["gecko"] heroes=["ael"]', "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,1]", "eu-done")
    h = t.s.heroes["ael"]
    assert (h.reputation, h.injuries, h.deaths) == (2, 0, 1) and t.s.combat.over == "lost"
    assert t.s.gold == 1  # the Gold card drawn on resurrection joins the cache


def test_minion_reward_follows_the_heros_reputation():
    """Minions (l.165): the reward whose Reputation range holds the Hero's Reputation."""
    skull = {"gaar": 0, "chaos": 0, "health": 1}
    for rep, purse, gained in ((3, {"gold": 2, "trophies": 1}, 0), (7, {"trophies": 1}, 1)):
        t = Table(start(heroes={"ael": {"reputation": rep}}, monsters={"flying-skull": skull}),
                  'eu-combat enemies=["flying-skull"] heroes=["ael"]', "eu-damage hero=ael amount=1")
        assert t.s.combat.over == "won" and t.s.heroes["ael"].purse == purse
        assert t.s.heroes["ael"].reputation == rep + gained


def test_values_to_enter_are_listed_until_given():
    t = Table(start())
    todo = t.v["extra"]["to_enter"]
    assert "combat_die" not in todo["euthia:base"] and "hero_health" in todo["euthia:base"]
    assert "attacks" in todo["euthia:monster:gecko"] and todo["euthia:silver:rotting-fly"] == ["health"]
    t = Table(start(hero_health=14, monsters={"gecko": GECKO}))
    todo = t.v["extra"]["to_enter"]
    assert "hero_health" not in todo["euthia:base"] and todo["euthia:monster:gecko"] == ["level", "silver", "gold", "reward"]
    assert t.s.heroes["ael"].health == 14


def test_the_start_form_lists_the_values_to_enter_and_its_values_start_a_game():
    fields = {f["name"]: f for f in find_game("euthia").setup_form()}
    assert "To enter" in fields["difficulty"]["help"] and "base: combat_die, hero_health" in fields["difficulty"]["help"]
    assert "monster:gecko: level, health" in fields["difficulty"]["help"]
    opts = form.to_options({"mode": "fellowship", "heroes": ["ael", "dral"], "leader": "", "hero_health": 13})
    s = find_game("euthia").setup(opts)
    assert s.config.mode == "fellowship" and s.heroes["dral"].health == 13 and s.first_leader == ""


def test_bad_options_are_named():
    ts = new_table()
    for options, words in (({"heroes": ["ael"], "mode": "duel"}, "mode must be one of fire, fellowship"),
                           ({"heroes": ["ael"], "speed": 3}, r"unknown key\(s\) speed"),
                           ({"heroes": ["ael"], "combat_die": [["x"]]}, "combat_die: six faces"),
                           ({"heroes": ["ael"], "monsters": {"gecko": {"attacks": [{"min": 5}, {"min": 2}]}}},
                            "attack ranges rise left to right")):
        with pytest.raises(Refused, match=words):
            apply(ts, parse("start game=euthia options=" + __import__("json").dumps(options)))


def test_the_view_names_the_die_to_reroll_and_why():
    t = fight("roll die=eu-monster faces=[6,2]", "roll die=eu-combat faces=[1]")
    v = table_view(t.ts)["view"]
    att = v["extra"]["combat"]["attack"]
    assert att["reroll"] == {"dice": [2], "values": [2], "why": att["reroll"]["why"]}
    assert att["reroll"]["why"] == "Combat Value 8 is below 10, the highest range; the die shows 2 (1-3); 2 Gaar: one spent (+2); the lower die"
    assert v["prompt"] == "re-roll Monster die 2 (it shows 2)"
    assert v["extra"]["combat"]["gaar"] == 1 and att["gaar_spent"] == 1


def test_eltreas_familiar_summoned_by_reputation_moves_within_its_move_points():
    """Familiars (l.190-216): the top slot costs 2 Gold; Summon needs the Reputation on the board;
    a slot once a turn; Move points from the card (entered here: Hawk Spirit 4 Move, 5 Reputation)."""
    t = Table(start(heroes={"eltrea": {"reputation": 4, "gold": 3}}, familiars={"hawk-spirit": {"move": 4, "reputation": 5}}))
    assert t.s.familiar.active == "will-o-wisp" and "euthia:familiar:hawk-spirit" not in t.v["extra"]["to_enter"]
    with pytest.raises(Refused, match="needs 5 Reputation; Eltrea has 4"):
        t.play("eu-familiar action=summon familiar=hawk-spirit slot=top")
    t = Table(start(heroes={"eltrea": {"reputation": 5, "gold": 3}}, familiars={"hawk-spirit": {"move": 4, "reputation": 5}}),
              "eu-familiar action=summon familiar=hawk-spirit slot=top", "eu-familiar action=move steps=3")
    assert t.s.familiar.active == "hawk-spirit" and t.s.familiar.moved == 3 and t.s.heroes["eltrea"].purse["gold"] == 1
    with pytest.raises(Refused, match="the lower slot holds a Hero token already this turn"):
        t.play("eu-familiar action=move steps=1")
    t.play("eu-familiar action=turn")
    with pytest.raises(Refused, match="the top slot costs 2 Gold; Eltrea has 1"):
        t.play("eu-familiar action=move steps=1 slot=top")
    with pytest.raises(Refused, match="Hawk Spirit has 4 Move points left this turn"):
        t.play("eu-familiar action=move steps=5")
    t.play("eu-familiar action=move steps=4")
    with pytest.raises(Refused, match="only Eltrea has Familiars"):
        Table(start(), "eu-familiar hero=ael action=turn")


def test_joint_combat_rewards_when_a_hero_died():
    """Joint Combat Rewards, Hero Death (l.968-970): one died: only Reputation is divided; both died: the
    defeated Monsters' rewards are divided and the Trophies lost."""
    from arena_table.rules.games.euthia.fellowship import split_rewards
    assert split_rewards({"gold": 4, "reputation": 2, "trophies": 1}, ("ael", "dral"), ("ael",), {}) == {
        "ael": {"gold": 4, "reputation": 1, "trophies": 1}, "dral": {"reputation": 1}}
    assert split_rewards({"gold": 5, "reputation": 1, "trophies": 1}, ("ael", "dral"), (), {"gold": "dral"}) == {
        "ael": {"gold": 2, "reputation": 1}, "dral": {"gold": 3, "reputation": 0}}


@pytest.mark.parametrize("dice, injuries, silver, rep, over", [((2, 3), 0, 0, 0, ""), ((3, 3), 2, 2, 0, "charmed"),
                                                               ((5, 6), 0, 0, 1, "charmed")])
def test_charm_three_bands(dice, injuries, silver, rep, over):
    """Charm (l.228-238): 5 or less fails; 6-10: 2 Injuries and 2 Silver cards (not to the cache);
    11 or more: 1 Reputation; no Reward for a Monster not fought."""
    t = Table(start(heroes=["eltrea"], monsters={"gecko": {**GECKO, "level": 1}}),
              'eu-combat enemies=["gecko"] heroes=["eltrea"]', "eu-hero-roll hero=eltrea purpose=charm",
              f"roll die=eu-hero faces=[{dice[0]},{dice[1]}]", "eu-done")
    h = t.s.heroes["eltrea"]
    assert (h.injuries, h.purse.get("silver", 0), h.reputation, t.s.combat.over) == (injuries, silver, rep, over)
    assert t.s.silver == 0 and "trophies" not in h.purse
    with pytest.raises(Refused, match="one Level 1 Monster"):
        Table(start(heroes=["eltrea"], monsters={"gecko": {**GECKO, "level": 2}}),
              'eu-combat enemies=["gecko"] heroes=["eltrea"]', "eu-hero-roll hero=eltrea purpose=charm")


def test_heroes_attack_after_the_enemies_except_the_first_strike():
    """Combat Rounds (l.937-942): Enemy Attack Phases until every Enemy has attacked, then the Heroes."""
    t = Table(start(mode="fellowship", heroes=["ael", "dral"], monsters={"gecko": {**GECKO, "health": 9}}),
              'eu-round card={"enemy":"1"}', 'eu-combat enemies=["gecko","goblin-archer"] heroes=["ael","dral"]',
              "eu-hero-roll hero=ael", "roll die=eu-hero faces=[3,3]", "eu-damage hero=ael amount=1",  # First Strike
              "eu-monster-attack enemy=0 target=ael", "roll die=eu-attack faces=[6,6,1]", "eu-done")
    with pytest.raises(Refused, match="the Enemies attack first this Combat Round: Goblin Archer still to attack"):
        t.play("eu-hero-roll hero=dral")
    assert t.s.combat.struck == ()


def test_the_prompt_says_what_the_table_waits_for():
    t = Table(start(mode="fellowship", heroes=["ael"]))
    assert t.v["prompt"] == "reveal round 1's Fellowship card (eu-round)"
    t.play("eu-round")
    assert t.v["prompt"] == "a Combat (eu-combat), an exchange (eu-exchange) or the next round's Fellowship card (eu-round)"
    t.play('eu-combat enemies=["gecko"] heroes=["ael"]')
    assert t.v["prompt"] == "Gecko's Monster Attack (eu-monster-attack), or a First Strike / tile"
    t.play("eu-monster-attack target=ael")
    assert t.v["prompt"] == "roll the two Monster dice and the Combat die"
    assert Table(start()).v["prompt"] == "set up a Combat (eu-combat): the Monster card and the Hero"


def test_each_hero_makes_one_first_strike_then_the_monster_attacks():
    """"At the start of the fight, each Hero may perform one First Strike" (l.927); a second Hero
    Attack before the first Monster Attack is refused, and the Heroes attack again once it is made."""
    t = Table(start(monsters={"shadowbeast": SHADOWBEAST}, difficulty="hard"), COMBAT,
              "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[4,3]", "eu-damage hero=ael amount=1")
    with pytest.raises(Refused, match="First Strike already"):
        t.play("eu-hero-roll hero=ael weapon=elven-sword")
    offered = [a.label for a in find_game("euthia").actions(t.s)]
    assert "Áel: Hero Attack" not in offered and "Shadowbeast's Monster Attack" in offered
    t.play("eu-monster-attack target=ael", "roll die=eu-attack faces=[4,4,3]", "eu-done",
           "eu-hero-roll hero=ael weapon=elven-sword")  # the Hero Attack Phase of round 1
    assert t.s.combat.roll is not None and t.s.combat.first_struck == ()
