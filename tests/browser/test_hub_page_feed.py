"""A phone on the hub's screen of a table in ``mqtt`` mode: Chromium loads the vendored MQTT.js,
subscribes to the table's view on the broker's websockets listener and renders each roll from
there, the hub serving it no stream; the broker killed and restarted, the page says it is
reconnecting and then follows the table again by itself (issue 34, item 3)."""

import json
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hub"))
from brokerkit import Mosquitto, wait_for  # noqa: E402

from arena_table.hub.feed import Feed  # noqa: E402
from arena_table.hub.server import HubServer, wait_running  # noqa: E402
from arena_table.hub.topics import parse_broker  # noqa: E402
from arena_table.hub.wall import create_wall_app  # noqa: E402
from arena_table.rules import DiceRolled  # noqa: E402
from arena_table.table.app import Table  # noqa: E402
from arena_table.table.config import CameraSettings, DataSettings, PublishSettings, TableConfig, WebSettings  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_phone_follows_a_table_straight_from_the_broker(tmp_path, phone, screenshots):
    broker = Mosquitto(tmp_path, ws_port=True).start()
    feed = Feed(parse_broker(broker.url), keep_events=False).start()
    app = create_wall_app(feed, page_feed="mqtt", ws_url=f"ws://127.0.0.1:{broker.ws_port}/")
    server = HubServer(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    wait_running(server)
    hub = f"http://127.0.0.1:{server.effective_port}"
    table = Table(TableConfig(data=DataSettings(db=str(tmp_path / "log.db")), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="1234"),
                              publish=PublishSettings(broker=broker.url, table_id="t1"))).start()
    try:
        table.submit(DiceRolled(faces=(2, 5)))
        wait_for(lambda: (t := feed.table("t1")) and t.view and t.view["version"] == 1, 10, "t1 at the hub")
        phone.goto(hub + "/table/t1/")
        phone.wait_for_function("window.arena.connected && window.arena.snapshots.some(s => s.reason === 'broker')",
                                timeout=10000)
        table.submit(DiceRolled(faces=(6, 6, 1)))
        phone.wait_for_function("window.arena.cur.version === 2", timeout=5000)
        assert phone.evaluate("window.arena.cur.state.tray.last.faces") == [6, 6, 1]
        assert phone.evaluate("window.arena.snapshots.map(s => s.reason)") == ["broker", "broker"]
        assert phone.text_content("#version") == "event 2"
        status = json.load(urllib.request.urlopen(hub + "/table/t1/status", timeout=5))
        assert status["streams"]["clients"] == 0  # the hub held no stream for this phone
        phone.screenshot(path=str(screenshots / "hub-table-mqtt-390x844.png"))

        broker.kill()
        phone.wait_for_function("!window.arena.connected && !document.getElementById('conn').hidden", timeout=10000)
        broker.start()  # same ports; the table reconnects and republishes its view, retained
        table.submit(DiceRolled(faces=(4,)))
        phone.wait_for_function("window.arena.connected && window.arena.cur.version === 3", timeout=20000)
        assert phone.evaluate("window.arena.cur.state.tray.last.faces") == [4]
        assert phone.is_hidden("#conn")
        assert phone.errors == [] or all("WebSocket" in e for e in phone.errors)
    finally:
        table.close()
        server.close()
        feed.close()
        broker.kill()


def test_without_mqtt_js_the_page_keeps_the_hubs_stream(tmp_path, phone):
    broker = Mosquitto(tmp_path, ws_port=True).start()
    feed = Feed(parse_broker(broker.url), keep_events=False).start()
    app = create_wall_app(feed, page_feed="mqtt", ws_url=f"ws://127.0.0.1:{broker.ws_port}/")
    server = HubServer(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    wait_running(server)
    hub = f"http://127.0.0.1:{server.effective_port}"
    table = Table(TableConfig(data=DataSettings(db=str(tmp_path / "log.db")), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="1234"),
                              publish=PublishSettings(broker=broker.url, table_id="t1"))).start()
    try:
        table.submit(DiceRolled(faces=(3,)))
        wait_for(lambda: (t := feed.table("t1")) and t.view and t.view["version"] == 1, 10, "t1 at the hub")
        phone.route("**/vendor/mqtt/mqtt.min.js", lambda route: route.abort())
        phone.goto(hub + "/table/t1/")
        phone.wait_for_function("window.arena.connected", timeout=10000)
        table.submit(DiceRolled(faces=(5, 2)))
        phone.wait_for_function("window.arena.cur.version === 2", timeout=5000)
        assert phone.evaluate("window.ArenaFeed") is None
        assert phone.evaluate("window.arena.snapshots.map(s => s.reason)")[0] != "broker"  # the hub's stream
        assert json.load(urllib.request.urlopen(hub + "/table/t1/status", timeout=5))["streams"]["clients"] == 1
    finally:
        table.close()
        server.close()
        feed.close()
        broker.kill()
