"""The table's data folder (``--data-dir``): one table at a time, private files written whole.

A :class:`DataDir` does three things, each for a reason given in ``docs/security.md``:

* :meth:`DataDir.lock` takes the folder's single-writer lock (an exclusive ``flock`` on
  :data:`LOCK_FILE` holding the pid), so two tables never share a PIN, a login key, die crops or a
  tag registry. :func:`take_lock` is the same lock for any file (the event log's ``<log>.lock``).
* :meth:`DataDir.write` writes a file privately (mode 0600) and atomically: a temporary file beside
  it, flushed to disk, renamed over it, so a power cut leaves the old file or the new one.
* :meth:`DataDir.read` reads a file privately: one that group or others may read (a copy, a
  restored backup) is made 0600 first, with a warning; one that cannot be (another user's) is
  refused with :class:`SecretFileError`.

The threat model has no local attacker with a shell, so names are not guarded against links or
FIFOs planted in the folder: whoever could plant them could read the files anyway.
"""

from __future__ import annotations

import fcntl
import logging
import os
import stat
from pathlib import Path
from typing import IO

LOCK_FILE = ".arena-table.lock"
"""The data folder's lock file (it holds the pid of the table that runs there)."""

log = logging.getLogger(__name__)


class SecretFileError(OSError):
    """A file of the data folder ``run`` must not use as it is; the message names the file and the fix."""


class LockBusy(Exception):
    """Another process holds a :func:`take_lock` lock; the message says which (its pid)."""


def take_lock(path: Path, busy: str) -> IO[str]:
    """Take an exclusive ``flock`` on ``path`` (created if missing) and write this process's pid in
    it; the lock lasts until the returned file is closed (or the process ends).

    Raises:
        LockBusy: another process holds it: ``busy`` with ``{pid}`` replaced by the holder's pid.
        OSError: the file cannot be made (a missing folder, a file in a folder's place).
    """
    fp = open(path, "a+")
    try:
        fcntl.flock(fp, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fp.seek(0)
        holder = fp.read().strip() or "?"
        fp.close()
        raise LockBusy(busy.format(pid=holder)) from None
    fp.seek(0)
    fp.truncate()
    fp.write(str(os.getpid()))
    fp.flush()
    return fp


def lock_holder(path: Path) -> str | None:
    """The pid (as written) of the process that holds the :func:`take_lock` lock ``path``, or
    ``None`` when nobody holds it (or there is no such file). Takes no lock and makes no file."""
    try:
        fp = open(path)
    except OSError:
        return None
    with fp:
        try:
            fcntl.flock(fp, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return fp.read().strip() or "?"
        fcntl.flock(fp, fcntl.LOCK_UN)
    return None


class DataDir:
    """The folder ``path`` where a table keeps its private files.

    >>> DataDir("/srv/table")
    DataDir('/srv/table')
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"DataDir({str(self.path)!r})"

    # --- the single-writer lock ------------------------------------------------------------------

    def lock(self, busy: str) -> IO[str]:
        """Make the folder if missing and take its lock (:func:`take_lock` on :data:`LOCK_FILE`).

        Raises:
            LockBusy: another table runs here (``busy`` with ``{pid}`` filled in).
            OSError: the folder or its lock file cannot be made.
        """
        self.path.mkdir(parents=True, exist_ok=True)
        return take_lock(self.path / LOCK_FILE, busy)

    def holder(self) -> str | None:
        """The pid of the table running in this folder, or ``None`` (:func:`lock_holder`)."""
        return lock_holder(self.path / LOCK_FILE)

    # --- private files ---------------------------------------------------------------------------

    def problem(self, name: str, what: str) -> str:
        """Why the file ``name`` (the table's ``what`` file) is no file ``run`` can read, in words,
        or ``""``: a folder in its place, or a folder on the way that cannot be looked into."""
        path = self.path / name
        try:
            st = path.stat()
        except (FileNotFoundError, NotADirectoryError):
            return ""
        except OSError as exc:
            return f"{path} cannot be looked at ({exc.strerror or exc}): check the folder's owner and mode"
        if stat.S_ISDIR(st.st_mode):
            return f"{path} is a directory, not the {what} file: remove it"
        return ""

    def cannot_make_private(self, name: str) -> str:
        """Why the file ``name``, open to group or others, cannot be made private by this user (it
        is another user's), in words, or ``""`` (private already, none, or this user's or root's)."""
        path = self.path / name
        try:
            st = path.stat()
        except OSError:
            return ""
        if st.st_mode & 0o077 and st.st_uid != os.geteuid() != 0:  # root may chmod any file
            return (f"{path} is mode {stat.S_IMODE(st.st_mode):04o}, open to other users, and owned by "
                    f"uid {st.st_uid}, not this user ({os.geteuid()}): it cannot be made private; "
                    "chown or delete it")
        return ""

    def read(self, name: str, what: str, fix_mode: bool = True) -> bytes | None:
        """The bytes of the file ``name`` (the table's ``what`` file), or ``None`` when there is
        none. A file open to group or others is made 0600 first, with a warning; with
        ``fix_mode=False`` (``doctor``, which only looks) its mode is left as it is.

        Raises:
            SecretFileError: a folder in its place (:meth:`problem`), or a mode open to others
                that this user may not change.
            OSError: it cannot be read (``PermissionError``: another user's).
        """
        path = self.path / name
        if problem := self.problem(name, what):
            raise SecretFileError(problem)
        try:
            if fix_mode:
                self.make_private(name, what)
            return path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return None

    def write(self, name: str, text: str) -> None:
        """Write ``text`` to the file ``name`` as a 0600 file, all or nothing: ``.<name>.tmp``
        beside it (one fixed name: the folder's lock makes this table its only writer, and a copy
        a crash left is overwritten by the next write), flushed to disk, renamed over ``name``,
        then the folder flushed, so the rename reaches the disk too.

        Raises:
            OSError: it cannot be written; the message names ``name``'s path.
        """
        path = self.path / name
        tmp = self.path / f".{name}.tmp"
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as fp:
                os.fchmod(fp.fileno(), 0o600)  # a copy left by a crash keeps its mode through O_TRUNC
                fp.write(text)
                fp.flush()
                os.fsync(fp.fileno())
            os.replace(tmp, path)
            dir_fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError as exc:  # a read-only or full file system: name the file the user knows
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass  # no folder to hold it, or no way to write there: nothing was left either
            raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from None

    def make_private(self, name: str, what: str) -> None:
        """Make the file ``name`` 0600 if group or others may access it, with a warning naming it
        and its old mode (nothing happens to a private file or when there is none).

        Raises:
            SecretFileError: its mode cannot be changed (not this user's).
        """
        path = self.path / name
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except (FileNotFoundError, NotADirectoryError):
            return
        if not mode & 0o077:
            return
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fchmod(fd, 0o600)
            finally:
                os.close(fd)
        except OSError as exc:
            raise SecretFileError(f"{path} is mode {mode:04o}, open to other users, and cannot be made private "
                                  f"({exc.strerror or exc}): run `chmod 600 {path}` as its owner") from None
        log.warning("%s was mode %04o, open to other users: made private (0600)%s", path, mode,
                    "; delete it for a new key if others may have read it (everyone logs in again)"
                    if what == "session key" else "")
