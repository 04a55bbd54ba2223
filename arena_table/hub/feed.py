"""The hub's subscriber: one MQTT connection that follows every table under ``arena-table/``.

For each table it keeps the last retained view, its presence (``online``/``offline``) and its
event sequence: an event whose ``prev`` is the last seq held is taken; one at or below it is a
duplicate and dropped; one after a gap is dropped and the missing ones asked for on the table's
``resend`` topic (the table republishes them from its log). A table first seen is asked for its
whole sequence, and every table again after the hub's own reconnect.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

import paho.mqtt.client as mqtt

from .topics import PREFIX, Broker, split_topic, topic

log = logging.getLogger(__name__)

ASK_AGAIN_S = 2.0
"""A resend request not answered in this long is repeated on the next gap."""
KEEP_EVENTS = 500
"""Accepted events a table's feed keeps in memory, the newest (a hall's day must not grow the hub):
the full log of a finished game is kept by :class:`~arena_table.hub.results.Results` in SQLite,
and the whole log stays on the table."""


@dataclass
class TableFeed:
    """What the hub knows of one table."""

    table_id: str
    online: bool = False
    view: dict[str, Any] | None = None
    """The last ``view`` message: ``{"table", "epoch", "version", "state"}``."""
    last_seq: int = 0
    """The last accepted seq held with every earlier one."""
    events: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEEP_EVENTS))
    """The newest :data:`KEEP_EVENTS` accepted events in seq order, no gap, no duplicate."""
    duplicates: int = 0
    asked: tuple[int, float] | None = None
    """The last resend request: ``(after, monotonic time)``."""


class Feed:
    """Subscribes once to all tables; ``tables()`` gives copies, ``listen(fn)`` is told ``fn(table_id)``
    on every change and ``listen_events(fn)`` ``fn(table_id, event)`` on each accepted event, in seq
    order (both on paho's thread: must not block).

    Args:
        broker: the broker's address and the hub's credentials.
        keep_events: keep each table's newest :data:`KEEP_EVENTS` events (tests look at them); the wall
            needs only views, the results take the events from :meth:`listen_events`.
    """

    def __init__(self, broker: Broker, client_id: str = "arena-table-hub", keep_events: bool = True) -> None:
        self.broker, self.keep_events = broker, keep_events
        self._lock = threading.Lock()
        self._tables: dict[str, TableFeed] = {}
        self._listeners: list[Callable[[str], None]] = []
        self._event_listeners: list[Callable[[str, dict[str, Any]], None]] = []
        self.connected = threading.Event()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                        clean_session=True)
        if broker.username:
            c.username_pw_set(broker.username, broker.password)
        c.reconnect_delay_set(0.2, 2.0)
        c.on_connect, c.on_disconnect, c.on_message = self._on_connect, self._on_disconnect, self._on_message
        self.client = c

    def start(self) -> "Feed":
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self.client.loop_start()
        return self

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def __enter__(self) -> "Feed":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def listen(self, fn: Callable[[str], None]) -> None:
        with self._lock:
            self._listeners.append(fn)

    def listen_events(self, fn: Callable[[str, dict[str, Any]], None]) -> None:
        with self._lock:
            self._event_listeners.append(fn)

    def tables(self) -> dict[str, TableFeed]:
        """A copy of every table's feed, by id."""
        with self._lock:
            return {k: TableFeed(v.table_id, v.online, v.view, v.last_seq, deque(v.events, KEEP_EVENTS),
                                 v.duplicates, v.asked) for k, v in self._tables.items()}

    def table(self, table_id: str) -> TableFeed | None:
        """One table's presence, view and seq (its ``events`` left empty: no copying per message), or None."""
        with self._lock:
            v = self._tables.get(table_id)
            return None if v is None else TableFeed(v.table_id, v.online, v.view, v.last_seq, deque(maxlen=0),
                                                    v.duplicates, v.asked)

    # -- paho callbacks ----------------------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            log.warning("the broker %s refused the hub: %s", self.broker, reason_code)
            return
        client.subscribe([(f"{PREFIX}/+/{kind}", 1) for kind in ("events", "view", "status")])
        with self._lock:
            known = [(t.table_id, t.last_seq) for t in self._tables.values()]
            for t in self._tables.values():
                t.asked = None
        for table_id, after in known:  # what was published while we were away
            self._ask(table_id, after)
        self.connected.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        self.connected.clear()

    def _on_message(self, client, userdata, msg) -> None:
        where = split_topic(msg.topic)
        if where is None:
            return
        table_id, kind = where
        first = False
        with self._lock:
            feed = self._tables.get(table_id)
            if feed is None:
                feed = self._tables[table_id] = TableFeed(table_id)
                first = True
        if first:
            self._ask(table_id, 0)
        try:
            if kind == "status":
                with self._lock:
                    feed.online = msg.payload == b"online"
            elif kind == "view":
                body = json.loads(msg.payload)
                with self._lock:
                    feed.view = body
            elif kind == "events":
                self._take_event(feed, json.loads(msg.payload))
            else:
                return
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("%s: unreadable message (%s)", msg.topic, exc)
            return
        with self._lock:
            listeners = list(self._listeners)
        for fn in listeners:
            try:
                fn(table_id)
            except Exception:
                log.exception("feed listener failed")

    def _take_event(self, feed: TableFeed, body: dict[str, Any]) -> None:
        seq, prev = int(body["seq"]), int(body["prev"])
        ask, taken = None, False
        with self._lock:
            if seq <= feed.last_seq:
                feed.duplicates += 1
            elif prev == feed.last_seq:
                feed.last_seq = seq
                feed.asked = None
                taken = True
                if self.keep_events:
                    feed.events.append(body)
            elif feed.asked is None or feed.asked[0] != feed.last_seq or time.monotonic() - feed.asked[1] > ASK_AGAIN_S:
                ask = feed.last_seq
        if ask is not None:
            self._ask(feed.table_id, ask)
        if taken:
            with self._lock:
                listeners = list(self._event_listeners)
            for fn in listeners:
                try:
                    fn(feed.table_id, body)
                except Exception:
                    log.exception("feed event listener failed")

    def _ask(self, table_id: str, after: int) -> None:
        with self._lock:
            feed = self._tables.get(table_id)
            if feed is not None:
                feed.asked = (after, time.monotonic())
        self.client.publish(topic(table_id, "resend"), json.dumps({"after": after}), qos=1)
