"""Logging out ends the session on the server: a copy of the cookie taken before the logout (a
shared tablet's browser, a copied request) is refused, also after the table restarts, while the
other players stay logged in (a new user's trial: the signed cookie alone outlived the logout)."""

from __future__ import annotations

import logging
import os
import stat

import pytest

from test_session_restart import running_table
from webhelpers import PIN, app, client, free_port, login, table  # noqa: F401 (fixtures)

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


def test_run_refuses_a_folder_in_the_place_of_the_file_before_writing_anything(tmp_path):
    (tmp_path / REVOKED_FILE).mkdir()
    assert secrets_problem(tmp_path) == f"{tmp_path / REVOKED_FILE} is a directory, not the revoked sessions file: remove it"


@pytest.mark.parametrize("name", [REVOKED_FILE, "session-secret", "pin.txt"])
def test_a_symlink_in_a_secret_files_place_is_refused_and_its_target_left_alone(tmp_path, name):
    """A trial: a link planted there made ``run`` chmod its target to 0600 (as root, any file)."""
    from arena_table.table.cli import main

    victim = tmp_path / "victim.txt"
    victim.write_text("1234\n")
    os.chmod(victim, 0o644)
    data = tmp_path / "data"
    data.mkdir()
    (data / name).symlink_to(victim)
    assert "is a symbolic link" in secrets_problem(data)
    assert main(["run", "--db", str(data / "t.db"), "--camera", "none", "--port", str(free_port())]) == 2
    assert stat.S_IMODE(os.stat(victim).st_mode) == 0o644 and victim.read_text() == "1234\n"
    assert not (data / "t.db").exists()


@pytest.mark.parametrize("name", [REVOKED_FILE, "session-secret", "pin.txt"])
def test_a_fifo_in_a_secret_files_place_stops_run_and_doctor_without_waiting(tmp_path, name, capsys):
    """A trial: ``run`` read a FIFO named ``revoked-sessions`` and waited for ever."""
    from arena_table.table.cli import main

    os.mkfifo(tmp_path / name, 0o600)
    assert main(["run", "--db", str(tmp_path / "t.db"), "--camera", "none", "--port", str(free_port())]) == 2
    assert "is not a regular file (a FIFO, socket or device)" in capsys.readouterr().err
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 1
    assert "is not a regular file" in capsys.readouterr().out
