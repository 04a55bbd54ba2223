"""The convention wall in Chromium with three tables on a real Mosquitto: tiles sorted by name,
updated within 500 ms of an event at a table, an offline table's tile says so (issue 34)."""

import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hub"))
from brokerkit import Mosquitto, wait_for  # noqa: E402

from arena_table.hub.feed import Feed  # noqa: E402
from arena_table.hub.topics import parse_broker  # noqa: E402
from arena_table.hub.wall import create_wall_app  # noqa: E402
from arena_table.rules import DiceRolled, GameStarted  # noqa: E402
from arena_table.table.app import Table  # noqa: E402
from arena_table.table.config import CameraSettings, DataSettings, PublishSettings, TableConfig, WebSettings  # noqa: E402
from arena_table.hub.server import HubServer, wait_running  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.perf]


def make_table(tmp_path, broker, table_id):
    (tmp_path / table_id).mkdir()
    return Table(TableConfig(data=DataSettings(db=str(tmp_path / table_id / "log.db")),
                             camera=CameraSettings(source="none"), web=WebSettings(pin="1234"),
                             publish=PublishSettings(broker=broker.url, table_id=table_id))).start()


def test_the_wall_follows_three_tables(tmp_path, page, screenshots):
    broker = Mosquitto(tmp_path).start()
    feed = Feed(parse_broker(broker.url), keep_events=False).start()
    app = create_wall_app(feed)
    server = HubServer(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    wait_running(server)
    tables = {name: make_table(tmp_path, broker, name) for name in ("table-3", "table-1", "table-2")}
    try:
        tables["table-2"].submit(GameStarted(game="first-to-ten", options={"players": ["Ann", "Bo"]}))
        tables["table-1"].submit(DiceRolled(faces=(4, 4)))
        wait_for(lambda: len(feed.tables()) == 3 and all(t.view for t in feed.tables().values()), 10, "three views")
        page.goto(f"http://127.0.0.1:{server.effective_port}/")
        page.wait_for_function("document.querySelectorAll('#tables .tile').length === 3")
        assert page.eval_on_selector_all("#tables .tile", "els => els.map(e => e.dataset.id)") == \
            ["table-1", "table-2", "table-3"]
        assert page.text_content('.tile[data-id="table-1"] .phase') == "1 rolls"
        page.wait_for_timeout(300)  # the stream is open
        t0 = time.monotonic()
        tables["table-1"].submit(DiceRolled(faces=(6,)))
        page.wait_for_function("document.querySelector('.tile[data-id=\"table-1\"] .phase').textContent === '2 rolls'",
                               timeout=5000)
        assert time.monotonic() - t0 <= 0.5
        tables.pop("table-3").close()  # says goodbye: offline
        page.wait_for_function("document.querySelector('.tile[data-id=\"table-3\"]').classList.contains('offline')",
                               timeout=5000)
        assert page.text_content('.tile[data-id="table-3"] .presence') == "offline"
        assert page.text_content('.tile[data-id="table-2"] .presence') == "online"
        font_px = page.eval_on_selector('.tile[data-id="table-1"] .phase', "e => parseFloat(getComputedStyle(e).fontSize)")
        assert font_px >= 28  # 2.6 % of 1080 px: legible across a hall
        page.screenshot(path=str(screenshots / "hub-wall-1920x1080.png"))
        assert page.errors == []
    finally:
        for t in tables.values():
            t.close()
        server.close()
        feed.close()
        broker.kill()
