"""Wrong PINs slow down the address that sends them, and only that address.

Each client address may send :data:`FREE_FAILURES` wrong PINs in a row; then it must wait before
each next try: :data:`FIRST_WAIT_S`, twice as long after each further wrong PIN, at most
:data:`MAX_WAIT_S` (17 wrong PINs reach it). A right PIN (or a one-time code) forgets the address's failures; so
does :data:`FORGET_AFTER_S` without one. There is no table-wide lock: a guesser on one address
never keeps a player on another from logging in (``docs/security.md`` has the figures for a
guesser with many addresses).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Callable

FREE_FAILURES = 5
"""Wrong PINs an address may send before it has to wait (a player mistyping a few times)."""
FIRST_WAIT_S = 1.0
"""The wait after the :data:`FREE_FAILURES`-th wrong PIN; each further one doubles it."""
MAX_WAIT_S = 3600.0
"""The longest wait: a guesser on one address tries about once an hour."""
FORGET_AFTER_S = 24 * 3600.0
"""An address with no wrong PIN for this long starts afresh."""
MAX_ADDRESSES = 10_000
"""Addresses remembered at once; beyond, the longest-quiet ones are forgotten (bounded memory)."""


def seconds(wait: float) -> int:
    """A wait in whole seconds, rounded up (``Retry-After``).

    >>> seconds(0.2), seconds(1.0), seconds(1.01)
    (1, 1, 2)
    """
    return max(1, math.ceil(wait))


class TooSoon(Exception):
    """The address must wait :attr:`retry_after` seconds before its next try (answered 429)."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"too many wrong PINs from this address: try again in {seconds(retry_after)} s")
        self.retry_after = retry_after


@dataclass
class _Record:
    failures: int = 0
    last: float = 0.0
    """When the last wrong PIN came (clock seconds)."""


class PinBackoff:
    """The wrong-PIN back-off per client address (thread-safe; one check at a time).

    >>> t = [0.0]
    >>> b = PinBackoff(clock=lambda: t[0])
    >>> [b.attempt("192.0.2.7", lambda: False) for _ in range(FREE_FAILURES)][-1], b.wait("192.0.2.7")
    (False, 1.0)
    >>> b.wait("192.0.2.8"), b.attempt("192.0.2.8", lambda: True)
    (0.0, True)
    """

    def __init__(self, free: int = FREE_FAILURES, first_wait: float = FIRST_WAIT_S, max_wait: float = MAX_WAIT_S,
                 forget_after: float = FORGET_AFTER_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.free, self.first_wait, self.max_wait, self.forget_after = free, first_wait, max_wait, forget_after
        self.clock = clock
        self._lock = threading.Lock()
        self._records: dict[str, _Record] = {}

    def _wait_unlocked(self, key: str, now: float) -> float:
        rec = self._records.get(key)
        if rec is None:
            return 0.0
        if now - rec.last >= self.forget_after:
            del self._records[key]
            return 0.0
        beyond = rec.failures - self.free
        if beyond < 0:
            return 0.0
        wait = min(self.max_wait, self.first_wait * 2 ** min(beyond, 62))
        return max(0.0, rec.last + wait - now)

    def wait(self, key: str) -> float:
        """Seconds ``key`` must wait before its next try; 0 when it may try now."""
        with self._lock:
            return self._wait_unlocked(key, self.clock())

    def left(self, key: str) -> int:
        """Tries ``key`` has before it has to wait."""
        with self._lock:
            rec = self._records.get(key)
            return max(0, self.free - (rec.failures if rec else 0))

    def attempt(self, key: str, check: Callable[[], bool], *, waits: bool = True) -> bool:
        """Run ``check()`` (is the PIN right?) for the address ``key``, if it may try now: a right
        one forgets the address's failures, a wrong one counts. The check and the count are one step,
        so parallel requests from one address cannot slip more tries in. ``waits=False`` (a one-time
        code, which nobody can guess) tries even an address that must wait, and counts a wrong one.

        Raises:
            TooSoon: ``key`` must wait first (``check`` was not called).
        """
        with self._lock:
            now = self.clock()
            wait = self._wait_unlocked(key, now)
            if wait > 0 and waits:
                raise TooSoon(wait)
            if check():
                self._records.pop(key, None)
                return True
            rec = self._records.setdefault(key, _Record())
            rec.failures += 1
            rec.last = now
            if len(self._records) > MAX_ADDRESSES:
                self._forget_some(now)
            return False

    def _forget_some(self, now: float) -> None:
        """Forget stale addresses, and if that is not enough the longest-quiet half."""
        for key in [k for k, r in self._records.items() if now - r.last >= self.forget_after]:
            del self._records[key]
        if len(self._records) > MAX_ADDRESSES:
            for key, _ in sorted(self._records.items(), key=lambda kv: kv[1].last)[:len(self._records) // 2]:
                del self._records[key]
