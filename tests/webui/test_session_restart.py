"""The control page's login survives a restart of the table (the session key is kept in the data
folder, ``secrets_store.load_or_create_session_secret``) and ends when the PIN changes."""

from __future__ import annotations

import logging
import os
import stat

import pytest
from webhelpers import PIN, login, running_table

from arena_table.table import secrets_store
from arena_table.webui.app import WebConfig, create_app, shutdown


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

    monkeypatch.setattr(os, "fchmod", not_owner)
    with pytest.raises(OSError) as info:
        secrets_store.load_or_create_session_secret(tmp_path, PIN)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and f"chmod 600 {path}" in message
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # left as it was, not replaced


def test_webui_refuses_a_short_key(table):
    with pytest.raises(ValueError, match="at least 32 bytes"):
        create_app(table, WebConfig(secret_key=b"short"))


# --- a review of the files: hand edits, crashes, planted links ------------------------------------------

@pytest.mark.parametrize("text, pin", [("\ufeff1234\r\n", "1234"), ("  987654 \n", "987654")], ids=["bom", "blanks"])
def test_a_pin_file_saved_by_a_text_editor_is_read(tmp_path, text, pin):
    (tmp_path / "pin.txt").write_text(text, encoding="utf-8")
    assert secrets_store.load_or_create_pin(tmp_path) == pin
    assert secrets_store.read_pin(tmp_path) == pin


@pytest.mark.parametrize("text", ["PIN: 1234", "12 34", "1", "1" * 13], ids=["label", "space", "short", "long"])
def test_a_pin_file_that_holds_no_pin_stops_run_instead_of_being_replaced(tmp_path, text):
    """Before, each was replaced by a random PIN without a word (and "1" was taken as a 1-digit PIN)."""
    (tmp_path / "pin.txt").write_text(text + "\n")
    with pytest.raises(secrets_store.SecretFileError, match=r"pin.txt holds '.*', not a PIN of 4 to 12 digits: "
                                                            r"correct it, or delete it"):
        secrets_store.load_or_create_pin(tmp_path)
    assert (tmp_path / "pin.txt").read_text() == text + "\n" and secrets_store.read_pin(tmp_path) is None
    assert secrets_store.load_or_create_pin(tmp_path, "4321") == "4321"  # an explicit --pin replaces it


def test_an_empty_pin_file_gets_a_new_pin_with_a_warning(tmp_path, caplog):
    (tmp_path / "pin.txt").write_text("")
    with caplog.at_level(logging.WARNING, logger="arena_table.table.secrets_store"):
        pin = secrets_store.load_or_create_pin(tmp_path)
    assert len(pin) == 6 and pin.isdigit() and secrets_store.read_pin(tmp_path) == pin
    assert any("pin.txt is empty: a new PIN is made" in r.getMessage() for r in caplog.records)


def test_the_same_pin_given_again_does_not_rewrite_the_file(tmp_path):
    secrets_store.load_or_create_pin(tmp_path, "2468")
    before = os.stat(tmp_path / "pin.txt")
    secrets_store.load_or_create_pin(tmp_path, "2468")
    after = os.stat(tmp_path / "pin.txt")
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)


@pytest.mark.parametrize("content, said", [
    (b"123", "holds '123', not a PIN of 4 to 12 digits"),
    (b"\xff\xfe1\x002\x003\x004\x00", "is not text"),
], ids=["short", "utf-16"])
def test_doctor_says_what_run_would_refuse_in_the_pin_file(tmp_path, capsys, content, said):
    """A review: doctor said "holds no PIN (run makes a new one)" and exited 0 where run now stops."""
    from arena_table.cli import main

    (tmp_path / "pin.txt").write_bytes(content)
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 1
    captured = capsys.readouterr()
    assert said in captured.out and "(`arena-table run` refuses it)" in captured.out
    assert captured.err == "arena-table doctor: 1 failed (control PIN): see above\n"
    assert "fail  control PIN   " in captured.out
    with pytest.raises(secrets_store.SecretFileError, match=said):
        secrets_store.load_or_create_pin(tmp_path)


def test_a_copy_a_crash_left_is_overwritten_by_the_next_write(tmp_path):
    """A crash between writing the temporary copy and renaming it leaves ``.<name>.tmp`` beside the
    file; the next write of that file goes through the same name, so no copy of an old secret stays."""
    pin = secrets_store.load_or_create_pin(tmp_path, "2468")
    left = tmp_path / ".pin.txt.tmp"
    left.write_text("1357\n")
    os.chmod(left, 0o644)
    assert secrets_store.load_or_create_pin(tmp_path, "97531") == "97531" != pin
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pin.txt"]
    assert stat.S_IMODE((tmp_path / "pin.txt").stat().st_mode) == 0o600


def test_a_secret_file_that_cannot_be_written_is_named(tmp_path, monkeypatch):
    """A review: on a read-only file system the error named the temporary file."""
    def refuse(src, dst):
        raise OSError(30, "Read-only file system", str(src))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match=r"cannot write .*/pin\.txt: Read-only file system$"):
        secrets_store.load_or_create_pin(tmp_path, "2468")


@pytest.mark.parametrize("name", [secrets_store.PIN_FILE, secrets_store.SESSION_SECRET_FILE])
def test_a_secret_file_open_to_others_and_not_ours_stops_run_before_the_log_is_made(
        tmp_path, monkeypatch, capsys, name):
    from arena_table.cli import main
    from arena_table.cli.common import free_port

    pin = secrets_store.load_or_create_pin(tmp_path, "97531")
    secrets_store.load_or_create_session_secret(tmp_path, pin)
    path = tmp_path / name
    path.chmod(0o644)
    os.chown(path, 4242, -1) if os.geteuid() == 0 else pytest.skip("needs root to hand a file to another uid")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # run as a user who may not chmod it
    assert main(["run", "--port", str(free_port()), "--db", str(tmp_path / "t.db"), "--camera", "none"]) == 2
    err = capsys.readouterr().err
    assert err == (f"error: {path} is mode 0644, open to other users, and owned by uid 4242, not this user "
                   "(1000): it cannot be made private; chown or delete it\n")
    assert not (tmp_path / "t.db").exists() and not (tmp_path / "media").exists()
