"""The convention wall: one subscription to the broker, a tile per table sorted by name, updated
over SSE; a table killed with SIGKILL is shown offline within the keep-alive (issue 34)."""

import json
import os
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
from arena_table.webui.server import make_server, stop_server


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
    server = make_server(app, "127.0.0.1", 0, clients=8)
    threading.Thread(target=server.run, daemon=True).start()
    yield f"http://127.0.0.1:{server.effective_port}"
    stop_server(app, server)
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


def test_a_tile_links_to_the_tables_own_screen_served_by_the_hub(tmp_path, broker, wall):
    with make_table(tmp_path, broker, "t1") as t1:
        t1.submit(DiceRolled(faces=(1, 2)))
        wait_for(lambda: (t := tiles(wall)) and t[0]["version"] == 1, 10, "the tile")
        assert 'href="table/t1"' in urllib.request.urlopen(wall + "/", timeout=5).read().decode()
        page = urllib.request.urlopen(wall + "/table/t1", timeout=5).read().decode()
        assert '<h1 id="title">t1</h1>' in page and 'new EventSource("../events")' in page
        view = json.load(urllib.request.urlopen(wall + "/api/table/t1", timeout=5))
        assert (view["online"], view["version"], view["state"]["tray"]["last"]["faces"]) == (True, 1, [1, 2])
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(wall + "/table/nobody", timeout=5)
        assert err.value.code == 404
