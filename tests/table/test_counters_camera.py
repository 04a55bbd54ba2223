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
import pytest

from arena_table.rules import GameStarted, parse, table_view
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, CounterSettings, DataSettings, TableConfig
from arena_table.table.counter_slots import counter_slots

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "rules" / "demigods"))
from counter_frames import table_photo, tray_calibration  # noqa: E402
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


def _run(tmp_path: Path, photos: list, counters: CounterSettings) -> Table:
    folder = tmp_path / "photos"
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
