"""What a token reader reports: tag changes and the link's status (``reader.py``, ``pn532_uart.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class TagChange:
    """A tag arrived on (``placed``) or left a pad, as the host learnt it."""

    pad: int
    uid: str
    """Canonical UID (upper-case hex, two digits a byte)."""
    placed: bool
    snapshot: bool = False
    """True when learnt from a presence snapshot after a (re)connect, not from a live line."""
    at: float = 0.0
    """Wall-clock time the line was read, seconds since the epoch (the injected clock)."""
    received: float = 0.0
    """``time.monotonic()`` when the line was decoded (latency measurements)."""


@dataclass(frozen=True)
class LinkStatus:
    """What the dashboard shows about the reader."""

    state: str
    """``searching``, ``handshaking``, ``up``, ``stale``, ``down`` or ``closed``."""
    port: str = ""
    detail: str = ""
    firmware: str = ""
    backend: str = ""
    boot: str = ""
    readers: Mapping[int, str] = field(default_factory=dict)
    """Pad -> ``ok:<chip>`` or ``fail:<why>`` (from READER_OK / READER_FAIL)."""
    counters: Mapping[str, int] = field(default_factory=dict)
    """``lines``, ``garbage_lines``, ``noise_bytes``, ``duplicates``, ``gaps``, ``errors``, ``reconnects``."""
    last_bad_line: Mapping[str, Any] | None = None
    """The last line counted in ``garbage_lines``: ``reason`` (why it was refused), ``line`` (its first
    60 characters) and ``at`` (wall-clock seconds since the epoch); None while there was none."""

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "port": self.port, "detail": self.detail, "firmware": self.firmware,
                "backend": self.backend, "boot": self.boot,
                "readers": {str(k): v for k, v in sorted(self.readers.items())}, "counters": dict(self.counters),
                "last_bad_line": dict(self.last_bad_line) if self.last_bad_line else None}
