"""Tables publish to a real Mosquitto: retained views with epoch and version, each accepted event
with its seq, presence with a last-will; a broker killed and restarted mid-game leaves the
subscriber with every table's events, no gap and no duplicate (issue 34)."""

import json
import threading

import paho.mqtt.client as mqtt
import pytest
from brokerkit import wait_for

from arena_table.hub.feed import Feed
from arena_table.hub.topics import parse_broker
from arena_table.rules import DiceRolled
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, PublishSettings, TableConfig, WebSettings


def make_table(tmp_path, broker, table_id):
    folder = tmp_path / table_id
    folder.mkdir()
    cfg = TableConfig(data=DataSettings(db=str(folder / "log.db")), camera=CameraSettings(source="none"),
                      web=WebSettings(pin="1234"), publish=PublishSettings(broker=broker.url, table_id=table_id))
    return Table(cfg).start()


def roll(table, *faces):
    return table.submit(DiceRolled(faces=faces))


def retained(broker, topic_name):
    """The retained message on ``topic_name`` as a fresh subscriber gets it."""
    got, done = [], threading.Event()
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    c.on_connect = lambda cl, u, f, rc, p=None: cl.subscribe(topic_name, 1)
    c.on_message = lambda cl, u, m: (got.append((m.payload, m.retain)), done.set())
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    done.wait(5)
    c.disconnect()
    c.loop_stop()
    return got[0] if got else None


def test_view_events_and_presence_reach_a_subscriber(tmp_path, broker):
    with Feed(parse_broker(broker.url)) as feed:
        wait_for(feed.connected.is_set, what="the hub connected")
        with make_table(tmp_path, broker, "t1") as t1, make_table(tmp_path, broker, "t2") as t2:
            wait_for(lambda: t1.status()["hub"]["state"] == "online", what="t1 online")
            seqs = [roll(t1, 3, 4), roll(t2, 6), roll(t1, 1, 1)]
            assert seqs == [1, 1, 2]
            tables = wait_for(lambda: (f := feed.tables()) and len(f.get("t1", ()).events if "t1" in f else ()) == 2
                              and "t2" in f and f["t2"].view and f["t2"].view["version"] == 1 and f,
                              what="both tables' events and views")
            assert [e["seq"] for e in tables["t1"].events] == [1, 2]
            assert [e["text"] for e in tables["t1"].events] == ["roll faces=[3,4] at=" + repr(t1.log.rows()[0].event.at),
                                                                 "roll faces=[1,1] at=" + repr(t1.log.rows()[1].event.at)]
            assert tables["t2"].view["epoch"] == t2.epoch and tables["t2"].view["state"]["game"] == "dice-tray"
            assert tables["t1"].online and tables["t2"].online
            payload, is_retained = retained(broker, "arena-table/t1/view")
            view = json.loads(payload)
            assert is_retained and (view["table"], view["epoch"], view["version"]) == ("t1", t1.epoch, 2)
            assert retained(broker, "arena-table/t1/status") == (b"online", True)
        # a table closed says goodbye: offline, retained
        assert retained(broker, "arena-table/t1/status") == (b"offline", True)


def test_broker_killed_and_restarted_mid_game_leaves_no_gap_and_no_duplicate(tmp_path, broker):
    with Feed(parse_broker(broker.url)) as feed:
        wait_for(feed.connected.is_set, what="the hub connected")
        with make_table(tmp_path, broker, "t1") as t1, make_table(tmp_path, broker, "t2") as t2:
            tables = (t1, t2)
            wait_for(lambda: all(t.status()["hub"]["state"] == "online" for t in tables), what="both online")
            for i in range(5):
                for t in tables:
                    roll(t, i % 6 + 1)
            broker.kill()
            wait_for(lambda: all(t.status()["hub"]["state"] == "offline" for t in tables), what="hub offline shown")
            assert "hub offline" in t1.status()["hub"]["detail"]
            for i in range(5):  # the tables play on while the broker is down
                for t in tables:
                    roll(t, 6)
            broker.start()
            for i in range(5):
                for t in tables:
                    roll(t, 2)
            wait_for(lambda: all(t.status()["hub"]["state"] == "online" for t in tables), timeout=15,
                     what="both tables reconnected by themselves")
            want = {name: [r.seq for r in t.rows(include_rejected=False)] for name, t in zip(("t1", "t2"), tables)}
            assert want["t1"] == list(range(1, 16))
            got = wait_for(lambda: (f := feed.tables()) and all(
                [e["seq"] for e in f[n].events] == want[n] for n in want) and f, timeout=15,
                what="every event at the subscriber")
            for name in want:
                assert [e["seq"] for e in got[name].events] == want[name]  # no gap, no duplicate, in order
                assert got[name].view["version"] == 15


def test_a_refused_roll_is_not_published_and_leaves_no_gap(tmp_path, broker):
    with Feed(parse_broker(broker.url)) as feed:
        with make_table(tmp_path, broker, "t1") as t1:
            wait_for(lambda: t1.status()["hub"]["state"] == "online", what="online")
            roll(t1, 2)
            with pytest.raises(Exception):
                roll(t1, 9)  # a d6 shows no 9: refused, stored as rejected (seq 2)
            roll(t1, 5)
            got = wait_for(lambda: (f := feed.tables()).get("t1") and len(f["t1"].events) == 2 and f,
                           what="two accepted events")
            assert [(e["seq"], e["prev"]) for e in got["t1"].events] == [(1, 0), (3, 1)]


@pytest.mark.parametrize("flags, says", [
    (["--publish", "mqtt://127.0.0.1:1883"], "publish.table_id: broker and table_id go together"),
    (["--publish", "http://hall", "--table-id", "t1"], "--publish: broker 'http://hall': expected mqtt://HOST[:PORT]"),
    (["--publish", "mqtt://hall", "--table-id", "a/b"], "--table-id: table id 'a/b'"),
])
def test_run_refuses_a_bad_publish_flag_before_making_anything(tmp_path, capsys, flags, says):
    from arena_table.cli import main

    assert main(["run", "--db", str(tmp_path / "log.db"), "--camera", "none", *flags]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "log.db").exists()


def test_the_control_page_says_hub_offline_while_the_broker_is_down(tmp_path, broker):
    from arena_table.webui.app import WebConfig, create_app, shutdown

    with make_table(tmp_path, broker, "t1") as t1:
        app = create_app(t1, WebConfig(pin="1234"))
        app.config["TESTING"] = True
        try:
            client = app.test_client()
            token = client.get("/api/session").get_json()["csrf"]
            assert client.post("/login", json={"pin": "1234"}, headers={"X-CSRF-Token": token}).status_code == 200
            wait_for(lambda: t1.status()["hub"]["state"] == "online", what="online")
            assert "hub: <span class=\"state\">online</span>" in client.get("/control").get_data(as_text=True)
            broker.kill()
            wait_for(lambda: t1.status()["hub"]["state"] == "offline", what="offline")
            page = client.get("/control").get_data(as_text=True)
            assert '<li class="bad">hub: <span class="state">offline</span> — hub offline:' in page
            assert roll(t1, 4) == 1  # the table plays on
        finally:
            shutdown(app)
