"""Server-Sent Events for the spectator screen: one broadcaster, bounded per-client queues.

Shape of the stream (``text/event-stream``, WHATWG HTML §9.2):

* on every connect: ``event: snapshot`` whose data is
  ``{"type": "snapshot", "epoch", "version", "rev", "reason", "state": {...}}``;
  ``reason`` is ``new`` (no ``Last-Event-ID``), ``resume`` (an id of the current epoch),
  ``new-epoch`` (an id from before a restart), ``unknown-id`` (an id we cannot read) or
  ``behind`` (the client's queue overflowed). A reconnect never gets a replay of old events:
  the snapshot *is* the state.
* after each change: ``event: update`` with ``{"type": "update", "epoch", "version", "rev",
  "base", "set": {key: value}, "unset": [key], "append": {key: {"items": [...], "keep": N}}}``
  — the top-level keys of the state that changed since revision ``base``; a list that only
  grew at its end (the plain-words ``log``) comes as ``append``: the new items, then keep the
  last ``N``. A client whose own revision is not ``base`` reconnects.
* ``event: heartbeat`` every ``heartbeat`` seconds of silence (default 15 s), so a page can
  tell a dead stream from a quiet table.

Every message's ``id`` is ``EPOCH:VERSION`` (the table's epoch changes at each start,
the version is the sequence number of the last event applied).

Threads: the table calls :meth:`Hub._on_change` on its engine thread; that only drops the
change in an inbox (never blocks). The hub's own broadcaster thread builds the state once
per change, serialises it once and puts the same bytes in every client's bounded queue; a
full queue is emptied and replaced by a *resync* marker, so a slow client gets a fresh
snapshot instead of holding memory or the engine. Each streaming response runs in a
server thread that waits on its own queue.
"""

from __future__ import annotations

import itertools
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .service import TableService
from .stream_slots import PER_ADDRESS, TV_ADDRESSES, HubFull, Slot, StreamSlots, TooManyStreams

__all__ = ["Client", "Hub", "HubFull", "TooManyStreams", "format_event", "parse_event_id"]

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
"""Silence after which a heartbeat is sent (issue 7: every 15 s)."""
QUEUE_SIZE = 32
"""Messages a client may have waiting before it is marked behind and resynchronised."""
POLL_S = 1.0
"""How often a waiting stream checks whether its client has gone, and the status is polled."""
REAP_AFTER_S = 20.0
"""A client that has not taken a message for this long while one waits is dropped."""
RETRY_MS = 2000
"""Reconnect delay suggested to the browser (``retry:`` field)."""

APPENDABLE = ("log",)
"""Keys of the state that normally only grow at the end; sent as ``append`` when they do."""

_RESYNC = object()
_CLOSE = object()

BuildState = Callable[[Any, TableService], dict[str, Any]]
"""``build(table_state, service) -> dict``: the JSON object sent to spectators."""


@dataclass(eq=False)
class Client:
    """One open stream."""

    id: int
    queue: "queue.Queue[Any]"
    remote: str = ""
    slot: Slot | None = None
    """The stream slot it holds (:class:`~arena_table.webui.stream_slots.StreamSlots`)."""
    rev: int = 0
    """The last revision this client was sent."""
    last_taken: float = field(default_factory=time.monotonic)
    """When the stream last took a message from its queue (monotonic seconds)."""
    closed: bool = False


def format_event(name: str, data: str, id: str | None = None, retry: int | None = None) -> bytes:
    """One SSE message; ``data`` must be a single line (compact JSON is).

    >>> format_event("update", '{"a":1}', id="e1:4")
    b'event: update\\nid: e1:4\\ndata: {"a":1}\\n\\n'
    """
    out = []
    if retry is not None:
        out.append(f"retry: {retry}\n")
    out.append(f"event: {name}\n")
    if id is not None:
        out.append(f"id: {id}\n")
    out.append(f"data: {data}\n\n")
    return "".join(out).encode()


def parse_event_id(value: str | None) -> tuple[str, int] | None:
    """``"EPOCH:VERSION"`` -> ``(epoch, version)``; ``None`` when absent or unreadable.

    >>> parse_event_id("3f2a:17"), parse_event_id("junk"), parse_event_id(None)
    (('3f2a', 17), None, None)
    """
    if not value:
        return None
    epoch, sep, version = value.strip().rpartition(":")
    if not sep or not epoch or not version.isdigit():
        return None
    return epoch, int(version)


class Hub:
    """Fans table changes out to up to ``max_clients`` spectator SSE streams, plus those of the TV
    and of the control pages (:mod:`~arena_table.webui.stream_slots`).

    Args:
        service: the table (see :class:`~arena_table.webui.service.TableService`).
        build: turns a table state into the JSON object the page renders.
        max_clients: spectator streams held at once; :meth:`connect` raises :class:`HubFull` beyond.
        per_address: spectator streams one client address may hold (:class:`TooManyStreams` beyond).
        tv_addresses: addresses whose streams have the TV's own slots.
        queue_size, heartbeat, poll, reap_after: see the module constants (seconds).
    """

    def __init__(self, service: TableService, build: BuildState, *, max_clients: int = 200,
                 per_address: int = PER_ADDRESS, tv_addresses: tuple[str, ...] = TV_ADDRESSES,
                 queue_size: int = QUEUE_SIZE, heartbeat: float = HEARTBEAT_S, poll: float = POLL_S,
                 reap_after: float = REAP_AFTER_S) -> None:
        self.service = service
        self.build = build
        self.max_clients = max_clients
        self.slots = StreamSlots(max_clients, per_address, tv_addresses)
        self.queue_size = queue_size
        self.heartbeat = heartbeat
        self.poll = poll
        self.reap_after = reap_after
        self._lock = threading.Lock()
        self._caught_up = threading.Condition(self._lock)
        self._clients: dict[int, Client] = {}
        self._ids = itertools.count(1)
        self._inbox: "queue.Queue[Any]" = queue.Queue()
        self._parts: dict[str, str] = {}
        self._appendable: dict[str, list] = {}
        self._rev = 0
        self._json, self._json_rev = "", -1
        self._version = 0
        self._epoch = ""
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._stopping = threading.Event()
        self.counters = {"connected": 0, "disconnected": 0, "reaped": 0, "resyncs": 0, "refused": 0}

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> "Hub":
        if self._thread is None:
            self._refresh(self.service.state, self.service.epoch)
            self._unsubscribe = self.service.subscribe(self._on_change)
            self._thread = threading.Thread(target=self._run, name="sse-hub", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop broadcasting and end every open stream."""
        self._stopping.set()
        if self._unsubscribe:
            self._unsubscribe()
        self._inbox.put(None)
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with self._lock:
            clients = list(self._clients.values())
            self._clients.clear()
            for c in clients:
                self._give_back(c)
        for c in clients:
            c.closed = True
            _put_latest(c.queue, _CLOSE)

    # -- reading --------------------------------------------------------------------------------
    @property
    def capacity(self) -> int:
        """Streams held at most: the spectators' pool plus the TV's and the control pages' slots."""
        return self.slots.capacity

    def stats(self) -> dict[str, int]:
        """``clients`` (spectator streams) of ``max_clients``, ``tv`` and ``control`` streams, the
        revision, and the counters (connected, disconnected, reaped, resyncs, refused)."""
        with self._lock:
            counts = self.slots.counts()
            return {"clients": counts["spectator"], "max_clients": self.max_clients, "tv": counts["tv"],
                    "control": counts["control"], "rev": self._rev, **self.counters}

    def snapshot(self) -> tuple[dict[str, Any], str, int, int]:
        """``(state, epoch, version, rev)`` as last broadcast."""
        with self._lock:
            return self._snapshot_unlocked()

    def part(self, key: str, default: Any = None) -> Any:
        """One top-level key of the state as last broadcast."""
        with self._lock:
            raw = self._parts.get(key)
        return default if raw is None else json.loads(raw)

    def wait_for_version(self, version: int, timeout: float) -> bool:
        """Wait until the broadcast state includes event ``version`` (read-your-writes for a
        client that has just posted an event); False if ``timeout`` seconds pass first."""
        with self._lock:
            return self._caught_up.wait_for(lambda: self._version >= version, timeout)

    def state_json(self) -> str:
        """``{"epoch", "version", "rev", "state"}`` as JSON text, built once per revision
        (``/api/state`` under load is then a dictionary lookup, not a serialisation)."""
        with self._lock:
            if self._json_rev != self._rev:
                body = "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in self._parts.items()) + "}"
                self._json = (f'{{"epoch":{json.dumps(self._epoch)},"version":{self._version},"rev":{self._rev},'
                              f'"state":{body}}}')
                self._json_rev = self._rev
            return self._json

    def _snapshot_unlocked(self) -> tuple[dict[str, Any], str, int, int]:
        state = json.loads("{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in self._parts.items()) + "}")
        return state, self._epoch, self._version, self._rev

    # -- clients --------------------------------------------------------------------------------
    def refusal(self, remote: str = "", session: str = "") -> HubFull | None:
        """What :meth:`connect` would raise for this stream now, or ``None``."""
        with self._lock:
            return self.slots.refusal(remote, session)

    def connect(self, remote: str = "", session: str = "") -> Client:
        """Register a new stream from the client address ``remote``, for the logged-in control
        session ``session`` (its id) or none (``""``).

        Raises:
            TooManyStreams: ``remote`` holds as many spectator streams as one address may.
            HubFull: ``max_clients`` spectator streams are open (and no TV or control slot applies).
        """
        with self._lock:
            try:
                slot = self.slots.take(remote, session)
            except HubFull:
                self.counters["refused"] += 1
                raise
            client = Client(next(self._ids), queue.Queue(self.queue_size), remote=remote, slot=slot)
            self._clients[client.id] = client
            self.counters["connected"] += 1
            return client

    def disconnect(self, client: Client) -> None:
        with self._lock:
            if self._clients.pop(client.id, None) is not None:
                self.counters["disconnected"] += 1
                self._give_back(client)
        client.closed = True

    def _give_back(self, client: Client) -> None:
        """Free ``client``'s slot (under the lock, once: when it leaves ``_clients``)."""
        if client.slot is not None:
            self.slots.give_back(client.slot)

    def stream(self, client: Client, last_event_id: str | None = None,
               disconnected: Callable[[], bool] | None = None) -> Iterator[bytes]:
        """The bytes of one SSE response: a snapshot, then updates and heartbeats.

        ``disconnected()`` (the WSGI server's ``waitress.client_disconnected``) is checked
        every ``poll`` seconds so a vanished client is dropped without waiting for a write.
        """
        try:
            yield self._snapshot_message(client, _reason(last_event_id, self._epoch), retry=RETRY_MS)
            last_sent = time.monotonic()
            while not client.closed:
                try:
                    item = client.queue.get(timeout=self.poll)
                except queue.Empty:
                    if disconnected is not None and disconnected():
                        break
                    if time.monotonic() - last_sent >= self.heartbeat:
                        yield format_event("heartbeat", json.dumps({"t": round(time.time(), 3),
                                                                    "rev": client.rev}))
                        last_sent = time.monotonic()
                    continue
                client.last_taken = time.monotonic()
                if item is _CLOSE:
                    break
                if item is _RESYNC:
                    self.counters["resyncs"] += 1
                    yield self._snapshot_message(client, "behind")
                else:
                    rev, data = item
                    if rev <= client.rev:
                        continue  # already covered by the snapshot this client got
                    client.rev = rev
                    yield data
                last_sent = time.monotonic()
        finally:
            self.disconnect(client)

    def _snapshot_message(self, client: Client, reason: str, retry: int | None = None) -> bytes:
        with self._lock:
            parts, epoch, version, rev = dict(self._parts), self._epoch, self._version, self._rev
            client.rev = rev
        state = "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in parts.items()) + "}"
        data = (f'{{"type":"snapshot","epoch":{json.dumps(epoch)},"version":{version},"rev":{rev},'
                f'"reason":{json.dumps(reason)},"state":{state}}}')
        return format_event("snapshot", data, id=f"{epoch}:{version}", retry=retry)

    # -- broadcasting ---------------------------------------------------------------------------
    def _on_change(self, change: Any) -> None:
        self._inbox.put(change)  # engine thread: never block, never build here

    def _run(self) -> None:
        next_poll = time.monotonic() + self.poll
        while not self._stopping.is_set():
            try:
                item = self._inbox.get(timeout=max(0.0, next_poll - time.monotonic()))
            except queue.Empty:
                item = False
            if item is None:
                return
            try:
                if item is not False:
                    while True:  # coalesce a backlog: only the newest state matters
                        try:
                            nxt = self._inbox.get_nowait()
                        except queue.Empty:
                            break
                        if nxt is None:
                            return
                        item = nxt
                    self._refresh(item.state, item.epoch)
                if time.monotonic() >= next_poll:
                    next_poll = time.monotonic() + self.poll
                    self._refresh(None, None)  # device status may have changed
                    self._reap()
            except Exception:
                log.exception("building the spectator state failed")

    def _refresh(self, state: Any | None, epoch: str | None) -> None:
        """Rebuild the broadcast state; send the changed keys to every client."""
        appended: dict[str, str] = {}
        if state is None:
            new = dict(self._parts)
            new["status"] = json.dumps(self._status(), separators=(",", ":"), sort_keys=True)
            version, epoch = self._version, self._epoch
        else:
            view = self.build(state, self.service)
            view["status"] = self._status()
            new = {k: json.dumps(v, separators=(",", ":"), sort_keys=True) for k, v in view.items()}
            version = int(getattr(state, "seq", 0))
            for key in APPENDABLE:
                old_list, new_list = self._appendable.get(key), view.get(key)
                if isinstance(new_list, list):
                    self._appendable[key] = new_list
                    tail = _appended(old_list, new_list) if epoch == self._epoch else None
                    if tail is not None and new.get(key) != self._parts.get(key):
                        appended[key] = (f'{{"items":{json.dumps(tail, separators=(",", ":"), sort_keys=True)},'
                                         f'"keep":{len(new_list)}}}')
        changed = {k: v for k, v in new.items() if self._parts.get(k) != v and k not in appended}
        removed = [k for k in self._parts if k not in new]
        if not changed and not removed and not appended and epoch == self._epoch and version == self._version:
            return
        with self._lock:
            base = self._rev
            self._rev += 1
            rev = self._rev
            self._parts, self._version, self._epoch = new, version, epoch
            self._caught_up.notify_all()
            body = ",".join(f"{json.dumps(k)}:{v}" for k, v in changed.items())
            tails = ",".join(f"{json.dumps(k)}:{v}" for k, v in appended.items())
            data = (f'{{"type":"update","epoch":{json.dumps(epoch)},"version":{version},"rev":{rev},'
                    f'"base":{base},"set":{{{body}}},"unset":{json.dumps(removed)},"append":{{{tails}}}}}')
            msg = (rev, format_event("update", data, id=f"{epoch}:{version}"))
            clients = list(self._clients.values())
        for c in clients:
            try:
                c.queue.put_nowait(msg)
            except queue.Full:
                _put_latest(c.queue, _RESYNC)

    def _status(self) -> dict[str, Any]:
        try:
            status = self.service.status()
        except Exception as exc:  # a device board that fails must not stop the page
            return {"status": {"ok": False, "error": str(exc)}}
        # ``updated`` stamps change on every report; keep them out so a steady device sends nothing
        return {name: {k: v for k, v in info.items() if k != "updated"} for name, info in status.items()}

    def _reap(self) -> None:
        """Drop clients that have left a full queue untouched for ``reap_after`` seconds."""
        now = time.monotonic()
        with self._lock:
            dead = [c for c in self._clients.values()
                    if not c.queue.empty() and now - c.last_taken > self.reap_after]
            for c in dead:
                del self._clients[c.id]
                self._give_back(c)
                c.closed = True
                self.counters["reaped"] += 1
        for c in dead:
            log.info("dropped stream %d (%s): not reading for %.0f s", c.id, c.remote, now - c.last_taken)


def _appended(old: list | None, new: list) -> list | None:
    """The items ``new`` adds at the end of ``old`` (after dropping from its front), or
    ``None`` when ``new`` is not such a continuation.

    >>> _appended([1, 2, 3], [2, 3, 4, 5]), _appended([1, 2], [1, 2]), _appended([1, 2], [9])
    ([4, 5], [], None)
    """
    if old is None or (old and not new):
        return None
    for k in range(len(new), -1, -1):  # longest overlap first
        if k <= len(old) and new[:k] == old[len(old) - k:]:
            if k == 0 and old and new:
                return None  # nothing in common: a replacement, not a continuation
            return new[k:]
    return None


def _put_latest(q: "queue.Queue[Any]", item: Any) -> None:
    """Empty ``q`` and leave only ``item`` in it (never blocks)."""
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            break
    try:
        q.put_nowait(item)
    except queue.Full:
        pass


def _reason(last_event_id: str | None, epoch: str) -> str:
    if not last_event_id:
        return "new"
    parsed = parse_event_id(last_event_id)
    if parsed is None:
        return "unknown-id"
    return "resume" if parsed[0] == epoch else "new-epoch"
