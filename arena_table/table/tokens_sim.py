"""The simulated token reader: the real firmware logic behind a pseudo-terminal.

``--tokens sim`` must exercise the same host driver as a real Pico, so the
simulation is the firmware itself: :func:`load_firmware` imports the pure
modules of ``firmware/`` (scanner, debounce, protocol, uid, sim) under CPython
and :class:`SimFirmware` runs ``scanner.Scanner`` over ``sim.SimReader`` pads,
writing its lines into the master side of ``os.openpty()``. The driver opens
the slave side (:attr:`SimFirmware.port`) like any serial port.

Run as a program (``python -m arena_table.table.tokens_sim``) it is the
firmware half of ``arena-table bench tokens`` (a separate process, so the
benchmark's CPU figure is the host's alone).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import select
import sys
import threading
import time
import tty
import types
from pathlib import Path
from typing import Callable

from arena_table.hardware.uid import canonical_uid

PACKAGE = "arena_table_firmware"
"""Name the firmware folder is imported under (its modules import each other relatively)."""
MODULES = ("protocol", "uid", "debounce", "scanner", "sim", "pn532", "mfrc522")


def firmware_dir() -> Path:
    """``$ARENA_TABLE_FIRMWARE`` or the repository's ``firmware/`` folder.

    Raises:
        FileNotFoundError: neither holds ``scanner.py``.
    """
    env = os.environ.get("ARENA_TABLE_FIRMWARE")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "firmware"
    if not (path / "scanner.py").is_file():
        raise FileNotFoundError(f"firmware not found in {path} (set ARENA_TABLE_FIRMWARE to the firmware folder)")
    return path


def load_firmware(directory: Path | None = None) -> types.SimpleNamespace:
    """The firmware's pure modules, imported under CPython, as attributes of a namespace.

    Raises:
        FileNotFoundError: see :func:`firmware_dir`.
    """
    directory = Path(directory) if directory else firmware_dir()
    pkg = sys.modules.get(PACKAGE)
    if pkg is None or list(pkg.__path__) != [str(directory)]:
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        pkg = types.ModuleType(PACKAGE, "token-reader firmware (MicroPython), imported for the simulator")
        pkg.__path__ = [str(directory)]  # type: ignore[attr-defined]
        sys.modules[PACKAGE] = pkg
    mods = {name: importlib.import_module(f"{PACKAGE}.{name}") for name in MODULES}
    return types.SimpleNamespace(**mods, golden=(directory / "golden_frames.txt").read_text(encoding="ascii"))


def ticks_ms() -> int:
    """Milliseconds on the monotonic clock, wrapping like MicroPython's ``time.ticks_ms``."""
    return int(time.monotonic() * 1000) % (1 << 30)


class SimFirmware:
    """The firmware's Scanner over simulated pads, talking through a pty.

    Args:
        pads: number of simulated reader pads.
        poll_ms: interval between polls (the Pico's main loop uses 20 ms); 0 polls only when
            :meth:`step` is called (tests driving a fake ``clock``).
        miss_limit: the firmware's debounce (empty polls before a removal).
        on_write: called with ``(line_bytes, monotonic_time)`` after each line is written
            (benchmarks measure latency from there).
        boot_id: the banner's boot id (random when not given).
        clock: the firmware's millisecond clock (default: monotonic, wrapping like ``ticks_ms``).

    ``place`` polls at once (on the caller's thread), so a placement is written within a
    fraction of a millisecond; a removal is seen by the next polls (debounce).
    """

    def __init__(self, pads: int = 4, poll_ms: int = 20, miss_limit: int = 3,
                 on_write: Callable[[bytes, float], None] | None = None, boot_id: str | None = None,
                 firmware: types.SimpleNamespace | None = None, clock: Callable[[], int] = None) -> None:
        self.fw = firmware or load_firmware()
        self.poll_ms = poll_ms
        self.on_write = on_write
        self.readers = [self.fw.sim.SimReader(f"sim{i}") for i in range(pads)]
        self.scanner = self.fw.scanner.Scanner(self.readers, self._write, clock or ticks_ms, backend="sim",
                                               boot_id=boot_id or os.urandom(2).hex().upper(),
                                               miss_limit=miss_limit)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line discipline: bytes pass as on a USB CDC port
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        """Path of the slave side; open it as the serial port."""
        self.dropped = 0
        """Lines (or their tails) dropped because nobody read the port."""
        self._lock = threading.RLock()
        self._wake_r, self._wake_w = os.pipe()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.silent_until = 0.0
        """``time.monotonic()`` before which the firmware neither answers nor writes (boot delay)."""

    # -- the table's sim controls ----------------------------------------------------------
    def place(self, pad: int, uid: str) -> None:
        """Lay the tag ``uid`` (any spelling :func:`canonical_uid` reads) on ``pad``.

        Raises:
            BadUid: ``uid`` is no tag UID.
            IndexError: no such pad.
        """
        uid = canonical_uid(uid)
        with self._lock:
            self.readers[pad].place(uid)
            if self.poll_ms and self._thread is not None:
                self.scanner.step()  # poll now, on the caller's thread: the line is out at once

    def remove(self, pad: int, uid: str | None = None) -> None:
        """Take the tag off ``pad`` (only if it is ``uid``, when given)."""
        with self._lock:
            reader = self.readers[pad]
            if uid is None or (reader.uid is not None and reader.uid.hex().upper() == canonical_uid(uid)):
                reader.remove()

    def step(self, n: int = 1, advance: Callable[[], None] | None = None) -> None:
        """Poll every pad ``n`` times now, calling ``advance()`` (a fake clock's tick) before each."""
        with self._lock:
            for _ in range(n):
                if advance is not None:
                    advance()
                self.scanner.step()

    def tags(self) -> dict[int, str]:
        """Pad -> UID of the tags lying on the simulated pads now."""
        with self._lock:
            return {i: r.uid.hex().upper() for i, r in enumerate(self.readers) if r.uid is not None}

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self, boot: bool = True) -> "SimFirmware":
        if self._thread is None:
            if boot:
                with self._lock:
                    self.scanner.boot()
            self._thread = threading.Thread(target=self._run, name="sim-firmware", daemon=True)
            self._thread.start()
        return self

    def unplug(self) -> None:
        """Stop and close both pty ends: the host sees the device vanish."""
        self.close()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            os.write(self._wake_w, b"!")
            self._thread.join(timeout=5)
            self._thread = None
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = self._wake_r = self._wake_w = -1

    def __enter__(self) -> "SimFirmware":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write_raw(self, data: bytes) -> None:
        """Write bytes as they are (tests: noise, torn lines)."""
        os.write(self._master, data)

    # -- internals ---------------------------------------------------------------------------------------
    def _write(self, line: str) -> None:
        data = line.encode("ascii")
        try:
            n = os.write(self._master, data)
        except (BlockingIOError, OSError):
            n = 0
        if n < len(data):
            self.dropped += 1
        elif self.on_write is not None:
            self.on_write(data, time.monotonic())

    def _run(self) -> None:
        period = self.poll_ms / 1000
        next_poll = time.monotonic()
        while not self._stop.is_set():
            timeout = max(0.0, next_poll - time.monotonic())
            try:
                ready, _, _ = select.select([self._master, self._wake_r], [], [], timeout)
            except (OSError, ValueError):
                return
            if self._stop.is_set():
                return
            woken = self._wake_r in ready
            if woken:
                os.read(self._wake_r, 512)
            data = b""
            if self._master in ready:
                try:
                    data = os.read(self._master, 4096)
                except (BlockingIOError, OSError):
                    data = b""
                    time.sleep(max(period, 0.02))  # nobody holds the slave (EIO): wait for the host to reopen
            if time.monotonic() < self.silent_until:
                next_poll = time.monotonic() + max(period, 0.02)
                continue
            with self._lock:
                if data:
                    self.scanner.receive(data)
                if not period:
                    next_poll = time.monotonic() + 0.05
                elif woken or time.monotonic() >= next_poll:
                    self.scanner.step()
                    next_poll = time.monotonic() + period


def _bench_main(argv: list[str] | None = None) -> int:
    """Firmware half of ``arena-table bench tokens``.

    Prints ``{"port": ...}``, waits for the host's handshake, runs the schedule, prints
    ``{"changes", "dropped", "lines": [[monotonic_time, line], ...]}`` and exits when its
    standard input closes.
    """
    ap = argparse.ArgumentParser(description=_bench_main.__doc__)
    ap.add_argument("--pads", type=int, default=4)
    ap.add_argument("--rate", type=float, default=20.0, help="tag changes per second per pad")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--poll-ms", type=int, default=10)
    args = ap.parse_args(argv)
    written: list[tuple[float, str]] = []
    sim = SimFirmware(pads=args.pads, poll_ms=args.poll_ms,
                      on_write=lambda data, t: written.append((t, data.decode().rstrip())))
    print(json.dumps({"port": sim.port}), flush=True)
    sim.start()
    # Wait for the host's handshake (its HELLO answered: a second snapshot after the boot's own).
    deadline = time.monotonic() + 20
    while sum(" SNAPSHOT " in line for _, line in list(written)) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    period = 1.0 / args.rate
    # Each pad changes every `period`; the pads are staggered by period/pads (hands do not lay
    # four tokens in the same millisecond), so the host sees pads * rate changes a second.
    schedule = sorted((k * period + pad * period / args.pads, pad, k)
                      for pad in range(args.pads) for k in range(int(args.seconds * args.rate)))
    start = time.monotonic()
    changes = 0
    for offset, pad, k in schedule:
        delay = start + offset - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if k % 2 == 0:
            sim.place(pad, "04%02X%010X" % (pad, k // 2 + 1))  # a new 7-byte UID for every placement
        else:
            sim.remove(pad)
        changes += 1
    time.sleep(0.5)  # let the last removals pass the debounce
    print(json.dumps({"changes": changes, "dropped": sim.dropped,
                      "lines": [[t, line] for t, line in list(written)]}), flush=True)
    sys.stdin.read()  # the host closes our stdin once it has closed the port
    sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(_bench_main())
