"""The roll the rules wait for (``rules/kernel/awaited.py``): its kinds and counts from ``Game.awaits``,
in words; a camera throw of other dice leaves the game as it was, stays the tray's and is noticed
with what was expected and what was seen, until the game takes an event; whether the camera must
tell die kinds apart (symbol dice no pip die stands in for)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena_table.rules import DiceRolled, GameStarted, Refused, apply, find_game, parse, replay
from arena_table.rules.kernel.awaited import awaited_dice, expected_words, kinds_to_read
from arena_table.rules.kernel.table import table_view

sys.path.insert(0, str(Path(__file__).parent / "demigods"))
from dg_helpers import elemental_sword_attack  # noqa: E402

TH = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}


def _attack():
    """Demigods, 'Example Demigod turn' (pp.28-29): the Elemental Sword waits for ice, fire and slashing dice."""
    return elemental_sword_attack().ts


def test_a_demigods_attack_waits_for_its_three_dice_by_kind():
    ts = _attack()
    game = find_game(ts.game)
    got = [(a.name, a.count, a.kind.id) for a in awaited_dice(game, ts.state)]
    assert sorted(got) == [("dg-fire", 1, "demigods-fire"), ("dg-ice", 1, "demigods-ice"),
                           ("dg-slashing", 1, "demigods-slashing")]
    assert table_view(ts)["awaits"] == "1 Ice attack die, 1 Fire attack die and 1 Slashing attack die"
    assert {k.id for k in kinds_to_read(game, ts.state)} >= {"demigods-ice", "demigods-demigod", "demigods-arcane"}
    assert not any(k.counter for k in kinds_to_read(game, ts.state))  # divine dice are set, not thrown


def test_the_demigod_order_roll_takes_a_plain_d6_and_is_read_as_pips():
    lines = [ln for ln in open("examples/demigods-tactics.txt").read().splitlines() if ln and not ln.startswith("#")]
    ts = replay([parse(x) for x in lines[:lines.index("roll die=dg-demigod faces=[2,3]")]])
    game = find_game(ts.game)
    assert table_view(ts)["awaits"] == "2 Demigod dice (or 2 d6)"
    assert kinds_to_read(game, ts.state) == ()


def test_the_thieves_guild_die_is_read_as_pips_a_plain_d6_stands_in():
    ts = replay([GameStarted(game="theosis", options=TH), parse("th-place hero=rochon location=guardian golden=true"),
                 parse("th-place hero=aer location=righteous golden=true"),
                 parse("th-place hero=rac location=thieves-guild target=lug")])
    assert expected_words(awaited_dice(find_game("theosis"), ts.state)) == "1 Thieves' Guild die (or 1 d6)"
    assert kinds_to_read(find_game("theosis"), ts.state) == ()
    after = apply(ts, DiceRolled(die="d6", faces=(3, 5, 1), source="sim"))
    assert after.state == ts.state and after.tray.rolls[-1].faces == (3, 5, 1)
    assert after.refused_roll.message == ("not the roll the game waits for: expected 1 Thieves' Guild die (or 1 d6); "
                                          "the camera saw 3d6 (3, 5, 1)")
    taken = apply(after, DiceRolled(die="d6", faces=(3,), source="sim"))
    assert taken.refused_roll is None and taken.state.pending is None


def test_other_dice_thrown_at_a_waiting_attack_are_noticed_and_nothing_is_lost():
    ts = _attack()
    records = elemental_sword_attack().records
    wrong = DiceRolled(kinds=("demigods-demigod", "demigods-piercing"), faces=(5, "critical"), source="camera:0")
    after = apply(ts, wrong)
    assert after.state == ts.state and after.tray.rolls[-1].kinds == ("demigods-demigod", "demigods-piercing")
    shown = table_view(after)["roll_refused"]
    assert shown == {"seq": after.seq, "expected": "1 Ice attack die, 1 Fire attack die and 1 Slashing attack die",
                     "seen": "1 Demigod die (5) and 1 Piercing attack die (critical)",
                     "message": "not the roll the game waits for: expected 1 Ice attack die, 1 Fire attack die and "
                                "1 Slashing attack die; the camera saw 1 Demigod die (5) and 1 Piercing attack die "
                                "(critical)"}
    assert replay(records + [(after.seq, wrong)]).refused_roll == after.refused_roll  # the log rebuilds it
    typed = DiceRolled(kinds=("demigods-demigod",), faces=(5,))  # entered by a person: the rules refuse it outright
    with pytest.raises(Refused, match="no Demigod dice roll is awaited"):
        apply(ts, typed)


def test_a_free_throw_while_nothing_is_awaited_is_no_refusal():
    ts = replay([GameStarted(game="theosis", options=TH)])
    after = apply(ts, DiceRolled(die="d6", faces=(4, 4), source="camera:0"))
    assert after.refused_roll is None and table_view(after)["awaits"] == ""


def test_a_misread_die_of_the_mixed_throw_is_corrected_by_its_symbol():
    """The camera read the fire die Critical; it showed 2. 'Example Demigod turn' (pp.28-29) with the
    fire die a 2 instead: -2 (Failure, no mana user) + 2 + 1 = +1, so 11 magical damage; the
    Blacksmith (weak spot +2) takes 13 - 1 = 12 wounds (38 -> 26), the Trapper 11 - 2 = 9 (30 -> 21)."""
    from arena_table.rules import DieCorrected
    from arena_table.rules.kernel.table import correct

    t = elemental_sword_attack()
    seq = t.ts.seq + 1
    t.do("roll kinds=[demigods-ice,demigods-fire,demigods-slashing,demigods-demigod] faces=[failure,critical,1,4] "
         "source=camera:0")
    assert (t.ch("blacksmith").health_left, t.ch("trapper").health_left) == (24, 19)  # as the book
    fixed = correct(t.records, (seq + 1, DieCorrected(roll=seq, index=1, value="2")))
    chars = fixed.state.chars
    assert (chars["blacksmith"].health_left, chars["trapper"].health_left) == (26, 21)
    assert fixed.tray.rolls[-1].faces == ("failure", 2, 1, 4) and fixed.tray.rolls[-1].sensed[1] == "critical"
