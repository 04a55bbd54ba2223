"""The convention wall: one subscription to the broker, a tile per table sorted by name, updated
over SSE; a table killed with SIGKILL is shown offline within the keep-alive (issue 34)."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from brokerkit import wait_for

from arena_table.cli.common import free_port
from arena_table.hub.feed import Feed
from arena_table.hub.topics import parse_broker
from arena_table.hub.wall import create_wall_app
from arena_table.rules import DiceRolled, GameStarted
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, PublishSettings, TableConfig, WebSettings
from arena_table.hub.server import HubServer, wait_running
from arena_table.webui.views import spectator_state


def make_table(tmp_path, broker, table_id):
    folder = tmp_path / table_id
    folder.mkdir()
    return Table(TableConfig(data=DataSettings(db=str(folder / "log.db")), camera=CameraSettings(source="none"),
                             web=WebSettings(pin="1234"),
                             publish=PublishSettings(broker=broker.url, table_id=table_id))).start()


@pytest.fixture
def wall(broker):
    feed = Feed(parse_broker(broker.url)).start()
    app = create_wall_app(feed)
    server = HubServer(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    wait_running(server)
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    feed.close()


def tiles(url):
    with urllib.request.urlopen(url + "/api/tables", timeout=5) as resp:
        return json.load(resp)["tables"]


def test_a_tile_per_table_sorted_by_name_with_game_round_and_who_acts(tmp_path, broker, wall):
    with make_table(tmp_path, broker, "west") as west, make_table(tmp_path, broker, "East") as east:
        west.submit(GameStarted(game="first-to-ten", options={"players": ["Ann", "Bo"]}))
        east.submit(DiceRolled(faces=(3, 4)))
        east.submit(DiceRolled(faces=(6,)))
        got = wait_for(lambda: (t := tiles(wall)) and len(t) == 2 and t[1]["version"] == 1 and t[0]["version"] == 2
                       and t, 10, "both tiles")
        assert [t["id"] for t in got] == ["East", "west"]  # by name, whatever the case
        assert got[0] == {"id": "East", "online": True, "game": "Dice tray", "phase": "2 rolls", "leader": "",
                          "acting": "", "over": False, "version": 2}
        assert (got[1]["game"], got[1]["online"]) == ("First to ten", True)
        page = urllib.request.urlopen(wall + "/", timeout=5).read().decode()
        assert page.index('data-id="East"') < page.index('data-id="west"')


def test_the_stream_carries_each_change(tmp_path, broker, wall):
    with make_table(tmp_path, broker, "t1") as t1:
        wait_for(lambda: tiles(wall), 10, "the tile")
        stream = urllib.request.urlopen(wall + "/events", timeout=10)
        first = _next_tiles(stream)
        assert [t["id"] for t in first] == ["t1"]
        t1.submit(DiceRolled(faces=(2,)))
        while (latest := _next_tiles(stream))[0]["version"] < 1:
            pass
        assert latest[0]["phase"] == "1 rolls" and latest[0]["online"]
        stream.close()


def _next_tiles(stream):
    event = None
    while True:
        line = stream.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "tiles":
            return json.loads(line[6:])["tables"]


@pytest.mark.perf
def test_a_table_killed_with_sigkill_is_shown_offline_within_the_keepalive(tmp_path, broker, wall):
    keepalive = 2
    (tmp_path / "c.toml").write_text(f"[publish]\nkeepalive_s = {keepalive}\n")
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--config", str(tmp_path / "c.toml"),
                             "--camera", "sim", "--db", str(tmp_path / "k.db"), "--port", str(free_port()),
                             "--publish", broker.url, "--table-id", "doomed"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        wait_for(lambda: any(t["id"] == "doomed" and t["online"] for t in tiles(wall)), 60, "the table online")
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        killed = time.monotonic()
        wait_for(lambda: any(t["id"] == "doomed" and not t["online"] for t in tiles(wall)), 15, "the table offline")
        # the broker sends the last-will after 1.5 keep-alives of silence; its timer ticks once a second
        assert time.monotonic() - killed <= 1.5 * keepalive + 1.5
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_finished_game_is_kept_with_its_winner_and_event_log(tmp_path, broker, wall):
    """The golden game of First to ten (tests/rules/first_to_ten/golden/ann-wins.txt): Ann wins."""
    with make_table(tmp_path, broker, "t1") as t1:
        t1.submit(GameStarted(game="first-to-ten", options={"players": ["Ann", "Bo"]}))
        for face in (6, 3, 2, 5, 4):
            t1.submit(DiceRolled(faces=(face,)))
        page = wait_for(lambda: "log.jsonl" in (p := urllib.request.urlopen(wall + "/results", timeout=5)
                                                 .read().decode()) and p, 10, "the result")
        assert '<td class="winner">Ann</td>' in page and "first to 10 points" in page
        link = page.split('href="results/')[1].split('"')[0]
        lines = urllib.request.urlopen(f"{wall}/results/{link}", timeout=5).read().decode().splitlines()
        assert [json.loads(line)["text"].split(" at=")[0] for line in lines] == [
            'start game=first-to-ten options={"players":["Ann","Bo"]}', "roll faces=[6]", "roll faces=[3]",
            "roll faces=[2]", "roll faces=[5]", "roll faces=[4]"]
        assert tiles(wall)[0]["leader"] == "Ann won"


def test_a_tile_links_to_the_tables_own_spectator_screen_served_by_the_hub(tmp_path, broker, wall):
    with make_table(tmp_path, broker, "t1") as t1:
        t1.submit(DiceRolled(faces=(1, 2)))
        wait_for(lambda: (t := tiles(wall)) and t[0]["version"] == 1, 10, "the tile")
        assert 'href="table/t1/"' in urllib.request.urlopen(wall + "/", timeout=5).read().decode()
        page = urllib.request.urlopen(wall + "/table/t1/", timeout=5).read().decode()
        # the table's own spectator page (webui's template and script), its QR code the hub's address
        assert 'class="page-spectator"' in page and "/static/spectator.js" in page
        assert f"{wall}/table/t1/" in page and 'src="/table/t1/qr.svg"' in page
        initial = json.loads(re.search(r'<script type="application/json" id="initial">(.*?)</script>', page,
                                       re.S).group(1))
        assert (initial["version"], initial["state"]["tray"]["last"]["faces"]) == (1, [1, 2])
        assert initial["urls"] == {"stream": "/table/t1/stream", "status": "/table/t1/status", "media": None}
        own = spectator_state(t1.state, t1)  # what the table's own page renders
        assert (initial["state"]["tray"], initial["state"]["log"]) == (own["tray"], own["log"])
        assert urllib.request.urlopen(wall + "/static/spectator.js", timeout=5).status == 200
        qr = urllib.request.urlopen(wall + "/table/t1/qr.svg", timeout=5).read().decode()
        assert qr.startswith("<?xml") and f"QR code of {wall}/table/t1/" in qr
        view = json.load(urllib.request.urlopen(wall + "/api/table/t1", timeout=5))
        assert (view["online"], view["version"], view["state"]["tray"]["last"]["faces"]) == (True, 1, [1, 2])
        for missing in ("/table/nobody/", "/table/nobody/stream"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(wall + missing, timeout=5)
            assert err.value.code == 404


def test_a_tables_screen_stream_on_the_hub_sends_a_snapshot_then_each_view_as_an_update(tmp_path, broker, wall):
    with make_table(tmp_path, broker, "t1") as t1:
        wait_for(lambda: (t := tiles(wall)) and t[0]["game"] and t[0]["online"], 10, "the tile: the view, online")
        stream = urllib.request.urlopen(wall + "/table/t1/stream", timeout=10)
        name, first = _next_message(stream)
        assert name == "snapshot" and (first["version"], first["online"]) == (0, True)
        state, rev = first["state"], first["rev"]
        versions = []
        for faces, version in (((4, 5), 1), ((6,), 2)):  # one at a time: the table may send one view for two events
            t1.submit(DiceRolled(faces=faces))
            while not versions or versions[-1] < version:
                name, d = _next_message(stream)
                assert name == "update" and d["base"] == rev and d["rev"] == rev + 1 and d["epoch"] == t1.epoch
                state.update(d["set"])
                for key in d["unset"]:
                    del state[key]
                for key, tail in d["append"].items():
                    state[key] = (state.get(key, []) + tail["items"])[-tail["keep"]:]
                rev = d["rev"]
                versions.append(d["version"])
        # before the rolls, the table may republish its view at version 0 (its devices' status)
        assert [v for v in versions if v] == [1, 2] and state["tray"]["last"]["faces"] == [6]
        assert [line["text"] for line in state["log"]] == ["Rolled 2d6: 4, 5 (total 9)", "Rolled 1d6: 6 (total 6)"]
        assert d["append"]["log"]["items"] == state["log"][-1:]  # the log's new line only, not the whole log
        assert state == json.load(urllib.request.urlopen(wall + "/api/table/t1", timeout=5))["state"]
        stream.close()
        again = urllib.request.urlopen(wall + "/table/t1/stream", timeout=10)  # a newcomer: the whole state
        name, d = _next_message(again)
        assert (name, d["version"], d["rev"], d["state"]) == ("snapshot", 2, rev, state)
        again.close()


def test_a_publishing_table_shows_the_hubs_screen_of_it_on_its_qr_code(tmp_path, broker):
    folder = tmp_path / "t9"
    folder.mkdir()
    cfg = TableConfig(data=DataSettings(db=str(folder / "log.db")), camera=CameraSettings(source="none"),
                      web=WebSettings(pin="1234"),
                      publish=PublishSettings(broker=broker.url, table_id="t9", hub_url="http://hall.example:8080"))
    assert cfg.shown_url == "http://hall.example:8080/table/t9/"
    with Table.build(cfg).start() as t9:
        client = t9.web.test_client()
        assert b"http://hall.example:8080/table/t9/" in client.get("/").data
        assert b"QR code of http://hall.example:8080/table/t9/" in client.get("/qr.svg").data
    with pytest.raises(ValueError, match="hub_url: needs broker and table_id"):
        PublishSettings(hub_url="http://hall.example:8080/")


def _next_message(stream):
    """The next SSE message but heartbeats: ``(event name, data)``."""
    event = None
    while True:
        line = stream.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event != "heartbeat":
            return event, json.loads(line[6:])
