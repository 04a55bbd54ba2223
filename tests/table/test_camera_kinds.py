"""A mixed throw of Demigods dice through a real Table and CameraLoop on rendered tray photos: the
camera reads die kinds while the game waits for an attack's dice, a settled throw is ONE roll by
kinds with (kind, face) per die, a die of a kind the game does not throw is reported and left out,
and a throw of other dice is not the attack's roll: the page is told what was expected.

The numbers are the book's 'Example Demigod turn' (Demigods Evolution, 'Demigod Phase', pp.28-29,
item 3): the Elemental Sword (10, dice ice, fire, slashing) rolls Failure, Critical and 1; "As the
Warlord is not a mana user, the Failure counts as -2 damage. The Critical ... adding 4 damage and
the 1 adds 1 more damage for a total of 3 additional damage"; the first die is ice, so the attack
is magical. The Blacksmith, hit in his weak spot (+2), takes 15 - magical defense 1 = 14 wounds
("dropping his health to 24"); the Trapper, facing the Warlord, 13 - 2 = 11 ("Her health drops to
19"). The Blacksmith's Retaliation: "a base attack of 8 bludgeoning (physical) damage which
includes his bludgeoning dice roll of 2. The Warlord's physical defense of 2 means he takes 6
wounds, lowering his health to 44."
"""

from __future__ import annotations

import cv2
from camera_kit import run_folder
from throw_scenes import photos, setup_events

from arena_table.rules import DiceRolled, parse, replay
from arena_table.rules.kernel.table import table_view
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig


def _played(tmp_path):
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        for ev in setup_events():
            table.submit(ev)
    folder = tmp_path / "cam"
    folder.mkdir()
    for k, image in enumerate(photos()):
        cv2.imwrite(str(folder / f"photo-{k:02d}.png"), image)
    return run_folder(tmp_path, folder)


def test_a_mixed_throw_is_one_roll_by_kinds_applied_to_the_waiting_attack(tmp_path):
    table = _played(tmp_path)
    try:
        rolls = [r for r in table.rows() if isinstance(r.event, DiceRolled) and r.event.source.startswith("dir:")]
        texts = [str(DiceRolled(kinds=r.event.kinds, faces=r.event.faces)) for r in rolls]
        assert texts == [
            "roll kinds=[demigods-demigod,demigods-demigod] faces=[5,3]",
            "roll kinds=[demigods-ice,demigods-fire,demigods-slashing,demigods-demigod] faces=[failure,critical,1,4]",
            "roll kinds=[demigods-bludgeoning] faces=[2]",
        ]
        assert [r.status for r in rolls] == ["ok", "ok", "ok"]  # nothing refused: all recorded
        assert all(parse(str(r.event)) == r.event for r in rolls)  # the notation round-trips
        st = table.state.state
        assert st.chars["blacksmith"].health_left == 24 and st.chars["trapper"].health_left == 19
        assert st.chars["warlord"].health_left == 44
        lines = st.last_action.lines if st.last_action else ()
        assert "Warlord: 6 + 2 = 8 - physical defense 2 = 6 wounds" in lines
        assert table.state.refused_roll is None  # the attack took its roll after the refused throw
        cam = table.status()["camera"]
        assert any("1 die of a kind Demigods Evolution does not throw (other-kind)" in e for e in table.devices[0].errors)
        assert cam["last_roll"]["kinds"] == ["demigods-bludgeoning"]
        assert replay([(r.seq, r.event) for r in table.rows() if r.status == "ok"]).state == table.state.state
    finally:
        table.close()


def test_a_throw_of_other_dice_is_not_the_attacks_roll_and_says_what_was_expected(tmp_path):
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        for ev in setup_events():
            table.submit(ev)
        before = table.state.state
        table.submit(parse("roll kinds=[demigods-demigod,demigods-demigod] faces=[5,3] source=camera:0"))
        ts = table.state
        assert ts.state == before  # the attack still waits; the throw is the tray's
        assert ts.tray.rolls[-1].faces == (5, 3)
        assert ts.refused_roll.message == ("not the roll the game waits for: expected 1 Ice attack die, 1 Fire attack "
                                           "die and 1 Slashing attack die; the camera saw 2 Demigod dice (5, 3)")
        shown = table_view(ts)
        assert shown["roll_refused"]["expected"] == "1 Ice attack die, 1 Fire attack die and 1 Slashing attack die"
        assert shown["awaits"] == shown["roll_refused"]["expected"]
        taken = table.submit(parse("roll kinds=[demigods-ice,demigods-fire] faces=[failure,critical] source=camera:0"))
        assert table.state.refused_roll is None and taken == ts.seq + 1  # two of the three: the attack's
        assert table_view(table.state)["awaits"] == "1 Slashing attack die"


def test_the_live_view_boxes_the_dice_by_kind_while_the_attack_waits(tmp_path):
    """The control page's overlay reads as the loop does: the attack's dice and the Demigod die boxed
    green (read), the S&S blue die red (of no kind Demigods throws)."""
    from arena_table.table.camera_draw import OVERLAY_COLOURS
    from arena_table.table.camera_loop import CameraLoop
    from arena_table.vision.frames import Frame
    from throw_scenes import MIXED

    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        for ev in setup_events():
            table.submit(ev)
        loop = CameraLoop(table.ports("camera"), "test", source_factory=lambda spec, **kw: None)
        image = photos()[2]
        loop.feed(Frame(image, 0.0, 0, "mixed.png"))
        try:
            out = loop.overlay()
        finally:
            loop.close()
    changed = (out != image).any(axis=2)
    for die in MIXED:
        x, y = die.centre
        ring = out[y - 60:y + 60, x - 60:x + 60][changed[y - 60:y + 60, x - 60:x + 60]]
        colour = OVERLAY_COLOURS["unreadable" if die.kind == "sns-blue" else "ok"]
        assert (ring == colour).all(axis=1).any(), f"{die.kind} not boxed in {colour}"
        other = OVERLAY_COLOURS["ok" if die.kind == "sns-blue" else "unreadable"]
        assert not (ring == other).all(axis=1).any(), f"{die.kind} boxed in {other}"


def test_a_theosis_monster_waits_for_its_d4_and_the_camera_reads_it_as_that_roll(tmp_path):
    """Theosis, the book's co-op example (tests/rules/theosis/golden/coop-2p-book.txt): Edhel attacks
    Voax (stamina threshold 2) and the monster's Defense d4 is awaited ('Monsters', the Defense roll).
    The camera sees a skullduggery die (not that roll: noticed, kept in the tray), then a d4 showing
    1 (its top vertex): the roll, leaving the game as the transcript's ``roll die=d4 faces=[1]``."""
    from pathlib import Path

    from arena_table.rules.kernel.table import to_jsonable
    from arena_table.vision.throw_film import ThrowFilm, ThrownDie

    golden = Path(__file__).parents[1] / "rules" / "theosis" / "golden" / "coop-2p-book.txt"
    lines = [ln for ln in golden.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    wait = lines.index("roll die=d4 faces=[1]")
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        for line in lines[:wait]:
            table.submit(parse(line))
        assert table_view(table.state)["awaits"] == "1 Four-sided die (or 1 d4)"
    film = ThrowFilm(seed=2)
    folder = tmp_path / "cam"
    folder.mkdir()
    for k, image in enumerate([film.frame([]), film.frame([ThrownDie("theosis-skullduggery", "spade", (250, 200), 30.0)]),
                               film.frame([ThrownDie("theosis-d4", "1", (380, 260), 75.0, 64)])]):
        cv2.imwrite(str(folder / f"photo-{k:02d}.png"), image)
    table = run_folder(tmp_path, folder)
    try:
        rows = [r for r in table.rows() if isinstance(r.event, DiceRolled) and r.event.source.startswith("dir:")]
        assert [(r.status, str(DiceRolled(kinds=r.event.kinds, faces=r.event.faces))) for r in rows] == [
            ("ok", "roll kinds=[theosis-skullduggery] faces=[spade]"),  # recorded, the tray's
            ("ok", "roll kinds=[theosis-d4] faces=[1]")]
        by_book = replay([parse(x) for x in lines[:wait + 1]])
        assert to_jsonable(table.state.state) == to_jsonable(by_book.state)
        assert [ln.text for ln in table.state.log if ln.seq == rows[0].seq] == ["Tray roll 1 × Skullduggery die: spade"]
    finally:
        table.close()
