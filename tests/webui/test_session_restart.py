"""The control page's login survives a restart of the table (the session key is kept in the data
folder, ``secrets_store.load_or_create_session_secret``) and ends when the PIN changes."""

from __future__ import annotations

import logging
import os
import stat
from contextlib import contextmanager

import pytest
from webhelpers import PIN, login, table  # noqa: F401 (fixture)

from arena_table.table import secrets_store
from arena_table.table.app import Table, TableConfig
from arena_table.webui.app import WebConfig, create_app, shutdown


@contextmanager
def running_table(data_dir, given_pin=None):
    """What ``arena-table run --db DATA/t.db [--pin PIN]`` builds: the PIN, the session key, the
    table and its web app (in a test client)."""
    pin = secrets_store.load_or_create_pin(data_dir, given_pin)
    key = secrets_store.load_or_create_session_secret(data_dir, pin)
    table = Table(TableConfig(db=data_dir / "t.db", camera=None, pin=pin)).start()
    app = create_app(table, WebConfig(pin=pin, secret_key=key, heartbeat=0.3))
    app.config["TESTING"] = True
    try:
        yield app
    finally:
        shutdown(app)
        table.close()


def _logged_in_cookie(data_dir) -> tuple[str, str]:
    """Log in to a table on ``data_dir`` with :data:`PIN`, stop it; its session cookie and CSRF token."""
    with running_table(data_dir, PIN) as app:
        client = app.test_client()
        token = login(client)
        assert client.get("/control").status_code == 200
        return client.get_cookie("arena_session").value, token


@pytest.mark.parametrize("pin_flag", [None, PIN], ids=["no --pin", "same --pin"])
def test_a_restart_keeps_the_control_page_logged_in(tmp_path, pin_flag):
    cookie, token = _logged_in_cookie(tmp_path)
    with running_table(tmp_path, pin_flag) as app:  # the same data folder: a restart
        client = app.test_client()
        client.set_cookie("arena_session", cookie)
        assert client.get("/api/session").get_json() == {"authenticated": True, "csrf": token}
        assert client.get("/control").status_code == 200
        resp = client.post("/api/events", json={"notation": "roll faces=[4]"}, headers={"X-CSRF-Token": token})
        assert resp.status_code == 201


def test_a_new_pin_logs_everyone_out(tmp_path):
    cookie, token = _logged_in_cookie(tmp_path)
    with running_table(tmp_path, "13579") as app:
        client = app.test_client()
        client.set_cookie("arena_session", cookie)
        assert client.get("/api/session").get_json()["authenticated"] is False
        assert client.get("/control").status_code == 302
        resp = client.post("/api/events", json={"notation": "roll faces=[4]"}, headers={"X-CSRF-Token": token})
        assert resp.status_code == 401
        login(client, "13579")
        assert client.get("/control").status_code == 200
    with running_table(tmp_path, PIN) as app:  # and back to the old PIN: the old cookie stays dead
        client = app.test_client()
        client.set_cookie("arena_session", cookie)
        assert client.get("/api/session").get_json()["authenticated"] is False


def test_without_a_kept_key_a_restart_logs_out(table):
    """Tests and embedded tables give no key: each app makes its own, as before."""
    first, second = create_app(table), create_app(table)
    try:
        client = first.test_client()
        login(client)
        other = second.test_client()
        other.set_cookie("arena_session", client.get_cookie("arena_session").value)
        assert other.get("/api/session").get_json()["authenticated"] is False
        assert len(first.secret_key) == 32 and first.secret_key != second.secret_key
    finally:
        shutdown(first)
        shutdown(second)


def test_the_key_file_is_private_and_kept(tmp_path):
    key = secrets_store.load_or_create_session_secret(tmp_path / "data", PIN)
    path = tmp_path / "data" / secrets_store.SESSION_SECRET_FILE
    assert len(key) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secrets_store.load_or_create_session_secret(tmp_path / "data", PIN) == key
    assert secrets_store.load_or_create_session_secret(tmp_path / "data", "13579") != key  # a new PIN, a new key
    assert [p.name for p in (tmp_path / "data").iterdir()] == [secrets_store.SESSION_SECRET_FILE]  # no temporary left


@pytest.mark.parametrize("content", [b"", b"abc\n", b"00" * 16 + b"\n" + b"00" * 32 + b"\n",
                                     b"zz" * 32 + b"\n" + b"00" * 32 + b"\n", b"\xff" * 40],
                         ids=["empty", "short", "short key", "not hex", "not text"])
def test_a_damaged_key_file_is_replaced_with_a_warning(tmp_path, caplog, content):
    path = tmp_path / secrets_store.SESSION_SECRET_FILE
    path.write_bytes(content)
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger=secrets_store.__name__):
        key = secrets_store.load_or_create_session_secret(tmp_path, PIN)
    assert len(key) == 32
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "is not a session key" in caplog.records[0].getMessage()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secrets_store.load_or_create_session_secret(tmp_path, PIN) == key  # the new file reads back


def test_a_key_file_open_to_others_is_made_private_with_a_warning(tmp_path, caplog):
    key = secrets_store.load_or_create_session_secret(tmp_path, PIN)
    path = tmp_path / secrets_store.SESSION_SECRET_FILE
    path.chmod(0o644)  # a copy, or an older version
    with caplog.at_level(logging.WARNING):
        assert secrets_store.load_or_create_session_secret(tmp_path, PIN) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    [record] = caplog.records
    assert record.levelname == "WARNING" and str(path) in record.getMessage() and "0644" in record.getMessage()


def test_a_key_file_open_to_others_and_not_ours_stops_run(tmp_path, monkeypatch):
    secrets_store.load_or_create_session_secret(tmp_path, PIN)
    path = tmp_path / secrets_store.SESSION_SECRET_FILE
    path.chmod(0o640)

    def not_owner(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chmod", not_owner)
    with pytest.raises(OSError) as info:
        secrets_store.load_or_create_session_secret(tmp_path, PIN)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and f"chmod 600 {path}" in message
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # left as it was, not replaced


def test_webui_refuses_a_short_key(table):
    with pytest.raises(ValueError, match="at least 32 bytes"):
        create_app(table, WebConfig(secret_key=b"short"))
