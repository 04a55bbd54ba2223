"""``arena-table log export`` reads the same default log as ``run``, ``doctor`` and ``tags``, and a
missing log is a one-line error, never a new empty one."""

from __future__ import annotations

import json

import pytest

from arena_table.rules import parse
from arena_table.cli import build_parser, main
from arena_table.cli.common import DEFAULT_DB
from arena_table.table.log import EventLog


@pytest.mark.parametrize("argv", [["run"], ["doctor"], ["tags", "list"], ["log", "export"]],
                         ids=lambda a: " ".join(a))
def test_every_command_defaults_to_the_same_log(argv):
    from arena_table.cli.run import load_flags

    args = build_parser().parse_args(argv)
    db = load_flags(args).config.data.db if argv == ["run"] else args.db  # run's default: the configuration's
    assert db == str(DEFAULT_DB)


def test_log_export_without_db_reads_the_default_log(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with EventLog(DEFAULT_DB) as log:
        log.append(parse("roll faces=[3,5]"))
        log.append(parse("roll faces=[6]"), status="rejected", reason="test")
    assert main(["log", "export"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["seq"], r["text"], r["status"]) for r in rows] == [
        (1, "roll faces=[3,5]", "ok"), (2, "roll faces=[6]", "rejected")]


@pytest.mark.parametrize("extra", [[], ["-o", "out.jsonl"]], ids=["stdout", "output file"])
def test_log_export_of_a_missing_log_is_one_error_line_and_creates_nothing(tmp_path, monkeypatch, capsys, extra):
    monkeypatch.chdir(tmp_path)
    assert main(["log", "export", *extra]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"error: {DEFAULT_DB}: no such event log")
    assert list(tmp_path.iterdir()) == []  # no database, no var/ folder, no output file


def test_log_export_into_a_closed_pipe_ends_quietly(tmp_path):
    """`arena-table log export | head -1`: the reader closes the pipe after one line; the export
    ends without an error line (it said "error: None: cannot write (Broken pipe)")."""
    import subprocess
    import sys

    db = tmp_path / "t.db"
    with EventLog(db) as log:
        for i in range(3000):  # far more than a pipe's 64 KiB buffer
            log.append(parse(f"roll faces=[{i % 6 + 1},{(i + 3) % 6 + 1}]"))
    p = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "log", "export", "--db", str(db)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(p.stdout.readline())["seq"] == 1
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0 and err == ""
