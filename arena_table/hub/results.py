"""The hub's results: each table's final state when its game ends, kept in SQLite.

Each accepted event the hub takes (:meth:`Results.record`) waits in SQLite, not in memory, until
its game ends. A table's view whose ``outcome`` is set, after one without (or the first seen), is a
game that ended: its winners, reason, final view and the table's events waiting (JSON lines, the
``log export`` shape) are stored once, and the next game's events start afresh. ``/results``
lists them; ``/results/<n>/log.jsonl`` gives the event log.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, epoch TEXT NOT NULL, version INTEGER NOT NULL,
    game TEXT NOT NULL, winners TEXT NOT NULL, reason TEXT NOT NULL, draw INTEGER NOT NULL,
    finished REAL NOT NULL, view TEXT NOT NULL, events TEXT NOT NULL, UNIQUE (table_id, epoch, version));
CREATE TABLE IF NOT EXISTS pending (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (table_id, seq))"""


class Results:
    """Finished games in the SQLite file ``path`` (``:memory:`` for tests); thread-safe."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.executescript(SCHEMA)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.commit()
        self._lock = threading.Lock()
        self._over: dict[str, bool] = {}

    def record(self, table_id: str, event: dict[str, Any]) -> None:
        """Keep one accepted event of ``table_id`` (its ``seq`` and body) for its game's log."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO pending (table_id, seq, body) VALUES (?,?,?)",
                             (table_id, int(event["seq"]), json.dumps(event)))
            self._db.commit()

    def observe(self, table_id: str, view: dict[str, Any] | None) -> int | None:
        """Note ``table_id``'s latest view; store the game when it has just ended (with the events
        :meth:`record` kept since the last). Returns the new row's id."""
        state = (view or {}).get("state") or {}
        outcome = state.get("outcome")
        with self._lock:
            was_over = self._over.get(table_id, False)
            self._over[table_id] = bool(outcome)
            if not outcome or was_over:
                return None
            events = [r[0] for r in self._db.execute("SELECT body FROM pending WHERE table_id = ? ORDER BY seq",
                                                     (table_id,))]
            cur = self._db.execute(
                "INSERT OR IGNORE INTO results (table_id, epoch, version, game, winners, reason, draw, finished, view,"
                " events) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (table_id, view.get("epoch", ""), int(view.get("version", 0)), state.get("title") or state.get("game", ""),
                 json.dumps(list(outcome.get("winners") or [])), outcome.get("reason", ""), int(bool(outcome.get("draw"))),
                 time.time(), json.dumps(view), "".join(e + "\n" for e in events)))
            self._db.execute("DELETE FROM pending WHERE table_id = ?", (table_id,))
            self._db.commit()
            return cur.lastrowid if cur.rowcount else None

    def finished(self) -> list[dict[str, Any]]:
        """Every finished game, latest first: ``id``, ``table``, ``game``, ``winners``, ``reason``, ``draw``, ``finished``."""
        with self._lock:
            rows = self._db.execute("SELECT id, table_id, game, winners, reason, draw, finished FROM results "
                                    "ORDER BY finished DESC, id DESC").fetchall()
        return [{"id": r[0], "table": r[1], "game": r[2], "winners": json.loads(r[3]), "reason": r[4],
                 "draw": bool(r[5]), "finished": r[6]} for r in rows]

    def events(self, result_id: int) -> str | None:
        """The event log of finished game ``result_id`` as JSON lines, or None."""
        with self._lock:
            row = self._db.execute("SELECT events FROM results WHERE id = ?", (result_id,)).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
