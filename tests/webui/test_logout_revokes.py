"""Logging out ends the session on the server: a copy of the cookie taken before the logout (a
shared tablet's browser, a copied request) is refused, also after the table restarts, while the
other players stay logged in (a new user's trial: the signed cookie alone outlived the logout)."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from webhelpers import PIN, login, running_table

from arena_table.cli.common import free_port

from arena_table.table.revoked_sessions import StoredSessionRevocations
from arena_table.table.secrets_store import REVOKED_FILE, secrets_problem
from arena_table.webui.auth import SessionRevocations


def _copy(app, client):
    """A second browser holding a copy of ``client``'s session cookie."""
    other = app.test_client()
    other.set_cookie("arena_session", client.get_cookie("arena_session").value)
    return other


def _logged_in(c) -> bool:
    return c.get("/api/session").get_json()["authenticated"]


def test_a_copy_of_the_cookie_is_refused_after_the_logout(app, client):
    token = login(client)
    copy = _copy(app, client)
    assert _logged_in(copy) and copy.get("/control").status_code == 200  # the copy works until then
    assert client.post("/logout", headers={"X-CSRF-Token": token}).status_code == 303
    assert not _logged_in(copy)
    assert copy.get("/control").status_code == 302
    resp = copy.post("/api/events", json={"notation": "roll faces=[4]"}, headers={"X-CSRF-Token": token})
    assert resp.status_code == 401


def test_a_login_over_a_logged_in_session_ends_the_old_one(app, client):
    """A trial: a second login in the same browser (a second tab) left the first id alive, so the
    logout that followed did not end a copy of the first cookie."""
    token = login(client)
    copy = _copy(app, client)
    token = login(client)  # the login form again, with the session's token
    assert not _logged_in(copy)  # the first id ended with the second login
    client.post("/logout", headers={"X-CSRF-Token": token})
    assert not _logged_in(copy) and not _logged_in(client)


def test_another_players_session_outlives_one_logout(app, client):
    token = login(client)
    other = app.test_client()
    login(other)
    client.post("/logout", headers={"X-CSRF-Token": token})
    assert _logged_in(other) and not _logged_in(client)
    login(client)  # logging in again gives a new session, not the revoked one
    assert _logged_in(client)


def test_a_cookie_without_a_session_id_is_not_logged_in(client):
    """A session signed before logouts were revoked (no ``sid``) cannot be revoked: log in again."""
    with client.session_transaction() as sess:
        sess["auth"] = True
    assert not _logged_in(client)
    assert client.get("/control").status_code == 302


def test_a_logged_out_cookie_stays_refused_after_a_restart(tmp_path):
    with running_table(tmp_path, PIN) as app:
        leaving, staying = app.test_client(), app.test_client()
        token = login(leaving)
        login(staying)
        copy = _copy(app, leaving).get_cookie("arena_session").value
        kept = staying.get_cookie("arena_session").value
        leaving.post("/logout", headers={"X-CSRF-Token": token})
    assert stat.S_IMODE(os.stat(tmp_path / REVOKED_FILE).st_mode) == 0o600
    with running_table(tmp_path) as app:  # the same data folder, the same key: a restart
        c = app.test_client()
        c.set_cookie("arena_session", copy)
        assert not _logged_in(c)
        c = app.test_client()
        c.set_cookie("arena_session", kept)
        assert _logged_in(c)


def test_a_revoked_id_is_forgotten_when_every_copy_of_its_cookie_has_expired(tmp_path):
    now = [1_000_000.0]
    store = StoredSessionRevocations(tmp_path, clock=lambda: now[0])
    store.revoke("old")
    now[0] += SessionRevocations.keep_s - 10
    store.revoke("new")
    assert (tmp_path / REVOKED_FILE).read_text() == "old 1000000\nnew %d\n" % now[0]
    now[0] += 20
    store.revoke("newer")
    assert (tmp_path / REVOKED_FILE).read_text() == "new %d\nnewer %d\n" % (now[0] - 20, now[0])  # "old" gone
    again = StoredSessionRevocations(tmp_path, clock=lambda: now[0])
    assert [again.is_revoked(s) for s in ("old", "new", "newer")] == [False, True, True]


def test_damaged_lines_are_skipped_with_a_warning_and_the_rest_kept(tmp_path, caplog):
    import time

    (tmp_path / REVOKED_FILE).write_bytes(f"good {time.time():.0f}\nnot a line at all\nbad x\n\n".encode()
                                          + "caf\u00e9 1796102000\nfine 1e999\n".encode()
                                          + f"also-good {time.time():.0f}\n".encode())
    os.chmod(tmp_path / REVOKED_FILE, 0o644)
    with caplog.at_level(logging.WARNING):
        store = StoredSessionRevocations(tmp_path)
    assert store.is_revoked("good") and store.is_revoked("also-good") and not store.is_revoked("bad")
    assert "4 line(s) not '<session id> <time>' skipped" in caplog.text
    assert "was mode 0644, open to other users: made private" in caplog.text
    assert stat.S_IMODE(os.stat(tmp_path / REVOKED_FILE).st_mode) == 0o600


def test_a_logout_whose_file_cannot_be_written_still_revokes_until_the_table_stops(tmp_path, caplog):
    store = StoredSessionRevocations(tmp_path / "gone")  # a folder that is not there
    (tmp_path / "gone").write_text("a file where the folder goes")
    with caplog.at_level(logging.WARNING):
        store.revoke("sid1")
    assert store.is_revoked("sid1")
    assert "cannot write" in caplog.text and "stays refused until the table stops" in caplog.text


def test_run_refuses_a_folder_in_the_place_of_the_file_before_writing_anything(tmp_path, capsys):
    from arena_table.cli import main

    (tmp_path / REVOKED_FILE).mkdir()
    said = f"{tmp_path / REVOKED_FILE} is a directory, not the revoked sessions file: remove it"
    assert secrets_problem(tmp_path) == said
    assert main(["run", "--db", str(tmp_path / "t.db"), "--camera", "none", "--port", str(free_port())]) == 2
    assert said in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == [REVOKED_FILE]  # no log, PIN or key made


def test_an_unreadable_file_stops_run_rather_than_forgetting_its_logouts(tmp_path, monkeypatch, capsys):
    """A review: a file another user left (one ``sudo arena-table run``) was read as empty, so every
    logged-out cookie was let in again, and the next logout wrote over the old ids for good."""
    from arena_table.cli import main
    from arena_table.table.secrets_store import SecretFileError

    (tmp_path / REVOKED_FILE).write_text("stolen 1796102000\n")
    os.chmod(tmp_path / REVOKED_FILE, 0o600)

    read_bytes = Path.read_bytes

    def refused(path):
        if path.name != REVOKED_FILE:
            return read_bytes(path)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refused)
    with pytest.raises(SecretFileError, match="cannot be read .Permission denied.: the control page's logged-out"):
        StoredSessionRevocations(tmp_path)
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as the table's user sees a root-owned file
    assert "cannot be read by this user" in secrets_problem(tmp_path)
    assert main(["run", "--db", str(tmp_path / "t.db"), "--camera", "none", "--port", str(free_port())]) == 2
    assert "cannot be read by this user" in capsys.readouterr().err
    assert (tmp_path / REVOKED_FILE).read_text() == "stolen 1796102000\n"


def test_run_keeps_the_logouts_across_its_own_restart(tmp_path):
    """A review: the tests above build the web app as ``run`` does; this one runs ``run`` itself, so
    a ``run`` that forgot to hand its stored revocations to the app fails here."""
    import http.client
    import json
    import signal
    import subprocess
    import sys

    port = free_port()

    def serve():
        proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--camera", "none",
                                 "--db", str(tmp_path / "t.db"), "--port", str(port)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        for _ in range(3):
            proc.stdout.readline()  # the address lines: it listens
        return proc

    def call(method, path, cookie="", token="", body=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Cookie": f"arena_session={cookie}" if cookie else "", "X-CSRF-Token": token,
                   "Content-Type": "application/json", "Accept": "application/json"}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        data = json.loads(resp.read() or b"{}")
        sent = [c.split(";")[0].split("=", 1)[1] for c in resp.headers.get_all("Set-Cookie") or []
                if c.startswith("arena_session=")]
        conn.close()
        return data, (sent[-1] if sent else cookie)

    proc = serve()
    try:
        pin = (tmp_path / "pin.txt").read_text().strip()
        info, cookie = call("GET", "/api/session")
        info, cookie = call("POST", "/login", cookie, info["csrf"], {"pin": pin})
        assert info["authenticated"] is True
        copy = cookie
        call("POST", "/logout", cookie, info["csrf"], {})
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    proc = serve()
    try:
        assert call("GET", "/api/session", copy)[0]["authenticated"] is False
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
