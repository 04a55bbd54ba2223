"""A mistyped flag is reported by the command it was given to: its own usage line, the error, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena_table.cli import main

MISTYPED = [
    (["run", "--camrea", "sim"], "run", "unrecognized arguments: --camrea sim"),
    (["doctor", "--bogus"], "doctor", "unrecognized arguments: --bogus"),
    (["replay", "game.txt", "--jsn"], "replay", "unrecognized arguments: --jsn"),
    (["log", "export", "--db", "t.db", "--bogus"], "log export", "unrecognized arguments: --bogus"),
    (["dice", "eval", "photos", "--hold-out", "5"], "dice eval", "unrecognized arguments: --hold-out 5"),
    (["dice", "eval", "--hold", "5"], "dice eval", "the following arguments are required: DIR"),
    (["tags", "enroll", "--as", "theosis:hero:rochon", "--simm"], "tags enroll", "unrecognized arguments: --simm"),
    (["bench", "dice", "--bogus"], "bench dice", "unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize("argv, command, error", MISTYPED, ids=[" ".join(a) for a, _, _ in MISTYPED])
def test_a_mistyped_flag_shows_the_commands_own_usage(argv, command, error, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"usage: arena-table {command} [-h]")
    assert captured.err.endswith(f"\narena-table {command}: error: {error}\n")


def test_a_flag_before_the_command_is_the_top_levels_mistake(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--bogus", "doctor"])
    assert exc.value.code == 2
    assert capsys.readouterr().err == ("usage: arena-table [-h] [-v] COMMAND ...\n"
                                       "arena-table: error: unrecognized arguments: --bogus\n")


def test_the_console_script_says_the_same():
    script = Path(sys.executable).with_name("arena-table")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "arena_table.cli"]
    proc = subprocess.run(cmd + ["run", "--camrea", "sim"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: arena-table run [-h]")
    assert proc.stderr.endswith("arena-table run: error: unrecognized arguments: --camrea sim\n")



def test_a_quoted_or_flag_joined_home_is_expanded(tmp_path, monkeypatch, capsys):
    """``--db=~/x`` and a quoted ``'~/x'`` reach the command as the home folder, not a folder named ``~``."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(["dice", "eval", "~/photos"]) == 1
    assert capsys.readouterr().err.strip() == f"error: {tmp_path / 'photos'}: no such folder"
    assert main(["log", "export", "--db=~/t.db"]) != 0
    assert not (tmp_path / "~").exists()


def test_the_top_help_shows_no_docstring_markup(capsys):
    """`arena-table --help` printed the module docstring's ``reST`` backticks."""
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "The arena-table command line." in out and "``" not in out
