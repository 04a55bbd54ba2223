"""What the web app needs from the table: a duck-typed protocol.

``webui`` imports only :mod:`arena_table.rules`; the composition root hands the app an
object with this shape (``arena_table.table.app.Table``). Tests hand it a real ``Table``
on an in-memory log, never a stub that pretends to be the rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Protocol, runtime_checkable

from arena_table.rules import Event, TableState


class Change(Protocol):
    """What a subscriber is called with after each committed event."""

    seq: int
    event: Event
    state: TableState
    epoch: str


class LogRow(Protocol):
    seq: int
    event: Event
    status: str
    """``ok`` or ``rejected``."""
    reason: str
    recorded: float


@runtime_checkable
class TableService(Protocol):
    """The table as the web app sees it.

    ``submit``, ``correct`` and ``undo`` are the only ways the app changes anything; they raise
    ``rules.Refused`` / ``rules.NothingToUndo`` with a reason the app passes on.
    """

    pin: str
    """The control page's PIN."""
    devices: list
    """Started devices; a tokens simulator has ``place(pad, uid)``/``remove(pad, uid)``/``pads()``,
    a camera may have ``latest_frame()``/``overlay()``."""

    @property
    def state(self) -> TableState: ...

    @property
    def epoch(self) -> str: ...

    @property
    def version(self) -> int: ...

    def submit(self, event: Event, check: Callable[[TableState], None] | None = None) -> int:
        """Record ``event``; ``check(state)`` runs first in the same step of the single writer and
        what it raises is raised here with nothing recorded."""

    def correct(self, event: Event, drops: tuple[int, ...] = ()) -> int:
        """Record a ``correct`` of an earlier roll (replayed with the events after it), with ``drop``
        events for ``drops``; raises ``rules.LaterEventRefused`` naming a later event it makes illegal."""

    def undo(self, expected: int | None = None) -> tuple[int, Event]: ...

    def undo_preview(self) -> tuple[int, Event]: ...

    def subscribe(self, fn: Callable[[Change], None]) -> Callable[[], None]: ...

    def rows(self, since: int = 0, limit: int | None = None, include_rejected: bool = True) -> list[LogRow]: ...

    def status(self) -> dict[str, dict[str, Any]]: ...

    def media_path(self, ref: str) -> Path: ...


def find_device(service: TableService, *methods: str) -> Any | None:
    """The first device of ``service`` that has every one of ``methods``, or ``None``."""
    for dev in list(getattr(service, "devices", []) or []):
        if all(callable(getattr(dev, m, None)) for m in methods):
            return dev
    return None
