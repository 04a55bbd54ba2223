"""The marker registry: which figure each marker id stands for (SQLite, ``<data dir>/markers.db``).

A figure is named ``game:kind:name`` with kind one of :data:`FIGURE_KINDS`
(``theosis:hero:rochon``, ``demigods:minion:archer-2``) and belongs to a team (a colour, a
player's name: what the game calls a side). The registry keeps the marker dictionary its ids
belong to (:attr:`MarkerRegistry.dictionary`, fixed when the file is made), so an id is only
ever read in that dictionary, and the printed side of the markers (:attr:`MarkerRegistry.marker_mm`,
default 12 mm), which tracking checks each marker's size against.

>>> reg = MarkerRegistry(":memory:", clock=lambda: 0.0)
>>> reg.assign(7, "theosis:hero:rochon", team="red")
FigureMarker(id=7, figure='theosis:hero:rochon', team='red', enrolled=0.0)
>>> reg.figures()
{7: FigureMarker(id=7, figure='theosis:hero:rochon', team='red', enrolled=0.0)}
>>> reg.assign(50, "theosis:hero:a", team="red")
Traceback (most recent call last):
...
arena_table.vision.errors.BadConfig: marker id 50: DICT_4X4_50 has ids 0-49
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import BadConfig, VisionError
from .markers import DEFAULT_DICTIONARY, dictionary_size

DEFAULT_MARKER_MM = 12.0
"""The printed marker side a registry assumes until told (``markers print``'s default)."""

FIGURE_KINDS = ("hero", "monster", "minion")
"""What a marker can stand for (issue 29: hero, monster or minion)."""

FIGURE_NAME = re.compile(r"([a-z0-9][a-z0-9-]*):([a-z]+):([a-z0-9][a-z0-9-]*)")
TEAM_NAME = re.compile(r"[a-z0-9][a-z0-9 _-]{0,31}", re.IGNORECASE)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS markers (
    id       INTEGER PRIMARY KEY,
    figure   TEXT NOT NULL,
    team     TEXT NOT NULL,
    enrolled REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class RegistryFileError(VisionError, OSError):
    """The file is not a marker registry (the message names it)."""


@dataclass(frozen=True)
class FigureMarker:
    """One registry row: marker ``id`` stands for ``figure`` of ``team``."""

    id: int
    figure: str
    """``game:kind:name``."""
    team: str
    enrolled: float
    """When the marker was assigned, seconds since the Unix epoch."""

    @property
    def game(self) -> str:
        return self.figure.split(":")[0]

    @property
    def kind(self) -> str:
        """One of :data:`FIGURE_KINDS`."""
        return self.figure.split(":")[1]

    @property
    def name(self) -> str:
        return self.figure.split(":")[2]


def check_figure(figure: str, team: str) -> None:
    """Raise :class:`BadConfig` naming what is wrong with ``figure`` or ``team``.

    >>> check_figure("theosis:pawn:x", "red")
    Traceback (most recent call last):
    ...
    arena_table.vision.errors.BadConfig: figure 'theosis:pawn:x': kind 'pawn' is not one of hero, monster, minion
    """
    m = FIGURE_NAME.fullmatch(figure)
    if not m:
        raise BadConfig(f"figure {figure!r}: want lower-case game:kind:name, like theosis:hero:rochon")
    if m.group(2) not in FIGURE_KINDS:
        raise BadConfig(f"figure {figure!r}: kind {m.group(2)!r} is not one of {', '.join(FIGURE_KINDS)}")
    if not TEAM_NAME.fullmatch(team):
        raise BadConfig(f"team {team!r}: want 1-32 letters, digits, spaces, '-' or '_'")


class MarkerRegistry:
    """Marker id -> figure, in one SQLite file (``:memory:`` for tests). Thread-safe.

    Args:
        path: the file (made with its folder when missing).
        dictionary: the marker dictionary of a new registry; an existing one keeps its own.

    Raises:
        RegistryFileError: ``path`` is not a marker registry.
        BadConfig: ``dictionary`` is unknown.
    """

    def __init__(self, path: str | Path, dictionary: str = DEFAULT_DICTIONARY,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self.clock = clock
        dictionary_size(dictionary)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.executescript(_SCHEMA)
            self._db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('dictionary', ?)", (dictionary,))
            self.dictionary = self._db.execute("SELECT value FROM meta WHERE key = 'dictionary'").fetchone()[0]
            row = self._db.execute("SELECT value FROM meta WHERE key = 'marker_mm'").fetchone()
            self.marker_mm = float(row[0]) if row else DEFAULT_MARKER_MM
        except sqlite3.DatabaseError as exc:
            raise RegistryFileError(f"{self.path}: not a marker registry ({exc})") from exc

    def __enter__(self) -> "MarkerRegistry":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<MarkerRegistry {self.path} {self.dictionary}>"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def set_marker_mm(self, size_mm: float) -> None:
        """Record the printed side of the figures' markers (``markers print --size-mm``), which
        tracking checks every marker's size against.

        Raises:
            BadConfig: not 4-150 mm.
        """
        if not 4.0 <= size_mm <= 150.0:
            raise BadConfig(f"marker size {size_mm:g} mm: want 4-150 mm")
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('marker_mm', ?)", (str(float(size_mm)),))
        self.marker_mm = float(size_mm)

    def assign(self, marker_id: int, figure: str, team: str = "") -> FigureMarker:
        """Let ``marker_id`` stand for ``figure`` of ``team`` (default: the figure's game), replacing
        what it stood for.

        Raises:
            BadConfig: an id outside the dictionary, a malformed figure or team.
        """
        n = dictionary_size(self.dictionary)
        if not 0 <= marker_id < n:
            raise BadConfig(f"marker id {marker_id}: {self.dictionary} has ids 0-{n - 1}")
        team = team or figure.split(":")[0]
        check_figure(figure, team)
        row = FigureMarker(int(marker_id), figure, team, self.clock())
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO markers (id, figure, team, enrolled) VALUES (?, ?, ?, ?)",
                             (row.id, row.figure, row.team, row.enrolled))
        return row

    def remove(self, marker_id: int) -> bool:
        """Drop ``marker_id``; False when it stood for nothing."""
        with self._lock:
            return self._db.execute("DELETE FROM markers WHERE id = ?", (int(marker_id),)).rowcount > 0

    def figures(self) -> dict[int, FigureMarker]:
        """Every assigned marker by id (ascending)."""
        with self._lock:
            rows = self._db.execute("SELECT id, figure, team, enrolled FROM markers ORDER BY id").fetchall()
        return {r[0]: FigureMarker(*r) for r in rows}
