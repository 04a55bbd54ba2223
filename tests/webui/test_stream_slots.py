"""A hall is not a living room: one client opening streams in a loop cannot take the TV's or the
control page's, over real HTTP connections to the waitress server ``arena-table run`` uses. Each
client has its own source address on the loopback network (Linux answers every 127.x.y.z)."""

from __future__ import annotations

import http.client
import json
import socket

import pytest
from webhelpers import PIN, needs_loopback_net

from arena_table.rules import DiceRolled
from arena_table.webui.app import create_app
from arena_table.webui.server import ServerThread
from arena_table.webui.sse import Hub, HubFull, TooManyStreams
from arena_table.webui.views import spectator_state

FLOODER, OTHER_PHONE, PLAYER = "127.0.0.2", "127.0.0.3", "127.0.0.4"
TV = "127.0.0.1"  # the browser on the Pi itself: a default web.tv_addresses


class Stream:
    """``GET /api/stream`` on its own connection from ``source``; reads the status, then SSE messages."""

    def __init__(self, port: int, source: str, cookie: str = "") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=15, source_address=(source, 0))
        extra = f"Cookie: {cookie}\r\n" if cookie else ""
        self.sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
                          f"{extra}\r\n".encode())
        self.file = self.sock.makefile("rb")

    def status(self) -> int:
        return int(self.file.readline().split()[1])

    def message(self) -> tuple[str, dict]:
        """The next SSE message: ``(event, data)`` (chunk-size lines and comments skipped)."""
        event, data = "", None
        while True:
            line = self.file.readline().decode().rstrip("\r\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "" and event and data is not None:
                return event, data

    def until(self, event: str) -> dict:
        for _ in range(20):
            name, data = self.message()
            if name == event:
                return data
        raise AssertionError(f"no {event} message")

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def _log_in(port: int, source: str) -> str:
    """Log in with the PIN over HTTP from ``source``; returns the session cookie (``name=value``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    conn.request("GET", "/api/session")
    resp = conn.getresponse()
    token, cookie = json.loads(resp.read())["csrf"], resp.getheader("Set-Cookie").split(";", 1)[0]
    conn.request("POST", "/login", body=json.dumps({"pin": PIN}),
                 headers={"Content-Type": "application/json", "X-CSRF-Token": token, "Cookie": cookie})
    resp = conn.getresponse()
    assert resp.status == 200, resp.read()
    resp.read()
    conn.close()
    return resp.getheader("Set-Cookie").split(";", 1)[0]


def _page_status(port: int, source: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    conn.request("GET", "/")
    status = conn.getresponse().status
    conn.close()
    return status


@needs_loopback_net
def test_one_client_opening_250_streams_leaves_the_tv_and_the_control_page_streaming(table):
    app = create_app(table, {"heartbeat": 15.0})  # the defaults: 200 spectators, 8 streams per address
    hub = app.extensions["arena_hub"]
    with ServerThread(app, "127.0.0.1", 0) as server:
        flood = [Stream(server.port, FLOODER) for _ in range(250)]
        statuses = [s.status() for s in flood]
        assert statuses.count(200) == 8 and statuses.count(429) == 242  # the rest: "too many streams from you"
        assert hub.stats()["clients"] == 8
        assert _page_status(server.port, FLOODER) == 429

        tv = Stream(server.port, TV)
        assert tv.status() == 200 and tv.until("snapshot")["version"] == 0
        assert _page_status(server.port, TV) == 200
        # a player logged in on the very phone that floods, and another player
        control = [Stream(server.port, source, cookie=_log_in(server.port, source)) for source in (FLOODER, PLAYER)]
        assert [c.status() for c in control] == [200, 200]
        assert all(c.until("snapshot")["version"] == 0 for c in control)
        phone = Stream(server.port, OTHER_PHONE)  # and spectators on other phones still come in
        assert phone.status() == 200 and phone.until("snapshot")["version"] == 0
        assert hub.stats()["tv"] == 1 and hub.stats()["control"] == 2 and hub.stats()["clients"] == 9

        table.submit(DiceRolled(faces=(4, 2)))
        for s in (tv, *control, phone):
            update = s.until("update")
            assert update["version"] == 1 and update["append"]["log"]["items"][-1]["seq"] == 1
        for s in (*flood, tv, *control, phone):
            s.close()


def _hub(table, **kw) -> Hub:
    return Hub(table, spectator_state, heartbeat=60, **kw)


def test_the_cap_counts_each_address_and_the_pool(table):
    hub = _hub(table, max_clients=3, per_address=2)
    a1, a2 = hub.connect("192.0.2.1"), hub.connect("192.0.2.1")
    with pytest.raises(TooManyStreams, match="2 streams are open from 192.0.2.1"):
        hub.connect("192.0.2.1")
    hub.connect("192.0.2.2")
    with pytest.raises(HubFull, match="3 viewers are connected") as full:
        hub.connect("192.0.2.3")
    assert not isinstance(full.value, TooManyStreams) and full.value.status == 503
    hub.disconnect(a1)
    hub.disconnect(a1)  # twice (a close after a reap) frees the slot once
    hub.connect("192.0.2.1")
    assert hub.stats()["clients"] == 3 and hub.stats()["refused"] == 2
    del a2


def test_the_tv_and_control_sessions_have_slots_of_their_own(table):
    hub = _hub(table, max_clients=1, per_address=1, tv_addresses=("127.0.0.1",))
    hub.connect("192.0.2.1")  # the spectators' pool is full
    tv = [hub.connect("127.0.0.1") for _ in range(4)]
    with pytest.raises(HubFull):  # beyond its 4 slots the TV is a spectator, and that pool is full
        hub.connect("127.0.0.1")
    ctl = [hub.connect("192.0.2.1", session="sid-a") for _ in range(4)]
    with pytest.raises(HubFull):  # 4 per control session
        hub.connect("192.0.2.1", session="sid-a")
    ctl.append(hub.connect("192.0.2.9", session="sid-b"))
    assert (hub.stats()["tv"], hub.stats()["control"]) == (4, 5)
    assert hub.capacity == 1 + 4 + 16
    for c in tv + ctl:
        hub.disconnect(c)
    assert (hub.stats()["clients"], hub.stats()["tv"], hub.stats()["control"]) == (1, 0, 0)
