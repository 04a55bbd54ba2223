"""A die kind taught in the data folder is the table's after a restart: the rules know its faces,
and the camera's kind reader reads it with its face model."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from arena_table.rules import DiceRolled
from arena_table.rules.kernel.mechanics.die_kinds import Face, die_kinds, find_kind, use_taught_kinds
from arena_table.table import taught_kinds
from arena_table.table.app import Table
from arena_table.table.camera_kinds import default_kind_reader, read_by_kinds, roll_fields
from arena_table.table.camera_taught import TaughtKinds, taught_kind_reader
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.vision.kind_render import render_frame
from arena_table.vision.teach_shots import Shot, crop_square, locate_dice

THIEVES = ("symbol1", "symbol2", "symbol3")
"""Three of the Thieves' Guild die's faces (to enter in the book; kind_icons draws a crescent, a key, a crown)."""


@pytest.fixture(autouse=True)
def shipped_kinds_after():
    yield
    use_taught_kinds(())


def _shots(seeds) -> list[Shot]:
    """Dice of theosis-thieves-d6 drawn by kind_render, each frame's dice all showing one face."""
    shipped = find_kind("theosis-thieves-d6", taught=False)
    out = []
    for face in THIEVES:
        only = replace(shipped, faces=(Face(face, face),) * 2)
        for seed in seeds:
            frame, _ = render_frame([only], seed, n=3)
            out += [Shot(face, crop_square(frame, x, y, s), f"{face}/{seed}", (x, y), s) for x, y, s in locate_dice(frame)]
    return out


def test_a_taught_kind_is_read_by_the_camera_after_a_restart(tmp_path):
    data = tmp_path / "data"
    taught = taught_kinds.teach("theosis-thieves-d6", _shots(range(3)), "test renders")
    assert taught.base == "theosis-thieves-d6" and taught.model.faces == list(THIEVES)
    assert taught.kind.faces == find_kind("theosis-thieves-d6", taught=False).faces  # placeholders confirmed
    taught_kinds.save(data, taught)
    assert "faces" in find_kind("theosis-thieves-d6").to_enter  # nothing loaded yet: the shipped kind
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db", dir=str(data)), camera=CameraSettings(source="none")))
    try:
        assert table.taught.ids() == ["theosis-thieves-d6"]
        # the rules see the taught faces: the game's kinds and a roll by kind
        theosis = {k.id: k for k in die_kinds("theosis")}
        assert theosis["theosis-thieves-d6"].to_enter == ()  # faces and look taught
        assert theosis["theosis-d4"] == find_kind("theosis-d4", taught=False)  # the others as shipped
        # the camera's kind reader reads rendered dice of it with the taught model
        reader = taught_kind_reader(table.taught, default_kind_reader)
        shipped = find_kind("theosis-thieves-d6", taught=False)
        right = total = wrong = 0
        for seed in range(200, 206):
            frame, truth = render_frame([replace(shipped, faces=tuple(Face(f, f) for f in THIEVES))], seed, n=3)
            reading, codes, others = read_by_kinds(reader, frame, tuple(theosis.values()))
            fields = roll_fields(codes, [d for d in reading.dice if d.status == "ok"])
            assert set(fields["kinds"]) <= {"theosis-thieves-d6"} and not others
            hit = Counter(fields["faces"]) & Counter(t.face for t in truth)
            right, total, wrong = right + sum(hit.values()), total + len(truth), wrong + len(fields["faces"]) - sum(hit.values())
        assert total == 18 and right >= 17 and wrong == 0
        # a roll of its faces is the table's
        seq = table.submit(DiceRolled(kinds=("theosis-thieves-d6",), faces=("symbol2", "symbol3"), source="camera"))
        assert seq >= 1
    finally:
        table.close()


def test_a_kind_that_cannot_be_read_is_left_out_with_a_warning(tmp_path, caplog):
    data = tmp_path / "data"
    data.mkdir()
    (data / "taught-broken.json").write_text('{"format": 1, "kind": {}}')
    kinds = TaughtKinds(data).load()
    assert kinds.ids() == [] and len(kinds.problems) == 1
    assert "taught-broken.json: malformed taught kind" in kinds.problems[0]
    assert "taught die kind not loaded" in caplog.text


def test_run_hands_the_camera_a_reader_of_the_taught_kinds(tmp_path):
    data = tmp_path / "data"
    taught_kinds.save(data, taught_kinds.teach("theosis-thieves-d6", _shots(range(3)), "test renders"))
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db", dir=str(data)), camera=CameraSettings(source="sim")))
    try:
        table.start()
        (camera,) = [d for d in table.devices if hasattr(d, "kind_reader")]
        shipped = find_kind("theosis-thieves-d6", taught=False)
        frame, truth = render_frame([replace(shipped, faces=tuple(Face(f, f) for f in THIEVES))], 300, n=3)
        read = camera.kind_reader(frame, (find_kind("theosis-thieves-d6"),), "theosis")
        assert sorted(r.face for r in read if r.status == "ok") == sorted(t.face for t in truth), read
    finally:
        table.close()


def test_doctor_lists_the_taught_kinds_and_warns_of_one_it_cannot_read(tmp_path):
    from arena_table.table.doctor import Setup, check_taught_kinds, diagnose

    data = tmp_path / "data"
    taught_kinds.save(data, taught_kinds.teach("theosis-thieves-d6", _shots(range(3)), "test renders"))
    setup = Setup(db=tmp_path / "t.db", data_dir=data)
    (ok,) = diagnose(setup, checks=(check_taught_kinds,))
    assert (ok.level, ok.summary) == ("pass", "theosis-thieves-d6 (3 faces)")
    (data / "taught-logo-d6.json").write_text("{}")
    (warn,) = diagnose(setup, checks=(check_taught_kinds,))
    assert warn.level == "warn" and warn.summary == (f"theosis-thieves-d6 (3 faces); not readable: "
                                                     f"{data / 'taught-logo-d6.json'}: not a taught die kind file "
                                                     "(no format number)")
