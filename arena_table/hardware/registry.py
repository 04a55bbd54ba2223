"""The tag registry: which game object each tag UID stands for (SQLite).

One table, ``tags(uid PRIMARY KEY, object, enrolled)``, in the table's data
folder (``tags.db``). UIDs are stored canonical (:func:`canonical_uid`), so a
UID typed as ``04:a1:b2:c3`` and one read from a pad as ``04A1B2C3`` are one
key. Objects are named ``game:kind:name`` (``theosis:power:fiery-purge``,
``theosis:hero:rochon``, ``demigods:hero:trapper``).
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import RegistryError
from .uid import canonical_uid

OBJECT_NAME = re.compile(r"[a-z0-9][a-z0-9-]*(?::[a-z0-9][a-z0-9-]*)+")
"""``game:kind:name``: lower-case words joined by ``:`` (at least two parts)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid      TEXT PRIMARY KEY,
    object   TEXT NOT NULL,
    enrolled REAL NOT NULL
);
"""


@dataclass(frozen=True)
class Binding:
    """One registry row."""

    uid: str
    object: str
    enrolled: float
    """When the tag was bound, seconds since the Unix epoch."""


def check_object_name(name: str) -> str:
    """``name`` if it is a well-formed object name.

    >>> check_object_name("theosis:hero:rochon")
    'theosis:hero:rochon'

    Raises:
        RegistryError: not lower-case ``game:kind:name`` words.
    """
    if not OBJECT_NAME.fullmatch(name):
        raise RegistryError(f"object name {name!r}: want lower-case words joined by ':', "
                            f"like theosis:hero:rochon")
    return name


class TagRegistry:
    """UID -> game object, in one SQLite file (``:memory:`` for tests). Thread-safe.

    Raises:
        RegistryError: on open, when ``path`` is not a tag registry database.
    """

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self.clock = clock
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise RegistryError(f"{self.path}: not a tag registry ({exc})") from exc

    def __enter__(self) -> "TagRegistry":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<TagRegistry {self.path}>"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def bind(self, uid: str, obj: str) -> Binding:
        """Bind ``uid`` (any spelling) to ``obj``, replacing an earlier binding of that UID.

        Raises:
            BadUid: ``uid`` is not a tag UID.
            RegistryError: ``obj`` is not a well-formed object name.
        """
        row = Binding(canonical_uid(uid), check_object_name(obj), self.clock())
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO tags (uid, object, enrolled) VALUES (?, ?, ?)",
                             (row.uid, row.object, row.enrolled))
        return row

    def lookup(self, uid: str) -> str:
        """The object bound to ``uid``, or ``""`` for an unknown tag (BadUid for a malformed UID)."""
        key = canonical_uid(uid)
        with self._lock:
            row = self._db.execute("SELECT object FROM tags WHERE uid = ?", (key,)).fetchone()
        return row[0] if row else ""

    def forget(self, uid: str) -> bool:
        """Remove the binding of ``uid``; False when there was none."""
        key = canonical_uid(uid)
        with self._lock:
            cur = self._db.execute("DELETE FROM tags WHERE uid = ?", (key,))
        return cur.rowcount > 0

    def bindings(self) -> list[Binding]:
        """Every binding, sorted by object then UID."""
        with self._lock:
            rows = self._db.execute("SELECT uid, object, enrolled FROM tags ORDER BY object, uid").fetchall()
        return [Binding(*r) for r in rows]
