"""Correct any die, any time: a ``correct`` of an earlier roll replays the events after it with the
corrected value (``rules/kernel/corrections.py``); the log keeps what was read.

Acceptance (issue 28): a correction of a roll five events back replays to the same state as
entering the corrected roll in the first place. Checked on every golden transcript that rolls
the table's dice (Theosis, Demigods, Euthia), on Sword & Sorcery's battle phase example with its
throws entered as rolls by die kind, and on the dice tray (tests/rules/test_kernel.py), for every
other face: either the same game state, or, when the corrected value makes one of the five events
illegal, a refusal naming that event.
"""

from __future__ import annotations

import dataclasses

import pytest

from arena_table.rules import (DiceRolled, DieCorrected, Dropped, GameStarted, LaterEventRefused, Refused, Undone,
                               apply, correct, digest, find_game, parse, replay)
from arena_table.rules.kernel.mechanics.dice import sides_of

from test_golden_transcripts import FILES, _id, load  # noqa: E402  (tests/rules is on sys.path)

BACK = 5
"""Events between the roll and its correction."""


def rolls_with_five_after(events):
    """Indices of the rolls with :data:`BACK` events of the same game after them."""
    for i, ev in enumerate(events):
        after = events[i + 1:i + 1 + BACK]
        if isinstance(ev, DiceRolled) and len(after) == BACK and not any(isinstance(e, GameStarted) for e in after):
            yield i


def faces_of(game_title: str, die: str, ts) -> int:
    game = find_game(ts.game)
    sides = sides_of(die)
    if sides is None and game.dice is not None:
        sides = dict(game.dice(ts.state)).get(die)
    return sides or 6


ROLLING = [p for p in FILES if next(rolls_with_five_after(load(p)[0]), None) is not None]


def test_the_games_that_take_kernel_rolls_have_transcripts_here():
    games = {replay(load(p)[0][:1]).game for p in ROLLING}
    assert {"theosis", "demigods", "euthia"} <= games


@pytest.mark.parametrize("path", ROLLING, ids=_id)
def test_a_correction_five_events_back_replays_to_entering_it_right_first(path):
    """Each roll of the transcript in turn, until one whose corrected first die changes the game:
    for every other face, the correction five events later gives the state of that face entered
    at once, or names the first of the five events it makes illegal."""
    events, _ = load(path)
    for k in rolls_with_five_after(events):
        if check_every_face(events, k):
            return
    assert replay(events[:1]).game not in ("theosis", "demigods"), "no correction changed the game"


def check_every_face(events, k) -> int:
    """Check the corrections of roll ``events[k]``'s first die; returns how many changed the game."""
    roll = events[k]
    records = list(enumerate(events[:k + 1 + BACK], start=1))
    roll_seq = k + 1
    before = replay(records)
    sides = faces_of(before.game, roll.die, replay(records[:k]))
    changed = 0
    for value in range(1, sides + 1):
        if value == roll.faces[0]:
            continue
        fix = DieCorrected(roll=roll_seq, index=0, value=value)
        right = dataclasses.replace(roll, faces=(value,) + roll.faces[1:])
        first = records[:k] + [(roll_seq, right)] + records[k + 1:]
        refused: list = []
        entered = replay(first, strict=False, refused=refused)
        if refused:  # one of the five events is illegal under the corrected value: it is named
            with pytest.raises(LaterEventRefused) as exc:
                correct(records, (len(records) + 1, fix))
            assert exc.value.later_seq == refused[0][0] and exc.value.later_reason == refused[0][2].reason
            continue
        corrected = correct(records, (len(records) + 1, fix))
        assert corrected.state == entered.state
        assert [r.faces for r in corrected.tray.rolls] == [r.faces for r in entered.tray.rolls]
        assert corrected.state == replay(records + [(len(records) + 1, fix)]).state  # the log gives it too
        sensed = next(r for r in corrected.tray.rolls if r.seq == roll_seq)
        assert sensed.sensed == roll.faces  # what was read is kept
        changed += corrected.state != before.state
    return changed


def example(name):
    return [parse(ln) for ln in open(f"examples/{name}.txt").read().splitlines() if ln.strip() and not ln.startswith("#")]


def test_theosis_mercenary_camp_d4_corrected_five_events_later_pays_the_corrected_gold():
    """Theosis p.11, Mercenary Camp: the player gains gold equal to the d4. Norn's player Ann rolled
    3; five placements later the die is corrected to 1: Ann has 2 gold less than with the 3, the
    same as if 1 had been entered at once, and the log still holds the 3 read."""
    events = example("theosis-pvp-12")
    k = events.index(parse("roll die=d4 faces=[3]"))
    records = list(enumerate(events[:k + 1 + BACK], start=1))
    three = replay(records)
    fixed = correct(records, (len(records) + 1, DieCorrected(roll=k + 1, index=0, value=1)))
    assert fixed.state.player("Ann").gold == three.state.player("Ann").gold - 2
    one = records[:k] + [(k + 1, parse("roll die=d4 faces=[1]"))] + records[k + 1:]
    assert fixed.state == replay(one).state
    roll = next(r for r in fixed.tray.rolls if r.seq == k + 1)
    assert records[k][1].faces == (3,) and (roll.faces, roll.sensed) == ((1,), (3,))
    assert fixed.log[-1].text == f"Corrected die #1 of roll {k + 1} from 3 to 1"


def test_demigods_later_events_made_illegal_are_named_then_dropped_with_the_correction():
    """Demigods, "Demigod Phase": the Demigod dice decide who acts first. Correcting them after
    five events makes the activation that followed illegal (another Demigod acts first): the
    refusal names it; dropping each named event with the correction gives the state of the log
    without them and with the corrected dice, and the dropped events stay in the log."""
    events = example("demigods-tactics")
    k = events.index(parse("roll die=dg-demigod faces=[2,3]"))
    records = list(enumerate(events[:k + 1 + BACK], start=1))
    fix = DieCorrected(roll=k + 1, index=0, value=5)
    drops: list = []
    while True:
        seq = len(records) + len(drops) + 1
        try:
            ts = correct(records, (seq, fix), drops)
            break
        except LaterEventRefused as exc:
            assert f"event #{exc.later_seq} ({records[exc.later_seq - 1][1]}) illegal" in str(exc)
            assert exc.later_seq > k + 1 and exc.later_seq not in [d.seq for _, d in drops]
            drops.append((seq, Dropped(seq=exc.later_seq, reason=exc.later_reason)))
    assert drops, "the corrected dice change who acts: some later event must be refused"
    log = records + drops + [(seq, fix)]
    assert replay(log).state == ts.state
    kept = [(s, e) for s, e in records if s not in {d.seq for _, d in drops}]
    right = [(s, dataclasses.replace(e, faces=(5, 3)) if s == k + 1 else e) for s, e in kept]
    assert replay(right).state == ts.state
    assert [str(e) for _, e in log[:len(records)]] == [str(e) for e in events[:k + 1 + BACK]]  # nothing lost


@pytest.mark.parametrize("drop,why", [
    (Dropped(seq=99), "no event #99 in effect"),
    (Dropped(seq=1), "comes before roll"),
])
def test_a_drop_names_a_later_event_in_effect(drop, why):
    events = example("demigods-tactics")
    k = events.index(parse("roll die=dg-demigod faces=[2,3]"))
    records = list(enumerate(events[:k + 1 + BACK], start=1))
    n = len(records)
    with pytest.raises(Refused, match=why):
        correct(records, (n + 2, DieCorrected(roll=k + 1, index=0, value=5)), [(n + 1, drop)])


@pytest.mark.parametrize("fix,why", [
    (DieCorrected(roll=2, index=0, value=3), "no roll with seq 2"),
    (DieCorrected(roll=1, index=1, value=3), "no die with index 1"),
    (DieCorrected(roll=1, index=0, value=7), "impossible on a d6"),
])
def test_a_correction_of_no_roll_die_or_face_is_refused(fix, why):
    records = [(1, DiceRolled(faces=(4,))), (2, DiceRolled(faces=(2,))), (3, Undone(seq=2))]
    with pytest.raises(Refused, match=why):
        correct(records, (4, fix))


def test_a_correction_of_a_roll_of_an_earlier_game_changes_nothing_of_it():
    records = [(1, DiceRolled(faces=(4,))), (2, GameStarted(game="dice-tray")), (3, DiceRolled(faces=(2,)))]
    with pytest.raises(Refused, match="no roll with seq 1 in this game"):
        correct(records, (4, DieCorrected(roll=1, index=0, value=1)))
    refused: list = []
    ts = replay(records + [(4, DieCorrected(roll=1, index=0, value=1))], strict=False, refused=refused)
    assert [r.faces for r in ts.tray.rolls] == [(2,)] and [s for s, _, _ in refused] == [4]


def test_apply_leaves_a_correction_to_replay():
    ts = replay([DiceRolled(faces=(4,))])
    with pytest.raises(Refused, match="resolved by replaying the log"):
        apply(ts, DieCorrected(roll=1, index=0, value=2))
    assert str(Dropped(seq=3, reason="x")) == "drop seq=3 reason=x" and parse("drop seq=3 reason=x") == Dropped(seq=3, reason="x")


def test_a_die_of_a_kind_is_corrected_to_a_face_by_its_symbol():
    """Demigods "Attack": the attack die read as a 1, corrected five events later to the face the
    book prints as Critical (``value=critical``): the state is that of Critical entered at once."""
    events = example("demigods-tactics")
    k = events.index(parse("roll die=dg-bludgeoning faces=[3]"))
    read = parse("roll kinds=[demigods-bludgeoning] faces=[1]")
    records = list(enumerate(events[:k] + [read] + events[k + 1:k + 1 + BACK], start=1))
    fix = parse(f"correct roll={k + 1} index=0 value=critical")
    assert fix.value == "critical" and parse(str(fix)) == fix
    ts = correct(records, (len(records) + 1, fix))
    right = records[:k] + [(k + 1, parse("roll kinds=[demigods-bludgeoning] faces=[critical]"))] + records[k + 1:]
    assert ts.state == replay(right).state != replay(records).state
    roll = next(r for r in ts.tray.rolls if r.seq == k + 1)
    assert (roll.faces, roll.sensed) == (("critical",), (1,))
    with pytest.raises(Refused, match="has no face"):
        correct(records, (len(records) + 1, parse(f"correct roll={k + 1} index=0 value=banana")))
    numbered = list(enumerate(events[:k + 1], start=1))
    with pytest.raises(Refused, match="shows a number, not 'critical'"):
        correct(numbered, (k + 2, fix))


def sns_by_kinds(events):
    """A Sword & Sorcery transcript with its attack and defence throws (``sns-roll`` without a team) as
    the table's own rolls by die kind (``roll kinds=[sns-red,...,sns-blue] faces=[...]``)."""
    out = []
    for e in events:
        if e.KIND == "sns-roll" and not e.team and (e.red or e.blue) and not e.shields:
            kinds = ("sns-red",) * len(e.red) + ("sns-blue",) * len(e.blue)
            out.append(DiceRolled(kinds=kinds, faces=tuple(e.red) + tuple(e.blue)))
        else:
            out.append(e)
    return out


SNS_FACES = {"sns-red": ("blank", "hit", "hit+hit", "hit+critical"), "sns-blue": ("blank", "shield", "shield+shield", "hit")}
"""Faces to correct to, by symbol (the shipped sns faces are placeholders: any symbol names a face)."""


def test_sword_and_sorcery_dice_corrected_five_events_back():
    """Sword & Sorcery, the rulebook's battle phase example with its throws entered as the table's
    rolls by die kind: each die of a throw with five events after it, corrected to each other face,
    gives the state of that face entered at once, or names the event it makes illegal; throw after
    throw until a correction changes the game."""
    path = next(p for p in FILES if _id(p) == "sword_and_sorcery/battle-phase-example")
    events = sns_by_kinds(load(path)[0])
    assert replay(events).state == replay(load(path)[0]).state  # the same game by either notation
    assert any(sns_throw_checked(events, k) for k in rolls_with_five_after(events))


def sns_throw_checked(events, k) -> int:
    """Check every other face of every die of throw ``events[k]``; returns how many changed the game."""
    roll = events[k]
    records = list(enumerate(events[:k + 1 + BACK], start=1))
    before = replay(records)
    changed = 0
    for i, kind in enumerate(roll.kinds):
        for face in SNS_FACES[kind]:
            if face == roll.faces[i]:
                continue
            fix = (len(records) + 1, DieCorrected(roll=k + 1, index=i, value=face))
            right = records[:k] + [(k + 1, dataclasses.replace(roll, faces=roll.faces[:i] + (face,) + roll.faces[i + 1:]))] \
                + records[k + 1:]
            refused: list = []
            entered = replay(right, strict=False, refused=refused)
            if refused:
                with pytest.raises(LaterEventRefused) as exc:
                    correct(records, fix)
                assert exc.value.later_seq == refused[0][0]
                continue
            ts = correct(records, fix)
            assert ts.state == entered.state
            changed += ts.state != before.state
    return changed
