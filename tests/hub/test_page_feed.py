"""A table's screen on the hub fed by the broker itself (``--page-feed mqtt`` / ``?feed=mqtt``): the
page names the broker's websockets address and the table's topics, loads the vendored MQTT.js and
the hub's feed script before spectator.js; the vendored file is npm's (issue 34, item 3)."""

import json
import os
import re
from pathlib import Path

import pytest
from brokerkit import wait_for

from arena_table.hub import page_feed
from arena_table.hub.feed import Feed
from arena_table.hub.topics import parse_broker
from arena_table.hub.wall import create_wall_app
from arena_table.rules import DiceRolled
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, PublishSettings, TableConfig, WebSettings

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "arena_table" / "hub" / "static" / "vendor" / "mqtt"


def initial_of(html):
    return json.loads(re.search(r'<script type="application/json" id="initial">(.*?)</script>', html, re.S).group(1))


@pytest.fixture
def hall(tmp_path, broker):
    """A publishing table t1 with one roll, and a hub's Flask client whose pages default to ``mqtt``."""
    cfg = TableConfig(data=DataSettings(db=str(tmp_path / "t1.db")), camera=CameraSettings(source="none"),
                      web=WebSettings(pin="1234"), publish=PublishSettings(broker=broker.url, table_id="t1"))
    with Feed(parse_broker(broker.url)) as feed:
        client = create_wall_app(feed, page_feed="mqtt", ws_url=None).test_client()
        with Table(cfg).start() as t1:
            t1.submit(DiceRolled(faces=(3,)))
            wait_for(lambda: client.get("/table/t1/").status_code == 200 and (t := feed.table("t1")).view
                     and t.view["version"] == 1, 10, "t1's view at the hub")
            yield client


def test_an_mqtt_page_names_the_brokers_websocket_and_the_tables_topics(hall):
    resp = hall.get("/table/t1/", base_url="http://192.168.7.20:8080")
    html = resp.get_data(as_text=True)
    initial = initial_of(html)
    assert initial["urls"]["mqtt"] == {"url": "ws://192.168.7.20:9001/", "view": "arena-table/t1/view",
                                       "status": "arena-table/t1/status"}
    assert initial["urls"]["stream"] == "/table/t1/stream"  # what the page falls back to with ?feed=sse
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts.index("/hub-static/vendor/mqtt/mqtt.min.js") < scripts.index("/hub-static/mqtt_feed.js") \
        < scripts.index("/static/spectator.js")
    assert initial["version"] == 1 and initial["state"]["tray"]["last"]["faces"] == [3]


def test_feed_sse_on_one_page_and_a_bad_feed_is_refused(hall):
    html = hall.get("/table/t1/?feed=sse").get_data(as_text=True)
    assert "mqtt" not in initial_of(html)["urls"] and "mqtt_feed.js" not in html
    resp = hall.get("/table/t1/?feed=carrier-pigeon")
    assert resp.status_code == 400 and "one of sse, mqtt" in resp.get_data(as_text=True)


def test_the_hub_serves_the_vendored_mqtt_js_and_its_feed_script(hall):
    resp = hall.get("/hub-static/vendor/mqtt/mqtt.min.js")
    assert resp.status_code == 200 and resp.data == (VENDOR / "mqtt.min.js").read_bytes()
    assert resp.headers["Cache-Control"] == "public, max-age=86400"
    assert b"window.ArenaFeed" in hall.get("/hub-static/mqtt_feed.js").data
    assert hall.get("/hub-static/../wall.py").status_code == 404


def test_the_vendored_bundle_is_npms_and_credited():
    version = json.loads((ROOT / "package.json").read_text())["devDependencies"]["mqtt"]
    source = (VENDOR / "SOURCE.md").read_text()
    assert f"`mqtt`](https://www.npmjs.com/package/mqtt)\n{version} " in source and "MIT" in source
    assert "Permission is hereby granted" in (VENDOR / "LICENSE.md").read_text()
    installed = ROOT / "node_modules" / "mqtt"
    if not installed.exists():
        if os.environ.get("CI"):
            pytest.fail("node_modules/mqtt missing (scripts/test-deps.sh runs npm ci)")
        pytest.skip("node_modules/mqtt is not installed (npm ci)")
    assert json.loads((installed / "package.json").read_text())["version"] == version
    assert (installed / "dist" / "mqtt.min.js").read_bytes() == (VENDOR / "mqtt.min.js").read_bytes()


def test_ws_addresses_are_checked():
    assert page_feed.check_ws_url("wss://hall.example/mqtt") == "wss://hall.example/mqtt"
    for bad in ("http://hall", "ws://", "hall:9001"):
        with pytest.raises(ValueError, match="expected ws://"):
            page_feed.check_ws_url(bad)


def test_the_hub_command_names_a_bad_ws_url(tmp_path, capsys, monkeypatch):
    from arena_table.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["hub", "--broker", "mqtt://127.0.0.1:1", "--page-feed", "mqtt", "--ws-url", "http://hall:9001/"]) == 2
    assert "--ws-url: websocket address 'http://hall:9001/': expected ws://" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # refused before the results file was opened
