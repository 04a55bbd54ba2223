"""Who may hold an SSE stream: a pool for spectators with a cap per client address, and slots
kept for the TV and for the logged-in control pages, which no crowd of spectators can take.

Every stream holds a server thread (``webui/server.py``), so the streams are bounded. One device
opening streams in a loop must not use them all: a spectator address holds at most
``per_address`` streams of the ``spectators`` pool. The TV (a stream from one of
``tv_addresses``: the Pi's own browser on ``127.0.0.1``, or a TV set given in ``web.tv_addresses``)
has ``tv_streams`` slots of its own per address, and the logged-in control sessions have
``control_streams`` slots among them, ``per_session`` each; these come on top of the spectators'
pool. A TV or control stream beyond its own slots takes a spectator slot, under the same caps.

Not thread-safe: the :class:`~arena_table.webui.sse.Hub` calls it under its lock.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

SPECTATOR, TV, CONTROL = "spectator", "tv", "control"
PER_ADDRESS = 8
"""Spectator streams one client address may hold (a phone with a few tabs; ``web.streams_per_address``)."""
TV_ADDRESSES = ("127.0.0.1", "::1")
"""Addresses whose streams are the TV's (``web.tv_addresses``): the browser on the Pi itself."""
TV_STREAMS = 4
"""Streams kept for each TV address."""
CONTROL_STREAMS = 16
"""Streams kept for the logged-in control sessions together."""
PER_SESSION = 4
"""Of those, streams one control session may hold (its tabs)."""


class HubFull(Exception):
    """No stream may be opened now; the caller answers :attr:`status` (503) with ``Retry-After``."""

    status = 503


class TooManyStreams(HubFull):
    """This client address holds all the streams one address may; the caller answers 429."""

    status = 429


@dataclass(frozen=True)
class Slot:
    """The slot one stream holds: its pool and the address or session it counts against."""

    pool: str
    key: str


class StreamSlots:
    """The stream slots of one table (see the module docstring).

    >>> slots = StreamSlots(spectators=2, per_address=1, tv_addresses=("127.0.0.1",), tv_streams=1)
    >>> slots.take("192.0.2.7"), slots.take("127.0.0.1"), slots.take("127.0.0.1").pool
    (Slot(pool='spectator', key='192.0.2.7'), Slot(pool='tv', key='127.0.0.1'), 'spectator')
    >>> slots.refusal("192.0.2.8"), slots.refusal("203.0.113.9", session="s1")
    (HubFull('2 viewers are connected, the most this table serves'), None)
    """

    def __init__(self, spectators: int = 200, per_address: int = PER_ADDRESS,
                 tv_addresses: tuple[str, ...] = TV_ADDRESSES, tv_streams: int = TV_STREAMS,
                 control_streams: int = CONTROL_STREAMS, per_session: int = PER_SESSION) -> None:
        self.spectators, self.per_address = spectators, per_address
        self.tv_addresses = frozenset(tv_addresses)
        self.tv_streams, self.control_streams, self.per_session = tv_streams, control_streams, per_session
        self._held: Counter[Slot] = Counter()
        self._pools: Counter[str] = Counter()

    @property
    def capacity(self) -> int:
        """Streams held at most, every pool full (the server's threads are sized on it)."""
        return self.spectators + self.tv_streams * len(self.tv_addresses) + self.control_streams

    def counts(self) -> dict[str, int]:
        """Streams held now, per pool."""
        return {pool: self._pools[pool] for pool in (SPECTATOR, TV, CONTROL)}

    def _choose(self, address: str, session: str) -> Slot | HubFull:
        if address in self.tv_addresses and self._held[Slot(TV, address)] < self.tv_streams:
            return Slot(TV, address)
        if session and self._pools[CONTROL] < self.control_streams \
                and self._held[Slot(CONTROL, session)] < self.per_session:
            return Slot(CONTROL, session)
        if self._pools[SPECTATOR] >= self.spectators:
            return HubFull(f"{self.spectators} viewers are connected, the most this table serves")
        slot = Slot(SPECTATOR, address)
        if self._held[slot] >= self.per_address:
            return TooManyStreams(f"{self.per_address} streams are open from {address or 'this address'}, the most "
                                  "one device may hold: close a tab of this table's page")
        return slot

    def refusal(self, address: str, session: str = "") -> HubFull | None:
        """What :meth:`take` would raise now for a stream from ``address`` (for the logged-in
        ``session``, if any), or ``None`` when it would give a slot."""
        chosen = self._choose(address, session)
        return chosen if isinstance(chosen, HubFull) else None

    def take(self, address: str, session: str = "") -> Slot:
        """A slot for a stream from ``address`` (a normalised client address,
        :func:`~arena_table.webui.address.client_address`), logged in as ``session`` (a session id)
        or not (``""``).

        Raises:
            TooManyStreams: ``address`` holds ``per_address`` spectator streams.
            HubFull: the spectators' pool is full (and the TV's and control slots do not apply).
        """
        chosen = self._choose(address, session)
        if isinstance(chosen, HubFull):
            raise chosen
        self._held[chosen] += 1
        self._pools[chosen.pool] += 1
        return chosen

    def give_back(self, slot: Slot) -> None:
        """Free a slot :meth:`take` gave (once per stream)."""
        self._pools[slot.pool] -= 1
        self._held[slot] -= 1
        if self._held[slot] <= 0:
            del self._held[slot]
