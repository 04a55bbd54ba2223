"""A ``--db`` that is some other file or another program's SQLite database is refused as it is:
SQLite is not let near it (no WAL switch, no tables added), and the writer lock is let go."""

from __future__ import annotations

import re
import sqlite3

import pytest

from logkit import open_elsewhere

from arena_table.cli.common import free_port

from arena_table.rules.kernel.events import Note
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.cli import main
from arena_table.table.log import EventLog, LogError


def _sqlite(script: str):
    """A maker of a SQLite database file that runs ``script`` (another program's, say)."""
    def make(path):
        db = sqlite3.connect(path)
        db.executescript(script)
        db.close()
    return make


META = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
_other_app = _sqlite("CREATE TABLE bookmarks (id INTEGER PRIMARY KEY, url TEXT);"
                     "INSERT INTO bookmarks (url) VALUES ('https://example.org');")
_events_of_another_shape = _sqlite("CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT, starts TEXT);"
                                   "INSERT INTO events (title, starts) VALUES ('game night', '2026-12-04');")
_meta_of_another_program = _sqlite(META + "INSERT INTO meta VALUES ('schema', 'v2');")
_meta_without_a_schema = _sqlite(META + "INSERT INTO meta VALUES ('owner', 'notes app');")
_a_view_only = _sqlite("CREATE VIEW answer AS SELECT 42;")
_user_version_only = _sqlite("PRAGMA user_version=7;")
_superscript_schema = _sqlite(META + "INSERT INTO meta VALUES ('schema', '\u00b2');")


FOREIGN = [
    (_other_app, "it holds bookmarks"),
    (_events_of_another_shape, "its table events has columns id, starts, title"),
    (_meta_of_another_program, "schema 'v2'"),
    (_meta_without_a_schema, "schema None"),
    (_a_view_only, "it holds answer"),
    (_user_version_only, "it has a user_version"),
    (_superscript_schema, "schema '\u00b2'"),
    (lambda p: p.write_bytes(b"x"), "not a SQLite database"),
    (lambda p: p.write_bytes(b"\n"), "not a SQLite database"),
    (lambda p: p.write_bytes(b"SQLite format 2\x00" + bytes(100)), "not a SQLite database"),
]


@pytest.mark.parametrize("make, said", FOREIGN)
def test_a_file_that_is_no_event_log_is_refused_untouched(tmp_path, make, said):
    path = tmp_path / "app.sqlite"
    make(path)
    before = path.read_bytes()
    for _ in range(2):  # the second try meets the same refusal, not a lock left held
        with pytest.raises(LogError, match="not an arena-table event log") as info:
            EventLog(path)
        assert said in str(info.value) and "\n" not in str(info.value)
    assert path.read_bytes() == before
    made = [] if said == "not a SQLite database" else ["app.sqlite.lock"]  # refused before the lock is made
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.sqlite", *made]  # no -wal, -shm


def test_a_folder_as_the_log_is_named_so(tmp_path):
    (tmp_path / "logs").mkdir()
    with pytest.raises(LogError, match="logs: a folder, not an event log file; give --db a file name such as"):
        EventLog(tmp_path / "logs")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs"]  # no logs.lock beside it


@pytest.mark.parametrize("make, said", FOREIGN[:3])
def test_a_foreign_database_is_refused_read_only_too(tmp_path, make, said):
    path = tmp_path / "app.sqlite"
    make(path)
    with pytest.raises(LogError, match=said):
        EventLog(path, readonly=True)


def test_an_empty_file_becomes_an_event_log(tmp_path):
    path = tmp_path / "t.db"
    path.touch()
    with EventLog(path) as log:
        assert log.rows() == []
    assert path.read_bytes().startswith(b"SQLite format 3\x00")


def test_run_on_another_programs_database_writes_nothing_beside_it(tmp_path, capsys):
    path = tmp_path / "app.sqlite"
    _other_app(path)
    before = path.read_bytes()
    assert main(["run", "--db", str(path), "--camera", "none", "--port", str(free_port())]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: not an arena-table event log (it holds bookmarks)")
    assert err.count("\n") == 1
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".arena-table.lock", "app.sqlite", "app.sqlite.lock"]


def test_a_table_that_cannot_open_its_media_folder_lets_go_of_its_log(tmp_path):
    """``Table`` opened the log, then failed on the data folder (a file where ``media`` goes): the
    writer lock must be let go, or a retry in the same process meets "already in use"."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "media").write_text("not a folder")
    config = TableConfig(data=DataSettings(db=tmp_path / "t.db", dir=data), camera=CameraSettings(source="none"),
                         web=WebSettings(pin="2468"))
    with pytest.raises(OSError):
        Table(config)
    with EventLog(tmp_path / "t.db") as log:  # not "already in use by another arena-table process"
        assert log.rows() == []


def test_run_with_a_data_folder_that_is_a_file_writes_nothing(tmp_path, capsys):
    data = tmp_path / "notadir"
    data.write_text("hi\n")
    assert main(["run", "--port", str(free_port()),
                 "--db", str(tmp_path / "t.db"), "--data-dir", str(data), "--camera", "none",
                 "--pin", "1234"]) == 2
    assert capsys.readouterr().err == (f"error: {data} is a file, not the table's data folder: "
                                       "give --data-dir a folder\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notadir"]


def test_run_with_a_media_file_in_the_data_folder_is_one_line(tmp_path, capsys):
    (tmp_path / "media").write_text("not a folder")
    assert main(["run", "--db", str(tmp_path / "t.db"), "--camera", "none", "--pin", "1234", "--port", str(free_port())]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot open the table's files: ") and str(tmp_path / "media") in err
    assert err.count("\n") == 1
    assert not (tmp_path / "pin.txt").exists()


def test_a_log_of_a_newer_schema_is_refused_untouched(tmp_path):
    path = tmp_path / "t.db"
    with EventLog(path) as log:
        log._db.execute("UPDATE meta SET value='2' WHERE key='schema'")
    before = path.read_bytes()
    for readonly in (False, True):
        with pytest.raises(LogError, match="log schema 2 is newer than this program's 1"):
            EventLog(path, readonly=readonly)
    assert path.read_bytes() == before


def test_two_tables_with_one_data_folder_are_refused(tmp_path):
    """Two logs in one folder (or one --data-dir given to two tables): the second would rewrite the
    first's PIN and login key, so it stops while the first runs, and starts once it is closed."""
    first = Table(TableConfig(data=DataSettings(db=tmp_path / "a.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="2468")))
    try:
        with pytest.raises(LogError, match=r"the data folder of another running table \(pid \d+\)"):
            Table(TableConfig(data=DataSettings(db=tmp_path / "b.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="1357")))
        with EventLog(tmp_path / "b.db") as log:  # the refused table let go of its log
            assert log.rows() == []
    finally:
        first.close()
    Table(TableConfig(data=DataSettings(db=tmp_path / "b.db"), camera=CameraSettings(source="none"),
                      web=WebSettings(pin="1357"))).close()


def test_run_beside_a_running_table_leaves_its_pin_alone(tmp_path, capsys):
    (tmp_path / "pin.txt").write_text("246810\n")
    first = Table(TableConfig(data=DataSettings(db=tmp_path / "a.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="246810")))
    try:
        assert main(["run", "--db", str(tmp_path / "b.db"), "--camera", "none", "--pin", "1111", "--port", str(free_port())]) == 1
    finally:
        first.close()
    assert "the data folder of another running table" in capsys.readouterr().err
    assert (tmp_path / "pin.txt").read_text() == "246810\n"


def test_a_second_table_on_the_same_log_is_told_the_log_is_busy_and_makes_nothing(tmp_path):
    first = Table(TableConfig(data=DataSettings(db=tmp_path / "a.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="2468")))
    try:
        before = sorted(p.name for p in tmp_path.iterdir())
        assert re.fullmatch(r".*a.db: already in use by another arena-table process \(pid \d+\); one table "
                            r"writes one log", open_elsewhere(tmp_path / "a.db"))
        with pytest.raises(LogError, match=r"a.db: already open for writing in this process"):
            Table(TableConfig(data=DataSettings(db=tmp_path / "a.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="1357")))
        with pytest.raises(LogError, match="the data folder of another running table"):
            Table(TableConfig(data=DataSettings(db=tmp_path / "b.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="1357")))
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # no b.db made beside the first's log
    finally:
        first.close()


def test_a_newer_log_with_a_new_column_is_called_newer(tmp_path):
    path = tmp_path / "t.db"
    with EventLog(path) as log:
        log._db.execute("UPDATE meta SET value='3' WHERE key='schema'")
        log._db.execute("ALTER TABLE events ADD COLUMN player TEXT")
    with pytest.raises(LogError, match="log schema 3 is newer than this program's 1"):
        EventLog(path)


def test_a_log_cut_between_its_tables_and_its_schema_row_still_opens(tmp_path):
    path = tmp_path / "t.db"
    with EventLog(path) as log:
        log._db.execute("DELETE FROM meta")
    with EventLog(path) as log:
        assert log._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("1",)


def test_the_same_run_twice_is_told_the_table_runs_not_that_the_port_is_busy(tmp_path, capsys):
    """A review: the commonest double start (same log, same port) said "Address already in use"."""
    import socket

    first = Table(TableConfig(data=DataSettings(db=tmp_path / "a.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin="2468")))
    with socket.socket() as s:  # the first table's port
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        try:
            assert main(["run", "--db", str(tmp_path / "a.db"), "--camera", "none", "--port", str(port)]) == 1
            err = capsys.readouterr().err
            assert err.startswith(f"error: {tmp_path / 'a.db'}: already in use by another arena-table process (pid ")
            assert main(["run", "--db", str(tmp_path / "b.db"), "--camera", "none", "--port", str(port)]) == 1
            assert "the data folder of another running table" in capsys.readouterr().err
        finally:
            first.close()
    assert not (tmp_path / "b.db").exists()


def test_a_table_whose_devices_cannot_start_lets_go_of_its_locks(tmp_path, monkeypatch):
    """A review: ``with Table(cfg)`` whose start() raised (``--leds gpio`` with no GPIO) kept the
    log's and the folder's locks."""
    def no_gpio(self):
        raise RuntimeError("no GPIO pin factory")

    monkeypatch.setattr(Table, "_build_devices", no_gpio)
    with pytest.raises(RuntimeError, match="no GPIO"):
        with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                               web=WebSettings(pin="2468"))):
            pass
    monkeypatch.undo()
    Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                      web=WebSettings(pin="2468"))).close()  # not "already in use"


def test_a_log_with_two_names_is_refused_by_writers_and_readers(tmp_path, capsys):
    """A trial: a table run through a hard link lost the events of the other name's journal after a
    crash, and ``log export`` through a link showed a stale log. A log must have one name."""
    import os

    (tmp_path / "b").mkdir()
    with EventLog(tmp_path / "a.db") as first:
        first.append(Note(text="kept"))
        os.link(tmp_path / "a.db", tmp_path / "b" / "a.db")
        assert "has 2 names (hard links)" in open_elsewhere(tmp_path / "b" / "a.db")  # while the first runs
        first.append(Note(text="still written"))
    for path in (tmp_path / "a.db", tmp_path / "b" / "a.db"):
        for readonly in (False, True):
            with pytest.raises(LogError, match=r"this event log has 2 names \(hard links\)"):
                EventLog(path, readonly=readonly)
    assert main(["log", "export", "--db", str(tmp_path / "b" / "a.db")]) == 1
    assert "has 2 names" in capsys.readouterr().err
    os.unlink(tmp_path / "b" / "a.db")
    with EventLog(tmp_path / "a.db") as log:  # one name again: nothing was lost
        assert [r.event.text for r in log.rows()] == ["kept", "still written"]


def test_a_new_log_file_gets_sqlites_usual_mode(tmp_path):
    import os
    import stat

    with EventLog(tmp_path / "new.db"):
        pass
    assert stat.S_IMODE(os.stat(tmp_path / "new.db").st_mode) == 0o644 & ~_umask()


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_second_writer_in_the_same_process_is_refused_before_it_unlocks_the_first(tmp_path):
    """A review: the refused second open closed a descriptor of the file, which drops every POSIX
    lock of the process on it, SQLite's own included. It is now refused before anything opens it."""
    import os

    with EventLog(tmp_path / "a.db") as first:
        first.append(Note(text="kept"))
        first.rows()  # SQLite holds its shared lock on the database now
        held = _posix_locks_on(tmp_path / "a.db")
        assert held
        with pytest.raises(LogError, match="already open for writing in this process"):
            EventLog(tmp_path / "a.db")
        os.link(tmp_path / "a.db", tmp_path / "b.db")
        with pytest.raises(LogError, match="already open for writing in this process"):
            EventLog(tmp_path / "b.db")
        assert _posix_locks_on(tmp_path / "a.db") == held
        os.unlink(tmp_path / "b.db")


def _posix_locks_on(path) -> list[str]:
    """This process's POSIX (fcntl) lock lines in /proc/locks on ``path``'s file."""
    import os

    st = os.stat(path)
    ino = f":{st.st_ino}"
    return [line.split(None, 1)[1] for line in open("/proc/locks")
            if " POSIX " in line and f" {os.getpid()} " in line and ino in line]


def test_a_log_left_unclosed_lets_go_of_its_file_when_collected(tmp_path):
    import gc

    log = EventLog(tmp_path / "a.db")
    log.append(Note(text="kept"))
    del log  # never closed: its connection, its lock file and the lock on the file go with it
    gc.collect()
    with EventLog(tmp_path / "a.db") as again:
        assert [r.event.text for r in again.rows()] == ["kept"]

