"""The token reader's refused serial lines: counted, the last reason kept, logged without flooding.

A noisy cable can garble many lines a second. :class:`BadLines` logs the first
:data:`GARBAGE_LOGGED` one by one, then once that further ones are only counted, then a summary
(how many, the last reason) at most every ``summary_every`` seconds; the last line's reason is
always kept for the dashboard (``LinkStatus.last_bad_line``), and the last few since the previous
snapshot name what a discarded snapshot lost (``firmware/PROTOCOL.md``, host rules).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, MutableMapping

log = logging.getLogger("arena_table.hardware.reader")  # the reader's own log lines, as before

GARBAGE_LOGGED = 5
"""Bad lines logged one by one; later ones are counted, and summarised at most every ``summary_every`` s."""


class BadLines:
    """Counts refused lines in ``counters["garbage_lines"]`` (the reader's counters, shown on the status).

    Args:
        counters: the reader's counters; ``"garbage_lines"`` is incremented here.
        clock: wall clock stamping :attr:`last` (seconds since the epoch).
        summary_every: seconds between summaries once lines are no longer logged one by one.
    """

    def __init__(self, counters: MutableMapping[str, int], clock: Callable[[], float], summary_every: float = 60.0):
        self.counters = counters
        self.clock = clock
        self.summary_every = summary_every
        self.last: dict[str, Any] | None = None
        """The last refused line: ``reason``, ``line`` (its first 60 characters) and ``at``; None before any."""
        self.recent: list[str] = []
        """Why each bad line since the last banner or ``SNAPSHOT`` line was refused (the last three)."""
        self._unlogged = 0
        """Bad lines counted but not logged since the last summary (or the suppression notice)."""
        self._summarised = 0.0
        """``time.monotonic()`` of the last summary (or of the suppression notice)."""

    def note(self, raw: bytes, why: str) -> None:
        """Count a refused line, keep its reason, log it unless that would flood the log."""
        n = self.counters["garbage_lines"] = self.counters["garbage_lines"] + 1
        self.last = {"reason": why, "line": raw[:60].decode("ascii", "backslashreplace"), "at": self.clock()}
        self.recent = [*self.recent[-2:], why]
        if n <= GARBAGE_LOGGED:
            log.warning("token reader: ignored line #%d %r: %s", n, raw[:60], why)
        elif n == GARBAGE_LOGGED + 1:
            log.warning("token reader: ignored line #%d %r: %s; further bad lines are counted, not logged "
                        "(%d so far; a summary at most every %g s); see garbage_lines and last_bad_line "
                        "in /api/status", n, raw[:60], why, n, self.summary_every)
            self._unlogged, self._summarised = 0, time.monotonic()
        else:
            self._unlogged += 1
            self.summary(time.monotonic())

    def summary(self, now: float, force: bool = False) -> None:
        """Log how many bad lines went unlogged, if any and the last summary is old enough (or ``force``)."""
        if not self._unlogged or (not force and now - self._summarised < self.summary_every):
            return
        last = self.last or {}
        log.warning("token reader: %d bad line(s) in the last %.0f s (%d in all), last: %s (%r)",
                    self._unlogged, now - self._summarised, self.counters["garbage_lines"],
                    last.get("reason", ""), last.get("line", ""))
        self._unlogged, self._summarised = 0, now

    def take_recent(self) -> list[str]:
        """:attr:`recent`, emptied (a banner or a ``SNAPSHOT`` line starts a new window)."""
        recent, self.recent = self.recent, []
        return recent
