"""Rules kernel: notation round-trip, JSON form, replay == live, undo, registry."""

import pytest

from arena_table.rules import (DiceRolled, DieCorrected, GameStarted, correct, Refused, NotationError, Note,
                               NothingToUndo, TagPlaced, TagRemoved, Undone, apply, digest, find_game, from_json,
                               new_table, parse, replay, to_json, undo_target, UnknownGame)
from arena_table.rules.kernel.mechanics.dice import stats

EVENTS = [
    DiceRolled(die="d6", faces=(3, 5, 6), source="sim", at=12.5),
    DiceRolled(die="d4", faces=(1,), source="camera 0", image="2026/roll-7.jpg",
               crops=("a.jpg",), confidence=(0.93,)),
    DieCorrected(roll=1, index=2, value=4, at=1.0),
    GameStarted(game="dice-tray"),
    GameStarted(game="theosis", options={"mode": "pvp", "players": ["Ann", "Bo"], "n": 2}),
    Undone(seq=7),
    TagPlaced(pad=2, uid="04A1B2C3D4E5F6", object="theosis:hero:rochon"),
    TagRemoved(pad=2, uid="04A1B2C3D4E5F6"),
    Note(text='says "hello" = fine'),
    Note(text="true"),
    Note(text="-12"),
]


@pytest.mark.parametrize("ev", EVENTS, ids=lambda e: e.KIND)
def test_notation_round_trips(ev):
    assert parse(str(ev)) == ev
    assert from_json(to_json(ev)) == ev


def test_notation_text_is_compact():
    assert str(DiceRolled(faces=(3, 5))) == "roll faces=[3,5]"
    assert str(Note(text="a b")) == 'note text="a b"'


@pytest.mark.parametrize("text,needle", [
    ("", "empty"),
    ("fly to=moon", "unknown event kind 'fly'"),
    ("roll faces=[3,x y]", r"bad value for faces: not JSON \(Expecting value at character 4 of the value\)"),
    ("roll faces=3", "expected a list"),
    ("roll wings=2", "no field 'wings'"),
    ("correct roll=1 index=0", "needs value"),
    ("roll faces=[1] faces=[2]", "given twice"),
    ("correct roll=1.5 index=0 value=2", "expected an integer"),
])
def test_bad_notation_names_the_problem(text, needle):
    with pytest.raises(NotationError, match=needle.replace("[", r"\[")):
        parse(text)


def test_registry_by_alias_and_unknown():
    assert find_game("tray").name == "dice-tray"
    with pytest.raises(UnknownGame, match="known games: .*dice-tray"):
        find_game("chess")


def test_dice_tray_counts_totals_and_correction():
    ts = replay([DiceRolled(faces=(3, 5, 6)), DiceRolled(faces=(6, 6)), DieCorrected(roll=1, index=0, value=1)])
    s = stats(ts.tray)["d6"]
    assert s["rolls"] == 2 and s["dice"] == 5 and s["total"] == 1 + 5 + 6 + 6 + 6
    assert s["counts"] == {1: 1, 2: 0, 3: 0, 4: 0, 5: 1, 6: 3}
    assert ts.tray.rolls[0].sensed == (3, 5, 6) and ts.tray.rolls[0].faces == (1, 5, 6)
    assert s["chi2"] is None  # fewer than 60 dice


def test_chi_square_flags_a_loaded_die():
    rolls = [DiceRolled(faces=(6,) * 5) for _ in range(10)] + [DiceRolled(faces=(1, 2, 3, 4, 5)) for _ in range(2)]
    s = stats(replay(rolls).tray)["d6"]
    # 60 dice: 50 sixes, two each of 1..5 (expected 10 each) -> chi2 = 5*(8^2/10) + 40^2/10 = 32 + 160
    assert s["dice"] == 60 and s["chi2"] == pytest.approx(192.0)
    assert s["p_value"] < 1e-6


def test_a_mixed_throw_counts_each_die_under_its_own_kind_with_every_face_listed():
    ts = replay([parse("roll kinds=[demigods-fire,demigods-ice,demigods-demigod] faces=[burn,freeze,4]"),
                 parse("roll kinds=[dg-fire] faces=[critical,critical]")])
    st = stats(ts.tray)
    assert sorted(st) == ["demigods-demigod", "demigods-fire", "demigods-ice"]  # no "mixed" pool
    fire = st["demigods-fire"]
    assert (fire["rolls"], fire["dice"], fire["total"]) == (2, 3, 0)
    assert fire["counts"] == {"burn": 1, "failure": 0, "critical": 2, 2: 0, 1: 0, -1: 0}  # the book's face order
    assert st["demigods-ice"]["counts"] == {"freeze": 1, "failure": 0, "critical": 0, 2: 0, 1: 0, -1: 0}
    # the Demigod die's faces are to enter: only the faces thrown, as for a die the catalogue does not know
    assert st["demigods-demigod"]["counts"] == {4: 1} and st["demigods-demigod"]["total"] == 4


def test_a_symbol_die_is_tested_against_its_faces_shares():
    # Slashing: Enrage, Enrage, Critical, 2, 1, -1. 60 dice all Critical: expected enrage 20, the
    # other four faces 10 each -> chi2 = 20 + (60 - 10)^2/10 + 3 * 10 = 300, 4 degrees of freedom
    s = stats(replay([parse("roll kinds=[demigods-slashing] faces=[" + ",".join(["critical"] * 30) + "]")] * 2).tray)
    s = s["demigods-slashing"]
    assert s["dice"] == 60 and s["chi2"] == pytest.approx(300.0) and s["p_value"] < 1e-6
    fair = [parse("roll kinds=[demigods-slashing] faces=[enrage,enrage,critical,2,1,-1]")] * 10
    s = stats(replay(fair).tray)["demigods-slashing"]
    assert s["counts"] == {"enrage": 20, "critical": 10, 2: 10, 1: 10, -1: 10} and s["chi2"] == 0.0
    assert s["shares"] == {"enrage": 0.3333, "critical": 0.1667, 2: 0.1667, 1: 0.1667, -1: 0.1667}
    assert "shares" not in stats(replay(fair[:1] + [parse("roll kinds=[dg-fire] faces=[burn]")]).tray)["demigods-fire"]


@pytest.mark.parametrize("ev,reason", [
    (DiceRolled(faces=(7,)), "impossible on a d6"),
    (DiceRolled(faces=()), "at least one die"),
    (DieCorrected(roll=9, index=0, value=2), "no roll with seq 9"),
    (DieCorrected(roll=1, index=3, value=2), "no die with index 3 \\(its 2 dice have index 0 to 1"),
    (DiceRolled(faces=(1, 2), confidence=(0.5,)), "confidence has 1 entries"),
])
def test_illegal_tray_events(ev, reason):
    ts = replay([DiceRolled(faces=(2, 2))])
    with pytest.raises(Refused, match=reason):
        apply(ts, ev)


def test_replay_equals_live_and_undo():
    evs = [DiceRolled(faces=(1, 2)), DiceRolled(faces=(3,)), DieCorrected(roll=2, index=0, value=4),
           DiceRolled(faces=(6,))]
    live = new_table()
    records = []
    for seq, ev in enumerate(evs, start=1):  # a correction is live what the engine makes it: correct()
        live = correct(records, (seq, ev)) if isinstance(ev, DieCorrected) else apply(live, ev, seq)
        records.append((seq, ev))
    assert digest(replay(records)) == digest(live)
    target = undo_target(records)
    assert target == (4, evs[3])
    records.append((5, Undone(seq=4)))
    after = replay(records)
    assert [r.faces for r in after.tray.rolls] == [(1, 2), (4,)]
    assert undo_target(records) == (3, evs[2])  # next undo takes the correction back
    records.append((6, Undone(seq=3)))
    assert [r.faces for r in replay(records).tray.rolls] == [(1, 2), (3,)]


@pytest.mark.parametrize("target", [2, 3])
def test_an_undo_naming_itself_or_a_later_event_is_refused(target):
    # a hand-written transcript: "undo seq=2" on line 2 or "undo seq=3" before line 3
    records = [(1, DiceRolled(faces=(3,))), (2, Undone(seq=target)), (3, DiceRolled(faces=(5,)))]
    with pytest.raises(Refused, match="an undo takes back an earlier event; this is event 2"):
        replay(records)
    # re-reading an old log (not strict): it takes back nothing
    assert [r.faces for r in replay(records, strict=False).tray.rolls] == [(3,), (5,)]


def test_undo_never_crosses_a_game_start():
    records = [(1, DiceRolled(faces=(1,))), (2, GameStarted(game="dice-tray"))]
    with pytest.raises(NothingToUndo):
        undo_target(records)


def test_start_resets_the_tray_and_tags_are_tracked():
    ts = replay([DiceRolled(faces=(1,)), TagPlaced(pad=1, uid="04AABBCC", object="x"), GameStarted(game="tray"),
                 TagPlaced(pad=1, uid="04DDEEFF"), TagRemoved(pad=9, uid="00")])
    assert ts.tray.rolls == () and ts.started_seq == 3
    assert ts.tags == ((1, "04DDEEFF", ""),)


@pytest.mark.parametrize("ev,reason", [
    (DiceRolled(die="d999999999999", faces=(1,)), "no such die d999999999999: standard dice have 2 to 1000 sides"),
    (DiceRolled(die="d1", faces=(1,)), "no such die d1"),
    (DiceRolled(faces=(1,) * 101), "101 dice in one roll; at most 100"),
    (DiceRolled(die="attack", faces=(10**9,)), "within ±1000"),
])
def test_absurd_dice_are_refused(ev, reason):
    with pytest.raises(Refused, match=reason):
        apply(new_table(), ev)


def test_a_d1000_is_fine():
    assert stats(replay([DiceRolled(die="d1000", faces=(1000,))]).tray)["d1000"]["counts"][1000] == 1


@pytest.mark.parametrize("obj", [
    {"kind": "roll", "faces": [1], "at": float("nan")},
    {"kind": "roll", "faces": [1], "at": float("inf")},
])
def test_non_finite_times_are_refused(obj):
    with pytest.raises(NotationError, match="finite"):
        from_json(obj)


def test_deep_nesting_is_a_notation_error():
    with pytest.raises(NotationError, match="nested too deeply"):
        parse("roll faces=" + "[" * 5000 + "1" + "]" * 5000)
    deep = 1
    for _ in range(3000):
        deep = [deep]
    with pytest.raises(NotationError, match="nested too deeply"):
        from_json({"kind": "roll", "faces": deep})


def test_events_of_another_game_are_refused():
    from arena_table.rules.kernel.events import event_types

    th_place = event_types()["th-place"]
    dg_pick = event_types()["dg-pick"]
    with pytest.raises(Refused, match="th-place is an event of Theosis, but Dice tray is running"):
        apply(new_table(), th_place(hero="rochon", location="guardian"))
    theosis = replay([GameStarted(game="theosis", options={"mode": "pvp", "players": ["Ann", "Bo"],
                                                           "heroes": {"Ann": ["rochon", "norn", "rac"],
                                                                      "Bo": ["aer", "raug", "lug"]}})])
    with pytest.raises(Refused, match="dg-pick is an event of Demigods Evolution, but Theosis is running"):
        apply(theosis, dg_pick(player="Ann", hero="knight"))
    apply(theosis, DiceRolled(faces=(3,)))  # kernel events belong to every game
