"""Each table's spectator screen as the hub serves it: the table's own page, fed by the broker.

The table publishes its spectator state (the JSON its own ``/api/stream`` carries) as its retained
``view``; the hub renders the same ``spectator.html`` and ``spectator.js`` of
:mod:`arena_table.webui`, pointed at ``/table/<id>/stream`` instead of the table's. Phones then
load the hub, never the table's Pi: the table publishes once whoever watches.

Fan-out: each view message is encoded once into one SSE ``snapshot`` frame (``id: EPOCH:VERSION``,
data ``{"epoch", "version", "rev", "reason", "online", "state"}``, what ``spectator.js`` takes from a
table), kept as the table's current frame; every stream waiting on that table wakes on one
condition and sends the newest frame it has not sent (a snapshot holds the whole state, so a slow
phone skips to the newest instead of queueing the ones between).
"""

from __future__ import annotations

import json
import threading
from typing import Iterator

from .feed import Feed

HEARTBEAT_S = 15.0
"""Silence after which a stream sends a heartbeat (``spectator.js`` reconnects after 20 s of none)."""


class Screens:
    """The current snapshot frame of every table and the streams waiting for the next one.

    Args:
        feed: the hub's subscription (started by the caller); told of each change on paho's thread.
    """

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self._lock = threading.Lock()
        self._conds: dict[str, threading.Condition] = {}
        """table id -> the condition its streams wait on (one a table: a change wakes only its own)."""
        self._frames: dict[str, tuple[int, bytes, str]] = {}
        """table id -> (frame number, the SSE frame, its data JSON)."""
        self._shown: dict[str, tuple] = {}
        self._count = 0
        self._closing = False
        feed.listen(self._changed)

    def _cond(self, table_id: str) -> threading.Condition:
        with self._lock:
            cond = self._conds.get(table_id)
            if cond is None:
                cond = self._conds[table_id] = threading.Condition(self._lock)
            return cond

    def _changed(self, table_id: str) -> None:
        t = self.feed.table(table_id)
        if t is None or t.view is None:
            return
        key = (t.view.get("epoch"), t.view.get("version"), t.online)
        if self._shown.get(table_id) == key:
            return  # an event message, or a view already sent
        self._shown[table_id] = key
        data = json.dumps({"epoch": key[0], "version": key[1], "rev": key[1], "reason": "hub", "online": t.online,
                           "state": t.view.get("state") or {}}, separators=(",", ":"))
        frame = f"id: {key[0]}:{key[1]}\nevent: snapshot\ndata: {data}\n\n".encode()
        cond = self._cond(table_id)
        with cond:
            self._count += 1
            self._frames[table_id] = (self._count, frame, data)
            cond.notify_all()

    def initial(self, table_id: str) -> str | None:
        """The table's current snapshot as JSON text (the page's first render), or None before one."""
        with self._lock:
            got = self._frames.get(table_id)
        return None if got is None else got[2]

    def stream(self, table_id: str) -> Iterator[bytes]:
        """The table's SSE stream: its current snapshot, then each newer one, heartbeats between."""
        sent, cond = 0, self._cond(table_id)
        yield b"retry: 2000\n\n"
        while True:
            with cond:
                if not self._closing and self._frames.get(table_id, (0,))[0] <= sent:
                    cond.wait(HEARTBEAT_S)
                if self._closing:
                    return
                got = self._frames.get(table_id)
            if got is not None and got[0] > sent:
                sent = got[0]
                yield got[1]
            else:
                yield b"event: heartbeat\ndata: {}\n\n"

    def close(self) -> None:
        """End every stream (their threads return)."""
        with self._lock:
            self._closing = True
            for cond in self._conds.values():
                cond.notify_all()
