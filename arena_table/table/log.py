"""The durable event log: an append-only SQLite file, the table's source of truth.

One process writes it (the engine's worker thread); an event is committed with
``synchronous=FULL`` in WAL mode before :meth:`EventLog.append` returns, so an
acknowledged event survives a SIGKILL or a power cut. Rejected inputs are
stored too (``status='rejected'`` with the reason) and skipped by replay.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterator

from arena_table.rules import Event, NotationError, Record, from_json, to_json, to_notation
from arena_table.table.data_dir import LockBusy, take_lock

DEFAULT_DB = Path("var/arena-table.db")
"""The event log every command reads or writes when not given ``--db`` (relative to the working folder)."""

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    at       REAL,
    kind     TEXT NOT NULL,
    text     TEXT NOT NULL,
    json     TEXT NOT NULL,
    status   TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'rejected')),
    reason   TEXT NOT NULL DEFAULT '',
    recorded REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


_SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite 3 database file (sqlite.org, "Database File Format", 1.3)."""
_COLUMNS = {"events": {"seq", "at", "kind", "text", "json", "status", "reason", "recorded"},
            "meta": {"key", "value"}}
"""Tables of an event log and their columns (``_SCHEMA``); ``sqlite_sequence`` is SQLite's own."""


def _check_header(path: str) -> None:
    """Refuse a file that is neither empty (a first start cut short) nor a SQLite database, before
    SQLite would overwrite it. Raises :class:`LogError`."""
    if path == ":memory:":
        return
    if Path(path).is_dir():
        raise LogError(f"{path}: a folder, not an event log file; give --db a file name such as "
                       f"{Path(path) / 'arena-table.db'}")
    try:
        with open(path, "rb") as fp:
            head = fp.read(len(_SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise LogError(f"{path}: cannot read the event log ({exc.strerror or exc})") from exc
    if head and head != _SQLITE_HEADER:
        raise LogError(f"{path}: not an arena-table event log (not a SQLite database); "
                       "give --db a new file name or an arena-table log")


def _check_one_name(path: str) -> None:
    """Refuse a log file with more than one name (hard links). SQLite keeps a database's write-ahead
    journal beside the name it was opened by (``<name>-wal``), so events a table wrote under one name
    and not yet copied into the file are missing under another, and overwritten after a crash (SQLite,
    "How To Corrupt An SQLite Database File", section 2.4). Raises :class:`LogError`."""
    if path == ":memory:":
        return
    try:
        links = os.stat(path).st_nlink
    except OSError:
        return  # no file yet: the checks that open it say what is wrong
    if links > 1:
        raise LogError(f"{path}: this event log has {links} names (hard links), and SQLite keeps its journal "
                       f"beside one name only; keep one name, the one with a -wal file beside it if any (find "
                       f"the others with `find / -xdev -samefile {path}`), and remove the rest")


def _check_tables(db: sqlite3.Connection, path: str) -> None:
    """Refuse a SQLite database that is not an event log (another program's: other tables, views,
    columns, a ``user_version``, or a ``meta`` without a schema row) or whose schema this program
    cannot read (not a number, or newer than :data:`SCHEMA_VERSION`: said first, as a newer log may
    also have new columns), before anything is written to it. Raises :class:`LogError`."""
    objects = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    tables = objects & set(_COLUMNS)
    if "meta" in tables and {row[1] for row in db.execute("PRAGMA table_info(meta)")} == _COLUMNS["meta"]:
        row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        half_made = row is None and "events" in tables  # a first start cut between the tables and the row
        if not half_made and (row is None or not re.fullmatch(r"[0-9]{1,9}", str(row[0]))):
            raise LogError(f"{path}: not an arena-table event log (schema {None if row is None else row[0]!r})")
        if row is not None and int(row[0]) > SCHEMA_VERSION:
            raise LogError(f"{path}: log schema {row[0]} is newer than this program's {SCHEMA_VERSION}")
    other = sorted(n for n in objects - set(_COLUMNS) - {"sqlite_sequence"} if not n.startswith("sqlite_autoindex_"))
    if other:
        raise LogError(f"{path}: not an arena-table event log (it holds {', '.join(other)}); "
                       "give --db a new file name or an arena-table log")
    if db.execute("PRAGMA user_version").fetchone()[0]:
        raise LogError(f"{path}: not an arena-table event log (it has a user_version)")
    for table in tables:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if columns != _COLUMNS[table]:
            raise LogError(f"{path}: not an arena-table event log (its table {table} has columns "
                           f"{', '.join(sorted(columns))})")


def writer_lock_path(path: str | Path) -> Path:
    """The lock file an :class:`EventLog` writer holds: beside the real file, so a symlink to a log
    in use (or a path through a linked folder) meets the same lock."""
    return Path(str(Path(path).resolve()) + ".lock")


def busy_log_message(path: str | Path, pid: str) -> str:
    """The refusal of a second writer of log ``path`` while process ``pid`` writes it."""
    return f"{path}: already in use by another arena-table process (pid {pid}); one table writes one log"


def check_log_file(path: str | Path) -> None:
    """Refuse, with nothing made, a ``path`` that is a folder or a non-empty file that is no SQLite
    database, or a log this process already writes (the cheap part of :class:`EventLog`'s checks).
    Raises :class:`LogError`."""
    _refuse_a_second_writer_here(str(path))
    _check_header(str(path))


_WRITERS: set[tuple[int, int]] = set()
"""``(st_dev, st_ino)`` of the log files this process has open for writing."""
_WRITERS_LOCK = threading.Lock()


def _file_key(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _refuse_a_second_writer_here(path: str) -> None:
    """Refuse a second writer of a log file this process already writes, under any of its names,
    before anything opens the file: closing any descriptor of a file drops every POSIX lock the
    process holds on it, SQLite's included (SQLite, "How To Corrupt An SQLite Database File",
    section 2.2), so even the header check of a second open would unlock the first one's database.
    Raises :class:`LogError`."""
    key = _file_key(path)
    with _WRITERS_LOCK:
        if key is not None and key in _WRITERS:
            raise LogError(f"{path}: already open for writing in this process; one table writes one log")


def _forget_writer(key: tuple[int, int]) -> None:
    with _WRITERS_LOCK:
        _WRITERS.discard(key)


class LogError(Exception):
    """The event log file is unusable (not a database, newer schema, unreadable row)."""


@dataclass(frozen=True)
class LogRow:
    """One stored event with its bookkeeping."""

    seq: int
    event: Event
    status: str
    """``ok`` (applied) or ``rejected`` (refused by the rules; kept for the record)."""
    reason: str
    recorded: float
    """Wall-clock time the row was committed, seconds since the Unix epoch."""

    def to_json(self) -> dict:
        return {"seq": self.seq, "status": self.status, "reason": self.reason,
                "recorded": self.recorded, "text": to_notation(self.event), "event": to_json(self.event)}


class EventLog:
    """Append-only event store in one SQLite file (``:memory:`` for tests).

    Thread-safe: every call takes the log's lock, so the engine thread writes while
    web threads read. Use as a context manager or call :meth:`close`.

    Args:
        path: the SQLite file (created if missing) or ``:memory:``.
        readonly: open for reading only (``log export`` beside a running table); otherwise
            this process becomes the log's one writer, held by an exclusive ``flock`` on
            ``<path>.lock`` (:func:`~arena_table.table.data_dir.take_lock`) for as long as the
            log is open.

    Raises:
        LogError: on open, if ``path`` is not an arena-table log, was written by a newer
            version, has two names (hard links), or (as a writer) is already open for writing
            by another process or this one.
    """

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = str(path)
        self._lockfile = None
        self._writer: weakref.finalize | None = None
        if self.path != ":memory:" and not readonly:  # a reader makes nothing, not even the folder
            _refuse_a_second_writer_here(self.path)
            _check_header(self.path)  # a file that is no SQLite database is refused with nothing made
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._lockfile = self._take_writer_lock()
        self._lock = threading.RLock()
        try:
            if readonly:
                if self.path != ":memory:" and not Path(self.path).is_file():
                    raise LogError(f"{self.path}: no such event log")
                _check_one_name(self.path)
                uri = f"file:{Path(self.path).resolve()}?mode=ro" if self.path != ":memory:" else ":memory:"
                self._db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
                _check_tables(self._db, self.path)
                self._db.execute("SELECT 1 FROM events LIMIT 1")
            else:
                _check_header(self.path)  # again, under the lock
                _check_one_name(self.path)
                self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                _check_tables(self._db, self.path)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(_SCHEMA)
                if (key := _file_key(self.path)) is not None:  # this process's writer of that file, until
                    with _WRITERS_LOCK:                         # closed or collected unclosed
                        _WRITERS.add(key)
                    self._writer = weakref.finalize(self, _forget_writer, key)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None and not readonly:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as exc:
            self._close_db()
            self._release()
            raise LogError(f"{self.path}: not an arena-table event log ({exc})") from exc
        except LogError:
            self._close_db()
            self._release()
            raise

    def _take_writer_lock(self):
        # beside the real file: a symlink to a log in use (or a path through a linked folder) must
        # meet the same lock
        try:
            return take_lock(writer_lock_path(self.path), busy_log_message(self.path, "{pid}"))
        except LockBusy as exc:
            raise LogError(str(exc)) from None

    def __enter__(self) -> "EventLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()
        self._release()

    def _close_db(self) -> None:
        if getattr(self, "_db", None) is not None:
            self._db.close()

    def _release(self) -> None:
        if self._writer is not None:
            self._writer()
            self._writer = None
        if self._lockfile is not None:
            self._lockfile.close()  # releases the flock
            self._lockfile = None

    def append(self, event: Event, status: str = "ok", reason: str = "") -> int:
        """Store ``event`` durably and return its sequence number."""
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO events (at, kind, text, json, status, reason, recorded) VALUES (?,?,?,?,?,?,?)",
                (event.at, event.KIND, to_notation(event), json.dumps(to_json(event), separators=(",", ":")),
                 status, reason, time.time()))
            return int(cur.lastrowid)

    def rows(self, since: int = 0, include_rejected: bool = True, limit: int | None = None) -> list[LogRow]:
        """Rows with ``seq > since``, oldest first.

        Raises:
            LogError: a stored row no longer parses (names the seq).
        """
        sql = "SELECT seq, json, status, reason, recorded FROM events WHERE seq > ?"
        if not include_rejected:
            sql += " AND status = 'ok'"
        sql += " ORDER BY seq"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self._lock:
            raw = self._db.execute(sql, (since,)).fetchall()
        out = []
        for seq, blob, status, reason, recorded in raw:
            try:
                ev = from_json(json.loads(blob))
            except (NotationError, ValueError) as exc:
                raise LogError(f"{self.path}: event {seq} cannot be read: {exc}") from exc
            out.append(LogRow(seq, ev, status, reason, recorded))
        return out

    def records(self) -> list[Record]:
        """The applied events as ``(seq, event)`` records, ready for :func:`arena_table.rules.replay`."""
        return [(r.seq, r.event) for r in self.rows(include_rejected=False)]

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        return int(row[0])

    def export_jsonl(self, out: IO[str], include_rejected: bool = True) -> int:
        """Write the log as JSON lines (one :meth:`LogRow.to_json` object a line); returns the count."""
        n = 0
        for row in self.rows(include_rejected=include_rejected):
            out.write(json.dumps(row.to_json(), separators=(",", ":")) + "\n")
            n += 1
        return n


def read_jsonl(lines: Iterator[str] | IO[str], source: str = "input", *,
               lines_out: dict[int, int] | None = None) -> list[Record]:
    """Records from JSON lines as written by :meth:`EventLog.export_jsonl` (rejected rows skipped).

    Each line may also be a bare event object (``{"kind": ...}``) or a line of event
    notation; bare events are numbered on from the previous record.

    Args:
        lines: the text, a line at a time.
        source: the name used in error messages.
        lines_out: if given, filled with ``seq -> line number``.

    Raises:
        LogError: a line that is neither; the message names ``source`` and the line number.
    """
    from arena_table.rules import parse

    where = lines_out
    out: list[Record] = []
    for lineno, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        next_seq = (out[-1][0] + 1) if out else 1
        try:
            if line.startswith("{"):
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("expected a JSON object")
                if "event" in obj:
                    if obj.get("status", "ok") != "ok":
                        continue
                    if "seq" not in obj:
                        raise ValueError('a log row needs "seq" beside "event"')
                    out.append((int(obj["seq"]), from_json(obj["event"])))
                else:
                    out.append((next_seq, from_json(obj)))
            else:
                out.append((next_seq, parse(line)))
        except json.JSONDecodeError as exc:
            raise LogError(f"{source}:{lineno}: not a JSON object ({exc.msg} at column {exc.colno})") from exc
        except (ValueError, KeyError, TypeError, NotationError) as exc:
            raise LogError(f"{source}:{lineno}: {exc}") from exc
        if out and out[-1][0] < next_seq:
            raise LogError(f"{source}:{lineno}: seq {out[-1][0]} does not follow seq {next_seq - 1}")
        if where is not None:
            where[out[-1][0]] = lineno
    return out
