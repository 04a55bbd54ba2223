"""The broker's MQTT-over-WebSockets listener from ``hub init``: a browser-like client (paho over
websockets, anonymous as a phone is) reads a table's retained view and its presence, and the
ACL that holds on the MQTT port holds there too: it cannot publish (issue 34, item 3)."""

import json
import threading

import paho.mqtt.client as mqtt
import pytest
from brokerkit import Mosquitto, wait_for

from arena_table.cli.common import free_port
from arena_table.hub.broker_setup import write_hub_files
from arena_table.rules import DiceRolled
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, PublishSettings, TableConfig, WebSettings


@pytest.fixture
def hall(tmp_path):
    port, ws_port = free_port(), free_port()
    creds = {c.user: c.password for c in write_hub_files(tmp_path / "hub", ["t1"], port=port, bind="127.0.0.1",
                                                          ws_port=ws_port)}
    assert f"listener {ws_port} 127.0.0.1\nprotocol websockets\n" in (tmp_path / "hub" / "mosquitto.conf").read_text()
    broker = Mosquitto(tmp_path, tmp_path / "hub" / "mosquitto.conf", port, ws_port).start()
    yield broker, creds
    broker.kill()


class WsClient:
    """An anonymous MQTT v5 client over WebSockets; records what it receives and the broker's answers."""

    def __init__(self, port):
        self.got, self.acks, self.connected = [], {}, threading.Event()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5, transport="websockets")
        c.on_connect = lambda cl, u, f, rc, p=None: rc.is_failure or self.connected.set()
        c.on_message = lambda cl, u, m: self.got.append((m.topic, m.payload, m.retain))
        c.on_publish = lambda cl, u, mid, rc, p=None: self.acks.__setitem__(mid, rc)
        c.connect("127.0.0.1", port)
        c.loop_start()
        self.client = c
        assert self.connected.wait(5), "no CONNACK over websockets"

    def subscribe(self, *names):
        done = threading.Event()
        self.client.on_subscribe = lambda cl, u, mid, rcs, p=None: done.set()
        self.client.subscribe([(n, 1) for n in names])
        assert done.wait(5)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def test_a_websocket_spectator_reads_a_tables_view_and_cannot_publish(tmp_path, hall):
    broker, creds = hall
    cfg = TableConfig(data=DataSettings(db=str(tmp_path / "t1.db")), camera=CameraSettings(source="none"),
                      web=WebSettings(pin="1234"),
                      publish=PublishSettings(broker=f"mqtt://127.0.0.1:{broker.port}", table_id="t1",
                                              username="t1", password=creds["t1"]))
    with Table(cfg).start() as table:
        wait_for(lambda: table.status()["hub"]["state"] == "online", 10, "t1 online")
        table.submit(DiceRolled(faces=(2, 6)))
        ws = WsClient(broker.ws_port)
        try:
            ws.subscribe("arena-table/t1/view", "arena-table/t1/status", "arena-table/t1/events")
            views = lambda: [json.loads(p) for t, p, r in ws.got if t == "arena-table/t1/view"]
            view = wait_for(lambda: [v for v in views() if v["version"] == 1], 10, "t1's view over websockets")[-1]
            assert view["table"] == "t1" and view["epoch"] == table.epoch
            assert view["state"]["tray"]["last"]["faces"] == [2, 6]
            assert ("arena-table/t1/status", b"online", True) in ws.got
            table.submit(DiceRolled(faces=(4,)))  # a live change, not only the retained view
            assert wait_for(lambda: [v for v in views() if v["version"] == 2], 10, "the next view")[-1][
                "state"]["tray"]["last"]["faces"] == [4]
            info = ws.client.publish("arena-table/t1/view", b'{"forged": true}', qos=1)
            assert str(wait_for(lambda: ws.acks.get(info.mid), 5, "the broker's answer")) == "Not authorized"
            info = ws.client.publish("arena-table/t1/resend", b'{"after": 0}', qos=1)
            assert str(wait_for(lambda: ws.acks.get(info.mid), 5, "the broker's answer")) == "Not authorized"
            assert not [t for t, p, r in ws.got if t == "arena-table/t1/events"]  # the ACL: views and status only
            assert all(b"forged" not in p for t, p, r in ws.got)
        finally:
            ws.close()


def test_hub_init_leaves_the_websockets_listener_out_with_port_0_and_refuses_the_mqtt_port(tmp_path, capsys):
    from arena_table.cli import main

    assert main(["hub", "init", "--names", "t1", "--dir", str(tmp_path / "a"), "--ws-port", "0"]) == 0
    conf = (tmp_path / "a" / "mosquitto.conf").read_text()
    assert "protocol websockets" not in conf and "listener 1883\n" in conf
    assert "ws://" not in capsys.readouterr().out
    assert main(["hub", "init", "--names", "t1", "--dir", str(tmp_path / "b"), "--port", "1884",
                 "--ws-port", "1884"]) == 2
    assert "--ws-port 1884 is the MQTT port too" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()
