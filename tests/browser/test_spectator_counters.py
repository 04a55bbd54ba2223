"""The spectator screen follows the divine dice beside the hero cards: the table's camera reads
rendered photos in real time (a folder source at 10 fps), the counters reader turns the dice into
``dg-divine-read`` events, and the page, open before the first photo is read, tags each hero whose
die shows another value than the game keeps ("Die 4≠1"), and drops the tag when the die
is set back; on the control page one tap takes the die's value into the game. Screenshot:
``artifacts/screenshots/demigods-counters.png``."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import pytest
from browserkit import login, new_page, open_tv

from arena_table.rules import GameStarted, parse
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, CounterSettings, DataSettings, TableConfig
from arena_table.table.counter_slots import counter_slots
from arena_table.vision.counter_film import table_photo, tray_calibration
from arena_table.webui.app import create_app
from arena_table.webui.server import ServerThread

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "demigods"))
from dg_helpers import lineup_options  # noqa: E402

pytestmark = pytest.mark.browser

RAGE, FOCUS = "demigods-divine-rage", "demigods-divine-focus"
CARDS = [(40, 560, 180, 130), (340, 560, 180, 130)]
SLOTS = counter_slots([{"hero": "knight", "box_px": [230, 585, 80, 80]},
                       {"hero": "trapper", "box_px": [530, 585, 80, 80]}])
TAGS = """(() => Object.fromEntries([...document.querySelectorAll('#order > li')].map(
  (li) => [li.dataset.id, [...li.querySelectorAll('.tag.mismatch-tag')].map((t) => t.textContent).join()])))"""


def test_the_page_tags_a_hero_whose_divine_die_the_camera_reads_otherwise(tmp_path, browser, screenshots):
    photos = [table_photo([(RAGE, 1, (270, 625), 10), (FOCUS, 3, (570, 625), 40)], 1, CARDS)] * 2 + [
        table_photo([(RAGE, 4, (270, 625), 30), (FOCUS, 3, (570, 625), 40)], 2, CARDS),  # the Knight's: 4
        table_photo([(RAGE, 4, (270, 625), 30)], 3, CARDS),  # the Trapper's taken away: 0
        table_photo([(RAGE, 1, (270, 625), 10), (FOCUS, 3, (570, 625), 40)], 4, CARDS)]  # both set back
    folder = tmp_path / "photos"
    folder.mkdir()
    for i, image in enumerate(photos):
        cv2.imwrite(str(folder / f"{i:02d}.png"), image)
    db = tmp_path / "t.db"
    with Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none"))) as setup:
        setup.submit(GameStarted(game="demigods", options=lineup_options()))
    table = Table(TableConfig(data=DataSettings(db=db), counters=CounterSettings(slots=SLOTS, interval_s=0.2),
                              camera=CameraSettings(source=str(folder), still_frames=19, realtime=True,
                                                    calibration=tray_calibration(tmp_path / "cal.json"))))
    server = ServerThread(create_app(table, {"heartbeat": 15.0}), "127.0.0.1", 0).start()
    ctx, tv = new_page(browser, 1280, 720)
    try:
        tv.emulate_media(reduced_motion="reduce")
        tv.goto(server.url + "/?page_seconds=3600")
        tv.wait_for_function("window.arena && window.arena.connected", timeout=10000)
        table.start()  # the camera's first photo from now on: 2 s each
        tv.wait_for_function(f"{TAGS}().knight === 'Die 4≠1'", timeout=15000, polling=50)
        assert tv.evaluate(f"() => {TAGS}()")["trapper"] == ""
        tv.wait_for_function(f"{TAGS}().trapper === 'Die 0≠3'", timeout=15000, polling=50)
        tv.screenshot(path=str(screenshots / "demigods-counters.png"))
        title = tv.get_attribute("#order > li[data-id=knight] .mismatch-tag", "title")
        assert title == "The camera reads the die at 4; the game has 1: check the table"
        tv.wait_for_function(f"{TAGS}().knight === '' && {TAGS}().trapper === ''", timeout=15000, polling=50)
        assert tv.errors == []
        reads = [(r.event.who, r.event.value) for r in table.rows() if r.event.KIND == "dg-divine-read"]
    finally:
        ctx.close()
        server.stop()
        table.close()
    assert reads == [("knight", 1), ("trapper", 3), ("knight", 4), ("trapper", 0), ("knight", 1), ("trapper", 3)]


def test_one_tap_on_the_control_page_takes_the_dies_value(browser, live, page):
    live.table.submit(GameStarted(game="demigods", options=lineup_options()))
    live.table.submit(parse("dg-divine-read who=knight value=4"))
    ctx, tv = new_page(browser, 1280, 720)
    try:
        open_tv(tv, live, ready=f"{TAGS}().knight === 'Die 4≠1'")
        login(page, live.url)
        page.get_by_role("button", name="Knight: rage 4, as the die shows (the game has 1)", exact=True).click()
        tv.wait_for_function(f"{TAGS}().knight === ''", timeout=10000, polling=50)
        assert live.table.state.state.chars["knight"].divine == 4
        assert [str(r.event).split(" at=")[0] for r in live.table.rows()][-1] == "dg-divine who=knight value=4"
        assert tv.errors == []
    finally:
        ctx.close()
