"""``arena-table doctor``: a log it cannot read is a failure (exit 1), a missing data folder is said so."""

from __future__ import annotations

from arena_table.rules import parse
from arena_table.cli import main
from arena_table.table.log import EventLog


def test_doctor_exits_1_when_the_log_it_was_pointed_at_is_not_an_event_log(tmp_path, capsys):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database\n" * 100)
    assert main(["doctor", "--db", str(bogus)]) == 1
    captured = capsys.readouterr()
    assert f"fail  log           {bogus}: UNREADABLE" in captured.out
    assert captured.err == "arena-table doctor: 1 failed (log): see above\n"
    (tmp_path / "dir.db").mkdir()
    assert main(["doctor", "--db", str(tmp_path / "dir.db")]) == 1


def test_doctor_exits_0_for_a_readable_or_not_yet_created_log(tmp_path, capsys):
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 0
    assert "not created yet" in capsys.readouterr().out
    with EventLog(tmp_path / "t.db") as log:
        log.append(parse("roll faces=[3,5]"))
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 0
    assert "1 events (0 rejected)" in capsys.readouterr().out


def test_doctor_says_a_missing_data_folder_does_not_exist(tmp_path, capsys):
    missing = tmp_path / "no-such-folder"
    assert main(["doctor", "--db", str(tmp_path / "t.db"), "--data-dir", str(missing)]) == 0
    out = capsys.readouterr().out
    assert f"warn  control PIN   {missing.resolve()} (--data-dir) does not exist" in out
    assert "no pin.txt in" not in out
    assert main(["doctor", "--db", str(missing / "t.db")]) == 0  # the default: the log's folder
    assert f"{missing.resolve()} (the folder of --db) does not exist" in capsys.readouterr().out
    (tmp_path / "file").write_text("")
    assert main(["doctor", "--db", str(tmp_path / "t.db"), "--data-dir", str(tmp_path / "file")]) == 0
    assert "(--data-dir) is not a folder" in capsys.readouterr().out


def test_doctor_says_whether_a_table_runs_on_the_log(tmp_path, capsys):
    """A new user's trial: doctor could not tell whether a table was running on the log."""
    import os

    db = tmp_path / "t.db"
    with EventLog(db):  # holds the writer lock, as a running table does
        assert main(["doctor", "--db", str(db)]) == 0
        assert f"; a table runs on this log (pid {os.getpid()})" in capsys.readouterr().out
    assert main(["doctor", "--db", str(db)]) == 0
    assert "; no table runs on this log" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".lock")] == ["t.db.lock"]  # doctor locks nothing


def test_doctor_exits_1_for_a_pin_file_of_another_user_open_to_others(tmp_path, capsys, monkeypatch):
    """A review: ``run`` refuses a loose ``pin.txt`` it cannot make private (another user's), but
    ``doctor`` printed its PIN and exited 0, as the PIN line had no problem to show."""
    import os

    (tmp_path / "pin.txt").write_text("123456\n")
    os.chmod(tmp_path / "pin.txt", 0o644)
    owner = os.stat(tmp_path / "pin.txt").st_uid
    monkeypatch.setattr(os, "geteuid", lambda: 4321)  # the file is another user's now
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 1
    out = capsys.readouterr().out
    assert "fail  control PIN   123456; " in out and f"owned by uid {owner}, not this user (4321)" in out
