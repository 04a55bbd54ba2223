"""Refusals with their exact reasons (absurd numbers, values off the book's ranges), and rolls nobody awaits."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused

from dg_helpers import Table, at, lineup_options


def reason(t: Table, line: str) -> str:
    with pytest.raises(Refused) as info:
        t.do(line)
    return info.value.reason


@pytest.mark.parametrize("line,why", [
    ("dg-wound who=trapper amount=-999", "Trapper has 0 wound(s): -999 would take them below 0 (wounds run 0 to 30)"),
    ("dg-wound who=trapper amount=99999999999999",
     "amount=99999999999999 is not a sensible number (keep within ±1000000)"),
    ("dg-divine who=knight value=-999", "divine power runs 0 to 6, not -999"),
    ("dg-divine who=knight value=7", "divine power runs 0 to 6, not 7"),
    ("dg-condition who=knight name=x turns=-5", "a buff/debuff token lasts 2 turns (its '2' side) or 1 (its '1' side), "
                                                "not turns=-5 (Buffs & Debuffs, p.25; passive=true for a token "
                                                "that lasts the whole game)"),
    ("dg-condition who=knight name=x turns=99", "a buff/debuff token lasts 2 turns (its '2' side) or 1 (its '1' side), "
                                                "not turns=99 (Buffs & Debuffs, p.25; passive=true for a token "
                                                "that lasts the whole game)"),
    ("dg-condition who=knight name=x turns=0", "a buff/debuff token lasts 2 turns (its '2' side) or 1 (its '1' side), "
                                               "not turns=0 (Buffs & Debuffs, p.25; passive=true for a token "
                                               "that lasts the whole game)"),
    ("dg-condition who=knight name=x passive=true turns=3", "a buff/debuff token lasts 2 turns (its '2' side) or 1 "
                                                            "(its '1' side), not turns=3 (Buffs & Debuffs, p.25)"),
    ("dg-condition who=knight name=x wounds=-1", "wounds of a token cannot be negative (wounds=-1)"),
    ("dg-condition who=knight name=x stat=bogus amount=2",
     "unknown stat 'bogus'; stats: damage, physical_defense, magical_defense, defense, morale, initiative, ap, "
     "knockdown, burn, freeze, immobilize, banish, bleed"),
    ("dg-condition who=knight name=x scope=bogus", "scope is 'character' or 'global', not 'bogus'"),
    ('dg-use who=knight targets=["trapper"] distance=-5', "a distance is counted in fields, 0 or more, not -5"),
    ("dg-place who=knight cell=[0,99999999]", "cell=99999999 is not a sensible number (keep within ±1000000)"),
    ("dg-place who=knight cell=[-5,-5]",
     "fields are counted from 0 at the north-west corner: (-5, -5) is off the board"),
    ("dg-place who=knight facing=99", "facing is 0 (north), 1 (east), 2 (south) or 3 (west), not 99"),
    ("dg-move who=knight ap=1 facing=-1", "facing is 0 (north), 1 (east), 2 (south) or 3 (west), not -1"),
])
def test_numbers_off_the_books_ranges_are_refused(line, why):
    assert reason(at("knight"), line) == why


def test_in_range_corrections_still_apply():
    t = at("knight").do("dg-wound who=trapper amount=3", "dg-divine who=knight value=6")
    assert (t.ch("trapper").wounds, t.ch("knight").divine) == (3, 6)
    # Buffs & Debuffs (p.25): a token starts on its '2' or its '1' side; a passive one lasts the game
    t.do("dg-condition who=trapper name=a stat=damage amount=-3 turns=1",
         "dg-condition who=trapper name=b stat=damage amount=-1 turns=2",
         "dg-condition who=trapper name=c stat=damage amount=2 passive=true buff=true turns=0")
    assert [(c.name, c.turns, c.passive) for c in t.ch("trapper").conditions] == [
        ("a", 1, False), ("b", 2, False), ("c", 0, True)]
    t.do("dg-wound who=trapper amount=-3")
    assert t.ch("trapper").wounds == 0


def test_plain_rolls_nobody_awaits_stay_in_the_tray():
    t = Table(lineup_options()).do("roll die=dg-demigod faces=[3,5]")
    before = t.st
    for line in ("roll die=d6 faces=[3]", "roll faces=[3,4]"):
        t.do(line)
    assert t.st == before
    assert [r.faces for r in t.ts.tray.rolls] == [(3, 5), (3,), (3, 4)]
    assert t.ts.log[-1].text == "Rolled 2d6: 3, 4 (total 7)"


def test_plain_d6_during_an_attack_is_left_to_the_tray():
    t = at("knight").do('dg-use who=knight targets=["trapper"]')
    pending = t.st.pending
    assert pending is not None
    t.do("roll die=d6 faces=[2]")
    assert t.st.pending == pending and t.ts.tray.rolls[-1].faces == (2,)


def test_wounds_beyond_health_kill_and_stop_at_health():
    """'Wounds': wounds equal to or greater than health kill and remove the character; the count stops
    at health (hand entry and attack alike), and no token can be placed on the slain."""
    t = at("knight").do("dg-wound who=knight amount=1000")
    knight = t.ch("knight")
    assert (knight.out, knight.wounds, knight.health) == ("slain", 40, 40)
    assert reason(t, "dg-condition who=knight name=x stat=damage amount=2") == (
        "Knight is out of the game (slain): no buff or debuff token can be placed")
    # a global token names a character only to pick the side, which is still in play (a review)
    side = t.do("dg-condition who=knight name=rally stat=damage amount=1 scope=global").st.global_conditions
    assert [c.name for conds in side.values() for c in conds] == ["rally"]


def test_a_global_token_naming_a_demigod_keeps_its_two_turns():
    """'Global buffs and debuffs affect an entire team'; only tokens cast on a Demigod or caused by one
    last one turn ('Demigods'). Naming the Demigod to pick the side made it a one-turn token (a review)."""
    t = at("knight")
    demigod = next(c for c in t.st.chars.values() if c.kind == "demigod" and c.alive)
    side = t.do(f"dg-condition who={demigod.id} name=rally stat=damage amount=1 scope=global").st.global_conditions
    assert [c.turns for conds in side.values() for c in conds] == [2]
    own = t.do(f"dg-condition who={demigod.id} name=focus stat=damage amount=1").ch(demigod.id)
    assert [c.turns for c in own.conditions if c.name == "focus"] == [1]  # a token on the Demigod itself


def test_wounding_a_slain_character_is_refused():
    t = at("knight").do("dg-wound who=trapper amount=30")
    assert t.ch("trapper").out == "slain"
    assert reason(t, "dg-wound who=trapper amount=1") == "Trapper is out of the game (slain): no wounds to correct"


@pytest.mark.parametrize("line,why", [
    ("roll die=d20 faces=[17]", "Demigods Evolution uses no 'd20' die; its dice: dg-demigod (faces 1-6), d6 (faces 1-6), "
                                "dg-slashing (faces 1-6), dg-piercing (faces 1-6), dg-bludgeoning (faces 1-6), "
                                "dg-fire (faces 1-6), dg-ice (faces 1-6), dg-arcane (faces 1-6)"),
    ("roll die=banana faces=[3]", "Demigods Evolution uses no 'banana' die; its dice: dg-demigod (faces 1-6)"),
    ("roll die=dg-fire faces=[7]", "a dg-fire die of Demigods Evolution shows 1 to 6, not 7"),
])
def test_dice_demigods_does_not_roll_are_refused(line, why):
    """'Attack Dice' (p.24): six attack types, each die with six printed results, and the Demigod
    dice: any other kind, or a face off the die, is refused and stays out of the tray."""
    t = at("knight")
    rolls = t.ts.tray.rolls
    assert reason(t, line).startswith(why)
    assert t.ts.tray.rolls == rolls
