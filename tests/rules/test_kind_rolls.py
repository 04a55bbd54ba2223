"""Rolls named by die kind (``roll kinds=[demigods-fire] faces=[burn,2]``): notation, the dice record,
and every engine reading faces by symbol exactly as it reads the older ``die=`` form."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_table.rules import DiceRolled, Refused, apply, from_json, parse, replay, to_json
from arena_table.rules.kernel.mechanics.die_kinds import find_kind
from arena_table.rules.kernel.table import to_jsonable
from arena_table.rules.games.sword_and_sorcery.dice import face_of

GOLDEN = sorted(Path(__file__).parent.glob("*/golden/*.txt"))


@pytest.mark.parametrize("text", [
    "roll kinds=[demigods-fire] faces=[burn,2]",
    "roll kinds=[demigods-fire,demigods-ice,demigods-demigod] faces=[critical,-1,5] source=camera:0",
    'roll kinds=[ivory] faces=["2",logo,hit+gate1]',
    "roll kinds=[sns-red,sns-blue] faces=[hit+hit+gate2,shield]",
    "roll die=d4 faces=[3,1]",
])
def test_kind_rolls_round_trip(text):
    ev = parse(text)
    assert str(ev) == text and parse(str(ev)) == ev and from_json(to_json(ev)) == ev


def test_the_older_notation_is_unchanged():
    assert str(DiceRolled(die="dg-fire", faces=(1, 4))) == "roll die=dg-fire faces=[1,4]"
    assert parse("roll faces=[3,5]").faces == (3, 5)
    assert parse('roll kinds=[demigods-fire] faces=[burn,"2"]').faces == ("burn", "2")


def test_the_tray_records_kind_and_symbols():
    ts = replay([parse("roll kinds=[dg-fire,demigods-demigod] faces=[Burn,\"2\"]")])
    roll = ts.tray.rolls[-1]
    assert (roll.die, roll.kinds, roll.faces, roll.total) == ("mixed", ("demigods-fire", "demigods-demigod"),
                                                              ("burn", 2), 2)
    ts = replay([parse("roll kinds=[demigods-arcane] faces=[pure,3,2]")])
    assert ts.tray.rolls[-1].die == "demigods-arcane" and ts.log[-1].text.endswith("Arcane attack die: pure, 3, 2")


@pytest.mark.parametrize("text, why", [
    ("roll kinds=[demigods-fire] faces=[freeze]", "a demigods-fire die has no face 'freeze'; its faces: burn, failure"),
    ("roll kinds=[demigods-fire,demigods-ice] faces=[burn,2,1]", "2 kinds for 3 dice"),
    ("roll kinds=[demigods-fire] die=d20 faces=[burn]", "by kinds or by die, not both"),
    ('roll kinds=["Ivory!"] faces=[1]', "die kind 'Ivory!' is not a lower-case word"),
    ('roll kinds=[sns-red] faces=["Hit Twice"]', "not a number or a lower-case symbol"),
    ("roll die=d6 faces=[burn]", "must be numbers; a roll of symbol faces names its die kind"),
])
def test_a_bad_kind_roll_is_refused_by_name(text, why):
    with pytest.raises(Refused, match=why):
        replay([parse(text)])


def test_placeholder_faces_do_not_refuse_a_tables_own_faces():
    """The Combat die's faces are not printed (to enter): a face the shipped list lacks is the game's to judge."""
    roll = replay([parse("roll kinds=[euthia-combat] faces=[gaar+chaos]")]).tray.rolls[-1]
    assert roll.faces == ("gaar+chaos",)


def test_a_game_refuses_a_kind_it_does_not_throw():
    start = parse('start game=theosis options={"players":["Ann"],"mode":"solo","heroes":{"Ann":["rochon","norn","edhel"]}}')
    with pytest.raises(Refused, match="Theosis uses no 'demigods-fire' die"):
        replay([start, parse("roll kinds=[demigods-fire] faces=[burn]")])


def _as_kind(ts, ev: DiceRolled) -> DiceRolled | None:
    """The roll ``ev`` of the older form as the same throw named by die kind, or ``None`` when its
    faces cannot be named one-for-one (a printed result on two faces: the engine keeps the first)."""
    die, faces = ev.die, ev.faces
    if die.startswith("dg-") and die != "dg-demigod":
        kind = find_kind(die)
        symbols = [kind.faces[i - 1].symbol for i in faces]
        values = [f.value for f in kind.faces]
        if tuple(values) != tuple(ts.state.dice[die[3:]]) or any(values.count(values[i - 1]) > 1 for i in faces):
            return None
        return DiceRolled(kinds=(kind.id,), faces=tuple(symbols), source=ev.source)
    if die in ("skull", "skullduggery"):
        kind = find_kind("theosis-skullduggery")
        return DiceRolled(kinds=(kind.id,), faces=tuple(kind.faces[i - 1].symbol for i in faces), source=ev.source)
    if die == "eu-combat":
        symbols = ["+".join(ts.state.config.combat_die[i - 1]) for i in faces]
        return DiceRolled(kinds=("euthia-combat",), faces=tuple(symbols), source=ev.source)
    if die in ("sns-red", "sns-blue"):
        return DiceRolled(kinds=(die,), faces=tuple(face_of(die, i) for i in faces), source=ev.source)
    plain = {"d4": "theosis-d4", "dg-demigod": "demigods-demigod", "eu-hero": "euthia-hero", "eu-monster": "euthia-monster"}
    if die in plain and ts.game in plain[die]:
        return DiceRolled(kinds=(plain[die],), faces=faces, source=ev.source)
    return None


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_golden_roll_reads_the_same_by_kind(path):
    """Each roll of the golden games, given instead by die kind and symbol, leaves the same game."""
    ts, compared = replay([]), 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        ev = parse(line)
        if isinstance(ev, DiceRolled) and not ev.kinds:
            kind_ev = _as_kind(ts, ev)
            if kind_ev is not None:
                old, new = apply(ts, ev), apply(ts, kind_ev)
                assert to_jsonable(new.state) == to_jsonable(old.state), f"{line} as {kind_ev}"
                compared += 1
        ts = apply(ts, ev)
    if any(f"roll die={d}" in path.read_text() for d in ("dg-", "skull", "eu-combat", "eu-hero")):
        assert compared > 0


def test_a_mixed_throw_fills_a_waiting_attack_and_leaves_the_demigod_die_to_the_tray():
    """Elemental Sword example ('Attack', p.20): ice, fire and slashing dice, read Failure, Critical, 1."""
    path = Path(__file__).parent / "demigods" / "golden" / "tactics.txt"
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    ts = replay([])
    for i, line in enumerate(lines):
        ev = parse(line)
        if isinstance(ev, DiceRolled) and ev.die.startswith("dg-") and ev.die != "dg-demigod" \
                and ts.state.pending is not None and len({d.type for d in ts.state.pending.dice if not d.face}) > 1:
            break
        ts = apply(ts, ev)
    else:
        pytest.skip("no attack with dice of two types in the transcript")
    open_types = [d.type for d in ts.state.pending.dice if not d.face]
    faces = [find_kind(f"demigods-{t}").faces[2].symbol for t in open_types]  # Critical on every die
    throw = DiceRolled(kinds=tuple(f"demigods-{t}" for t in open_types) + ("demigods-demigod",),
                       faces=tuple(faces) + (4,), source="camera:0")
    after = apply(ts, throw)
    legacy = ts
    for t in open_types:
        legacy = apply(legacy, DiceRolled(die=f"dg-{t}", faces=(3,)))
    assert to_jsonable(after.state) == to_jsonable(legacy.state)
    assert after.tray.rolls[-1].kinds[-1] == "demigods-demigod"
