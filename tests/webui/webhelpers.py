"""Fixtures and helpers for the web app tests: a real Table on a temporary log, its app and
a test client; log in; read an SSE stream. (Fixtures live here, imported by each test
module, rather than in a conftest.py: ``--doctest-modules`` would import every
``conftest.py`` of the suite under one module name.)"""

from __future__ import annotations

import json
from typing import Iterator

import pytest

from arena_table.table.app import Table, TableConfig
from arena_table.webui.app import create_app, shutdown

PIN = "246810"


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    t = Table(TableConfig(db=tmp_path / "table.db", camera=None, pin=PIN)).start()
    yield t
    t.close()


@pytest.fixture
def app(table):
    a = create_app(table, {"heartbeat": 0.3})
    a.config["TESTING"] = True
    yield a
    shutdown(a)


@pytest.fixture
def client(app):
    return app.test_client()



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
    import time

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


@pytest.fixture
def ctl(client):
    """A logged-in control client's POST: ``ctl(url, json_body) -> response``."""
    token = login(client)

    def post(url, body):
        return client.post(url, json=body, headers={"X-CSRF-Token": token})
    return post
