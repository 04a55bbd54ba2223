"""A PN532 wired straight to the Pi's UART, through Adafruit's ``PN532_UART``.

The alternative to the Pico: one reader pad, no firmware in between. The
Adafruit driver (``adafruit-circuitpython-pn532``, extra ``pn532``) sends the
HSU wake-up and ``SAMConfiguration`` when it is created (NXP UM0701-02, 6.3.2.3
and 7.2.10) and is given a pyserial port, which has the ``read``/``write``/
``in_waiting``/``reset_input_buffer`` it needs. :class:`Pn532TokenReader`
offers the same interface as :class:`~arena_table.hardware.reader.SerialTokenReader`
(``start``/``close``/``status``, ``on_tag``/``on_status`` callbacks), with the
firmware's debounce rule: a tag is removed after ``miss_limit`` empty polls.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from typing import Any, Callable, Mapping

from .errors import BadUid
from .reader import LinkStatus, TagChange
from .uid import canonical_uid

log = logging.getLogger(__name__)


def _adafruit_pn532(path: str) -> Any:
    """Open ``path`` with pyserial and hand it to ``adafruit_pn532.uart.PN532_UART``."""
    import serial

    try:
        from adafruit_pn532.uart import PN532_UART
    except ImportError as exc:
        raise RuntimeError("the PN532 backend needs adafruit-circuitpython-pn532: "
                           "pip install -e '.[pn532]'") from exc
    port = serial.Serial(path, baudrate=115200, timeout=0.1)
    try:
        return PN532_UART(port, debug=False)
    except Exception:
        port.close()
        raise


class Pn532TokenReader:
    """One PN532 pad (pad 0) polled on its own thread.

    Args:
        path: the UART, e.g. ``/dev/serial0``.
        on_tag, on_status: as for :class:`~arena_table.hardware.reader.SerialTokenReader`.
        open_pn532: ``path -> object`` with ``read_passive_target(timeout=...)`` and
            ``firmware_version``; the Adafruit driver by default, a double in tests.
        miss_limit: empty polls before a tag counts as removed.
        poll_timeout: seconds each ``read_passive_target`` waits for a card.
        retry: seconds between attempts to (re)open a failed reader.
        present: pad -> UID of the tags believed to lie on the pads at start (the event log's view
            after a service restart). A tag on pad 0 that is still there is not reported again, one
            gone is removed after ``miss_limit`` empty polls; tags on other pads (which one PN532
            does not have) are reported removed once the chip answers.

    Raises:
        BadUid: a UID in ``present`` is not a tag UID.
    """

    def __init__(self, path: str, on_tag: Callable[[TagChange], None],
                 on_status: Callable[[LinkStatus], None] | None = None, *,
                 open_pn532: Callable[[str], Any] = _adafruit_pn532, clock: Callable[[], float] = time.time,
                 miss_limit: int = 3, poll_timeout: float = 0.05, retry: float = 2.0,
                 present: Mapping[int, str] | None = None) -> None:
        self.path = path
        self.on_tag = on_tag
        self.on_status = on_status or (lambda status: None)
        self.open_pn532 = open_pn532
        self.clock = clock
        self.miss_limit, self.poll_timeout, self.retry = miss_limit, poll_timeout, retry
        given = {int(pad): canonical_uid(uid) for pad, uid in (present or {}).items()}
        self.present: dict[int, str] = {pad: uid for pad, uid in given.items() if pad == 0}
        self._elsewhere = {pad: uid for pad, uid in given.items() if pad != 0}
        """Tags given on pads this one-pad reader lacks: removed once the chip answers."""
        self._misses = 0
        self._status = LinkStatus("searching", port=path, backend="pn532")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def status(self) -> LinkStatus:
        return self._status

    def start(self) -> "Pn532TokenReader":
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pn532-reader", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._set_status(state="closed")

    def __enter__(self) -> "Pn532TokenReader":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                chip = self.open_pn532(self.path)
                ic, ver, rev, _support = chip.firmware_version
            except Exception as exc:  # the library raises RuntimeError/OSError/ValueError alike
                self._set_status(state="down", readers={0: f"fail:{exc}"}, detail=str(exc))
                self._stop.wait(self.retry)
                continue
            self._set_status(state="up", firmware=f"pn532-{ver}.{rev}", readers={0: f"ok:pn532-v{ver}.{rev}"},
                             detail="")
            for pad, uid in sorted(self._elsewhere.items()):
                self._emit(uid, False, pad)
            self._elsewhere.clear()
            try:
                while not self._stop.is_set():
                    self._poll(chip.read_passive_target(timeout=self.poll_timeout))
            except Exception as exc:
                log.warning("PN532 on %s failed: %s", self.path, exc)
                self._set_status(state="down", readers={0: f"fail:{exc}"}, detail=str(exc))
                self._stop.wait(self.retry)

    def _poll(self, raw: bytes | None) -> None:
        uid = None
        if raw:
            try:
                uid = canonical_uid(bytes(raw))
            except BadUid:
                log.debug("PN532: torn UID %r counts as a miss", raw)
        old = self.present.get(0)
        if uid is None:
            if old is not None:
                self._misses += 1
                if self._misses >= self.miss_limit:
                    self._misses = 0
                    del self.present[0]
                    self._emit(old, False)
            return
        self._misses = 0
        if uid != old:
            if old is not None:
                self._emit(old, False)
            self.present[0] = uid
            self._emit(uid, True)

    def _emit(self, uid: str, placed: bool, pad: int = 0) -> None:
        try:
            self.on_tag(TagChange(pad, uid, placed, at=self.clock(), received=time.monotonic()))
        except Exception:
            log.exception("PN532: on_tag failed")

    def _set_status(self, **changes: Any) -> None:
        self._status = replace(self._status, **changes)
        try:
            self.on_status(self._status)
        except Exception:
            log.exception("PN532: on_status failed")
