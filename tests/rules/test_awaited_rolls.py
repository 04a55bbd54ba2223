"""Rolls go where the rules ask: a camera roll enters the game only while the game waits for dice
of its kind, no more of them than it waits for (``Game.awaits``); any other throw is the tray's,
kept and shown, the game unchanged. A roll a person enters is the game's as before."""

from __future__ import annotations

from arena_table.rules import DiceRolled, GameStarted, apply, digest, parse, replay
from arena_table.rules.kernel.table import new_table

TH = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}


def play(lines, ts=None):
    ts = ts or new_table("dice-tray")
    records = []
    for line in lines:
        ev = parse(line) if isinstance(line, str) else line
        ts = apply(ts, ev)
        records.append((ts.seq, ev))
    return ts, records


def theosis_at_the_thieves_guild():
    return play([GameStarted(game="theosis", options=TH), "th-place hero=rochon location=guardian golden=true",
                 "th-place hero=aer location=righteous golden=true",
                 "th-place hero=rac location=thieves-guild target=lug"])


def test_a_camera_throw_of_three_dice_is_not_the_thieves_guild_d6():
    ts, records = theosis_at_the_thieves_guild()
    gold = ts.state.player("Bo").gold
    throw = DiceRolled(die="d6", faces=(3, 5, 1), source="sim")
    after = apply(ts, throw)
    assert after.state == ts.state  # the game still waits for its d6; Bo keeps his gold
    assert after.state.pending.kind == "thieves-d6" and after.state.player("Bo").gold == gold
    assert [r.faces for r in after.tray.rolls][-1] == (3, 5, 1)  # kept and shown by the tray
    assert after.log[-1].text == "Tray roll 3d6: 3, 5, 1 (total 9)"
    one = apply(after, DiceRolled(die="d6", faces=(3,), source="sim"))  # the d6 it asked for
    assert one.state.pending is None
    assert one.state.player("Bo").gold == gold - 2  # face 3: steal 2 gold (the default faces)
    ts_all, recs = play([throw, DiceRolled(die="d6", faces=(3,), source="sim")], ts)
    assert digest(replay(records + [(records[-1][0] + 1, throw), (records[-1][0] + 2, recs[1][1])])) == digest(ts_all)


def test_a_camera_throw_while_the_game_waits_for_no_roll_changes_nothing():
    ts, _ = play([GameStarted(game="theosis", options=TH)])
    after = apply(ts, DiceRolled(die="d6", faces=(4, 4), source="camera:0"))
    assert after.state == ts.state and len(after.tray.rolls) == 1


def test_a_roll_a_person_enters_is_the_games_as_before():
    ts, _ = theosis_at_the_thieves_guild()
    after = apply(ts, DiceRolled(die="d6", faces=(3,), source="control"))
    assert after.state.pending is None


def test_demigods_takes_a_camera_2d6_as_the_two_demigod_dice_it_waits_for_and_no_other_throw():
    lines = [ln for ln in open("examples/demigods-tactics.txt").read().splitlines() if ln and not ln.startswith("#")]
    ts, _ = play(lines[:lines.index("roll die=dg-demigod faces=[2,3]")])
    assert ts.state.acting is None and ts.state.phase == "demigod"
    three = apply(ts, DiceRolled(die="d6", faces=(2, 3, 6), source="sim"))
    assert three.state == ts.state
    two = apply(ts, DiceRolled(die="d6", faces=(2, 3), source="sim"))
    assert two.state.acting == "protector"  # as the transcript's roll die=dg-demigod faces=[2,3]
    attack = play(lines[lines.index("roll die=dg-demigod faces=[2,3]") + 1:lines.index("roll die=dg-bludgeoning faces=[3]")],
                  two)[0]
    assert attack.state.pending is not None
    assert apply(attack, DiceRolled(die="d6", faces=(3,), source="sim")).state == attack.state  # not an attack die


def test_undo_takes_back_the_players_placement_not_the_camera_roll_after_it():
    from arena_table.rules import undo_target

    ts, records = theosis_at_the_thieves_guild()
    records.append((records[-1][0] + 1, DiceRolled(die="d6", faces=(2, 6, 6), source="sim")))
    assert str(undo_target(records)[1]) == "th-place hero=rac location=thieves-guild target=lug"
    tray = [(1, DiceRolled(faces=(4,), source="sim")), (2, DiceRolled(faces=(5,), source="sim"))]
    assert undo_target(tray)[0] == 2  # the dice tray: its throws are all there is to undo
