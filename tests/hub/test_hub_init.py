"""``hub init`` writes a Mosquitto config, password file and ACL that a real broker enforces: a
table may publish only under its own id, anonymous clients only read views and status (issue 34)."""

import threading

import paho.mqtt.client as mqtt
import pytest
from brokerkit import Mosquitto, wait_for

from arena_table.cli import main
from arena_table.cli.common import free_port
from arena_table.hub.feed import Feed
from arena_table.hub.topics import parse_broker
from arena_table.rules import DiceRolled
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, PublishSettings, TableConfig, WebSettings


@pytest.fixture
def hall(tmp_path, capsys):
    """A broker from ``hub init --names t1,t2``; yields it and the printed credentials by user."""
    port, ws_port = free_port(), free_port()
    assert main(["hub", "init", "--names", "t1,t2", "--dir", str(tmp_path / "hub"), "--port", str(port),
                 "--ws-port", str(ws_port), "--bind", "127.0.0.1"]) == 0
    out = capsys.readouterr().out
    creds = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) > 4 and words[1] == "user" and words[3] == "password":
            creds[words[2]] = words[4]
    assert set(creds) == {"hub", "t1", "t2"}
    assert f"--publish mqtt://t1:{creds['t1']}@127.0.0.1:{port} --table-id t1" in out
    assert creds["t1"] not in (tmp_path / "hub" / "passwd").read_text()  # only the hash is kept
    assert f"ws://127.0.0.1:{ws_port}/ (read only)" in out
    broker = Mosquitto(tmp_path, tmp_path / "hub" / "mosquitto.conf", port, ws_port).start()
    yield broker, creds
    broker.kill()


class Client:
    """An MQTT v5 client that records the broker's answer to each publish and what it receives."""

    def __init__(self, port, user=None, password=None):
        self.acks, self.got, self.connected = {}, [], threading.Event()
        self.reason = None
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if user:
            c.username_pw_set(user, password)

        def on_connect(cl, u, flags, rc, props=None):
            self.reason = rc
            if not rc.is_failure:
                self.connected.set()

        c.on_connect = on_connect
        c.on_publish = lambda cl, u, mid, rc, props=None: self.acks.__setitem__(mid, rc)
        c.on_message = lambda cl, u, m: self.got.append((m.topic, m.payload))
        c.connect("127.0.0.1", port)
        c.loop_start()
        self.client = c

    def publish(self, name, payload):
        info = self.client.publish(name, payload, qos=1)
        return wait_for(lambda: self.acks.get(info.mid), 5, f"the broker's answer to {name}")

    def subscribe(self, name):
        done = threading.Event()
        self.client.on_subscribe = lambda cl, u, mid, rcs, props=None: done.set()
        self.client.subscribe(name, qos=1)
        assert done.wait(5)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def test_a_table_may_publish_only_under_its_own_id(hall):
    broker, creds = hall
    hub, t1 = Client(broker.port, "hub", creds["hub"]), Client(broker.port, "t1", creds["t1"])
    try:
        assert hub.connected.wait(5) and t1.connected.wait(5)
        hub.subscribe("arena-table/#")
        assert str(t1.publish("arena-table/t2/view", b"forged")) == "Not authorized"
        assert str(t1.publish("arena-table/t1/view", b"own")) == "Success"
        wait_for(lambda: ("arena-table/t1/view", b"own") in hub.got, 5, "t1's own view at the hub")
        assert ("arena-table/t2/view", b"forged") not in hub.got  # refused before the later one was delivered
    finally:
        hub.close(), t1.close()


def test_anonymous_may_read_views_and_status_but_not_publish(hall):
    broker, creds = hall
    t1, anon = Client(broker.port, "t1", creds["t1"]), Client(broker.port)
    try:
        assert t1.connected.wait(5) and anon.connected.wait(5)
        anon.subscribe("arena-table/+/view")
        anon.subscribe("arena-table/+/events")
        assert str(anon.publish("arena-table/t1/view", b"anonymous")) == "Not authorized"
        assert str(anon.publish("arena-table/t1/resend", b'{"after": 0}')) == "Not authorized"
        t1.publish("arena-table/t1/events", b"an event")
        t1.publish("arena-table/t1/view", b"a view")
        wait_for(lambda: anon.got, 5, "the view")
        assert anon.got == [("arena-table/t1/view", b"a view")]  # no event, no forged view
    finally:
        t1.close(), anon.close()


def test_a_wrong_password_is_refused(hall):
    broker, creds = hall
    c = Client(broker.port, "t1", creds["t2"])
    try:
        wait_for(lambda: c.reason is not None, 5, "the broker's answer")
        assert c.reason.is_failure and not c.connected.is_set()
    finally:
        c.close()


def test_a_table_with_its_credentials_reaches_the_hub(tmp_path, hall):
    broker, creds = hall
    cfg = TableConfig(data=DataSettings(db=str(tmp_path / "t1.db")), camera=CameraSettings(source="none"),
                      web=WebSettings(pin="1234"),
                      publish=PublishSettings(broker=f"mqtt://127.0.0.1:{broker.port}", table_id="t1",
                                              username="t1", password=creds["t1"]))
    with Feed(parse_broker(f"mqtt://hub:{creds['hub']}@127.0.0.1:{broker.port}")) as feed, Table(cfg).start() as t:
        wait_for(lambda: t.status()["hub"]["state"] == "online", 10, "t1 online")
        t.submit(DiceRolled(faces=(5, 5)))
        got = wait_for(lambda: (f := feed.tables()).get("t1") and f["t1"].events and f["t1"].view
                       and f["t1"].view["version"] == 1 and f, 10, "t1's event and view at the hub")
        assert [e["text"].split(" at=")[0] for e in got["t1"].events] == ["roll faces=[5,5]"]
        assert got["t1"].online
