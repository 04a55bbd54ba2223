"""The Fierce Powers rulebook's worked examples, with the book's numbers, played through events."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused
from arena_table.rules.games.euthia import caches, rolls

from .eu_helpers import GECKO, SHADOWBEAST, Table, start


def test_shadowbeast_spends_one_gaar_rerolls_the_1_and_keeps_the_second():
    """Playing with Fire, Adding Silver and Gold Cards (l.800): 1 and 6, one Gaar spent, the 1 re-rolled
    to 3, Combat Value 11 in the highest range, the remaining Gaar token not used."""
    t = Table(start(monsters={"shadowbeast": SHADOWBEAST}, difficulty="hard"),
              "eu-combat enemies=[\"shadowbeast\"] heroes=[\"ael\"]",
              "eu-monster-attack target=ael",
              "roll die=eu-monster faces=[1,6]",
              "roll die=eu-combat faces=[1]")
    a = t.attack
    assert (a.step, a.reroll, a.gaar_spent, t.s.combat.gaar) == ("reroll", (0,), 1, 1)
    rr = t.v["extra"]["combat"]["attack"]["reroll"]
    assert rr["dice"] == [1] and rr["values"] == [1] and "below 10, the highest range" in rr["why"]
    assert t.v["prompt"] == "re-roll Monster die 1 (it shows 1)"
    t.play("roll die=eu-monster faces=[3]")
    a = t.attack
    assert a.dice == (3, 6) and a.step == "response"
    att = t.v["extra"]["combat"]["attack"]
    assert (att["cv"], att["sum"], att["band"]) == (11, "3 + 6 + 2 Gaar = 11", 3)
    assert t.s.combat.gaar == 1  # a die shows 3, but 11 reaches the highest range
    t.play("eu-done")
    assert t.s.heroes["ael"].injuries == 3 and t.s.combat.attack is None


def test_two_chaos_symbols_with_one_chaos_token_give_one_action():
    """Chaos Actions, Example 1 (l.818)."""
    assert caches.possible_actions(2, 1, silver=3, gold=2) == 1
    t = Table(start(monsters={"gecko": {**GECKO, "chaos": 1}}, silver=3),
              "eu-combat enemies=[\"gecko\"] heroes=[\"ael\"]", "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,5]")
    assert "2 wanted, 1 possible" in t.attack.lines[-1]
    t.play("eu-reveal card=enhancement", "eu-reveal card=enhancement")
    assert t.attack.step == "response" and len(t.attack.chaos.stacks) == 1 and t.s.combat.chaos == 0
    assert t.s.silver == 1


def test_two_chaos_tokens_but_one_gold_card_give_one_action():
    """Chaos Actions, Example 2 (l.819): 2 symbols, 2 tokens, 1 Gold card and no Silver cards."""
    assert caches.possible_actions(2, 2, silver=0, gold=1) == 1
    t = Table(start(monsters={"gecko": {**GECKO, "chaos": 2}}, gold=1),
              "eu-combat enemies=[\"gecko\"] heroes=[\"ael\"]", "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,5]", "eu-reveal card=power-strike")
    assert t.attack.step == "response" and len(t.attack.chaos.stacks) == 1
    assert t.s.combat.chaos == 1 and t.s.gold == 0


def test_two_chaos_actions_three_power_strikes_then_a_power_strike_and_healing_to_the_bottom():
    """Performing 2 Chaos Actions (l.831-832)."""
    t = Table(start(monsters={"gecko": {**GECKO, "chaos": 2}}, gold=6),
              "eu-combat enemies=[\"gecko\"] heroes=[\"ael\"]", "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,5]",
              *["eu-reveal card=power-strike"] * 4, "eu-reveal card=healing")
    run = t.attack.chaos
    assert [(c, list(cards)) for c, cards, _ in run.stacks] == [("gold", ["power-strike"] * 3), ("gold", ["power-strike"])]
    assert run.to_bottom == (("gold", "healing"),) and t.s.bottom == (("gold", "healing"),)
    assert t.s.gold == 2 and t.s.combat.chaos == 0
    # the Healing card under the unknown one comes up in its turn, and no other card can be it
    assert t.s.gold == 2


def test_goblin_archer_healing_token():
    """Card Effect Clarifications, Healing (l.841): 2 Damage, two Healing cards heal 3, a token of 1;
    2 more Damage do not kill it: healed by 1, the token removed."""
    archer = {"gaar": 0, "chaos": 1, "health": 6, "silver": 0, "gold": 0, "attacks": [{"min": 2, "injuries": 1}, {"min": 9, "injuries": 2}]}
    t = Table(start(monsters={"goblin-archer": archer}, gold=2),
              "eu-combat enemies=[\"goblin-archer\"] heroes=[\"ael\"]",
              "eu-damage hero=ael amount=2")  # a First Strike
    assert t.s.combat.enemies[0].damage == 2
    t.play("eu-monster-attack target=ael", "roll die=eu-attack faces=[5,5,4]",
           "eu-reveal card=healing", "eu-reveal card=healing")
    e = t.s.combat.enemies[0]
    assert (e.damage, e.healing) == (0, 1)
    t.play("eu-done", "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[4,4]",
           "eu-damage hero=ael amount=2")
    e = t.s.combat.enemies[0]
    assert (e.damage, e.healing, e.defeated) == (1, 0, False)


def test_rotting_worm_grows_to_health_3_with_the_third_effect():
    """Playing Rotting Fly and Rotting Worm Cards (l.584-586): 1 Worm (Health 2, first slot), 1 Damage,
    then 3 Worm cards: Health 3 and the third box."""
    t = Table(start(monsters={"gecko": {**GECKO, "chaos": 3, "health": 9}}, gold=5),
              "eu-combat enemies=[\"gecko\"] heroes=[\"ael\"]", "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,4]", "eu-reveal card=rotting-worm", "eu-reveal card=healing")
    worm = t.s.combat.creatures[0]
    assert (worm.health - worm.damage, worm.slot) == (2, 1)
    t.play("eu-done", "eu-hero-roll hero=ael target=rotting-worm", "roll die=eu-hero faces=[3,3]",
           "eu-damage hero=ael amount=1 target=rotting-worm")
    assert t.s.combat.creatures[0].damage == 1 and t.s.combat.round == 2
    t.play("eu-monster-attack target=ael", "roll die=eu-attack faces=[5,5,4]",
           *["eu-reveal card=rotting-worm"] * 3)
    worm = t.s.combat.creatures[0]
    assert (worm.health - worm.damage, worm.slot) == (3, 3)
    assert len(t.s.combat.creatures) == 1 and t.s.combat.chaos == 1


def test_rotting_fly_overflow_goes_to_the_assassin():
    """Attacking Rotting Fly and Rotting Worm Creatures (l.594): 3 Damage, the Fly defeated by 1,
    a Damage token of 2 on the Assassin."""
    assassin = {"gaar": 0, "chaos": 1, "health": 7, "silver": 0, "gold": 0, "attacks": [{"min": 2, "injuries": 1}, {"min": 9, "injuries": 2}]}
    t = Table(start(monsters={"assassin": assassin}, silver=1),
              "eu-combat enemies=[\"assassin\"] heroes=[\"ael\"]", "eu-monster-attack target=ael",
              "roll die=eu-attack faces=[5,5,4]", "eu-reveal card=rotting-fly", "eu-done",
              "eu-hero-roll hero=ael target=rotting-fly", "roll die=eu-hero faces=[4,5]",
              "eu-damage hero=ael amount=3 target=rotting-fly")
    assert t.s.combat.creatures == ()
    assert t.s.combat.enemies[0].damage == 2


def test_joint_combat_area_attack_gecko():
    """Combat Setup, Area Attack example (l.958): Gecko's Final Combat Value 7, one Enhancement card:
    both Heroes suffer 3 Injuries and the Monster takes 2 Silver cards into the Silver cache."""
    t = Table(start(mode="fellowship", heroes=["ael", "dral"], leader="ael", silver=1, monsters={"gecko": GECKO}),
              'eu-round card={"tier":"I","exchange":4,"enemy":"area"}',
              "eu-combat enemies=[\"gecko\"] heroes=[\"ael\",\"dral\"]",
              "eu-monster-attack", "roll die=eu-attack faces=[3,4,4]", "eu-reveal card=enhancement")
    assert t.attack.targets == ("ael", "dral")
    assert t.v["extra"]["combat"]["attack"]["cv"] == 7
    t.play("eu-done")
    assert t.s.heroes["ael"].injuries == 3 and t.s.heroes["dral"].injuries == 3
    assert t.s.silver == 2


def test_bird_escapes_to_direction_2_and_deer_hunt():
    """Map Secrets, Bird (l.630-636): Dral's Final Value 7, no Map in direction 1: the Bird flies to 2;
    Deer (l.653): 8 or more succeeds."""
    t = Table(start(heroes=["dral"]), "eu-hero-roll hero=dral purpose=bird revealed=[2,3,4,5,6]",
              "roll die=eu-hero faces=[3,4]", "eu-done")
    assert t.s.last["value"] == 7 and "flies away in direction 2" in t.s.last["result"]
    assert t.s.heroes["dral"].sack == ()
    t.play("eu-hero-roll hero=dral purpose=deer", "roll die=eu-hero faces=[4,4]", "eu-done")
    assert t.s.heroes["dral"].sack == ("deer",)
    assert rolls.task_roll("bird", 10) and not rolls.task_roll("deer", 7)


def test_map_secrets_final_scoring_5_reputation():
    """Map Secrets, Final Scoring example (l.625): 2 Birds, a Wolf and Glowing Skulls beside the board,
    a Red Will o' Wisp in the Sack: 3 different Tasks, 5 Reputation."""
    t = Table(start(heroes=["dral"]),
              *[f"eu-object hero=dral object={o} from_sack=false" for o in ("bird", "bird", "wolf", "glowing-skulls")],
              "eu-beast hero=dral beast=wolf damage=[1,2]")
    assert t.s.heroes["dral"].sack == ("wolf",)
    t.play("eu-end won=true reason=scenario")
    assert t.s.heroes["dral"].reputation == 5
    assert [rolls.final_scoring(("a",) * 0 + tuple("abcd"[:n])) for n in range(5)] == [0, 1, 3, 5, 8]


def test_exchange_dral_gives_4_and_2_within_6():
    """Exchanging Items example (l.900): Dral gives 4 to Maeldur and 2 to Áel within the value 6; he may not
    give again this round, Áel and Maeldur still may."""
    t = Table(start(mode="fellowship", heroes=["ael", "dral", "maeldur"], leader="dral"),
              'eu-round card={"tier":"I","exchange":6}',
              'eu-exchange giver=dral gifts={"maeldur":4,"ael":2}')
    assert t.s.round.gave == ("dral",)
    with pytest.raises(Refused, match="once per round"):
        t.play('eu-exchange giver=dral gifts={"ael":1}')
    t.play('eu-exchange giver=ael gifts={"dral":3}', 'eu-exchange giver=maeldur gifts={"dral":6}')
    with pytest.raises(Refused, match="above this round's Exchange value 6"):
        Table(start(mode="fellowship", heroes=["ael", "dral"]), 'eu-round card={"exchange":6}',
              'eu-exchange giver=dral gifts={"ael":7}')


def test_the_combat_die_by_its_symbols_reads_as_its_face():
    """The Shadowbeast roll again (l.800), the Combat die given by symbol name as a reader reports
    it: ``blank`` is face 1 of the dice entered for these tests, so the Gaar loop runs as before."""
    t = Table(start(monsters={"shadowbeast": SHADOWBEAST}, difficulty="hard"),
              "eu-combat enemies=[\"shadowbeast\"] heroes=[\"ael\"]",
              "eu-monster-attack target=ael",
              "roll die=eu-monster faces=[1,6]",
              "eu-combat-face symbols=[\"blank\"]")
    assert (t.attack.combat, t.attack.step, t.attack.reroll, t.attack.gaar_spent) == (1, "reroll", (0,), 1)


def test_a_combat_die_symbol_set_no_face_carries_is_refused_with_the_faces():
    """Two Chaos symbols and a Gaar are on no face of the entered die: refused, nothing changes."""
    t = Table(start(monsters={"gecko": GECKO}),
              "eu-combat enemies=[\"gecko\"] heroes=[\"ael\"]", "eu-monster-attack target=ael",
              "roll die=eu-monster faces=[2,3]")
    before = t.ts
    with pytest.raises(Refused, match=r"no face chaos\+chaos\+gaar .*5: chaos\+chaos"):
        t.play("eu-combat-face symbols=[\"chaos\",\"gaar\",\"chaos\"]")
    assert t.ts == before
    t.play("eu-combat-face symbols=[\"chaos\",\"gaar\"]")
    assert t.attack.combat == 6
