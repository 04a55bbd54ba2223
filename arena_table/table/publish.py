"""The table's publisher: its view, events and presence to an MQTT broker (``run --publish``).

The event log stays the source of truth; the broker is only distribution. The publisher is a
device of the table (``start``/``close``): an engine subscriber wakes its own thread, which reads
the accepted rows after the last one it published from the log and sends them, then the view.
While the broker is unreachable nothing is sent, the table plays on and the control page's
device list says ``hub: offline``; on reconnecting (paho's own back-off) the publisher goes back
to the last event the broker acknowledged and sends the current view and every accepted event
after it, in seq order. A subscriber that missed some asks on ``resend`` (``arena_table.hub.topics``).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from typing import Any, Callable

import paho.mqtt.client as mqtt

from arena_table.hub.topics import Broker, check_table_id, topic

log = logging.getLogger(__name__)

KEEPALIVE_S = 10
"""MQTT keep-alive: the broker sends the last-will ``offline`` after 1.5 x this much silence."""
RECONNECT_S = (0.2, 2.0)
"""paho's reconnect back-off, first and longest wait in seconds."""


class Publisher:
    """Publishes ``table`` (an :class:`arena_table.table.app.Table`) as ``table_id`` to ``broker``.

    Args:
        table: gives ``rows``, ``state``, ``epoch``, ``version``, ``subscribe``, ``status_board``.
        broker: address and credentials (:func:`arena_table.hub.topics.parse_broker`).
        table_id: the id in the topics (:func:`~arena_table.hub.topics.check_table_id`).
        build_view: ``build(state, table) -> dict``, the spectator JSON (the web page's).

    Raises:
        ValueError: a bad table id.
    """

    def __init__(self, table: Any, broker: Broker, table_id: str,
                 build_view: Callable[[Any, Any], dict] | None = None, keepalive: int = KEEPALIVE_S) -> None:
        if build_view is None:
            from arena_table.webui.views import spectator_state as build_view
        self.table, self.broker, self.table_id = table, broker, check_table_id(table_id)
        self.build_view, self.keepalive = build_view, keepalive
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._connected = False
        last = table.rows(include_rejected=False)
        self._sent = last[-1].seq if last else 0
        """The last accepted seq published on this connection (a restart starts at the log's end)."""
        self._acked = self._sent
        """The last seq the broker acknowledged with every earlier one (a reconnect resumes here)."""
        self._inflight: deque[list] = deque()  # [seq, mid, acked] in publish order
        self._view_version: tuple[str, int] | None = None
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"arena-table-{table_id}",
                        protocol=mqtt.MQTTv311, clean_session=True)
        if broker.username:
            c.username_pw_set(broker.username, broker.password)
        c.will_set(topic(table_id, "status"), "offline", qos=1, retain=True)
        c.reconnect_delay_set(*RECONNECT_S)
        c.on_connect, c.on_disconnect = self._on_connect, self._on_disconnect
        c.on_publish, c.on_message = self._on_publish, self._on_message
        self.client = c

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> "Publisher":
        self._board("connecting", f"connecting to {self.broker} as {self.table_id}")
        self._unsubscribe = self.table.subscribe(lambda change: self._wake.set())
        self._thread = threading.Thread(target=self._run, name="publish", daemon=True)
        self._thread.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=self.keepalive)
        self.client.loop_start()
        return self

    def close(self) -> None:
        """Says ``offline`` (a goodbye sends no last-will) and disconnects."""
        if self._unsubscribe:
            self._unsubscribe()
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.connected:
            try:
                self.client.publish(topic(self.table_id, "status"), "offline", qos=1, retain=True).wait_for_publish(2)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()

    def __enter__(self) -> "Publisher":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._connected

    # -- paho callbacks (paho's network thread) ---------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            self._board("offline", f"hub offline: {self.broker} refused the table ({reason_code})")
            return
        with self._lock:
            self._connected = True
            self._sent = self._acked  # resend what the broker never acknowledged
            self._inflight.clear()
            self._view_version = None
        client.publish(topic(self.table_id, "status"), "online", qos=1, retain=True)
        client.subscribe(topic(self.table_id, "resend"), qos=1)
        self._board("online", f"publishing to {self.broker} as {self.table_id}")
        self._wake.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        with self._lock:
            self._connected = False
        if not self._stop.is_set():
            self._board("offline", f"hub offline: {self.broker} unreachable; the table plays on and "
                        "republishes from its log when it is back")

    def _on_publish(self, client, userdata, mid, reason_code=None, properties=None) -> None:
        with self._lock:
            for item in self._inflight:
                if item[1] == mid:
                    item[2] = True
                    break
            while self._inflight and self._inflight[0][2]:
                self._acked = max(self._acked, self._inflight.popleft()[0])

    def _on_message(self, client, userdata, msg) -> None:
        try:
            after = int(json.loads(msg.payload)["after"])
        except (ValueError, KeyError, TypeError):
            log.warning("resend request %r: expected {\"after\": SEQ}", msg.payload[:80])
            return
        with self._lock:
            self._sent = min(self._sent, max(0, after))
        self._wake.set()

    # -- the publishing thread ------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self._publish_pending()
            except Exception:
                log.exception("publishing to %s failed", self.broker)

    def _publish_pending(self) -> None:
        with self._lock:
            if not self._connected:
                return
            since = self._sent
        epoch = self.table.epoch
        prev = since
        for row in self.table.rows(since=since, include_rejected=False):
            payload = {**row.to_json(), "table": self.table_id, "epoch": epoch, "prev": prev}
            info = self.client.publish(topic(self.table_id, "events"), json.dumps(payload), qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return  # the connection went: on_connect starts again from the acknowledged seq
            with self._lock:
                if not self._connected or self._sent != since:
                    self._wake.set()  # a resend asked for earlier rows meanwhile
                    return
                self._inflight.append([row.seq, info.mid, False])
                self._sent = since = prev = row.seq
        state = self.table.state
        key = (epoch, int(state.seq))
        if key != self._view_version:
            body = {"table": self.table_id, "epoch": epoch, "version": key[1], "state": self.build_view(state, self.table)}
            info = self.client.publish(topic(self.table_id, "view"), json.dumps(body), qos=1, retain=True)
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                self._view_version = key

    def _board(self, state: str, detail: str) -> None:
        self.table.status_board.set("hub", state=state, detail=detail, table_id=self.table_id, broker=str(self.broker))


def build_publisher(table: Any, settings: Any) -> Publisher:
    """The publisher ``[publish]`` (``run --publish URL --table-id ID``) adds to ``table``'s devices.

    Args:
        settings: a :class:`~arena_table.table.config.PublishSettings` (checked already); its
            ``username``/``password`` win over any in the URL.
    """
    import dataclasses

    from arena_table.hub.topics import parse_broker

    broker = parse_broker(settings.broker)
    if settings.username:
        broker = dataclasses.replace(broker, username=settings.username, password=settings.password or None)
    return Publisher(table, broker, settings.table_id, keepalive=settings.keepalive_s)
