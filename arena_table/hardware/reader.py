"""The token reader's host driver: a pyserial reader thread speaking firmware/PROTOCOL.md.

:class:`SerialTokenReader` finds the port (a path, or ``usb:VID:PID[:SERIAL]``),
opens it, waits out the reset an open may cause, shakes hands (``HELLO`` until
the banner and presence snapshot arrive), then turns ``PLACED``/``REMOVED``
lines into :class:`TagChange` callbacks. It keeps its own byte buffer (a line
split across reads is joined, never parsed half), counts and logs garbage and
boot noise instead of failing on it, drops lines it has already seen (sequence
numbers), asks for a snapshot after a gap, and after an unplug reconnects with
back-off, finding the device again by USB VID:PID and serial number when its
tty name changed. Link state and reader health go to ``on_status``.

The presence it starts from (``present``) is what the caller already knows, e.g.
the tags the event log has lying on the pads: the first snapshot is reconciled
with it, so a tag resting through a service restart is not reported again and
one taken away meanwhile is reported removed (PROTOCOL.md, host rule 2). A
snapshot whose ``tags=n`` does not match the ``PRESENT`` lines received is
discarded and asked for again, the warning naming the bad lines meanwhile; a
``PRESENT`` line that arrived whole but is refused (bad UID, unknown pad) counts
as received and the snapshot is taken without that tag (see
:meth:`SerialTokenReader._snapshot`). A banner of another protocol version drops
the link until a valid handshake (host rule 5). A line naming a pad the banner's
``pads=n`` does not cover (pads are 0..n-1) is refused like a damaged one:
counted, logged, never recorded (host rule 6).

Callbacks run on the reader thread and must not block; an exception in one is
logged and never stops the reader.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from typing import Any, Callable, Mapping

import serial
import serial.tools.list_ports

from .bad_lines import BadLines
from .link import LinkStatus, TagChange
from .errors import BadUid, ProtocolError, ReaderDisconnected, ReaderNotFound
from .ports import PortLister, PortLocator
from .protocol import MAX_LINE, PROTOCOL_VERSION, SEQ_MAX, Frame, encode, parse_line, seq_distance
from .uid import canonical_uid

log = logging.getLogger(__name__)

DEDUP_WINDOW = 1024
"""A line up to this many sequence numbers behind the last one is a repeat, not a jump ahead."""


def _open_serial(path: str) -> serial.Serial:
    return serial.Serial(path, baudrate=115200, timeout=0.1, write_timeout=1.0)


class SerialTokenReader:
    """Reads the token-reader firmware over USB serial on its own thread.

    Args:
        spec: port path or ``usb:VID:PID[:SERIAL]`` (see :class:`PortLocator`).
        on_tag: called with each :class:`TagChange`.
        on_status: called with a :class:`LinkStatus` whenever state or reader health changes.
        list_ports: port lister for finding the device again (injectable for tests).
        open_port: ``path -> serial.Serial``-like (read/write/in_waiting/close).
        clock: wall clock that stamps ``TagChange.at``.
        settle: seconds to wait after opening before the first ``HELLO`` (boards that reset on open).
        hello_every: seconds between ``HELLO`` retries until the handshake completes.
        handshake_timeout: seconds without a completed handshake before the port is reopened.
        stale_after, dead_after: seconds of silence (heartbeats come every second) before the link
            is shown ``stale`` (and ``STATUS`` is asked) and before the port is reopened.
        backoff: first and longest wait between reconnect attempts, seconds (doubling).
        present: pad -> UID of the tags believed to lie on the pads at start (the event log's
            view after a service restart); the first snapshot is reconciled with it.
        garbage_summary_every: the first ``GARBAGE_LOGGED`` bad lines are logged one by one, then a
            notice that further ones are only counted; after it, a summary (how many, the last reason)
            at most this often, seconds. The last one's reason is always in ``status.last_bad_line``.

    Raises:
        BadUid: a UID in ``present`` is not a tag UID.
    """

    def __init__(self, spec: str, on_tag: Callable[[TagChange], None],
                 on_status: Callable[[LinkStatus], None] | None = None, *,
                 list_ports: PortLister = serial.tools.list_ports.comports,
                 open_port: Callable[[str], Any] = _open_serial, clock: Callable[[], float] = time.time,
                 settle: float = 0.2, hello_every: float = 0.5, handshake_timeout: float = 5.0,
                 stale_after: float = 3.0, dead_after: float = 6.0, backoff: tuple[float, float] = (0.1, 2.0),
                 present: Mapping[int, str] | None = None, garbage_summary_every: float = 60.0):
        self.locator = PortLocator(spec, list_ports)
        self.on_tag = on_tag
        self.on_status = on_status or (lambda status: None)
        self.open_port = open_port
        self.clock = clock
        self.settle, self.hello_every, self.handshake_timeout = settle, hello_every, handshake_timeout
        self.stale_after, self.dead_after, self.backoff = stale_after, dead_after, backoff
        self.present: dict[int, str] = {int(pad): canonical_uid(uid) for pad, uid in (present or {}).items()}
        """Pad -> UID the host believes is resting there (kept across reconnects and given at start)."""
        self.counters = dict.fromkeys(("lines", "garbage_lines", "noise_bytes", "duplicates", "gaps", "errors",
                                       "reconnects", "ignored", "bad_snapshots"), 0)
        self._bad = BadLines(self.counters, clock, garbage_summary_every)
        self._status = LinkStatus("searching", port=spec)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ser: Any = None
        self._write_lock = threading.Lock()
        self._host_seq = 0
        self._last_seq: int | None = None
        self._collecting: dict[int, str] | None = None
        self._present_lines = 0
        """``PRESENT`` lines received for the snapshot being collected (checked against ``tags=n``)."""
        self._present_refused: list[str] = []
        """Why each whole (checksum and seq good) ``PRESENT`` line of that snapshot was refused."""
        self._snapshot_wanted: float | None = None
        """``time.monotonic()`` since when a complete snapshot is wanted (after a gap, a reboot, a bad one)."""
        self._snapshot_asked: float | None = None
        """``time.monotonic()`` of the last ``SNAPSHOT`` request (requests are spaced ``hello_every``)."""
        self._handshake_started = 0.0
        self._handshaken = False
        self._banner = False
        self._pads: int | None = None
        """The banner's ``pads=n``: pads are numbered 0..n-1; a line naming another is refused."""
        self._last_rx = 0.0

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> "SerialTokenReader":
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="token-reader", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        ser = self._ser
        if ser is not None:
            try:
                ser.cancel_read()
            except Exception:  # not every port object can cancel; the read timeout ends the wait
                pass
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._bad.summary(time.monotonic(), force=True)
        self._set_status(state="closed", detail="")

    def __enter__(self) -> "SerialTokenReader":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SerialTokenReader {self.locator.describe()} {self._status.state} present={self.present}>"

    @property
    def status(self) -> LinkStatus:
        return self._status

    def request(self, verb: str) -> bool:
        """Send a command (``STATUS``, ``PADS``, ``SNAPSHOT``, ``HELLO``); False when not connected."""
        ser = self._ser
        if ser is None:
            return False
        with self._write_lock:
            self._host_seq = 1 if self._host_seq >= SEQ_MAX else self._host_seq + 1
            try:
                ser.write(encode(self._host_seq, verb))
            except (serial.SerialException, OSError) as exc:
                log.debug("writing %s failed: %s", verb, exc)
                return False
        return True

    # -- the thread ----------------------------------------------------------------------------
    def _run(self) -> None:
        delay = self.backoff[0]
        first = True
        while not self._stop.is_set():
            try:
                path = self.locator.find()
            except ReaderNotFound as exc:
                self._set_status(state="searching", detail=str(exc))
            else:
                if not first:
                    self.counters["reconnects"] += 1
                first = False
                try:
                    if self._session(path):
                        delay = self.backoff[0]
                except Exception as exc:  # a bug must not stop the reader: report, reopen
                    log.exception("token reader on %s failed unexpectedly", path)
                    self._set_status(state="down", detail=f"internal error: {exc}")
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, self.backoff[1])

    def _session(self, path: str) -> bool:
        """One open port, until it fails; True when the handshake had completed."""
        self._set_status(state="handshaking", port=path, detail="opening")
        try:
            ser = self.open_port(path)
        except (serial.SerialException, OSError) as exc:
            self._set_status(state="down", port=path, detail=f"cannot open: {exc}")
            return False
        self.locator.learn(path)
        self._ser = ser
        self._set_status(state="handshaking", port=path, detail="waiting for the banner")
        self._handshaken = False
        self._banner = False
        self._collecting, self._present_lines, self._present_refused = None, 0, []
        self._bad.take_recent()
        self._snapshot_wanted = self._snapshot_asked = None
        buf = bytearray()
        opened = self._handshake_started = time.monotonic()
        next_hello = opened + self.settle
        try:
            while not self._stop.is_set():
                data = ser.read(ser.in_waiting or 1)
                if len(data) == 1 and ser.in_waiting:  # woke on a line's first byte: take the rest too
                    data += ser.read(ser.in_waiting)
                now = time.monotonic()
                if data:
                    buf += data
                    self._drain(buf)
                self._bad.summary(now)
                if not self._handshaken:
                    if now >= next_hello:
                        self.request("HELLO")
                        next_hello = now + self.hello_every
                    if now - self._handshake_started > self.handshake_timeout:
                        raise ReaderDisconnected(f"no banner and snapshot from {path} in {self.handshake_timeout:g} s")
                else:
                    if self._snapshot_wanted is not None:
                        if now - self._snapshot_wanted > self.handshake_timeout:
                            raise ReaderDisconnected(f"no complete snapshot from {path} "
                                                     f"in {self.handshake_timeout:g} s")
                        self._ask_snapshot(now)
                    quiet = now - self._last_rx
                    if quiet > self.dead_after:
                        raise ReaderDisconnected(f"{path} silent for {quiet:.1f} s")
                    if quiet > self.stale_after and self._status.state == "up":
                        self._set_status(state="stale", detail=f"silent for {quiet:.1f} s")
                        self.request("STATUS")
            return self._handshaken
        except (serial.SerialException, OSError) as exc:  # includes ReaderDisconnected
            log.warning("token reader on %s lost: %s", path, exc)
            self._set_status(state="down", detail=str(exc))
            return self._handshaken
        finally:
            self._ser = None
            try:
                ser.close()
            except Exception:
                log.debug("closing %s failed", path, exc_info=True)

    # -- bytes -> lines -> frames ------------------------------------------------------------------
    def _drain(self, buf: bytearray) -> None:
        while True:
            nl = buf.find(b"\n")
            if nl < 0:
                if len(buf) > 2 * MAX_LINE:  # no newline in sight: noise, not a line
                    self._garbage(bytes(buf[:40]), f"{len(buf)} bytes without a newline")
                    self.counters["noise_bytes"] += len(buf)
                    del buf[:]
                return
            raw = bytes(buf[:nl])
            del buf[:nl + 1]
            self._line(raw)

    def _line(self, raw: bytes) -> None:
        start = 0
        while start < len(raw) and not 0x20 <= raw[start] < 0x7F:
            start += 1
        if start:
            self.counters["noise_bytes"] += start
        raw = raw[start:].rstrip(b"\r")
        if not raw:
            return
        try:
            frame = parse_line(raw)
        except ProtocolError as exc:
            self._garbage(raw, str(exc))
            return
        self.counters["lines"] += 1
        self._last_rx = time.monotonic()
        try:
            self._frame(frame)
        except (ProtocolError, BadUid) as exc:
            self._garbage(raw, str(exc))

    def _garbage(self, raw: bytes, why: str) -> None:
        """Count, keep and (without flooding) log a refused line (:class:`~.bad_lines.BadLines`)."""
        self._bad.note(raw, why)

    def _frame(self, f: Frame) -> None:
        if f.verb == "HELLO":
            boot = f.fields.get("boot", "")
            if boot != self._status.boot:
                self._last_seq = None  # a reboot restarts the sequence
            proto = f.int("proto")
            if proto != PROTOCOL_VERSION:
                # Refused (host rule 5), also when the link was up: a device that speaks another
                # protocol now is not heard until a valid banner and snapshot (a new handshake).
                why = f"firmware speaks protocol {proto}, this host {PROTOCOL_VERSION}: update one of them"
                if self._handshaken:
                    self._handshake_started = time.monotonic()  # a full handshake time from now
                    log.warning("token reader: %s; link dropped", why)
                self._handshaken = self._banner = False
                self._pads = None
                self._collecting = None
                self._snapshot_wanted = self._snapshot_asked = None
                self._set_status(state="handshaking", detail=why, firmware="", backend="", boot="")
                raise ProtocolError(why)
        if self._last_seq is not None:
            d = seq_distance(f.seq, self._last_seq)
            if d == 0 or d > SEQ_MAX - DEDUP_WINDOW:
                self.counters["duplicates"] += 1
                return
            if d > 1:
                self.counters["gaps"] += 1
                log.warning("token reader: %d line(s) lost before seq %d; %s", d - 1, f.seq, self._want_snapshot())
        self._last_seq = f.seq
        verb = f.verb
        if not self._banner and verb != "HELLO":
            self.counters["ignored"] += 1  # before this session's banner: the snapshot after it covers it
            return
        if verb == "HELLO":
            pads = f.fields.get("pads", "")
            self._pads = int(pads) if pads.isdigit() else None  # no pads= (not protocol 1): no check
            self._banner = True
            self._collecting, self._present_lines, self._present_refused = {}, 0, []
            self._bad.take_recent()
            self._set_status(firmware=f.text("fw"), backend=f.fields.get("backend", ""),
                             boot=f.fields.get("boot", ""))
            if self._handshaken:  # unasked banner: the device rebooted under us
                self._want_snapshot()
        elif verb in ("READER_OK", "READER_FAIL"):
            pad = self._pad(f)
            health = f"ok:{f.fields.get('chip', '')}" if verb == "READER_OK" else f"fail:{f.fields.get('why', '')}"
            if self._status.readers.get(pad) != health:
                self._set_status(readers={**self._status.readers, pad: health})
        elif verb == "PRESENT":
            if self._collecting is None:
                self._collecting, self._present_lines, self._present_refused = {}, 0, []
            # The line arrived whole (checksum, seq): it counts towards tags=n even when refused below,
            # or a tag the host cannot take would make every snapshot incomplete, forever.
            self._present_lines += 1
            try:
                self._collecting[self._pad(f)] = canonical_uid(f.text("uid"))
            except (ProtocolError, BadUid) as exc:
                self._present_refused.append(f"PRESENT pad={f.fields.get('pad', '?')} "
                                             f"uid={f.fields.get('uid', '?')} (seq {f.seq}): {exc}")
                raise
        elif verb == "SNAPSHOT":
            self._snapshot(f)
        elif verb == "HB":
            # Publish the fault counters once a second if they moved (not the line count).
            faults = {k: v for k, v in self.counters.items() if k != "lines"}
            if faults != {k: v for k, v in self._status.counters.items() if k != "lines"}:
                self._set_status()
        elif verb == "ERR":
            self.counters["errors"] += 1
            log.warning("token reader reports an error: %s", " ".join(f"{k}={v}" for k, v in f.fields.items()))
        elif not self._handshaken:
            self.counters["ignored"] += 1  # the snapshot that completes the handshake covers it
        elif verb in ("PLACED", "REMOVED"):
            self._transition(self._pad(f), canonical_uid(f.text("uid")), verb == "PLACED")
        if self._status.state == "stale":
            self._set_status(state="up", detail="")

    def _pad(self, f: Frame) -> int:
        """Field ``pad`` of ``f``, one of the pads the banner announced (``pads=n``: 0..n-1).

        Raises:
            ProtocolError: not a number, or a pad the reader does not have (the line is refused:
                counted and logged as a bad line, never recorded).
        """
        pad = f.int("pad")
        if self._pads is not None and pad >= self._pads:
            raise ProtocolError(f"{f.verb} line {f.seq}: pad {pad}, but the banner said pads={self._pads} "
                                f"({f'pads 0..{self._pads - 1}' if self._pads else 'no pads'})")
        return pad

    # -- snapshots --------------------------------------------------------------------------------
    def _snapshot(self, f: Frame) -> None:
        """A ``SNAPSHOT tags=n`` line ends the snapshot: take it if whole, else discard it and ask again.

        Whole means ``n`` ``PRESENT`` lines arrived since the banner or the previous snapshot. A line
        lost on the way (checksum, a seq gap) makes it incomplete: discarded and asked for again
        (PROTOCOL.md, host rule 2), the warning naming the bad lines that came meanwhile. A ``PRESENT``
        line that arrived whole but was refused (a UID that is no tag UID, a pad the banner did not
        announce) counts as arrived: the device would send it again in every snapshot, so asking
        again would loop (reconnecting every ``handshake_timeout`` s, forever). Such a snapshot is
        taken *without that tag*, with a warning naming why: the refused tag is never recorded (as
        its live ``PLACED`` line would be refused), and a tag the host had on that pad is recorded
        removed, since the device reports something else lying there. Recorded events stay those
        of tags the host can name.
        """
        collected, lines, refused = self._collecting or {}, self._present_lines, self._present_refused
        bad = self._bad.take_recent()
        self._collecting, self._present_lines, self._present_refused = None, 0, []
        tags = f.int("tags")
        if tags != lines:  # a PRESENT line was lost (or we came in halfway): not the whole picture
            self.counters["bad_snapshots"] += 1
            meanwhile = f"; bad line(s) since the last snapshot: {'; '.join(bad)}" if bad else ""
            log.warning("token reader: snapshot at seq %d says tags=%d but %d PRESENT line(s) arrived%s; "
                        "discarded, %s", f.seq, tags, lines, meanwhile, self._want_snapshot())
            return
        if refused:
            log.warning("token reader: snapshot at seq %d taken without %d refused PRESENT line(s), their "
                        "tags not recorded: %s", f.seq, len(refused), "; ".join(refused))
        self._snapshot_wanted = None
        self._reconcile(collected)
        if not self._handshaken:
            self._handshaken = True
            self._set_status(state="up", detail="")

    def _want_snapshot(self) -> str:
        """Note that a complete snapshot is needed and ask for one if allowed now; says what was done.

        During the handshake no ``SNAPSHOT`` is sent: the ``HELLO`` retries (host rule 1) bring one.
        """
        if not self._handshaken:
            return "no SNAPSHOT sent before the handshake completes: the HELLO retries bring a snapshot"
        now = time.monotonic()
        if self._snapshot_wanted is None:
            self._snapshot_wanted = now
        return self._ask_snapshot(now)

    def _ask_snapshot(self, now: float) -> str:
        """Send ``SNAPSHOT`` unless one went out less than ``hello_every`` ago; says what was done.

        Like ``HELLO`` during the handshake, the request is repeated at that pace (by the session
        loop) until a complete snapshot arrives; none within ``handshake_timeout``: reopen.
        """
        if self._snapshot_asked is not None and now - self._snapshot_asked < self.hello_every:
            return f"a snapshot was asked for {now - self._snapshot_asked:.2f} s ago; asking again if none comes"
        if not self.request("SNAPSHOT"):
            return "could not ask for a snapshot (port not writable); retrying"
        self._snapshot_asked = now
        return "asked for a snapshot"

    # -- presence -----------------------------------------------------------------------------------
    def _transition(self, pad: int, uid: str, placed: bool) -> None:
        old = self.present.get(pad)
        if placed:
            if old == uid:
                return
            if old is not None:
                self._emit(pad, old, False, False)
            self.present[pad] = uid
            self._emit(pad, uid, True, False)
        elif old == uid:
            del self.present[pad]
            self._emit(pad, uid, False, False)

    def _reconcile(self, snap: dict[int, str]) -> None:
        for pad in sorted(set(self.present) | set(snap)):
            old, new = self.present.get(pad), snap.get(pad)
            if old == new:
                continue
            if old is not None:
                del self.present[pad]
                self._emit(pad, old, False, True)
            if new is not None:
                self.present[pad] = new
                self._emit(pad, new, True, True)

    def _emit(self, pad: int, uid: str, placed: bool, snapshot: bool) -> None:
        change = TagChange(pad, uid, placed, snapshot, at=self.clock(), received=time.monotonic())
        try:
            self.on_tag(change)
        except Exception:
            log.exception("token reader: on_tag failed for %r", change)

    def _set_status(self, **changes: Any) -> None:
        self._status = replace(self._status, counters=dict(self.counters),
                               last_bad_line=dict(self._bad.last) if self._bad.last else None, **changes)
        try:
            self.on_status(self._status)
        except Exception:
            log.exception("token reader: on_status failed")
