"""Shared helpers of the token-reader tests over pty pairs (``test_reader_pty.py``,
``test_reader_refusals.py``): a fake firmware clock, pyserial's port info, a callback recorder."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from arena_table.hardware.protocol import encode
from arena_table.hardware.reader import SerialTokenReader, TagChange
from arena_table.table.tokens_sim import SimFirmware

PICO_VID, PICO_PID, SERIAL_NO = 0x2E8A, 0x0005, "E6614C311B4A8E2C"
A, B, C, D, E = "04A1B2C3", "04A1B2C3D4E5F6", "0A0B0C0D", "04112233445566", "1A2B3C4D"


class FakeClock:
    """The firmware's ticks_ms, advanced 20 ms (one poll period) per tick."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now

    def tick(self) -> None:
        self.now = (self.now + 20) % (1 << 30)


@dataclass
class PortInfo:
    """What pyserial's ``list_ports.comports()`` reports about a port."""

    device: str
    vid: int | None = PICO_VID
    pid: int | None = PICO_PID
    serial_number: str | None = SERIAL_NO


class Recorder:
    """Collects the driver's callbacks; ``wait`` polls a predicate with a deadline."""

    def __init__(self) -> None:
        self.changes: list[TagChange] = []
        self.states: list[str] = []
        self.status = None
        self._cv = threading.Condition()

    def on_tag(self, change: TagChange) -> None:
        with self._cv:
            self.changes.append(change)
            self._cv.notify_all()

    def on_status(self, status) -> None:
        with self._cv:
            self.status = status
            if not self.states or self.states[-1] != status.state:
                self.states.append(status.state)
            self._cv.notify_all()

    def wait(self, pred, timeout: float = 5.0, what: str = "") -> None:
        with self._cv:
            assert self._cv.wait_for(pred, timeout), f"timed out waiting for {what or pred}: {self.summary()}"

    def wait_up(self, timeout: float = 5.0) -> None:
        self.wait(lambda: self.status is not None and self.status.state == "up", timeout, "link up")

    def summary(self) -> str:
        return f"states={self.states} changes={self.seq()} status={self.status}"

    def seq(self) -> list[tuple]:
        return [(c.pad, c.uid, "placed" if c.placed else "removed", "snapshot" if c.snapshot else "live")
                for c in self.changes]


def reader_for(port: str, rec: Recorder, ports=None, **kw) -> SerialTokenReader:
    kw.setdefault("settle", 0.05)
    kw.setdefault("hello_every", 0.2)
    return SerialTokenReader(port, rec.on_tag, rec.on_status, list_ports=ports or (lambda: [PortInfo(port)]),
                             backoff=(0.05, 0.2), **kw)


def inject(sim: SimFirmware, verb: str, **fields) -> bytes:
    """A line numbered as the firmware's next, not written (for tearing it up by hand)."""
    with sim._lock:
        sim.scanner.seq += 1
        return encode(sim.scanner.seq, verb, fields)
