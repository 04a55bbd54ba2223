"""What a device may do with its table: narrow ports, not the whole :class:`~.app.Table`.

A camera submits rolls, stores frames in the media store, reads the clock and reports its
health; the token reader does the same and reads the tags the log has on its pads; the lights
watch the state, the refusals and the other devices' health. Each gets these callables, made by
:meth:`Table.ports <.app.Table.ports>` with its own status entry, and nothing else (STYLE.md §10: one
composition root, devices that cannot reach around it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from arena_table.rules import Event, TableState

from .engine import Change, Clock
from .log import LogRow
from .media import MediaStore


@dataclass(frozen=True)
class Ports:
    """The table as one device sees it."""

    submit: Callable[[Event], int]
    """Validate, commit and apply an event; returns its ``seq`` (raises ``Refused``)."""
    media: MediaStore
    """Where frames and die crops are stored (``save(image, kind) -> ref``)."""
    clock: Clock
    """The table's clock (seconds), stamping events at the sensor edge."""
    report: Callable[..., None]
    """``report(**info)``: this device's entry on the status board."""
    rows: Callable[..., list[LogRow]]
    """The log's rows, read (``rows(since=0, limit=None, include_rejected=True)``)."""
    state: Callable[[], TableState]
    """The state now."""
    subscribe: Callable[[Callable[[Change], None]], Callable[[], None]]
    """Call a function after every committed event; returns its unsubscribe."""
    on_refused: Callable[[Callable[[int, Event, str], None]], Callable[[], None]]
    """Call a function with every refused event's ``(seq, event, reason)``; returns its unsubscribe."""
    status: Callable[[], dict[str, dict[str, Any]]]
    """Every device's status entry, a copy."""
    watch_status: Callable[[Callable[[dict[str, dict[str, Any]]], None]], None]
    """Call a function with every change of the status board (it must not block)."""
