"""The token reader's host driver against the real firmware logic over real pty pairs.

Each test asserts the exact sequence of tag changes the driver reports and that
nothing crashed (the reader thread is alive, no error was logged). Where time
matters the firmware runs on a fake clock stepped by the test (SimFirmware with
``poll_ms=0``) instead of sleeping. The helpers live in ``reader_kit.py``; lines the
driver must refuse are in ``test_reader_refusals.py``.
"""

from __future__ import annotations

import time

import pytest
import serial
from reader_kit import A, B, C, D, E, FakeClock, PortInfo, Recorder, inject, reader_for

from arena_table.hardware.protocol import encode
from arena_table.table.tokens_sim import SimFirmware


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


@pytest.mark.perf
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


@pytest.mark.perf
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
