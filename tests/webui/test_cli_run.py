"""``arena-table run`` and ``doctor``: the PIN file, the camera default, a real serving process."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from arena_table.cli.common import free_port

from arena_table.table import secrets_store
from arena_table.cli import main


def test_pin_is_made_once_kept_and_private(tmp_path):
    pin = secrets_store.load_or_create_pin(tmp_path / "data")
    assert len(pin) == 6 and pin.isdigit()
    path = tmp_path / "data" / "pin.txt"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secrets_store.load_or_create_pin(tmp_path / "data") == pin  # the same table keeps its PIN
    assert secrets_store.load_or_create_pin(tmp_path / "data", "4321") == "4321"  # --pin replaces it
    assert secrets_store.read_pin(tmp_path / "data") == "4321"
    with pytest.raises(ValueError, match="4 to 12 digits"):
        secrets_store.load_or_create_pin(tmp_path / "data", "12a4")


def test_doctor_prints_the_pin(tmp_path, capsys):
    secrets_store.load_or_create_pin(tmp_path, "97531")
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 0
    out = capsys.readouterr().out
    assert "pass  control PIN   97531" in out
    assert "not created yet" in out and "flask" in out and "waitress" in out


def test_doctor_reads_the_pin_in_data_dir_and_says_where_it_looked(tmp_path, capsys):
    """``run --db X/t.db --data-dir X/data`` keeps its PIN in X/data: ``doctor`` takes the same flag."""
    secrets_store.load_or_create_pin(tmp_path / "data", "97531")
    assert main(["doctor", "--db", str(tmp_path / "t.db"), "--data-dir", str(tmp_path / "data")]) == 0
    out = capsys.readouterr().out
    assert "pass  control PIN   97531" in out and f"data folder {(tmp_path / 'data').resolve()}," in out
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 0  # the default: the log's folder, no PIN there
    out = capsys.readouterr().out
    assert f"warn  control PIN   no pin.txt in {tmp_path.resolve()} — " in out and "--data-dir" in out
    assert "none yet" not in out
    (tmp_path / "pin.txt").mkdir()
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 1  # run refuses it, so doctor fails too
    assert f"{(tmp_path / 'pin.txt').resolve()} is a directory, not the PIN file" in capsys.readouterr().out


def test_a_pin_file_open_to_others_is_made_private_with_a_warning(tmp_path, caplog):
    path = tmp_path / "pin.txt"
    path.write_text("97531\n")
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING):
        assert secrets_store.load_or_create_pin(tmp_path) == "97531"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    [record] = caplog.records
    assert record.levelname == "WARNING" and str(path) in record.getMessage() and "0644" in record.getMessage()
    caplog.clear()
    assert secrets_store.load_or_create_pin(tmp_path) == "97531" and not caplog.records  # once: it is 0600 now


@pytest.mark.parametrize("name, what", [("pin.txt", "PIN"), ("session-secret", "session key")])
def test_a_folder_in_place_of_a_secret_file_stops_run_with_one_error(tmp_path, capsys, caplog, name, what):
    if name == "session-secret":
        secrets_store.load_or_create_pin(tmp_path, "97531")
    (tmp_path / name).mkdir()
    with caplog.at_level(logging.INFO):
        assert main(["run", "--port", str(free_port()), "--db", str(tmp_path / "t.db"), "--camera", "none"]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / name} is a directory, not the {what} file: remove it\n"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not (tmp_path / "t.db").exists()



def test_run_serves_until_sigterm_and_closes_cleanly(tmp_path):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--camera", "none",
                             "--db", str(tmp_path / "t.db"), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        assert lines[1].strip() == f"arena-table: spectator screen http://127.0.0.1:{port}/"
        pin = (tmp_path / "pin.txt").read_text().strip()
        assert stat.S_IMODE((tmp_path / "session-secret").stat().st_mode) == 0o600  # the login survives a restart
        assert lines[2].strip().endswith(f"control page http://127.0.0.1:{port}/control   PIN {pin}")
        body = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5).read())
        assert body["state"]["game"] == "dice-tray" and body["version"] == 0
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
        assert "Dice tray" in page
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "arena-table: stopped" in out


def test_run_refuses_a_busy_port(tmp_path, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["run", "--camera", "none", "--db", str(tmp_path / "t.db"), "--port", str(port)]) == 1
    assert capsys.readouterr().err == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert list(tmp_path.iterdir()) == []  # no log, nor a PIN never printed (a new user's trial)


def test_run_refuses_an_address_that_does_not_exist(tmp_path, capsys):
    assert main(["run", "--camera", "none", "--db", str(tmp_path / "t.db"), "--host", "999.1.1.1"]) == 1
    err = capsys.readouterr().err
    assert "cannot listen on 999.1.1.1:8000: no such address" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_run_refuses_bad_options(tmp_path, capsys):
    assert main(["run", "--port", str(free_port()),
                 "--camera", "none", "--db", str(tmp_path / "t.db"), "--options", "[1]"]) == 2
    assert "--options must be a JSON object" in capsys.readouterr().err
    assert not Path(tmp_path / "t.db").exists()
    assert main(["run", "--port", str(free_port()),
                 "--camera", "none", "--db", str(tmp_path / "t.db"), "--options", '{"mode":']) == 2
    assert "error: --options: not JSON (Expecting value at character 9)" in capsys.readouterr().err
    assert not Path(tmp_path / "t.db").exists()


def test_run_refuses_a_bad_calibration_file_naming_it(tmp_path, capsys):
    calib = tmp_path / "calib.json"
    calib.write_text(json.dumps({"resolution": [640, 480], "tray": [1, 2]}))
    assert main(["run", "--port", str(free_port()),
                 "--camera", "none", "--db", str(tmp_path / "t.db"), "--calibration", str(calib)]) == 2
    err = capsys.readouterr().err
    assert f"{calib}: calibration tray must be [x, y, width, height]" in err
    assert not (tmp_path / "t.db").exists()


def test_run_reads_small_dice_with_the_calibration_file(tmp_path):
    """The whole path for a camera that sees small dice: ``dice calibrate`` on a frame, then
    ``run --camera DIR --calibration FILE``: the roll has all six dice (the automatic range finds 4)."""
    import cv2
    import numpy as np

    from arena_table.vision.render import DieSpec, TableSpec, render_table

    photos = tmp_path / "photos"
    photos.mkdir()
    spec = TableSpec(1280, 720, dice=tuple(DieSpec(v, (150.0 + 160 * v, 300.0 + 40 * (v % 2)), 16.0, 10.0 * v)
                                           for v in range(1, 7)))
    cv2.imwrite(str(photos / "small.png"), render_table(spec, np.random.default_rng(0))[0])
    calib = tmp_path / "calib.json"
    assert main(["dice", "calibrate", str(photos / "small.png"), "--out", str(calib)]) == 0
    port = free_port()
    (tmp_path / "config.toml").write_text('[camera]\nsettle_mode = "whole"\n')
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--camera", str(photos),
                             "--calibration", str(calib), "--config", str(tmp_path / "config.toml"),
                             "--tokens", "none", "--db", str(tmp_path / "t.db"), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline, history = time.monotonic() + 90, []
        while time.monotonic() < deadline and not history:
            time.sleep(0.3)
            try:
                body = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5).read())
                history = body["state"]["tray"]["history"]
            except OSError:
                pass
        assert [sorted(r["faces"]) for r in history] == [[1, 2, 3, 4, 5, 6]], history
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)


def test_a_restart_with_the_same_game_flag_goes_on_with_the_game_in_progress(tmp_path):
    """A new user's trial: `run --game dice-tray` (a service unit's fixed command line), a Theosis
    game started from the control page and played, then a restart with the same command: the
    restart recorded a dice-tray start and the Theosis game was over for good (undo stops at a
    game's start). It now goes on with Theosis and says why --game was not applied."""
    from arena_table.rules import parse
    from arena_table.table.app import Table, record_game
    from arena_table.table.config import CameraSettings, DataSettings, TableConfig

    db = tmp_path / "t.db"
    t = Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none")))
    pvp = {"mode": "pvp", "players": ["Ann", "Bo"], "heroes_1": ["rochon", "rac", "norn"],
           "heroes_2": ["aer", "lug", "edhel"]}
    record_game(t.engine, "theosis", pvp)  # as the control page would start it
    t.engine.submit(parse("th-place hero=rochon location=guardian golden=true"))
    t.close()
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--camera", "none", "--game",
                             "dice-tray", "--db", str(db), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert "spectator screen" in proc.stdout.readline() + proc.stdout.readline()
        body = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5).read())
        assert body["state"]["game"] == "theosis" and body["state"]["seq"] == 2
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert ("arena-table: warning: --game dice-tray would end the running Theosis (event 2), and undo cannot "
            "bring it back: the table goes on with it (add --new-game to end it") in err


def test_run_refuses_a_file_that_is_no_event_log_before_writing_a_pin_beside_it(tmp_path, capsys):
    """A new user's trial: `run --db notes.txt` exited 1, but left a new pin.txt and session-secret
    in the folder of a file that is no event log."""
    db = tmp_path / "log.db"
    db.write_text("hello\n")
    assert main(["run", "--port", str(free_port()), "--db", str(db), "--camera", "none"]) == 1
    assert "not an arena-table event log" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.db"]  # no SQLite header: refused before the lock
    assert db.read_text() == "hello\n"


def test_a_second_run_on_a_busy_log_rewrites_neither_its_pin_nor_its_key(tmp_path, capsys):
    """A reviewer's finding: a second `run --pin 111111` on a log another table holds said the log
    was busy, but only after it had rewritten that table's pin.txt and session-secret: `doctor`
    then showed a PIN the running table refused, and its players were logged out at its restart."""
    from arena_table.table.app import Table
    from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings

    db = tmp_path / "t.db"
    secrets_store.load_or_create_pin(tmp_path, "246810")
    key = secrets_store.load_or_create_session_secret(tmp_path, "246810")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    first = Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="246810")))  # holds the log's writer lock
    try:
        assert main(["run", "--port", str(free_port()), "--db", str(db), "--camera", "none", "--pin", "111111"]) == 1
        assert "already in use by another arena-table process" in capsys.readouterr().err
        assert (tmp_path / "pin.txt").read_bytes() == before["pin.txt"]
        assert (tmp_path / "session-secret").read_bytes() == before["session-secret"]
        assert secrets_store.load_or_create_session_secret(tmp_path, "246810") == key
    finally:
        first.close()


def test_an_empty_log_file_left_by_a_cut_first_start_still_starts_a_table(tmp_path, capsys, monkeypatch):
    """A first start cut off right after creating its log leaves an empty file (or a bare SQLite
    header): the next `run` makes it a log, as before (a reviewer's check of the refusal above)."""
    from arena_table.webui import server

    def taken_meanwhile(*args, **kwargs):  # the port was free when run asked, taken when it served
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(server, "make_server", taken_meanwhile)
    db = tmp_path / "t.db"
    db.write_bytes(b"")
    assert main(["run", "--camera", "none", "--db", str(db), "--port", str(free_port())]) == 1  # stops at serving
    err = capsys.readouterr().err
    assert "Address already in use" in err and "event log" not in err
    assert db.read_bytes().startswith(b"SQLite format 3\x00")
    assert (tmp_path / "pin.txt").is_file()


def test_a_malformed_pin_is_refused_before_anything_is_written(tmp_path, capsys):
    assert main(["run", "--port", str(free_port()),
                 "--camera", "none", "--db", str(tmp_path / "t.db"), "--pin", "12ab"]) == 2
    assert "the PIN must be 4 to 12 digits, got '12ab'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_run_names_the_taught_kinds_it_loaded(tmp_path):
    """A kind taught with `dice teach` into the data folder is named at start, so its teacher sees the
    table took it (the camera reads it from this start on)."""
    from arena_table.table import taught_kinds
    from arena_table.rules.kernel.mechanics.die_kinds import DieKind, Face
    from arena_table.vision.kind_render import render_frame
    from arena_table.vision.teach_shots import Shot, crop_square, locate_dice

    shots = []
    for face in ("skull", "sword"):
        only = DieKind("glyph-test", "glyph", (Face(face, face), Face(face, face)))
        for seed in range(3):
            frame, _ = render_frame([only], seed, n=3)
            shots += [Shot(face, crop_square(frame, x, y, s), f"{face}/{seed}", (x, y), s)
                      for x, y, s in locate_dice(frame)]
    data = tmp_path / "data"
    taught_kinds.save(data, taught_kinds.teach("glyph-test", shots, "test renders"))
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--camera", "none", "--db",
                             str(tmp_path / "t.db"), "--data-dir", str(data), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        # the table listens once the control page is printed; the taught kinds follow it, so wait for
        # that line too before the stop (a SIGTERM between the two would skip it)
        first = [proc.stdout.readline() for _ in range(4)]
    finally:
        proc.send_signal(signal.SIGTERM)
        rest = proc.stdout.read()  # from the buffer readline filled too (communicate would skip it)
        proc.wait(timeout=20)
    assert proc.returncode == 0, proc.stderr.read()
    assert "control page" in first[2]
    assert first[3].rstrip("\n") == f"arena-table: taught die kinds glyph-test (from {data})"
    assert rest.splitlines() == ["arena-table: stopped"]
