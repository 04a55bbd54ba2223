"""Monsters (Monsters section): the skullduggery die picks the action, bonus + d4 against the Hero's Defense,
ties to the Hero, Paralyze, acid and the green shield, slaying weapons, Stamina tokens, bosses."""

from __future__ import annotations

import json

import pytest

from arena_table.rules import Refused, find_game

from th_helpers import play

GAME = find_game("theosis")
ITEMS = {"green-shield": {"name": "Green shield", "kind": "shield", "resistance": ["acid"]},
         "slayer-sword": {"name": "Slayer sword", "kind": "weapon", "damage": 3, "hands": 1, "slaying": True}}


def solo(monster: str = "kotronas", ann=("fiery-purge", "fireball", "bloodthirst", "valor", "pain-spike", "spell-ward")):
    opts = {"mode": "solo", "fast": True, "players": ["Ann"], "heroes": {"Ann": ["norn", "rochon"]},
            "archetypes": {"rochon": "hospitaler"}, "monsters": [monster], "items": ITEMS}
    return "\n".join([f"start game=theosis options={json.dumps(opts, separators=(',', ':'))}"]
                     + [f"th-draft player=Ann power={p}" for p in ann]
                     + ["th-gem hero=norn", "th-gem hero=rochon", "th-next", 'th-rank order=["norn","rochon"]'])


TURN1 = """
th-pass hero=norn power=valor
th-pass hero=rochon power=pain-spike
"""


def test_monsters_act_after_the_heroes_and_the_die_picks_the_row():
    s = play(solo(), TURN1).state
    assert s.phase == "monsters" and s.pending.kind == "skull"
    s = play(solo(), TURN1, "roll die=skull faces=[1]").state
    assert s.pending.kind == "monster-targets"
    assert s.last_action["title"] == "Kotronas: dash → Brutal Punch"


def test_monster_attack_bonus_plus_d4_against_defense():
    """Brutal Punch 1D4+2, 5 Physical: 2 + 3 d4 = 5 vs Spell Ward's 4 → 1 + 5 damage = 6: Norn 9 → 3."""
    ts = play(solo(), TURN1, "roll die=skull faces=[1]", 'th-monster monster=kotronas target=["norn"] defend=["spell-ward"]',
              "roll die=d4 faces=[3]")
    s = ts.state
    assert s.last_action["lines"] == ["Norn: 2 + 3 d4 = 5 vs 4 → 1 + 5 damage = 6 physical"]
    assert s.heroes["norn"].health == 3
    assert (s.phase, s.turn, s.acting_hero()) == ("combat", 2, "norn")


def test_a_tie_goes_to_the_hero():
    """Monster modes: heroes outrank monsters: 2 + 2 d4 = 4 vs 4 → no damage."""
    s = play(solo(), TURN1, "roll die=skull faces=[1]", 'th-monster monster=kotronas target=["norn"] defend=["spell-ward"]',
             "roll die=d4 faces=[2]").state
    assert s.heroes["norn"].health == 9
    assert s.last_action["lines"] == ["Norn: 2 + 2 d4 = 4 vs 4 → tie won by Norn on Ranking → no damage"]


def test_earths_grab_paralyzes_and_the_hero_skips_next_turn():
    """Earth's Grab 1D4+3, 4 Physical, Paralyze: 3 + 2 = 5 vs 4 → 1 + 4 = 5: Norn 9 → 4, token flipped;
    on turn 2 Norn flips it back and Rochon acts."""
    s = play(solo(), TURN1, "roll die=skull faces=[5]", 'th-monster monster=kotronas target=["norn"] defend=["spell-ward"]',
             "roll die=d4 faces=[2]").state
    assert s.heroes["norn"].health == 4
    assert s.turn == 2 and s.acting_hero() == "rochon" and not s.heroes["norn"].flipped


def test_acid_is_halved_only_by_the_green_shield():
    """Wrath of the Mountain 1D4+3, 6 Acid: 3 + 2 = 5 vs 4 → 1 + 6 = 7 acid, halved by the green shield's
    Acid resistance → 3 (p.24)."""
    s = play(solo(), "th-equip hero=norn item=green-shield", TURN1, "roll die=skull faces=[4]",
             'th-monster monster=kotronas target=["norn"] defend=["spell-ward"]', "roll die=d4 faces=[2]").state
    assert s.last_action["lines"] == ["Norn: 3 + 2 d4 = 5 vs 4 → 1 + 6 damage = 7 acid → halved by Acid resistance → 3"]
    assert s.heroes["norn"].health == 6


def test_slaying_weapon_doubles_and_fiery_purge_adds_one_next_time():
    """p.24: Fiery Purge 4 vs 2 + 1 = 3 → 1 + 6 (slaying 3 x 2) = 7 ≥ 3: the token goes. The monster
    keeps the Fiery Purge Curse: the next successful attack deals one more."""
    s = play(solo(), "th-equip hero=norn item=slayer-sword", "th-stamina monster=kotronas threshold=3",
             'th-attack hero=norn target=["kotronas"] power=fiery-purge', "roll die=d4 faces=[1]").state
    m = s.monster("kotronas")
    assert (m.tokens, m.top, m.fiery_purge) == (4, None, True)
    assert s.last_action["lines"] == ["4 vs 2 + 1 d4 = 3", "1 + 6 weapon = 7 fire ≥ 3: Stamina Token removed"]
    s = play(solo(), "th-equip hero=norn item=slayer-sword", "th-stamina monster=kotronas threshold=3",
             'th-attack hero=norn target=["kotronas"] power=fiery-purge', "roll die=d4 faces=[1]",
             'th-stamina monster=kotronas threshold=9 protect=["physical"]',
             'th-attack hero=rochon target=["kotronas"] power=fireball', "roll die=d4 faces=[1]").state
    assert s.last_action["lines"][:2] == ["3 vs 2 + 1 d4 = 3", "tie won by Rochon on Ranking"]
    assert s.monster("kotronas").fiery_purge is False


def test_attacking_needs_the_top_token_revealed():
    with pytest.raises(Refused, match="reveal Kotronas's top Stamina Token"):
        play(solo(), 'th-attack hero=norn target=["kotronas"] power=fiery-purge')


def test_warcraft_counts_as_five_zero_against_monsters():
    ann = ("warcraft", "fireball", "bloodthirst", "valor", "pain-spike", "spell-ward")
    s = play(solo(ann=ann), "th-stamina monster=kotronas threshold=5",
             'th-attack hero=norn target=["kotronas"] power=warcraft', "roll die=d4 faces=[3]").state
    assert s.last_action["lines"][0] == "5 vs 2 + 3 d4 = 5"


def test_godslayer_acts_from_both_tables_and_starting_triads_hold_on_turn_one():
    """The Rider and the Dragon act once each (left table, then right). Rain of Spines (left, spade)
    hits all heroes, but on turn 1 the starting triads protect them (errata p.14); Symbiotic
    Regeneration (right, spade) adds 2 Stamina Tiles."""
    s = play(solo("godslayer"), TURN1, "roll die=skull faces=[6]").state
    assert s.pending.kind == "skull" and s.last_action["title"] == "Godslayer: spade → Rain of Spines"
    assert s.heroes["norn"].health == 9
    s = play(solo("godslayer"), TURN1, "roll die=skull faces=[6]", "roll die=skull faces=[6]").state
    assert s.monster("godslayer").tokens == 5 + 2
    assert s.turn == 2


def test_killing_the_last_monster_wins_solo():
    opts = solo().replace('"monsters":["kotronas"]', '"monsters":["kotronas"],"stamina":1')
    ts = play(opts, "th-stamina monster=kotronas threshold=1", 'th-attack hero=norn target=["kotronas"] power=fiery-purge',
              "roll die=d4 faces=[1]")
    o = GAME.outcome(ts.state)
    assert o.winners == ("Ann",) and o.reason == "every monster is defeated"


def test_diamond_skin_hides_the_token_and_a_hit_only_flips_it():
    """Kotronas, spade: Diamond Skin. The next successful attack flips the token face up instead of
    removing it; the one after can remove it."""
    base = [solo(), "th-stamina monster=kotronas threshold=1", TURN1, "roll die=skull faces=[6]"]
    s = play(*base).state
    assert s.monster("kotronas").hidden and s.turn == 2
    from arena_table.rules import find_game
    assert find_game("theosis").view(s)["extra"]["monsters"][0]["top"] is None
    s = play(*base, 'th-attack hero=norn target=["kotronas"] power=fiery-purge', "roll die=d4 faces=[1]").state
    m = s.monster("kotronas")
    assert (m.hidden, m.tokens) == (False, 5)
    assert s.last_action["lines"][-1].endswith(": the hidden Stamina Token is flipped face up")


def test_agony_shield_returns_the_damage_to_the_attacker():
    """Apollyon, spade: Agony Shield: until Apollyon acts again any damage it takes hits the attacker
    too: Fiery Purge 4 vs 3 + 1 = 4 → tie to the hero → 0 fire → minimum 1; Norn loses 1 as well."""
    s = play(solo("apollyon"), "th-stamina monster=apollyon threshold=3", TURN1, "roll die=skull faces=[6]",
             'th-attack hero=norn target=["apollyon"] power=fiery-purge', "roll die=d4 faces=[1]").state
    assert s.last_action["lines"][0] == "4 vs 3 + 1 d4 = 4"
    assert s.heroes["norn"].health == 8


def test_numbness_paralyzes_heroes_next_to_mikitas():
    s = play(solo("mikitas"), "th-move hero=mikitas cell=[0,0]", "th-move hero=norn cell=[1,0]",
             "th-move hero=rochon cell=[3,0]", TURN1, "roll die=skull faces=[6]").state
    assert s.heroes["norn"].flipped is False and "norn" in s.acted  # skipped on turn 2, flipped back
    assert s.acting_hero() == "rochon"
    assert s.monster("mikitas").cell == (0, 0)


def test_equalize_turns_the_monsters_die_into_a_one():
    """Monster Battles: Equalize (1,1) against Kotronas: its Defence d4 4 counts as 1: 1 vs 2 + 1 = 3."""
    ann = ("fiery-purge", "fireball", "bloodthirst", "equalize", "pain-spike", "spell-ward")
    s = play(solo(ann=ann), "th-stamina monster=kotronas threshold=3",
             'th-attack hero=norn target=["kotronas"] power=equalize', "roll die=d4 faces=[4]").state
    assert s.last_action["lines"][0] == "1 vs 2 + 1 d4 = 3"


def test_blind_sends_the_surviving_token_under_the_pile():
    ann = ("blind", "fireball", "bloodthirst", "valor", "pain-spike", "spell-ward")
    s = play(solo(ann=ann), "th-stamina monster=kotronas threshold=5",
             'th-attack hero=norn target=["kotronas"] power=blind choice={"bottom":true}', "roll die=d4 faces=[1]").state
    m = s.monster("kotronas")
    assert (m.tokens, m.top) == (5, None)
    assert s.last_action["lines"][-1] == "1 physical < 5: the Stamina Token stays, then goes under the pile (Blind): " \
                                         "reveal the next one"


def test_pain_spike_can_remove_a_monster_token():
    """Monster Battles: Brutal Punch 2 + 4 = 6 vs Pain Spike's 3 → 3 + 5 = 8; Pain Spike returns 4 ≥ 4."""
    s = play(solo(), "th-stamina monster=kotronas threshold=4", TURN1, "roll die=skull faces=[1]",
             'th-monster monster=kotronas target=["norn"] defend=["spell-ward"]', "roll die=d4 faces=[4]").state
    assert s.monster("kotronas").tokens == 5  # Spell Ward is no Pain Spike
    ann = ("fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "spell-ward")
    turn1 = "th-pass hero=norn power=tactics\nth-pass hero=rochon power=spell-ward"
    s = play(solo(ann=ann), "th-stamina monster=kotronas threshold=4", turn1, "roll die=skull faces=[1]",
             'th-monster monster=kotronas target=["norn"] defend=["pain-spike"]', "roll die=d4 faces=[4]").state
    assert s.heroes["norn"].health == 1
    assert s.monster("kotronas").tokens == 4
    assert s.last_action["lines"] == ["Norn: 2 + 4 d4 = 6 vs 3 → 3 + 5 damage = 8 physical → "
                                      "Pain Spike returns 4 ≥ 4: Stamina Token removed"]
