"""Every worked example of the Theosis rulebook and FAQ, with the book's numbers.

Page references are to ../shared/rulebooks/theosis.txt (printed page numbers).
"""

from __future__ import annotations

import dataclasses

from arena_table.rules import find_game, parse
from arena_table.rules.games.theosis import catalog
from arena_table.rules.games.theosis.combat import Side, resolve
from arena_table.rules.games.theosis.events import Allocate
from arena_table.rules.games.theosis.ranking import alignment_bonus, compute_ranking
from arena_table.rules.games.theosis.setup import setup

from th_helpers import BLITZ_FAST, play

GAME = find_game("theosis")

# Rac (Bo) outranks Rochon (Ann): Bo puts his 3 gold on Rac, Ann 2 on Norn and 1 on Rochon.
TO_ARENA = """
th-next
th-allocate player=Bo gold={"rac":3}
th-allocate player=Ann gold={"norn":2,"rochon":1}
th-pass hero=rac power=valor
th-pass hero=norn power=tactics
"""


def test_paladin_necromancer_tie_goes_to_the_higher_ranking():
    """p.16: Fiery Purge 4 vs Frigid Night 4; the Necromancer ranks higher and wins; no damage."""
    ts = play(BLITZ_FAST, TO_ARENA, 'th-attack hero=rochon target=["rac"] power=fiery-purge defend=["frigid-night"]')
    s = ts.state
    assert s.ranking.index("rac") < s.ranking.index("rochon")
    assert s.heroes["rac"].health == 9
    assert "fiery-purge" not in s.conditions
    assert s.last_action["lines"] == ["4 vs 4", "tie won by Rac on Ranking", "no damage"]


def test_artifact_sword_fire_negated_minimum_one_then_fiery_purge():
    """Damage and Resistances: 4 + 1 artifact = 5 vs 4; 1 + 4 weapon = 5 fire, negated by Frigid Night's Fire
    protection; the loser still takes 1 (9 → 8); the Fiery Purge Curse takes 1 more at the end of
    his turn (8 → 7)."""
    ts = play(BLITZ_FAST, "th-equip hero=rochon item=artifact-sword\nth-equip hero=rac item=cloth-armor",
              TO_ARENA, 'th-attack hero=rochon target=["rac"] power=fiery-purge defend=["frigid-night"]')
    s = ts.state
    assert " → ".join(s.last_action["lines"]) == \
        "4 + 1 artifact = 5 vs 4 → 1 + 4 weapon = 5 fire → negated by Fire protection → minimum 1"
    assert s.last_action["result"] == "Rac 9 → 8"
    assert s.heroes["rac"].health == 8
    assert s.conditions == {"fiery-purge": "rac"}
    # Aer ends turn 1; turn 2 Rac acts first and loses one Health at the end of his turn.
    ts = play(BLITZ_FAST, "th-equip hero=rochon item=artifact-sword\nth-equip hero=rac item=cloth-armor",
              TO_ARENA, 'th-attack hero=rochon target=["rac"] power=fiery-purge defend=["frigid-night"]',
              "th-pass hero=aer power=nova", "th-pass hero=rac power=confusion")
    assert ts.state.turn == 2
    assert ts.state.heroes["rac"].health == 7
    v = GAME.view(ts.state, "spectator")
    rac = next(e for e in v["order"] if e["id"] == "rac")
    assert rac["conditions"][0]["icon"] == "flame" and rac["conditions"][0]["kind"] == "debuff"


SOLO = """
start game=theosis options={"mode":"solo","fast":true,"players":["Ann"],"heroes":{"Ann":["norn","rochon"]},"archetypes":{"rochon":"hospitaler"}}
th-draft player=Ann power=fiery-purge
th-draft player=Ann power=fireball
th-draft player=Ann power=bloodthirst
th-draft player=Ann power=valor
th-draft player=Ann power=pain-spike
th-draft player=Ann power=spell-ward
th-equip hero=rochon item=artifact-sword
th-gem hero=rochon skill=smite
th-gem hero=norn
th-next
th-rank order=["norn","rochon"]
th-stamina monster=kotronas threshold=3 resist=["physical"]
th-bless hero=norn power=valor target=rochon
"""


def _on_banner(*events: str):
    """The example's Hero attacks "while standing in the Ritual Banner of Victory" (p.45): the token lies on
    [1,0], [1,-1], [2,-1] (laid here directly: Fast Action Preparation has no Mage Tower), Rochon stands on
    [1,0] and Kotronas beside him on the centre hex."""
    s = dataclasses.replace(play(SOLO).state, ritual_cells={"banner-of-victory": ((1, 0), (1, -1), (2, -1))})
    for line in ("th-move hero=kotronas cell=[0,0]", "th-move hero=rochon cell=[1,0]", *events):
        s = GAME.apply(s, parse(line))
    return s


def test_petronas_example_resistance_halves_and_token_stays():
    """Monster Defense example: 3 + 1 artifact + 1 Valor + 1 Banner + 1 skill = 7 vs 2 + d4 4 = 6; (7-6) + 4 = 5
    Physical, halved by the token's Physical Resistance to 2 < 3: the token stays."""
    s = _on_banner('th-attack hero=rochon target=["kotronas"] power=fireball skill=smite choice={"banner":true}',
                   "roll die=d4 faces=[4]")
    m = s.monster("kotronas")
    assert (m.tokens, m.top.threshold) == (5, 3)
    assert s.last_action["lines"][:3] == [
        "3 + 1 artifact + 1 skill + 1 Valor + 1 Banner of Victory = 7 vs 2 + 4 d4 = 6",
        "1 + 4 weapon = 5 physical", "halved by Physical resistance → 2 < 3: the Stamina Token stays"]


def test_petronas_example_with_a_four_zero_card_removes_the_token():
    """Monster Defense example: with a (4.0) card the damage is 6, half is 3: enough to remove the token."""
    s = _on_banner('th-attack hero=rochon target=["kotronas"] power=fiery-purge skill=smite choice={"banner":true}',
                   "roll die=d4 faces=[4]")
    m = s.monster("kotronas")
    assert m.tokens == 4 and m.top is None
    assert "2 + 4 weapon = 6 physical" in s.last_action["lines"]
    assert s.player("Ann").stamina_taken == 1
    assert s.monster("kotronas").fiery_purge is False  # a Skill was used: the Power's text stays silent (p.19)


def _ranking_state():
    s = setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["raug", "rac", "nimloth"],
                                                    "Bo": ["aer", "rochon", "norn"]}})
    return dataclasses.replace(s, phase="ranking", alignment={"warmonger": 0, "deceitful": 2, "vengeful": 1},
                               players=tuple(dataclasses.replace(p, gold=3) for p in s.players))


def test_gold_allocation_example():
    """p.13: the track ends +2 towards Deceitful: the Succubus and the Necromancer get 20 gold each,
    the Priestess and the Paladin nothing; you put 1 gold on the Succubus (21) and 2 on the Druid (2).
    The book's example has the Druid lose the Vengeful-Merciful axis, so that track leans Vengeful."""
    s = alignment_bonus(_ranking_state())
    assert {h: s.heroes[h].gold for h in ("raug", "rac", "aer", "rochon", "nimloth")} == \
        {"raug": 20, "rac": 20, "aer": 0, "rochon": 0, "nimloth": 0}
    s = GAME.apply(s, Allocate(player="Bo", gold={"aer": 3}))
    s = GAME.apply(s, Allocate(player="Ann", gold={"raug": 1, "nimloth": 2}))
    assert (s.heroes["raug"].gold, s.heroes["rac"].gold, s.heroes["nimloth"].gold) == (21, 20, 2)
    assert s.ranking == ("raug", "rac", "aer", "nimloth", "rochon", "norn")


def test_ranking_ties_follow_initiative_order():
    """FAQ: heroes with the same gold are ranked in initiative order (clockwise from the holder)."""
    s = setup({"players": ["Ann", "Bo", "Cy"], "heroes": {"Ann": ["raug", "rac", "nimloth"],
                                                          "Bo": ["aer", "rochon", "norn"],
                                                          "Cy": ["lug", "garav", "edhel"]}})
    s = dataclasses.replace(s, initiative="Bo")
    heroes = dict(s.heroes)
    for h in ("rac", "rochon", "garav"):
        heroes[h] = dataclasses.replace(heroes[h], gold=5)
    s = dataclasses.replace(s, heroes=heroes)
    assert compute_ranking(s) == ("rochon", "garav", "rac", "aer", "norn", "lug", "edhel", "raug", "nimloth")


def test_dual_wield_two_damage_types():
    """FAQ: each weapon deals its own amount and type, the attacker picks the remainder's type; errata
    p.8: two Artifacts add both Attack modifiers. 3 + 2 artifact = 5 vs 3: remainder 2 as Fire, so
    4 Fire + 3 Ice; Ice resistance halves the Ice to 1: 5 damage."""
    r = resolve(Side("Norn", 3, (("artifact", 2),), rank=1), Side("Aer", 3, rank=2),
                weapons=((2, "fire"), (3, "ice")), damage_type="physical", resist={"ice"}, remainder="fire")
    assert r.raw == ((4, "fire"), (3, "ice"))
    assert r.damage == 5
    assert r.lines == ("3 + 2 artifact = 5 vs 3", "2 + 2 weapon + 3 weapon = 4 fire + 3 ice",
                       "halved by Ice resistance → 1")


def test_dual_wield_in_play_adds_both_artifact_modifiers():
    items = {"fire-axe": {"name": "Fire axe", "kind": "weapon", "artifact": True, "attack": 1, "damage": 2,
                          "damage_type": "fire", "hands": 1},
             "frost-blade": {"name": "Frost blade", "kind": "weapon", "artifact": True, "attack": 1, "damage": 3,
                             "damage_type": "ice", "hands": 1}}
    start = BLITZ_FAST.replace('"fast":true,', '"fast":true,"items":' + __import__("json").dumps(items) + ",")
    ts = play(start, "th-equip hero=rochon item=fire-axe\nth-equip hero=rochon item=frost-blade", TO_ARENA,
              'th-attack hero=rochon target=["rac"] power=fireball defend=["nova"] choice={"remainder":"fire"}')
    # 3 + 2 artifact = 5 vs 1: 4 remainder as Fire + 2 Fire + 3 Ice = 9
    assert ts.state.last_action["lines"][:2] == ["3 + 2 artifact = 5 vs 1", "4 + 2 weapon + 3 weapon = 6 fire + 3 ice"]
    assert ts.state.heroes["rac"].health == 0 and not ts.state.heroes["rac"].alive


def test_power_pile_order_and_values_known_from_text():
    assert catalog.VALUE_ORDER == ((4, 0), (3, 1), (2, 2), (1, 1), (1, 3), (0, 4))
    p = catalog.powers()
    assert p["fireball"]["values"] == [3, 1] and p["nova"]["values"] == [3, 1]
    assert p["bloodthirst"]["values"] == [2, 2] and p["confusion"]["values"] == [2, 2]


def test_a_single_typed_weapon_deals_its_own_type():
    """FAQ (../shared/rulebooks/theosis.txt, dual wielding): "each weapon deals the amount and type of
    damage listed on it". One Ice weapon with Fireball played as a Power (its damage icon is not
    entered, so Physical): 3 + 2 artifact = 5 vs 1, the remainder 4 is Physical and the weapon's 3
    is Ice (before: all 7 Physical, a lone weapon's type was ignored)."""
    items = {"frost-blade": {"name": "Frost blade", "kind": "weapon", "artifact": True, "attack": 2, "damage": 3,
                             "damage_type": "ice", "hands": 1}}
    start = BLITZ_FAST.replace('"fast":true,', '"fast":true,"items":' + __import__("json").dumps(items) + ",")
    ts = play(start, "th-equip hero=rochon item=frost-blade", TO_ARENA,
              'th-attack hero=rochon target=["rac"] power=fireball defend=["nova"]')
    assert ts.state.last_action["lines"][:2] == ["3 + 2 artifact = 5 vs 1", "4 + 3 weapon = 4 physical + 3 ice"]


def test_a_typed_weapon_beside_a_plain_one_deals_its_own_type_for_its_part():
    """FAQ, dual wielding: the Fire axe's 2 is Fire; the plain sword's 4 takes the attack's type."""
    r = resolve(Side("Rochon", 5, rank=1), Side("Rac", 3, rank=2),
                weapons=((2, "fire"), (4, None)), damage_type="physical", protect={"fire"})
    assert r.raw == ((6, "physical"), (2, "fire"))
    assert r.damage == 6  # the Fire part negated by Fire protection
