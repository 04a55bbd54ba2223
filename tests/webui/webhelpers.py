"""Helpers for the web app tests: log in, read an SSE stream, wait for the hub, run a table as
``arena-table run`` builds it. The fixtures (``table``, ``app``, ``client``, ``ctl``) are in
this folder's ``conftest.py``."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager

import pytest

from arena_table.table import secrets_store
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.table.revoked_sessions import StoredSessionRevocations
from arena_table.webui.app import WebConfig, create_app, shutdown

PIN = "246810"


def _can_bind(address: str) -> bool:
    import socket

    try:
        with socket.socket() as s:
            s.bind((address, 0))
    except OSError:
        return False
    return True


needs_loopback_net = pytest.mark.skipif(not _can_bind("127.0.0.2"),
                                        reason="127.0.0.2 is not this machine's (not Linux): one client per address")


def login(client, pin: str = PIN) -> str:
    """Log ``client`` in; returns the CSRF token its POSTs must carry."""
    token = client.get("/api/session").get_json()["csrf"]
    resp = client.post("/login", json={"pin": pin}, headers={"X-CSRF-Token": token})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()["csrf"]


class SSEReader:
    """Reads messages from a streaming Flask test response: ``next()`` -> (event, data, id)."""

    def __init__(self, response) -> None:
        self.response = response
        self._it = iter(response.response)
        self._buf = ""

    def next(self) -> tuple[str, dict, str | None]:
        while "\n\n" not in self._buf:
            self._buf += next(self._it).decode()
        block, self._buf = self._buf.split("\n\n", 1)
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        return fields.get("event", "message"), json.loads(fields.get("data", "null")), fields.get("id")

    def until(self, pred, limit: int = 50) -> tuple[str, dict, str | None]:
        for _ in range(limit):
            msg = self.next()
            if pred(msg):
                return msg
        raise AssertionError("stream never sent the expected message")

    def close(self) -> None:
        self.response.close()


def settle(app, version: int, timeout: float = 3.0) -> None:
    """Wait until the app's SSE hub has broadcast ``version`` (its thread runs behind the engine)."""
    hub = app.extensions["arena_hub"]
    end = time.monotonic() + timeout
    while hub.snapshot()[2] < version:
        if time.monotonic() > end:
            raise AssertionError(f"hub stuck at version {hub.snapshot()[2]}, expected {version}")
        time.sleep(0.005)


def apply_update(page: dict, update: dict) -> dict:
    """Merge an SSE ``update`` into a page's state the way ``spectator.js`` does."""
    page.update(update["set"])
    for key in update["unset"]:
        page.pop(key, None)
    for key, tail in update.get("append", {}).items():
        page[key] = (page.get(key, []) + tail["items"])[-tail["keep"]:]
    return page


@contextmanager
def running_table(data_dir, given_pin=None):
    """What ``arena-table run --db DATA/t.db [--pin PIN]`` builds: the PIN, the session key, the
    table and its web app (in a test client)."""
    pin = secrets_store.load_or_create_pin(data_dir, given_pin)
    key = secrets_store.load_or_create_session_secret(data_dir, pin)
    table = Table(TableConfig(data=DataSettings(db=data_dir / "t.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin=pin))).start()
    app = create_app(table, WebConfig(pin=pin, secret_key=key, heartbeat=0.3,
                                      revocations=StoredSessionRevocations(data_dir)))
    app.config["TESTING"] = True
    try:
        yield app
    finally:
        shutdown(app)
        table.close()
