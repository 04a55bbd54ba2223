"""DataDir: the data folder's single-writer lock, private atomic writes and private reads."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys

import pytest

from arena_table.table.data_dir import LOCK_FILE, DataDir, LockBusy, SecretFileError


def test_the_lock_is_one_tables_and_names_its_pid(tmp_path):
    data = DataDir(tmp_path / "data")
    assert data.holder() is None
    with data.lock("{pid} runs here"):
        assert data.holder() == str(os.getpid())
        code = ("import sys\nfrom arena_table.table.data_dir import DataDir, LockBusy\n"
                "try:\n    DataDir(sys.argv[1]).lock('busy: pid {pid}')\nexcept LockBusy as exc:\n    print(exc)\n")
        done = subprocess.run([sys.executable, "-c", code, str(data.path)], capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == f"busy: pid {os.getpid()}", done.stderr
    assert data.holder() is None  # closed: let go
    assert (data.path / LOCK_FILE).read_text() == str(os.getpid())


def test_a_second_lock_in_the_same_process_is_refused(tmp_path):
    data = DataDir(tmp_path)
    with data.lock("first"):
        with pytest.raises(LockBusy, match="^busy$"):
            data.lock("busy")


def test_write_is_private_whole_and_leaves_no_temporary_file(tmp_path):
    data = DataDir(tmp_path / "new")  # made on the first write
    data.write("pin.txt", "2468\n")
    data.write("pin.txt", "97531\n")
    assert (data.path / "pin.txt").read_text() == "97531\n"
    assert stat.S_IMODE((data.path / "pin.txt").stat().st_mode) == 0o600
    assert [p.name for p in data.path.iterdir()] == ["pin.txt"]


def test_read_makes_a_loose_file_private_with_a_warning(tmp_path, caplog):
    (tmp_path / "pin.txt").write_text("1234\n")
    os.chmod(tmp_path / "pin.txt", 0o644)
    data = DataDir(tmp_path)
    assert data.read("pin.txt", "PIN", fix_mode=False) == b"1234\n"
    assert stat.S_IMODE((tmp_path / "pin.txt").stat().st_mode) == 0o644  # only looked at
    with caplog.at_level(logging.WARNING):
        assert data.read("pin.txt", "PIN") == b"1234\n"
    assert stat.S_IMODE((tmp_path / "pin.txt").stat().st_mode) == 0o600
    assert f"{tmp_path / 'pin.txt'} was mode 0644, open to other users: made private (0600)" in caplog.text
    assert data.read("gone", "PIN") is None


def test_a_folder_in_a_files_place_is_named(tmp_path):
    (tmp_path / "session-secret").mkdir()
    data = DataDir(tmp_path)
    said = f"{tmp_path / 'session-secret'} is a directory, not the session key file: remove it"
    assert data.problem("session-secret", "session key") == said
    with pytest.raises(SecretFileError, match="is a directory, not the session key file"):
        data.read("session-secret", "session key")
