"""The token reader's host driver against the real firmware logic over real pty pairs.

Each test asserts the exact sequence of tag changes the driver reports and that
nothing crashed (the reader thread is alive, no error was logged). Where time
matters the firmware runs on a fake clock stepped by the test (SimFirmware with
``poll_ms=0``) instead of sleeping.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

import pytest
import serial

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


@pytest.fixture
def no_errors(caplog):
    caplog.set_level(logging.WARNING)
    yield caplog
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


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


def test_garbage_and_bootloader_line_before_the_banner(no_errors):
    rec = Recorder()
    sim = SimFirmware(pads=2, boot_id="BEEF")
    with reader_for(sim.port, rec) as reader:
        rec.wait(lambda: rec.status and rec.status.detail == "waiting for the banner", what="port open")
        sim.write_raw(b"\x00\xff\x00\xffMPY: soft reboot\r\n")  # what a Pico prints on a soft reset
        sim.write_raw(b"\x00\xff")  # line noise glued to the banner
        sim.start()
        rec.wait_up()
        sim.place(0, A)
        rec.wait(lambda: len(rec.changes) == 1)
        time.sleep(0.1)
        assert rec.seq() == [(0, A, "placed", "live")]
        assert reader.counters["garbage_lines"] == 1
        assert reader.counters["noise_bytes"] == 6
        assert rec.status.firmware == sim.fw.scanner.FIRMWARE_VERSION and rec.status.boot == "BEEF"
        assert rec.status.readers == {0: "ok:sim", 1: "ok:sim"}
        assert reader._thread.is_alive()
    sim.close()


def test_uid_split_across_three_reads(no_errors):
    rec = Recorder()
    with SimFirmware(pads=2) as sim, reader_for(sim.port, rec) as reader:
        rec.wait_up()
        line = inject(sim, "PLACED", pad=1, uid=B)
        for part in (line[:9], line[9:22], line[22:]):  # the UID itself is torn in two
            sim.write_raw(part)
            time.sleep(0.05)
        rec.wait(lambda: len(rec.changes) == 1)
        assert rec.seq() == [(1, B, "placed", "live")]
        assert reader.counters["garbage_lines"] == 0 and reader.counters["duplicates"] == 0


def test_two_seconds_of_silence_after_open(no_errors):
    rec = Recorder()
    sim = SimFirmware(pads=1)
    sim.silent_until = time.monotonic() + 2.0  # still booting: reads nothing, says nothing
    sim.start(boot=False)
    t0 = time.monotonic()
    with reader_for(sim.port, rec, handshake_timeout=5.0) as reader:
        rec.wait_up(timeout=6)
        assert time.monotonic() - t0 >= 1.9
        assert rec.states == ["handshaking", "up"]
        sim.place(0, C)
        rec.wait(lambda: len(rec.changes) == 1)
        assert rec.seq() == [(0, C, "placed", "live")]
        assert reader.counters["reconnects"] == 0
    sim.close()


def test_tag_resting_ten_seconds_is_one_placed_event(no_errors):
    rec, clock = Recorder(), FakeClock()
    with SimFirmware(pads=4, poll_ms=0, clock=clock) as sim, reader_for(sim.port, rec) as reader:
        rec.wait_up()
        sim.place(2, B)
        sim.step(500, clock.tick)  # 10 s of polls at 20 ms on the firmware's clock
        rec.wait(lambda: reader.counters["lines"] >= 6 + 1 + 10, what="placed and ten heartbeats")
        time.sleep(0.1)
        assert rec.seq() == [(2, B, "placed", "live")]
        assert rec.status.state == "up"


def test_remove_and_replace_within_the_debounce_time(no_errors):
    rec, clock = Recorder(), FakeClock()
    with SimFirmware(pads=1, poll_ms=0, clock=clock) as sim, reader_for(sim.port, rec):
        rec.wait_up()
        sim.place(0, A)
        sim.step(1, clock.tick)
        sim.remove(0)
        sim.step(2, clock.tick)  # two empty polls: less than the firmware's 3
        sim.place(0, A)
        sim.step(5, clock.tick)
        sim.readers[0].drop(2)  # the tag at the field's edge: two missed reads
        sim.step(5, clock.tick)
        sim.remove(0)
        sim.step(3, clock.tick)
        rec.wait(lambda: len(rec.changes) == 2)
        time.sleep(0.1)
        assert rec.seq() == [(0, A, "placed", "live"), (0, A, "removed", "live")]


def test_unplug_after_five_reads_and_return_under_another_tty(no_errors):
    rec = Recorder()
    sim1 = SimFirmware(pads=4, boot_id="0001").start()
    visible = [PortInfo(sim1.port)]
    reader = reader_for(sim1.port, rec, ports=lambda: list(visible)).start()
    try:
        rec.wait_up()
        for action in ((sim1.place, 0, A), (sim1.place, 1, B), (sim1.remove, 0, A), (sim1.place, 2, C),
                       (sim1.place, 3, D)):
            action[0](*action[1:])
            time.sleep(0.15)
        rec.wait(lambda: len(rec.changes) == 5)
        # The Pico is unplugged; on the table B, D stay, C is taken away, E is laid down; it comes
        # back (rebooted) as another tty, found by its VID:PID and serial number.
        sim2 = SimFirmware(pads=4, boot_id="0002")
        assert sim2.port != sim1.port
        sim1.unplug()
        visible[:] = []
        rec.wait(lambda: rec.states[-1] in ("down", "searching"), what="link lost")
        for pad, uid in ((1, B), (3, D), (0, E)):
            sim2.readers[pad].place(uid)
        sim2.start()
        visible[:] = [PortInfo("/dev/ttyS0", vid=None, pid=None, serial_number=None),
                      PortInfo(sim2.port, serial_number="OTHER"), PortInfo(sim2.port)]
        rec.wait(lambda: rec.status.state == "up" and rec.status.boot == "0002", timeout=8, what="back up")
        sim2.remove(1)
        rec.wait(lambda: len(rec.changes) == 8)
        time.sleep(0.1)
        assert rec.seq() == [
            (0, A, "placed", "live"), (1, B, "placed", "live"), (0, A, "removed", "live"),
            (2, C, "placed", "live"), (3, D, "placed", "live"),
            (0, E, "placed", "snapshot"), (2, C, "removed", "snapshot"),
            (1, B, "removed", "live"),
        ]
        assert rec.status.port == sim2.port
        assert reader.counters["reconnects"] >= 1
        assert reader._thread.is_alive()
        sim2.close()
    finally:
        reader.close()
        sim1.close()


def test_reconnect_to_a_running_device_reports_no_new_placements(no_errors):
    rec = Recorder()
    with SimFirmware(pads=2) as sim:
        sim.place(0, A)
        time.sleep(0.1)
        with reader_for(sim.port, rec) as reader:
            rec.wait_up()
            rec.wait(lambda: len(rec.changes) == 1)
            ser = reader._ser
            real_read = ser.read

            def dropped(size=1):  # the link fails once under the reader; the device keeps running
                ser.read = real_read
                raise serial.SerialException("read failed: [Errno 5] Input/output error")

            ser.read = dropped
            rec.wait(lambda: rec.states.count("up") == 2, what="second handshake")
            time.sleep(0.2)
            assert rec.states == ["handshaking", "up", "down", "handshaking", "up"]
            assert reader.counters["reconnects"] == 1
    assert rec.seq() == [(0, A, "placed", "snapshot")]  # the resting tag, once


def test_repeated_and_missing_lines(no_errors):
    rec, written = Recorder(), []
    with SimFirmware(pads=2, on_write=lambda data, t: written.append(data)) as sim, \
            reader_for(sim.port, rec) as reader:
        rec.wait_up()
        sim.place(0, A)
        rec.wait(lambda: len(rec.changes) == 1)
        sim.write_raw(written[-1])  # the PLACED line again, same seq: dropped
        rec.wait(lambda: reader.counters["duplicates"] == 1)
        with sim._lock:  # the firmware sees C, but its PLACED line never arrives:
            sim.readers[1].place(C)
            sim.scanner.pads[1].update(C)
            sim.scanner.seq += 1
        sim.write_raw(inject(sim, "HB", up=1, tags=2))  # the next line shows the gap
        rec.wait(lambda: len(rec.changes) == 2)
        time.sleep(0.1)
        assert rec.seq() == [(0, A, "placed", "live"), (1, C, "placed", "snapshot")]
        assert reader.counters["gaps"] == 1 and reader.counters["duplicates"] == 1


@pytest.mark.parametrize("spelling, canonical", [
    ("04:a1:b2:c3", A), ("04-A1-B2-C3", A), ("0x04a1b2c3", A), ("04 A1 B2 C3", A), ("04a1b2c3d4", A),
    ("04:A1:B2:C3:D4:E5:F6", B), ("04a1b2c3d4e5f6", B), ("0x04A1B2C3D4E5F6", B), ("04 a1 b2 c3 d4 e5 f6", B),
    ("04-a1-b2-c3-d4-e5-f6-%02x" % (0x04 ^ 0xA1 ^ 0xB2 ^ 0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6), B),
])
def test_uid_spellings_reach_the_host_canonical(spelling, canonical, no_errors):
    rec, clock = Recorder(), FakeClock()
    with SimFirmware(pads=1, poll_ms=0, clock=clock) as sim, reader_for(sim.port, rec):
        rec.wait_up()
        sim.place(0, spelling)
        sim.step(1, clock.tick)
        sim.remove(0, spelling)
        sim.step(3, clock.tick)
        rec.wait(lambda: len(rec.changes) == 2)
        assert rec.seq() == [(0, canonical, "placed", "live"), (0, canonical, "removed", "live")]


def test_silent_device_goes_stale_then_is_reopened(no_errors):
    rec = Recorder()
    with SimFirmware(pads=1) as sim, \
            reader_for(sim.port, rec, stale_after=0.4, dead_after=1.0) as reader:
        rec.wait_up()
        sim.silent_until = time.monotonic() + 1.6  # the firmware hangs: no heartbeat, no answers
        rec.wait(lambda: "stale" in rec.states, what="stale")
        rec.wait(lambda: rec.states.count("up") == 2, timeout=6, what="up again")
        assert rec.states[:4] == ["handshaking", "up", "stale", "down"]
        assert reader.counters["reconnects"] >= 1
        sim.place(0, A)
        rec.wait(lambda: len(rec.changes) == 1)
        assert rec.seq() == [(0, A, "placed", "live")]


def test_firmware_of_another_protocol_version_is_refused(no_errors):
    rec = Recorder()
    sim = SimFirmware(pads=1)
    with reader_for(sim.port, rec, handshake_timeout=10) as reader:
        rec.wait(lambda: rec.status and rec.status.detail == "waiting for the banner", what="port open")
        sim.write_raw(encode(1, "HELLO", {"fw": "9.0.0", "proto": 2, "pads": 1, "backend": "sim", "boot": "0009"}))
        sim.write_raw(encode(2, "SNAPSHOT", {"tags": 0}))
        rec.wait(lambda: "protocol 2" in rec.status.detail, what="refusal")
        time.sleep(0.2)
        assert rec.status.state == "handshaking" and rec.status.firmware == ""
        assert reader.counters["garbage_lines"] == 1 and reader.counters["ignored"] == 1  # its SNAPSHOT
    sim.close()


def test_an_unexpected_error_does_not_stop_the_reader(caplog):
    rec, opened = Recorder(), []

    class Broken:
        """A port object whose read hits a bug."""

        in_waiting = 0

        def read(self, size=1):
            raise TypeError("bug")

        def write(self, data):
            return len(data)

        def close(self):
            pass

    def open_port(path):
        opened.append(path)
        return Broken() if len(opened) == 1 else serial.Serial(path, 115200, timeout=0.1)

    with SimFirmware(pads=1) as sim, reader_for(sim.port, rec, open_port=open_port):
        rec.wait_up()
        sim.place(0, A)
        rec.wait(lambda: len(rec.changes) == 1)
    assert rec.states[:3] == ["handshaking", "down", "handshaking"]
    assert "failed unexpectedly" in caplog.text and len(opened) == 2


def test_presence_known_at_start_is_reconciled_with_the_first_snapshot(no_errors):
    """A service restart: the log says A lies on pad 0 and B on pad 1; meanwhile B was taken away
    and C laid on pad 2. A is not reported again, B is removed, C placed (PROTOCOL.md rule 2)."""
    rec = Recorder()
    sim = SimFirmware(pads=3)
    for pad, uid in ((0, A), (2, C)):
        sim.readers[pad].place(uid)
    sim.start()
    try:
        with reader_for(sim.port, rec, present={0: "04:a1:b2:c3", 1: B}) as reader:
            assert reader.present == {0: A, 1: B}
            rec.wait_up()
            rec.wait(lambda: len(rec.changes) == 2)
            time.sleep(0.2)  # the HELLO answer's snapshot too: nothing more
            assert rec.seq() == [(1, B, "removed", "snapshot"), (2, C, "placed", "snapshot")]
            assert reader.present == {0: A, 2: C}
            sim.remove(0)
            rec.wait(lambda: len(rec.changes) == 3)
            assert rec.seq()[2:] == [(0, A, "removed", "live")]
    finally:
        sim.close()


def test_snapshot_missing_a_damaged_present_line_is_discarded_and_asked_again(no_errors):
    rec, written, asked = Recorder(), [], []
    with SimFirmware(pads=2, on_write=lambda data, t: written.append(data)) as sim, \
            reader_for(sim.port, rec) as reader:
        handle = sim.scanner.handle
        sim.scanner.handle = lambda line: (asked.append(line.split(b"*")[0].split(b" ")[-1]), handle(line))[1]
        rec.wait_up()
        sim.place(0, A)
        sim.place(1, C)
        rec.wait(lambda: len(rec.changes) == 2)
        time.sleep(0.3)  # the handshake's HELLO answers are all in
        snapshots = sum(b" SNAPSHOT " in line for line in written)
        del asked[:]
        # An unasked snapshot whose second PRESENT line is damaged on the way (one flipped bit).
        good, bad = inject(sim, "PRESENT", pad=0, uid=A), bytearray(inject(sim, "PRESENT", pad=1, uid=C))
        bad[bad.index(b"uid=") + 5] ^= 0x01
        sim.write_raw(good + bytes(bad) + inject(sim, "SNAPSHOT", tags=2))
        rec.wait(lambda: sum(b" SNAPSHOT " in line for line in written) == snapshots + 1, what="snapshot asked")
        time.sleep(0.3)
        assert asked == [b"SNAPSHOT"]
        assert rec.seq() == [(0, A, "placed", "live"), (1, C, "placed", "live")]  # no false tag-off
        assert reader.present == {0: A, 1: C}
        assert reader.counters["bad_snapshots"] == 1 and reader.counters["garbage_lines"] == 1
        assert rec.status.state == "up"
        warned = [r.getMessage() for r in no_errors.records if "says tags=2 but 1 PRESENT" in r.getMessage()]
        assert len(warned) == 1 and "bad line(s) since the last snapshot: checksum mismatch" in warned[0], warned
        assert "PRESENT pad=1 uid=0" in warned[0]  # which line it was


def test_damaged_snapshot_during_the_handshake_is_asked_again_by_hello(no_errors):
    """The boot report's snapshot loses a PRESENT line before the host's first HELLO: the host must
    not take it (C would never be reported), nor claim to ask for a snapshot it cannot send yet."""
    rec, asked = Recorder(), []
    sim = SimFirmware(pads=2)
    for pad, uid in ((0, A), (1, C)):
        sim.readers[pad].place(uid)
    write, damaged = sim.scanner.write, []

    def lossy(line: str) -> None:
        if " PRESENT pad=1 " in line and not damaged:
            damaged.append(line)
            line = line.replace("uid=0A", "uid=0B")  # CRC no longer matches
        write(line)

    sim.scanner.write = lossy
    handle = sim.scanner.handle
    sim.scanner.handle = lambda line: (asked.append(line.split(b"*")[0].split(b" ")[-1]), handle(line))[1]
    try:
        with reader_for(sim.port, rec, settle=0.3) as reader:
            rec.wait(lambda: rec.status and rec.status.detail == "waiting for the banner", what="port open")
            sim.start()  # boot report: banner, readers, PRESENT A, damaged PRESENT C, SNAPSHOT tags=2
            rec.wait_up()
            rec.wait(lambda: len(rec.changes) == 2, what="both tags")
            time.sleep(0.2)
            assert damaged and rec.seq() == [(0, A, "placed", "snapshot"), (1, C, "placed", "snapshot")]
            assert reader.counters["bad_snapshots"] == 1 and reader.counters["gaps"] == 1
            assert set(asked) == {b"HELLO"}  # no SNAPSHOT before the handshake
            messages = [r.getMessage() for r in no_errors.records if "lost before seq" in r.getMessage()]
            assert len(messages) == 1 and "no SNAPSHOT sent" in messages[0], messages
            assert not any("asked for a snapshot" in r.getMessage() or "asking for a snapshot" in r.getMessage()
                           for r in no_errors.records)
    finally:
        sim.close()


def test_banner_of_another_protocol_while_up_drops_the_link(no_errors):
    rec = Recorder()
    with SimFirmware(pads=2, boot_id="0001") as sim, reader_for(sim.port, rec) as reader:
        rec.wait_up()
        sim.place(0, A)
        rec.wait(lambda: len(rec.changes) == 1)
        # The board reboots into firmware speaking protocol 2 (our simulator stays deaf for a while).
        sim.silent_until = time.monotonic() + 1.5
        time.sleep(0.1)
        lines = [encode(1, "HELLO", {"fw": "9.0.0", "proto": 2, "pads": 2, "backend": "sim", "boot": "0009"}),
                 encode(2, "READER_OK", {"pad": 0, "chip": "sim"}), encode(3, "SNAPSHOT", {"tags": 0}),
                 encode(4, "PLACED", {"pad": 1, "uid": C}), encode(5, "REMOVED", {"pad": 0, "uid": A})]
        sim.write_raw(b"".join(lines))
        rec.wait(lambda: "protocol 2" in rec.status.detail, what="refusal")
        time.sleep(0.3)
        assert rec.status.state == "handshaking" and "this host 1" in rec.status.detail
        assert rec.status.firmware == ""
        assert rec.seq() == [(0, A, "placed", "live")]  # its tag lines are not recorded
        assert reader.present == {0: A}
        assert reader.counters["ignored"] == 4
        # The protocol-1 firmware answers HELLO again: a new handshake, the resting tag not repeated.
        rec.wait(lambda: rec.states.count("up") == 2, timeout=5, what="up again")
        sim.place(1, C)
        rec.wait(lambda: len(rec.changes) == 2)
        time.sleep(0.1)
        assert rec.seq() == [(0, A, "placed", "live"), (1, C, "placed", "live")]
        assert rec.states == ["handshaking", "up", "handshaking", "up"]
        assert rec.status.boot == "0001" and reader.counters["reconnects"] == 0


def test_a_pad_the_banner_did_not_announce_is_refused(no_errors):
    """The banner says pads=4: a CRC-valid PLACED on pad 9 is a protocol error, never a tag-on."""
    rec = Recorder()
    with SimFirmware(pads=4) as sim, reader_for(sim.port, rec) as reader:
        rec.wait_up()
        sim.write_raw(inject(sim, "PLACED", pad=9, uid="04AABBCC") + inject(sim, "READER_OK", pad=4, chip="sim")
                      + inject(sim, "PLACED", pad=3, uid=A))
        rec.wait(lambda: len(rec.changes) == 1)
        time.sleep(0.1)
        assert rec.seq() == [(3, A, "placed", "live")]
        assert reader.present == {3: A}
        assert reader.counters["garbage_lines"] == 2 and reader.counters["gaps"] == 0
        assert 4 not in rec.status.readers
        messages = [r.getMessage() for r in no_errors.records if "ignored line" in r.getMessage()]
        assert len(messages) == 2
        assert "pad 9, but the banner said pads=4 (pads 0..3)" in messages[0]
        assert "pad 4, but the banner said pads=4" in messages[1]


def test_a_flood_of_bad_lines_is_counted_summarised_and_its_last_reason_shown(no_errors):
    """Five bad lines are logged, the sixth says the rest are only counted, then a summary at most every
    ``garbage_summary_every`` s names how many came and the last one's reason; the status carries it."""
    rec = Recorder()

    def poll(pred, timeout=3.0):  # counters and log records notify nobody: poll them
        deadline = time.monotonic() + timeout
        while not pred():
            assert time.monotonic() < deadline, f"timed out: {messages()}"
            time.sleep(0.01)

    def messages():
        return [r.getMessage() for r in no_errors.records if r.name == "arena_table.hardware.reader"
                and ("ignored line" in r.getMessage() or "bad line" in r.getMessage())]

    with SimFirmware(pads=2) as sim, reader_for(sim.port, rec, garbage_summary_every=1.0) as reader:
        rec.wait_up()
        t0 = time.time()
        sim.write_raw(b"".join(b"7 PLACED pad=0 uid=04A1B2C3*%04X\n" % i for i in range(8)))
        poll(lambda: reader.counters["garbage_lines"] == 8)
        logged = messages()
        assert len(logged) == 6, logged
        assert all(f"ignored line #{i + 1} " in m for i, m in enumerate(logged))
        assert "further bad lines are counted, not logged (6 so far" in logged[5]
        assert "garbage_lines" in logged[5] and "/api/status" in logged[5]
        poll(lambda: len(messages()) == 7)
        assert "2 bad line(s) in the last" in messages()[6] and "(8 in all)" in messages()[6]
        assert "checksum mismatch (line says 0007" in messages()[6]
        sim.write_raw(b"".join(b"9 PLACED pad=1 uid=0A0B0C0D*%04X\n" % i for i in range(50)))
        poll(lambda: len(messages()) == 8)
        time.sleep(0.7)
        assert len(messages()) == 8  # one line for the fifty, and nothing while none comes
        assert "50 bad line(s) in the last" in messages()[7] and "(58 in all)" in messages()[7]
        rec.wait(lambda: rec.status.counters["garbage_lines"] == 58, what="published")
        bad = rec.status.to_json()["last_bad_line"]
        assert "checksum mismatch (line says 0031" in bad["reason"]
        assert bad["line"] == "9 PLACED pad=1 uid=0A0B0C0D*0031" and t0 <= bad["at"] <= time.time()
        assert rec.seq() == []


def test_a_refused_present_line_is_named_and_the_snapshot_taken_without_its_tag(no_errors):
    """A CRC-valid PRESENT line the host refuses (a 5-byte UID without its check byte) comes in every
    snapshot: counted as arrived, the snapshot is taken without that tag (never recorded), a tag the
    host had on that pad is recorded removed, and the link stays up instead of reconnecting forever."""
    rec = Recorder()
    sim = SimFirmware(pads=2)
    for pad, uid in ((0, A), (1, C)):
        sim.readers[pad].place(uid)
    write = sim.scanner.write

    def five_bytes(line: str) -> None:  # the firmware's view of C: 0A0B0C0D0E (0E is no check byte)
        if f" pad=1 uid={C}" in line:
            seq, verb, fields = line.split(" ", 2)
            line = encode(int(seq), verb, dict(f.split("=") for f in fields.split("*")[0].split(" "))
                          | {"uid": C + "0E"}).decode()
        write(line)

    sim.scanner.write = five_bytes
    sim.start()
    try:
        with reader_for(sim.port, rec, present={1: C}, handshake_timeout=1.0) as reader:
            rec.wait_up()
            rec.wait(lambda: len(rec.changes) == 2)
            reader.request("SNAPSHOT")  # again: the same refusal, the same picture, nothing new
            time.sleep(1.5)
            assert rec.seq() == [(0, A, "placed", "snapshot"), (1, C, "removed", "snapshot")]
            assert reader.present == {0: A}
            assert rec.states == ["handshaking", "up"] and reader.counters["reconnects"] == 0
            assert reader.counters["bad_snapshots"] == 0 and reader.counters["garbage_lines"] >= 2
            warned = [r.getMessage() for r in no_errors.records if "refused PRESENT" in r.getMessage()]
            assert len(warned) >= 2, warned
            assert "taken without 1 refused PRESENT line(s), their tags not recorded: PRESENT pad=1 " \
                   "uid=0A0B0C0D0E" in warned[0] and "5 bytes" in warned[0], warned
            sim.remove(0)
            rec.wait(lambda: len(rec.changes) == 3)
            assert rec.seq()[2:] == [(0, A, "removed", "live")]
    finally:
        sim.close()
