"""Power and Skill texts that change the numbers (Appendix pp.32-43, errata), each with hand-computed
values. Ranking after ARENA: 1 Rac, 2 Norn, 3 Rochon, 4 Aer."""

from __future__ import annotations

import dataclasses

import pytest

from arena_table.rules import Refused

from th_helpers import ARENA, fast_blitz, play

ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "confusion", "oppress", "lifeswap", "last-stand"]
PASS2 = ["th-pass hero=rac power=warcraft", "th-pass hero=norn power=bloodthirst"]


def test_tactics_switches_to_another_card_with_its_values_and_text():
    """Tactics (p.38): Rochon swaps it for Fiery Purge: 4 vs Nova's 1 → 3 fire; the Curse lands;
    both Tactics and Fiery Purge go to the discard pile."""
    s = play(fast_blitz(ANN, BO), ARENA, *PASS2,
             'th-attack hero=rochon target=["aer"] power=tactics defend=["nova"] choice={"tactics":"fiery-purge"}').state
    assert s.last_action["lines"] == ["4 vs 1", "3 fire"]
    assert s.heroes["aer"].health == 6 and s.conditions == {"fiery-purge": "aer"}
    assert s.player("Ann").discard == ("bloodthirst", "tactics", "fiery-purge")


def test_oppress_attacking_switches_the_defenders_card():
    """Oppress (p.40): Rac's Oppress (1) against Norn's Blazing Sun (4): Ann must switch to Fireball
    (Defense 1): 1 vs 1, tie to Rac (1st) → 0 physical → minimum 1."""
    s = play(fast_blitz(ANN, BO), ARENA,
             'th-attack hero=rac target=["norn"] power=oppress defend=["blazing-sun"] choice={"replace":"fireball"}').state
    assert s.last_action["lines"] == ["1 vs 1", "tie won by Rac on Ranking", "0 physical", "minimum 1"]
    assert s.heroes["norn"].health == 8
    assert set(s.player("Ann").discard) == {"blazing-sun", "fireball"}


def test_confusion_defending_changes_the_attackers_values_only():
    """Confusion (p.40, Attack 2 per errata): Aer defends with Confusion (2,2) against Fiery Purge and
    switches Rochon's card to Tactics: Attack 1 vs 2, the defence holds and no Curse lands."""
    s = play(fast_blitz(ANN, BO), ARENA, *PASS2,
             'th-attack hero=rochon target=["aer"] power=fiery-purge defend=["confusion"] '
             'choice={"replace_attacker":"tactics"}').state
    assert s.last_action["lines"] == ["1 vs 2", "defence holds", "no damage"]
    assert "fiery-purge" not in s.conditions
    with pytest.raises(Refused, match="another card in hand"):
        play(fast_blitz(ANN, BO), ARENA, *PASS2,
             'th-attack hero=rochon target=["aer"] power=fiery-purge defend=["confusion"] '
             'choice={"replace_attacker":"warcraft"}')


def test_equalize_sets_the_opponents_card_to_one():
    """Equalize (p.39): Aer's Equalize makes Rochon's Fiery Purge count 1: 1 vs Equalize's 1 → tie to
    Rochon (3rd) over Aer (4th) → 0 fire → minimum 1."""
    bo = ["warcraft", "nova", "confusion", "equalize", "lifeswap", "last-stand"]
    s = play(fast_blitz(ANN, bo), ARENA, *PASS2,
             'th-attack hero=rochon target=["aer"] power=fiery-purge defend=["equalize"]').state
    assert s.last_action["lines"] == ["1 vs 1", "tie won by Rochon on Ranking", "0 fire", "minimum 1"]


def test_counter_attack_turns_the_defence_power_into_the_attack():
    """Counter Attack (Norn, Warlord): Rac attacks with Warcraft (4,0); Norn answers with Fiery Purge (4,0):
    Norn attacks with 4 against Warcraft's Defense 0 → 4 physical (the Skill's type): Rac 9 → 5;
    the Skill's Mana gem is spent."""
    s = play(fast_blitz(ANN, BO, gems={"norn": "counter-attack"}), ARENA,
             'th-attack hero=rac target=["norn"] power=warcraft defend=["fiery-purge"] '
             'defense_skill=["counter-attack"]').state
    assert s.last_action["lines"] == ["Counter Attack", "4 vs 0", "4 physical"]
    assert (s.heroes["rac"].health, s.heroes["norn"].health) == (5, 9)
    assert s.heroes["norn"].mana == ()


def test_defense_skill_needs_its_gem():
    with pytest.raises(Refused, match="holds no Mana gem"):
        play(fast_blitz(ANN, BO), ARENA, 'th-attack hero=rac target=["norn"] power=warcraft defend=["fiery-purge"] '
                                         'defense_skill=["counter-attack"]')


def test_northern_twin_strike_attacks_twice_with_one_gem():
    """Northern Twin Strike: a second attack on the same target, Ice both times; th-next forgoes it."""
    base = [fast_blitz(ANN, BO), "th-gem hero=norn skill=northern-twin-strike", ARENA,
            "th-pass hero=rac power=warcraft",
            'th-attack hero=norn target=["aer"] power=fiery-purge skill=northern-twin-strike defend=["nova"]']
    s = play(*base).state
    assert s.acting_hero() == "norn" and s.follow_up == "norn" and s.heroes["aer"].health == 6
    assert s.last_action["lines"] == ["4 vs 1", "3 ice"]
    s = play(*base, 'th-attack hero=norn target=["aer"] power=fireball skill=northern-twin-strike defend=["lifeswap"]').state
    # 3 vs Lifeswap's 3: tie to Norn (2nd) → 0 ice → minimum 1; Lifeswap first swaps Health (Norn 9, Aer 6)
    assert s.last_action["lines"] == ["3 vs 3", "tie won by Norn on Ranking", "0 ice", "minimum 1",
                                      "Lifeswap exchanges Health first"]
    assert s.acting_hero() == "rochon" and (s.heroes["norn"].health, s.heroes["aer"].health) == (6, 8)
    s = play(*base, "th-next").state
    assert s.acting_hero() == "rochon" and s.follow_up == ""


def test_chocking_rolls_a_d4_for_the_attack():
    """Chocking (errata p.34): the card is spent but a d4 gives the Attack: 4 vs Nova's 1 → 3 physical."""
    heroes = {"Ann": ["raug", "norn"], "Bo": ["rac", "aer"]}
    start = fast_blitz(ANN, BO, heroes=heroes, archetypes={"raug": "exotic-gambler"}, gems={"raug": "chocking"})
    arena = ARENA.replace('"rochon":1', '"raug":1')
    s = play(start, arena, *PASS2,
             'th-attack hero=raug target=["aer"] power=pain-spike skill=chocking defend=["nova"] choice={"d4":4}').state
    assert s.last_action["lines"] == ["4 vs 1", "3 physical"]
    with pytest.raises(Refused, match="rolls a d4"):
        play(start, arena, *PASS2,
             'th-attack hero=raug target=["aer"] power=pain-spike skill=chocking defend=["nova"]')


def test_heavy_metal_doubles_weapon_damage_and_ferocity_ignores_physical_protection():
    items = '"items":{"axe":{"name":"Axe","kind":"weapon","damage":3,"hands":2},' \
            '"plate":{"name":"Plate","kind":"armor","metal":true,"protection":["physical"]}}'
    start = fast_blitz(ANN, BO, extra_options=items, archetypes={"norn": "berserker"}, gems={"norn": "heavy-metal"})
    s = play(start, "th-equip hero=norn item=axe", ARENA,
             "th-pass hero=rac power=warcraft",
             'th-attack hero=norn target=["aer"] power=fiery-purge skill=heavy-metal defend=["nova"]').state
    assert s.last_action["lines"] == ["4 vs 1", "3 + 3×2 weapon = 9 physical"]
    assert not s.heroes["aer"].alive


def test_wall_of_fire_burns_a_hero_starting_its_turn_there():
    """Errata p.45: a Hero who starts their turn on the Wall of Fire takes 4 Fire (halved by resistance);
    after turn 1 (errata p.14: the starting triads are safe from area Rituals on turn 1)."""
    from arena_table.rules.games.theosis.arena import advance
    s = play(fast_blitz(ANN, BO), ARENA, "th-move hero=norn cell=[2,-1]", "th-pass hero=rac power=warcraft").state
    assert s.acting_hero() == "norn" and s.heroes["norn"].health == 9
    before = dataclasses.replace(s, turn=2, acted=("rac",), acting=0,
                                 ritual_cells={"wall-of-fire": ((2, -1), (2, -2), (3, -2))})
    assert advance(before).heroes["norn"].health == 5


def test_assassinate_from_stealth_kills_instead_of_damaging():
    """Stealth then Assassinate (-1): 4 - 1 = 3 vs Nova's 1: the target Hero is killed; Stealth ends."""
    heroes = {"Ann": ["sauth", "norn"], "Bo": ["rac", "aer"]}
    start = fast_blitz(ANN, BO, heroes=heroes, archetypes={"sauth": "shadowblend"}, gems={"sauth": "stealth"})
    arena = ARENA.replace('"rochon":1', '"sauth":1')
    turn1 = ["th-gem hero=sauth skill=assassinate", arena,
             "th-pass hero=rac power=warcraft", "th-pass hero=norn power=bloodthirst",
             "th-skill hero=sauth skill=stealth power=tactics", "th-pass hero=aer power=confusion"]
    s = play(start, *turn1).state
    assert s.heroes["sauth"].stealth
    with pytest.raises(Refused, match="in Stealth"):
        play(start, *turn1, 'th-attack hero=rac target=["sauth"] power=nova defend=["fiery-purge"]')
    s = play(start, *turn1, "th-pass hero=rac power=oppress", "th-pass hero=norn power=pain-spike",
             'th-attack hero=sauth target=["aer"] power=fiery-purge skill=assassinate defend=["nova"]').state
    assert s.last_action["lines"][0] == "4 − 1 skill = 3 vs 1"
    assert not s.heroes["aer"].alive and not s.heroes["sauth"].stealth
