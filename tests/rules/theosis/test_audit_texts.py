"""Rules-audit fixes, each built from the rulebook text (../shared/rulebooks/theosis.txt, FAQ and
errata) with hand-computed values. Ranking after ARENA: 1 Rac, 2 Norn, 3 Rochon, 4 Aer (Ann: Rochon,
Norn; Bo: Rac, Aer)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from arena_table.rules import Refused, find_game, parse
from arena_table.rules.games.theosis.mats import equipped, mitigation

from th_helpers import ARENA, fast_blitz, play

GAME = find_game("theosis")
ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "despair", "valor", "lifeswap", "last-stand"]
ITEMS = {"plate": {"kind": "armor", "name": "Plate", "protection": ["physical"]},
         "club": {"kind": "weapon", "name": "Club", "damage": 2, "hands": 1}}


def _apply(s, *texts):
    for t in texts:
        s = GAME.apply(s, parse(t))
    return s


def _ids(s, hero):
    return [i["id"] for i in equipped(s, hero)]


# --- Sunder Weapon / Sunder Armor: each flips its own kind only ------------------------------------

def _sunder(attacker: str, archetype: str, skill: str):
    """Rac carries Plate (Physical protection) and a Club (2); he passes; the attacker (2nd) uses
    ``skill`` with Fiery Purge's values (4) against Valor (1)."""
    start = fast_blitz(["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "spell-ward"],
                       ["warcraft", "nova", "confusion", "valor", "lifeswap", "frigid-night"],
                       archetypes={attacker: archetype}, heroes={"Ann": ["rochon", attacker], "Bo": ["rac", "aer"]},
                       extra_options='"items":' + json.dumps(ITEMS), gems={attacker: skill})
    return [start, "th-equip hero=rac item=plate",
            "th-equip hero=rac item=club", "th-next", 'th-allocate player=Bo gold={"rac":3}',
            f'th-allocate player=Ann gold={{"{attacker}":2,"rochon":1}}',
            "th-move hero=rac cell=[1,0]", "th-move hero=aer cell=[4,1]", "th-move hero=rochon cell=[-4,0]",
            f"th-move hero={attacker} cell=[0,0]", "th-pass hero=rac power=warcraft",
            f'th-attack hero={attacker} target=["rac"] power=fiery-purge skill={skill} defend=["valor"]']


def test_sunder_armor_flips_armor_and_shield_only():
    """Sunder Armor (Appendix Skills, FAQ): 4 vs 1 → 3 physical, still negated by the Plate (applied first) →
    minimum 1; then the Plate goes face down, the Club (a Weapon) stays in play this turn."""
    s = play(*_sunder("garav", "moon-sentinel", "sunder-armor")).state
    assert s.last_action["lines"] == ["4 vs 1", "3 physical", "negated by Physical protection", "minimum 1"]
    assert s.heroes["rac"].health == 8
    assert _ids(s, "rac") == ["club"]
    assert mitigation(s, "rac") == (set(), set())
    s = _apply(s, "th-pass hero=rochon power=fireball", "th-pass hero=aer power=nova")
    assert s.turn == 2 and _ids(s, "rac") == ["plate", "club"]  # flipped back before the next turn


def test_sunder_weapon_flips_weapons_only():
    """Sunder Weapon (Appendix Skills): 4 vs 1 → 3 fire (the Plate protects from Physical only): Rac 9 → 6; his
    Club goes face down, the Plate keeps protecting him this turn."""
    s = play(*_sunder("lug", "fierce-dragon", "sunder-weapon")).state
    assert s.last_action["lines"] == ["4 vs 1", "3 fire"]
    assert s.heroes["rac"].health == 6
    assert _ids(s, "rac") == ["plate"]
    assert mitigation(s, "rac") == ({"physical"}, set())


# --- Profane Armor: on being attacked, whatever the outcome -----------------------------------------

def test_profane_armor_burns_two_gems_even_when_the_attack_hits():
    """Profane Armor (Appendix Skills): 'immediately after you are attacked. Remove 2 Mana Gems from the attacking
    Hero'. Fiery Purge 4 vs Valor 1 hits (3 fire, Rac 9 → 6) and Norn still loses both gems."""
    start = fast_blitz(ANN, ["warcraft", "nova", "confusion", "valor", "raise-the-dead", "frigid-night"],
                       gems={"rac": "profane-armor", "norn": "whirlwind"})
    s = play(start, "th-gem hero=norn skill=counter-attack", ARENA, "th-pass hero=rac power=warcraft",
             'th-attack hero=norn target=["rac"] power=fiery-purge defend=["valor"] '
             'defense_skill=["profane-armor"]').state
    assert s.heroes["rac"].health == 6
    assert s.heroes["norn"].mana == ()
    assert s.heroes["rac"].mana == ()  # its own gem paid for the Skill


# --- Wall of Fire on turn 1: the starting triads are safe (errata p.14) ------------------------------

def _wall_of_fire(turn: int):
    s = play(fast_blitz(ANN, BO)).state
    s = dataclasses.replace(s, players=tuple(dataclasses.replace(p, rituals=(("wall-of-fire", turn),))
                                             if p.id == "Ann" else p for p in s.players))
    return _apply(s, *[ln for ln in ARENA.strip().splitlines()], "th-move hero=rac cell=[4,0]",
                  "th-move hero=aer cell=[4,1]", "th-move hero=rochon cell=[-4,0]", "th-move hero=norn cell=[-4,1]")


def test_wall_of_fire_on_turn_one_spares_heroes_on_their_starting_triads():
    """Errata p.14: heroes on the starting triads during turn 1 'cannot be harmed by any Rituals ...
    that have an Area of Effect (no Damage is dealt)' — neither when the Wall is placed nor when Rac
    starts his turn in it (errata p.45)."""
    s = _apply(_wall_of_fire(1), "th-ritual player=Ann cells=[[4,0],[4,1],[3,1]]")
    assert s.ritual_cells == {"wall-of-fire": ((4, 0), (4, 1), (3, 1))}
    assert (s.heroes["rac"].health, s.heroes["aer"].health) == (9, 9)
    assert s.acting_hero() == "rac"
    # p.45: the same Wall on turn 2 deals four Fire Damage on placement (Rac and Aer 9 → 5)
    s = _apply(_wall_of_fire(2), "th-pass hero=rac power=warcraft", "th-pass hero=norn power=tactics",
               "th-pass hero=rochon power=bloodthirst", "th-pass hero=aer power=valor",
               "th-ritual player=Ann cells=[[4,0],[4,1],[3,1]]")
    assert s.turn == 2
    assert s.heroes["aer"].health == 5
    assert s.heroes["rac"].health == 1  # 4 on placement, 4 more as he starts his turn there (errata p.45)


# --- Pacify: no Damage to other Heroes through Skills either (p.39) ---------------------------------

PACIFY_BO = ["warcraft", "nova", "pacify", "valor", "lifeswap", "frigid-night"]
PACIFY_ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "spell-ward"]


def _pacified_rochon(archetype: str, skill: str):
    """Rac's Pacify 2 vs Tactics 1 hits Rochon (9 → 8) and lays the Curse; Norn passes."""
    return [fast_blitz(PACIFY_ANN, PACIFY_BO, archetypes={"rochon": archetype}), f"th-gem hero=rochon skill={skill}",
            ARENA, 'th-attack hero=rac target=["rochon"] power=pacify defend=["tactics"]',
            "th-pass hero=norn power=bloodthirst"]


def test_pacified_hero_cannot_use_a_damaging_skill():
    """Pacify (p.39): the Hero 'can however ... use Powers and Skills that will not inflict Damage to
    other Heroes': Red Sun Rises (2 Light to all enemies) is refused, nobody loses Health."""
    turns = _pacified_rochon("devotee-of-the-sun", "red-sun-rises")
    assert play(*turns).state.conditions == {"pacify": "rochon"}
    with pytest.raises(Refused, match="Pacified.*Red Sun Rises"):
        play(*turns, "th-skill hero=rochon skill=red-sun-rises power=fiery-purge")


def test_pacified_hero_cannot_counter_attack():
    """Pacify (p.39): 'That Hero cannot Attack' — nor strike back with Counter Attack (the defender attacks
    with its defence Power, Appendix Skills); a plain defence is still allowed (Aer's Warcraft 4 vs
    Fireball 1 → 3 physical, Norn 8 → 5)."""
    base = [fast_blitz(PACIFY_ANN, PACIFY_BO), "th-gem hero=norn skill=counter-attack", ARENA,
            'th-attack hero=rac target=["norn"] power=pacify defend=["tactics"]', "th-pass hero=norn power=bloodthirst",
            "th-pass hero=rochon power=pain-spike"]
    with pytest.raises(Refused, match="Norn is Pacified: Counter Attack would inflict Damage"):
        play(*base, 'th-attack hero=aer target=["norn"] power=warcraft defend=["fireball"] '
                    'defense_skill=["counter-attack"]')
    s = play(*base, 'th-attack hero=aer target=["norn"] power=warcraft defend=["fireball"]').state
    assert s.heroes["norn"].health == 5 and s.heroes["aer"].health == 9


# --- Warcraft / Last Stand skip removed heroes (errata p.38) -----------------------------------------

def test_warcraft_swaps_with_the_next_hero_still_in_the_game():
    """Errata p.38: the target 'switches places ... with the Hero one slot below him'; Rochon (3rd) is
    removed, so Norn (2nd) switches with Aer (4th). 4 vs Pain Spike 3 → 1 physical (Norn 9 → 8)."""
    s = play(fast_blitz(ANN, BO), ARENA, "th-adjust target=rochon health=-9 reason=test",
             'th-attack hero=rac target=["norn"] power=warcraft defend=["pain-spike"]').state
    assert s.heroes["norn"].health == 8
    assert s.ranking == ("rac", "aer", "rochon", "norn")
    assert s.acting_hero() == "aer"


def test_last_stand_rises_above_the_next_hero_still_in_the_game():
    """Last Stand (p.41): Tactics 1 vs Last Stand 4, the defence holds; Rochon (3rd) is removed, so
    Aer (4th) switches with Norn (2nd)."""
    s = play(fast_blitz(ANN, BO), ARENA, "th-adjust target=rochon health=-9 reason=test",
             "th-pass hero=rac power=warcraft",
             'th-attack hero=norn target=["aer"] power=tactics defend=["last-stand"]').state
    assert s.last_action["lines"] == ["1 vs 4", "defence holds", "no damage"]
    assert s.ranking == ("rac", "aer", "rochon", "norn")
    assert s.acting_hero() == "aer"


# --- slaying doubles only the slaying weapon (p.24 Weapons Slaying) ----------------------------------

def test_slaying_doubles_only_the_slaying_weapon():
    """p.24: 'apply double the weapon's damage' of the slaying weapon. Blind 4 + 1 artifact = 5 vs
    2 + d4 1 = 3 → 2 + 6 (Sun blade 3, slaying) + 3 (Hand axe) = 11 < 12: the token stays."""
    items = {"sun-blade": {"artifact": True, "attack": 1, "damage": 3, "hands": 1, "kind": "weapon",
                           "name": "Sun blade", "slaying": True},
             "axe3": {"damage": 3, "hands": 1, "kind": "weapon", "name": "Hand axe"}}
    opts = {"mode": "solo", "fast": True, "players": ["Ann"], "heroes": {"Ann": ["rochon", "norn"]},
            "monsters": ["kotronas"], "items": items}
    s = play("start game=theosis options=" + json.dumps(opts),
             *[f"th-draft player=Ann power={p}" for p in ("blind", "neutralize", "tenacity", "valor", "lifeswap",
                                                          "spell-ward")],
             "th-equip hero=norn item=sun-blade", "th-equip hero=norn item=axe3", "th-gem hero=rochon", "th-gem hero=norn",
             "th-next",
             'th-rank order=["norn","rochon"]', "th-move hero=kotronas cell=[0,0]", "th-move hero=norn cell=[1,0]",
             "th-stamina monster=kotronas threshold=12", 'th-attack hero=norn target=["kotronas"] power=blind',
             "roll die=d4 faces=[1]").state
    assert s.last_action["lines"] == ["4 + 1 artifact = 5 vs 2 + 1 d4 = 3",
                                      "2 + 6 weapon + 3 weapon = 11 physical < 12: the Stamina Token stays"]
    assert s.monster("kotronas").tokens == 5


# --- Raise the Dead in defence (Appendix Powers) -----------------------------------------------------------------

RAISE_BO = ["warcraft", "nova", "confusion", "valor", "raise-the-dead", "frigid-night"]


def test_raise_the_dead_defends_with_the_raised_powers_values():
    """Raise the Dead (Appendix Powers): 'When this Power is revealed ... use the Discarded Power's Attack value
    and Defense value'. Rac discarded Frigid Night (0,4): Fiery Purge 4 vs 4, the tie goes to Rac
    (1st): no damage, no Curse. Frigid Night stays in the discard pile."""
    s = play(fast_blitz(ANN, RAISE_BO), ARENA, "th-pass hero=rac power=frigid-night",
             'th-attack hero=norn target=["rac"] power=fiery-purge defend=["raise-the-dead"] '
             'choice={"defender_raise":"frigid-night"}').state
    assert s.last_action["lines"] == ["4 vs 4", "tie won by Rac on Ranking", "no damage"]
    assert s.heroes["rac"].health == 9 and s.conditions == {}
    assert s.player("Bo").discard == ("frigid-night", "raise-the-dead")


def test_raise_the_dead_defence_with_warcraft_and_its_checks():
    """Warcraft (4,0) raised: Fireball 3 vs 0 → 3 physical (Rac 9 → 6). ``raise`` names the defender's card
    when the attacker does not play Raise the Dead; a card not in the discard pile is refused."""
    base = [fast_blitz(ANN, RAISE_BO), ARENA, "th-pass hero=rac power=warcraft"]
    s = play(*base, 'th-attack hero=norn target=["rac"] power=fireball defend=["raise-the-dead"] '
                    'choice={"raise":"warcraft"}').state
    assert s.last_action["lines"] == ["3 vs 0", "3 physical"]
    assert s.heroes["rac"].health == 6
    with pytest.raises(Refused, match="Frigid Night is not in the discard pile"):
        play(*base, 'th-attack hero=norn target=["rac"] power=fireball defend=["raise-the-dead"] '
                    'choice={"defender_raise":"frigid-night"}')


# --- Catharsis removes one Curse per hero (Appendix Skills) --------------------------------------------------------

def test_catharsis_removes_the_only_curse_of_a_pacified_hero():
    """Catharsis (Appendix Skills) heals 1 and 'You and each adjacent ally may remove one Curse of your choice':
    Rochon (Pacified, 8) heals to 9 and the Pacify Curse goes. A Pacified Hero may use it: it deals
    no Damage (p.39)."""
    s = play(*_pacified_rochon("hospitaler", "catharsis"),
             'th-skill hero=rochon skill=catharsis power=fiery-purge target=["rochon","norn"]').state
    assert s.heroes["rochon"].health == 9
    assert s.conditions == {}


def test_catharsis_removes_the_chosen_curse_of_each_hero():
    """With two Curses the player names one per hero (choice ``curse``): Rochon drops Pacify and keeps
    Poison; Norn's only Curse (Terror) goes by default."""
    s = play(*_pacified_rochon("hospitaler", "catharsis")).state
    s = dataclasses.replace(s, conditions={"pacify": "rochon", "poison": "rochon", "terror": "norn"})
    with pytest.raises(Refused, match="Rochon has 2 Curses"):
        _apply(s, 'th-skill hero=rochon skill=catharsis power=fiery-purge target=["rochon","norn"]')
    with pytest.raises(Refused, match="no Fiery Purge Curse on Rochon"):
        _apply(s, 'th-skill hero=rochon skill=catharsis power=fiery-purge target=["rochon","norn"] '
                  'choice={"curse":{"rochon":"fiery-purge"}}')
    s = _apply(s, 'th-skill hero=rochon skill=catharsis power=fiery-purge target=["rochon","norn"] '
                  'choice={"curse":{"rochon":"pacify"}}')
    assert s.conditions == {"poison": "rochon"}
    assert s.heroes["rochon"].health == 9


# --- Ritual choices are checked against the board (pp.44-45) ---------------------------------------------

SOLO = ["start game=theosis options=" + json.dumps(
    {"mode": "solo", "fast": True, "players": ["Ann"], "heroes": {"Ann": ["rochon", "norn"]}, "monsters": ["kotronas"]}),
    *[f"th-draft player=Ann power={p}" for p in ("blind", "neutralize", "tenacity", "valor", "lifeswap", "spell-ward")],
    "th-gem hero=norn skill=whirlwind", "th-gem hero=rochon", "th-equip hero=norn item=artifact-sword", "th-next",
    'th-rank order=["rochon","norn"]', "th-move hero=rochon cell=[4,0]", "th-move hero=norn cell=[1,0]",
    "th-move hero=kotronas cell=[0,0]", "th-bless hero=rochon power=valor target=norn",
    'th-stamina monster=kotronas threshold=3 resist=["physical"]']
WHIRLWIND = 'th-attack hero=norn target=["kotronas"] power=neutralize skill=whirlwind choice={"banner":true}'


def test_banner_choice_is_refused_without_a_banner_under_the_hero():
    """Banner of Victory (p.45) gives +1 'while on one of those Hexes': with no Banner in the Arena the
    claim is refused, with the Banner elsewhere too; on it the +1 is counted once."""
    with pytest.raises(Refused, match="no Banner of Victory in the Arena"):
        play(*SOLO, WHIRLWIND)
    s = dataclasses.replace(play(*SOLO).state, ritual_cells={"banner-of-victory": ((2, -1), (2, -2), (3, -2))})
    with pytest.raises(Refused, match=r"Norn does not stand on the Banner of Victory \(\[1, 0\];"):
        _apply(s, WHIRLWIND)
    # Norn on the Banner: 3 + 1 artifact + 1 skill + 1 Valor + 1 Banner = 7 vs 2 + 4 = 6 (Monster Defense
    # example), the +1 counted once
    s = dataclasses.replace(play(*SOLO).state, ritual_cells={"banner-of-victory": ((1, 0), (1, -1), (2, -1))})
    s = _apply(s, WHIRLWIND, "roll die=d4 faces=[4]")
    assert s.last_action["lines"][0] == "3 + 1 artifact + 1 skill + 1 Valor + 1 Banner of Victory = 7 vs 2 + 4 d4 = 6"
