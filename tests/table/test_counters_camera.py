"""Divine dice beside the hero cards, seen by the table's camera: rendered photos in a folder ->
the camera loop -> the counters reader -> ``dg-divine-read`` -> the Demigods engine and its view.

The slots come from the configuration (``[counters]``) as camera pixels, or as board mm through
a board calibration made from a rendered board (``vision.board_film``). The dice are drawn by the
kind renderer; what each photo shows, and so each expected event, is written down by hand below.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from arena_table.rules import GameStarted, parse, table_view
from arena_table.rules.kernel.geometry.boards import board_from
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, CounterSettings, DataSettings, TableConfig
from arena_table.table.counter_slots import CounterSlot, counter_slots
from arena_table.vision.board_calib import CALIBRATION_FILE
from arena_table.vision.board_film import BoardFilm
from arena_table.vision.counter_film import paste_die_mm, table_photo, tray_calibration

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "rules" / "demigods"))
from dg_helpers import lineup_options  # noqa: E402

pytestmark = pytest.mark.slow

RAGE, FOCUS, MANA = "demigods-divine-rage", "demigods-divine-focus", "demigods-divine-mana"
CARDS = [(40, 560, 180, 130), (340, 560, 180, 130), (640, 560, 180, 130)]
"""The Knight's, the Trapper's and Black Wolf's cards (px), each with its slot to its right."""
SLOTS = counter_slots([{"hero": "knight", "power": "rage", "box_px": [230, 585, 80, 80]},
                       {"hero": "trapper", "box_px": [530, 585, 80, 80]},
                       {"hero": "black-wolf", "power": "mana", "box_px": [830, 585, 80, 80]}])


def _game_log(db: Path) -> None:
    """A Demigods game (the lineup of the rules tests) recorded in ``db``: Knight rage 1, Trapper
    focus 3, Black Wolf mana 6 at the start ('Divine Power', p.12)."""
    with Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none"))) as table:
        table.submit(parse(str(GameStarted(game="demigods", options=lineup_options()))))


def _run(tmp_path: Path, photos: list, counters: CounterSettings, name: str = "photos") -> Table:
    folder = tmp_path / name
    folder.mkdir()
    for i, image in enumerate(photos):
        cv2.imwrite(str(folder / f"{i:02d}.png"), image)
    db = tmp_path / "t.db"
    if not db.exists():
        _game_log(db)
    camera = CameraSettings(source=str(folder), still_frames=10, calibration=tray_calibration(tmp_path / "cal.json"))
    table = Table(TableConfig(data=DataSettings(db=db), camera=camera, counters=counters))
    table.start()
    loop = next(d for d in table.devices if type(d).__name__ == "CameraLoop")
    loop.join(timeout=300)
    return table


def _reads(table: Table) -> list[tuple[str, int]]:
    return [(r.event.who, r.event.value) for r in table.rows() if r.event.KIND == "dg-divine-read" and r.status == "ok"]


def _entry(table: Table, hero: str) -> dict:
    return next(o for o in table_view(table.state)["view"]["order"] if o["id"] == hero)


def test_divine_dice_in_the_slots_become_the_heroes_reads_and_the_view_shows_a_mismatch(tmp_path):
    photos = [
        # the dice as setup leaves them: rage 1, focus 3, mana 6
        table_photo([(RAGE, 1, (270, 625), 10), (FOCUS, 3, (570, 625), 40), (MANA, 6, (870, 625), 75)], 1, CARDS),
        # the Knight's die turned to 4 (the game still has 1), lying off its slot's centre
        table_photo([(RAGE, 4, (290, 610), 200), (FOCUS, 3, (572, 627), 40), (MANA, 6, (870, 625), 75)], 2, CARDS),
        # the Trapper's die taken away (0); a rage die put in Black Wolf's mana slot (not hers: kept at 6)
        table_photo([(RAGE, 4, (290, 610), 200), (RAGE, 2, (865, 630), 5)], 3, CARDS),
    ]
    table = _run(tmp_path, photos, CounterSettings(slots=SLOTS, interval_s=0.2, stable_reads=2))
    try:
        assert _reads(table) == [("knight", 1), ("trapper", 3), ("black-wolf", 6), ("knight", 4), ("trapper", 0)]
        knight, trapper, wolf = (_entry(table, h) for h in ("knight", "trapper", "black-wolf"))
        assert knight["resources"]["rage"] == 1 and knight["read_mismatch"] == {"read": 4, "engine": 1}
        assert trapper["read_mismatch"] == {"read": 0, "engine": 3}
        assert wolf["resources"]["mana"] == 6 and "read_mismatch" not in wolf
        status = table.status()["counters"]
        assert status["last_read"]["who"] == "trapper"
        assert status["unread"] == {"black-wolf": "a demigods-divine-rage die in black-wolf's slot; black-wolf's "
                                                  "divine power is mana"}
        assert not [r for r in table.rows() if r.event.KIND == "roll"], "a divine die beside a card read as a throw"
    finally:
        table.close()


def test_slots_in_board_mm_are_read_through_the_board_calibration(tmp_path):
    """A 6x4 field board of 30 mm fields (cells from (0, 0) to (180, 120) board mm) and its corner
    markers, photographed by one camera and calibrated as ``arena-table calibrate`` does; the
    Knight's slot lies left of the board, Black Wolf's right of it, both on the table plane."""
    film = BoardFilm(board_from({"id": "field", "game": "demigods", "kind": "square", "size_mm": 30.0,
                                 "cols": 6, "rows": 4}), seed=3)
    film.calibration.save(tmp_path / CALIBRATION_FILE)
    own_mm = film.camera @ np.array([[1, 0, -film.offset[0]], [0, 1, -film.offset[1]], [0, 0, 1]])

    def photo(dice):
        image = film.frame({})
        for kind, face, at, angle in dice:
            paste_die_mm(image, own_mm, kind, face, at, angle=angle)
        return image

    slots = counter_slots([
        # box_px names the frame's empty top-left corner: with the board calibrated, box_mm is used
        {"hero": "knight", "power": "rage", "box_mm": [-75, 0, 36, 36], "box_px": [0, 0, 60, 60]},
        {"hero": "black-wolf", "box_mm": [210, 82, 36, 36]}])
    photos = [photo([(RAGE, 5, (-57, 17), 20), (MANA, 2, (228, 100), 60)]),
              photo([(RAGE, 3, (-50, 26), 80), (MANA, 2, (229, 101), 62)])]  # the Knight's die moved, now 3
    counters = CounterSettings(slots=slots, interval_s=0.2, stable_reads=2)
    table = _run(tmp_path, photos, counters)
    try:
        assert _reads(table) == [("knight", 5), ("black-wolf", 2), ("knight", 3)]
        assert table.status()["counters"]["state"] == "ok"
    finally:
        table.close()

    (tmp_path / CALIBRATION_FILE).unlink()  # no board calibration: box_px, or not read at all
    table = _run(tmp_path, photos[1:], counters, name="photos-uncalibrated")
    try:
        assert _reads(table)[3:] == [("knight", 0)]  # its box_px: the empty corner
        status = table.status()["counters"]
        assert status["state"] == "warning" and status["problems"] == [
            "black-wolf's slot is in board mm and there is no board calibration (arena-table calibrate), nor a box_px"]
    finally:
        table.close()


def test_the_reader_follows_a_board_calibration_made_while_it_runs():
    """The counters reader asks for the calibration in force at each reading (the figure reader's,
    which the control page's "Calibrate" replaces): before one exists the Knight's slot is its
    box_px (the frame's empty corner: 0), after it its box_mm, where the die lies."""
    from arena_table.table.counters import CounterReader
    from arena_table.table.ports import Ports
    from arena_table.vision.frames import Frame
    from dg_helpers import Table as DgTable

    film = BoardFilm(board_from({"id": "field", "game": "demigods", "kind": "square", "size_mm": 30.0,
                                 "cols": 6, "rows": 4}), seed=5)
    own_mm = film.camera @ np.array([[1, 0, -film.offset[0]], [0, 1, -film.offset[1]], [0, 0, 1]])
    image = film.frame({})
    paste_die_mm(image, own_mm, RAGE, 4, (-57, 17), angle=35)
    game = DgTable(lineup_options())
    submitted, board = [], [None]
    ports = Ports(submit=lambda e: submitted.append(e) or len(submitted), media=None, clock=lambda: 0.0,
                  report=lambda **info: None, rows=lambda **kw: [], state=lambda: game.ts,
                  subscribe=lambda fn: (lambda: None), on_refused=lambda fn: (lambda: None), status=lambda: {},
                  watch_status=lambda fn: None)
    slots = [CounterSlot.of(s) for s in counter_slots(
        [{"hero": "knight", "box_mm": [-75, 0, 36, 36], "box_px": [0, 0, 60, 60]}])]
    reader = CounterReader(ports, slots, lambda: board[0], interval_s=0.2, stable_reads=2)
    for i in range(4):
        reader(Frame(image, 0.2 * i, i, f"camera:{i}"))
    board[0] = film.calibration
    for i in range(4, 8):
        reader(Frame(image, 0.2 * i, i, f"camera:{i}"))
    assert [str(e) for e in submitted] == ["dg-divine-read who=knight value=0", "dg-divine-read who=knight value=4"]
