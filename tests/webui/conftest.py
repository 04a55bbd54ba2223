"""Fixtures of the web app tests: a real Table on a temporary log, its app, a test client and a
logged-in control client's POST."""

from __future__ import annotations

from typing import Iterator

import pytest
from webhelpers import PIN, login

from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.webui.app import create_app, shutdown


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    t = Table(TableConfig(data=DataSettings(db=tmp_path / "table.db"), camera=CameraSettings(source="none"),
                          web=WebSettings(pin=PIN))).start()
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


@pytest.fixture
def ctl(client):
    """A logged-in control client's POST: ``ctl(url, json_body) -> response``."""
    token = login(client)

    def post(url, body):
        return client.post(url, json=body, headers={"X-CSRF-Token": token})
    return post
