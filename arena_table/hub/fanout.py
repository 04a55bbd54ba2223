"""One frame, every subscriber: the hub's SSE fan-out on an asyncio loop.

A channel (``wall``, ``table/<id>``) has a current frame: SSE bytes encoded once by whoever
publishes (paho-mqtt's thread, the wall's), a whole snapshot, and optionally an update from the
channel's previous frame. :meth:`Fanout.publish` numbers it and hands it to the loop with
``call_soon_threadsafe``; there the same bytes object is written to each subscriber's transport, in
publish order, with no task, queue or copy per client: the update to a subscriber that had the
previous frame, the snapshot to any other.

Slow clients cannot hold up the others: a subscriber's transport has a bounded write buffer
(:data:`HIGH_WATER` bytes beyond what the kernel holds). When it fills, asyncio pauses the
protocol; frames published meanwhile are skipped for that client, and when the buffer drains it
gets the newest frame of its channel (each frame is a whole snapshot, so the page catches up
without the ones between). A client paused for :data:`STALL_S` seconds is disconnected (its
``EventSource`` reconnects and starts from a fresh snapshot).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from typing import Callable

HEARTBEAT = b"event: heartbeat\ndata: {}\n\n"
HEARTBEAT_S = 15.0
"""Silence after which a subscriber gets a heartbeat (``spectator.js`` reconnects after 20 s of none)."""
HIGH_WATER = 256 * 1024
"""Bytes a subscriber's transport may buffer before it is paused and skips frames."""
STALL_S = 10.0
"""Seconds a paused subscriber may stay paused before it is disconnected."""


class Subscriber:
    """One stream: its transport, channel, the number of the last frame written and when it paused."""

    __slots__ = ("transport", "channel", "sent", "paused_at", "last_write")

    def __init__(self, transport: asyncio.WriteTransport, channel: str) -> None:
        self.transport, self.channel = transport, channel
        self.sent = 0
        self.paused_at: float | None = None
        self.last_write = time.monotonic()

    def __repr__(self) -> str:
        return f"Subscriber({self.channel!r}, sent={self.sent}, paused={self.paused_at is not None})"


class Fanout:
    """Current frames by channel (any thread) and their subscribers (the loop's thread only).

    Args:
        heartbeat_s, stall_s, high_water: :data:`HEARTBEAT_S`, :data:`STALL_S`, :data:`HIGH_WATER`.
    """

    def __init__(self, heartbeat_s: float = HEARTBEAT_S, stall_s: float = STALL_S,
                 high_water: int = HIGH_WATER) -> None:
        self.heartbeat_s, self.stall_s, self.high_water = heartbeat_s, stall_s, high_water
        self._lock = threading.Lock()
        self._frames: dict[str, tuple[int, int, bytes, bytes | None]] = {}
        """channel -> (number, the previous frame's number, snapshot, update from the previous or None)."""
        self._count = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subs: dict[str, dict[Subscriber, None]] = {}
        self.clients = 0
        """Subscribers held (written on the loop, read anywhere)."""
        self.shed = 0
        """Subscribers disconnected for staying paused :data:`STALL_S` seconds."""
        self.lags: deque[float] = deque(maxlen=1000)
        """Of the newest 1,000 frames with subscribers: ms from :meth:`publish` to the last subscriber's
        write (the hand-over to the loop and the writes: the hub's own share of a phone's latency)."""

    # -- any thread --------------------------------------------------------------------------------
    def publish(self, channel: str, frame: bytes, update: bytes | None = None) -> None:
        """Make ``frame`` (whole SSE messages: the state as a snapshot) the channel's current frame and
        send it to its subscribers; those that had the channel's previous frame get ``update`` instead,
        if given (the change from it)."""
        with self._lock:
            prev = self._frames.get(channel, (0,))[0]
            self._count += 1
            got = self._frames[channel] = (self._count, prev, frame, update)
            if self._loop is not None:  # under the lock: the loop gets frames in their order
                try:
                    self._loop.call_soon_threadsafe(self._deliver, channel, got, time.monotonic())
                except RuntimeError:  # the loop closed meanwhile
                    self._loop = None

    def current(self, channel: str) -> bytes | None:
        with self._lock:
            got = self._frames.get(channel)
        return None if got is None else got[2]

    def attach(self, loop: asyncio.AbstractEventLoop | None) -> None:
        """Deliver to subscribers on ``loop`` from now on (None: the server stopped)."""
        with self._lock:
            self._loop = loop

    # -- the loop's thread -------------------------------------------------------------------------
    def subscribe(self, channel: str, transport: asyncio.WriteTransport, head: bytes) -> Subscriber:
        """Write ``head`` and the channel's current frame to ``transport`` and follow the channel."""
        sub = Subscriber(transport, channel)
        transport.set_write_buffer_limits(high=self.high_water)
        with self._lock:
            got = self._frames.get(channel)
        if got is not None:
            sub.sent = got[0]
            head += got[2]
        transport.write(head)
        self._subs.setdefault(channel, {})[sub] = None
        self.clients += 1
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self._subs.get(sub.channel)
        if subs is not None and subs.pop(sub, False) is None:
            self.clients -= 1

    def paused(self, sub: Subscriber) -> None:
        sub.paused_at = time.monotonic()

    def resumed(self, sub: Subscriber) -> None:
        """The buffer drained: the newest frame the client has not had, if any."""
        sub.paused_at = None
        with self._lock:
            got = self._frames.get(sub.channel)
        if got is not None and got[0] > sub.sent:
            self._write(sub, got, time.monotonic())

    def tick(self, now: float | None = None) -> None:
        """Heartbeats for quiet subscribers, disconnection for stalled ones (the server calls it each second)."""
        now = time.monotonic() if now is None else now
        for subs in self._subs.values():
            for sub in list(subs):
                if sub.paused_at is not None:
                    if now - sub.paused_at >= self.stall_s:
                        self.shed += 1
                        sub.transport.abort()  # connection_lost unsubscribes it
                elif now - sub.last_write >= self.heartbeat_s:
                    sub.transport.write(HEARTBEAT)
                    sub.last_write = now

    def close_all(self, closer: Callable[[asyncio.WriteTransport], None] = lambda t: t.close()) -> None:
        for subs in self._subs.values():
            for sub in list(subs):
                closer(sub.transport)

    def _deliver(self, channel: str, got: tuple[int, int, bytes, bytes | None], published: float) -> None:
        subs = self._subs.get(channel)
        if not subs:
            return
        now, number = time.monotonic(), got[0]
        for sub in subs:
            if sub.paused_at is None and sub.sent < number:
                self._write(sub, got, now)
        self.lags.append((time.monotonic() - published) * 1000)

    @staticmethod
    def _write(sub: Subscriber, got: tuple[int, int, bytes, bytes | None], now: float) -> None:
        number, prev, frame, update = got
        sub.transport.write(update if update is not None and sub.sent == prev else frame)
        sub.sent, sub.last_write = number, now
