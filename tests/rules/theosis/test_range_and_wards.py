"""Attack range and area (p.14 Movement and Range), defending an area attack with the discards
(p.16 Area Attacks, FAQ), Spell Ward revealed by either side (p.38, errata p.16/p.38, p.20 Team vs
Team), no attack on oneself (p.16), and Quietus's Flying Terror / Shadow in Darkness (Monster Stat
Blocks). Values are the book's: Warcraft (4,0), Spell Ward (0,4), Fireball 3 (pp.38-43 data)."""

from __future__ import annotations

import json

import pytest

from arena_table.rules import parse
from arena_table.rules import Refused
from arena_table.rules.games.theosis import catalog

from th_helpers import BLITZ_FAST, drafts, fast_blitz, play

ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "spell-ward"]
BO = ["warcraft", "nova", "confusion", "valor", "lifeswap", "frigid-night"]


def arena(rac=(4, 0), aer=(4, 1), rochon=(-4, 0), norn=(-4, 1), gems: str = "") -> str:
    """Ranking 1 Rac, 2 Norn, 3 Rochon, 4 Aer, heroes entered on the given hexes."""
    cells = {"rac": rac, "aer": aer, "rochon": rochon, "norn": norn}
    moves = "\n".join(f"th-move hero={h} cell={json.dumps(list(c))}" for h, c in cells.items())
    return f"""{gems}
th-next
th-allocate player=Bo gold={{"rac":3}}
th-allocate player=Ann gold={{"norn":2,"rochon":1}}
{moves}
"""


def refused(*texts: str) -> str:
    *before, last = [t for t in texts]
    s = play(*before)
    from arena_table.rules import find_game
    with pytest.raises(Refused) as exc:
        find_game("theosis").apply(s.state, parse(last))
    return str(exc.value)


# --- 1. range ------------------------------------------------------------------------------------

def test_an_attack_eight_hexes_away_is_refused_naming_distance_and_range():
    """p.14: Melee reaches an adjacent Hero, Ranged five hexes or less; Rac (4,0) to Rochon (-4,0) is 8."""
    msg = refused(BLITZ_FAST, arena(), 'th-attack hero=rac target=["rochon"] power=warcraft defend=["spell-ward"]')
    assert "Rochon is 8 hexes from Rac" in msg and "out of range 5" in msg


def test_an_attack_five_hexes_away_is_resolved():
    s = play(BLITZ_FAST, arena(rac=(1, 0), rochon=(-4, 0)),
             'th-attack hero=rac target=["rochon"] power=warcraft defend=["spell-ward"]').state
    assert s.heroes["rochon"].health == 8  # Warcraft 4 vs Spell Ward 4: tie won by Rac on Ranking, minimum 1
    assert s.acting_hero() == "norn"


def test_a_melee_hero_reaches_only_the_adjacent_hexes(monkeypatch):
    """A Hero whose mat takes no bow or staff (entered ``ranged: false``) attacks at range 1 (p.14)."""
    monkeypatch.setitem(catalog.heroes()["rac"], "ranged", False)
    msg = refused(BLITZ_FAST, arena(rac=(1, 0), rochon=(-1, 0)),
                  'th-attack hero=rac target=["rochon"] power=warcraft defend=["spell-ward"]')
    assert "Rochon is 2 hexes from Rac" in msg and "out of range 1" in msg
    s = play(BLITZ_FAST, arena(rac=(0, 0), rochon=(-1, 0)),
             'th-attack hero=rac target=["rochon"] power=warcraft defend=["spell-ward"]').state
    assert s.heroes["rochon"].health == 8


def test_a_ring_skill_hits_only_adjacent_heroes():
    """Whirlwind: 'Attack all adjacent enemies' (Appendix Skills); Aer two hexes off is out of its area."""
    pre = (fast_blitz(ANN, BO, gems={"norn": "whirlwind"}), arena(rac=(1, 0), aer=(2, 0), rochon=(-4, 0), norn=(-4, 1)),
           "th-pass hero=rac power=confusion", "th-pass hero=norn power=tactics",
           "th-pass hero=rochon power=bloodthirst", "th-pass hero=aer power=valor",
           "th-pass hero=rac power=lifeswap", "th-move hero=norn cell=[0,0]")
    msg = refused(*pre, 'th-attack hero=norn target=["rac","aer"] power=fiery-purge skill=whirlwind '
                        'defend=["warcraft","nova"]')
    assert "Aer is 2 hexes from Norn" in msg and "out of range 1" in msg


def test_a_spell_hits_one_area_of_seven_hexes():
    """p.14 Spell: an area of seven hexes anywhere (FAQ: unlimited range); Rac and Rochon 3 apart do not fit."""
    pre = (BLITZ_FAST, arena(rac=(4, 0), aer=(1, 0), rochon=(-4, 0), norn=(-4, 1)),
           "th-pass hero=rac power=confusion", "th-pass hero=norn power=tactics",
           "th-pass hero=rochon power=bloodthirst", "th-pass hero=aer power=valor",
           "th-pass hero=rac power=lifeswap")
    msg = refused(*pre, 'th-attack hero=norn target=["rac","aer"] power=fireball spell=true defend=["warcraft","nova"]')
    assert "seven hexes" in msg and "3 hexes apart" in msg


# --- 2. an area attack defended with the discards ----------------------------------------------------

def test_the_discards_come_back_to_defend_the_next_hero_of_an_area_attack():
    """p.16 Area Attacks: 'you take your Discarded Powers into your hand as soon as you use your last
    Power, so you can always defend'; Bo holds only Frigid Night for two targeted heroes."""
    s = play(BLITZ_FAST, arena(), *[f"th-pass hero={h} power={c}" for h, c in (
        ("rac", "warcraft"), ("norn", "tactics"), ("rochon", "bloodthirst"), ("aer", "nova"),
        ("rac", "confusion"), ("norn", "pain-spike"), ("rochon", "spell-ward"), ("aer", "valor"),
        ("rac", "lifeswap"))],
        'th-attack hero=norn target=["rac","aer"] power=fireball spell=true defend=["frigid-night","warcraft"]').state
    bo = s.player("Bo")
    assert bo.hand == ("nova", "confusion", "valor", "lifeswap")
    assert bo.discard == ("frigid-night", "warcraft")
    assert s.heroes["rac"].health == 9  # Fireball 3 vs Frigid Night 4: the defence holds
    assert s.heroes["aer"].health == 6  # 3 vs Warcraft's 0 → 3 physical


def test_a_card_neither_in_hand_nor_back_from_the_discards_is_still_refused():
    msg = refused(BLITZ_FAST, arena(), "th-pass hero=rac power=warcraft", "th-pass hero=norn power=tactics",
                  "th-pass hero=rochon power=bloodthirst", "th-pass hero=aer power=valor",
                  'th-attack hero=rac target=["rochon","norn"] power=nova spell=true '
                  'defend=["fiery-purge","bloodthirst"]')
    assert "Ann does not hold Bloodthirst" in msg


# --- 3. Spell Ward ---------------------------------------------------------------------------------

NEAR = arena(rac=(1, 0), aer=(1, 1), rochon=(-1, 0), norn=(-1, 1))


def test_spell_ward_revealed_in_defence_wards_the_hero_and_its_allies():
    """Spell Ward (p.38, errata p.38 'affected'): a Common Power's text activates when revealed (p.15),
    defenders activate texts too (errata p.16); Norn, never warded himself, is an allied Hero."""
    pre = (BLITZ_FAST, NEAR, 'th-attack hero=rac target=["rochon"] power=warcraft defend=["spell-ward"]')
    s = play(*pre).state
    assert s.heroes["rochon"].health == 8 and s.player("Ann").spell_ward
    turn = ("th-pass hero=norn power=tactics", "th-pass hero=aer power=valor",  # Warcraft put Aer above Rochon
            "th-pass hero=rochon power=bloodthirst")
    msg = refused(*pre, *turn, 'th-attack hero=rac target=["norn"] power=nova spell=true defend=["fiery-purge"]')
    assert "Norn is warded against enemy Spells" in msg


def test_spell_ward_revealed_by_the_attacker_wards_even_when_the_attack_fails():
    s = play(BLITZ_FAST, NEAR, "th-pass hero=rac power=confusion",
             'th-attack hero=norn target=["rac"] power=spell-ward defend=["frigid-night"]').state
    assert s.heroes["rac"].health == 9 and s.player("Ann").spell_ward and not s.player("Bo").spell_ward


def test_spell_ward_does_not_stop_the_spell_it_is_revealed_against():
    """'This Power does not affect Heroes who were attacked by a Spell Power before this Power was activated.'"""
    s = play(BLITZ_FAST, NEAR, "th-pass hero=rac power=confusion", "th-pass hero=norn power=tactics",
             "th-pass hero=rochon power=bloodthirst", "th-pass hero=aer power=valor",
             'th-attack hero=rac target=["rochon","norn"] power=nova spell=true defend=["spell-ward","pain-spike"]').state
    assert s.player("Ann").spell_ward
    assert s.heroes["rochon"].health == 9  # Nova 3 vs Spell Ward 4: the defence holds
    assert s.heroes["norn"].health == 8  # Nova 3 vs Pain Spike 3: tie won by Rac on Ranking, minimum 1


# --- 4. no attack on oneself -----------------------------------------------------------------------

def test_a_hero_cannot_attack_itself():
    msg = refused(BLITZ_FAST, arena(), 'th-attack hero=rac target=["rac"] power=warcraft defend=["nova"]')
    assert msg.split(": ", 1)[1].startswith("Rac cannot attack itself")


# --- 5. Quietus ------------------------------------------------------------------------------------

SOLO = "start game=theosis options=" + json.dumps(
    {"mode": "solo", "fast": True, "players": ["Ann"], "heroes": {"Ann": ["rochon", "norn"]}, "monsters": ["quietus"]},
    separators=(",", ":")) + "\n" + drafts("Ann", ["blind", "neutralize", "tenacity", "valor", "lifeswap",
                                                    "spell-ward"]) + """
th-gem hero=norn skill=whirlwind
th-gem hero=rochon
th-next
th-rank order=["norn","rochon"]
th-move hero=quietus cell=[0,0]
th-move hero=norn cell=[1,0]
th-move hero=rochon cell=[4,0]
th-pass hero=norn power=valor
th-pass hero=rochon power=lifeswap
"""


def test_flying_terror_lets_only_ranged_attacks_hit_quietus_next_turn():
    """Flying Terror (lightning face): 'Next turn, only ranged attacks can hit Quietus.'"""
    pre = (SOLO, "roll die=skull faces=[5]", "th-stamina monster=quietus threshold=1")
    msg = refused(*pre, 'th-attack hero=norn target=["quietus"] power=blind')
    assert "Flying Terror" in msg and "1 hex away" in msg
    s = play(*pre, "th-move hero=norn cell=[3,0]", 'th-attack hero=norn target=["quietus"] power=blind').state
    assert s.pending.kind == "defence-d4"


def test_shadow_in_darkness_lets_only_area_attacks_hit_quietus_next_turn():
    """Shadow in Darkness (spade face): 'Next turn, only area attacks can hit Quietus.'"""
    pre = (SOLO, "roll die=skull faces=[6]", "th-stamina monster=quietus threshold=1")
    assert "Shadow in Darkness" in refused(*pre, 'th-attack hero=norn target=["quietus"] power=blind')
    s = play(*pre, 'th-attack hero=norn target=["quietus"] power=blind skill=whirlwind').state
    assert s.pending.kind == "defence-d4"


def test_the_guard_ends_when_quietus_acts_again():
    s = play(SOLO, "roll die=skull faces=[5]", "th-pass hero=norn power=blind", "th-pass hero=rochon power=neutralize",
             "roll die=skull faces=[6]", "th-pass hero=norn power=tenacity", "th-pass hero=rochon power=spell-ward",
             "roll die=skull faces=[4]").state
    assert s.monster("quietus").guard == ()
