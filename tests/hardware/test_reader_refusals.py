"""Lines the token reader's host driver must refuse, over real pty pairs: a pad the banner did not
announce, a flood of bad lines (counted, summarised, the last reason shown), a whole but refused
PRESENT line in a snapshot (``firmware/PROTOCOL.md``, host rules 2 and 6)."""

from __future__ import annotations

import time

import pytest
from reader_kit import A, C, Recorder, inject, reader_for

from arena_table.hardware.protocol import encode
from arena_table.table.tokens_sim import SimFirmware


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


@pytest.mark.perf
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


@pytest.mark.perf
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
