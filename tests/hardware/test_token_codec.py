"""Host codec and canonical UIDs: golden frames shared with the firmware, every UID spelling."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena_table.hardware.errors import BadUid, HardwareError, ProtocolError
from arena_table.hardware.protocol import Frame, crc16, encode, parse_line, seq_distance
from arena_table.hardware.uid import canonical_uid, is_uid

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def golden():
    ok, bad = [], []
    for raw in (FIRMWARE / "golden_frames.txt").read_text(encoding="ascii").splitlines():
        if not raw or raw.startswith("#"):
            continue
        tag, _, rest = raw.partition(" ")
        if tag == "ok":
            ok.append(rest)
        else:
            reason, _, line = rest.partition(" ")
            bad.append((reason, line))
    return ok, bad


OK, BAD = golden()


@pytest.mark.parametrize("line", OK)
def test_golden_frame_round_trips_byte_for_byte(line):
    frame = parse_line(line.encode() + b"\r\n")
    assert encode(frame.seq, frame.verb, frame.fields) == line.encode() + b"\n"


@pytest.mark.parametrize("reason, line", BAD)
def test_golden_bad_frame_is_refused_with_its_reason(reason, line):
    with pytest.raises(ProtocolError, match=reason):
        parse_line(line.encode())


def test_golden_file_has_both_kinds():
    assert len(OK) == 16 and len(BAD) == 9


def test_frames_quoted_in_protocol_md_are_valid():
    doc = (FIRMWARE / "PROTOCOL.md").read_text(encoding="utf-8")
    quoted = re.findall(r"(?:host|device): (\d+ [A-Z_]+[^*\n]*\*[0-9A-F]{4})", doc)
    assert len(quoted) >= 8
    for line in quoted:
        assert line in OK, f"{line!r} from PROTOCOL.md is not a golden frame"
        parse_line(line.encode())


def test_parse_gives_fields_in_order():
    f = parse_line(b"9 PAD pad=0 reader=mfrc522 where=cs:GP17*0A15")
    assert f == Frame(9, "PAD", {"pad": "0", "reader": "mfrc522", "where": "cs:GP17"})
    assert list(f.fields) == ["pad", "reader", "where"]
    assert f.int("pad") == 0
    with pytest.raises(ProtocolError, match="not a number"):
        f.int("reader")
    with pytest.raises(ProtocolError, match="no field 'uid'"):
        f.text("uid")


@pytest.mark.parametrize("junk, why", [
    (b"\xff\xfe1 HELLO*7DF0", "not ASCII"),
    (b"1 HELLO*7DF0" + b" " * 120, "exceeds"),
    (b"", "no checksum"),
])
def test_parse_refuses_junk(junk, why):
    with pytest.raises(ProtocolError, match=why):
        parse_line(junk)


def test_encode_refuses_what_cannot_be_sent():
    with pytest.raises(ProtocolError, match="only"):
        encode(1, "PLACED", {"uid": "04 A1"})
    with pytest.raises(ProtocolError, match="out of range"):
        encode(65536, "HB")
    with pytest.raises(ProtocolError, match="exceeds"):
        encode(1, "X", {"k": "v" * 120})


def test_errors_inherit_the_builtin_callers_catch():
    assert issubclass(ProtocolError, HardwareError) and issubclass(ProtocolError, ValueError)
    assert issubclass(BadUid, ValueError)


def test_seq_distance_wraps_at_65535():
    assert seq_distance(1, 65535) == 1
    assert seq_distance(65535, 1) == 65534  # far behind = a repeat, not 65534 lost lines
    assert seq_distance(3, 3) == 0


# --- canonical UIDs -----------------------------------------------------------------------------------
# 04 A1 B2 C3: BCC = 04^A1^B2^C3 = D4.  04 A1 B2 C3 D4 E5 F6: BCC = 04^A1^B2^C3^D4^E5^F6 = 13.
FOUR, SEVEN, TEN = "04A1B2C3", "04A1B2C3D4E5F6", "04A1B2C3D4E5F6071829"


@pytest.mark.parametrize("spelling, canonical", [
    ("04:a1:b2:c3", FOUR), ("04-A1-B2-C3", FOUR), ("0x04a1b2c3", FOUR), ("04 A1 B2 C3", FOUR),
    ("04a1b2c3", FOUR), ("04A1B2C3", FOUR), ("04.a1.b2.c3", FOUR), ("04_A1_B2_C3", FOUR), ("  04a1b2c3\n", FOUR),
    ("04:A1:B2:C3:D4", FOUR), ("0x04A1B2C3D4", FOUR),
    ("04:a1:b2:c3:d4:e5:f6", SEVEN), ("04-A1-B2-C3-D4-E5-F6", SEVEN), ("0x04a1b2c3d4e5f6", SEVEN),
    ("04 A1 B2 C3 D4 E5 F6", SEVEN), ("04a1b2c3d4e5f613", SEVEN), ("04:A1:B2:C3:D4:E5:F6:13", SEVEN),
    ("04A1B2C3D4E5F6071829", TEN), ("04:a1:b2:c3:d4:e5:f6:07:18:29", TEN),
    (bytes.fromhex("04a1b2c3d4e5f6"), SEVEN),
])
def test_every_spelling_gives_the_canonical_uid(spelling, canonical):
    assert canonical_uid(spelling) == canonical
    assert is_uid(spelling) if isinstance(spelling, str) else True


def test_check_byte_is_removed_only_when_it_matches():
    assert 0x04 ^ 0xA1 ^ 0xB2 ^ 0xC3 == 0xD4
    with pytest.raises(BadUid, match="not the check byte"):
        canonical_uid("04A1B2C3D5")
    with pytest.raises(BadUid, match="not the check byte"):
        canonical_uid("04A1B2C3D4E5F605")


@pytest.mark.parametrize("text, why", [
    ("04A1B2C", "odd number"),
    ("04:A1:B2", "3 bytes"),
    ("04A1B2C3D4E5", "6 bytes"),
    ("hello", "not hex"),
    ("", "empty"),
    ("0x", "empty"),
    ("88 04 A1 B2", "cascade tag"),          # level 1 of a 7-byte UID: a fragment
    ("88:04:A1:B2:9F", "cascade tag"),       # ... with its BCC
])
def test_bad_uids_are_refused_with_the_reason(text, why):
    with pytest.raises(BadUid, match=why):
        canonical_uid(text)
    assert not is_uid(text)


def test_line_limit_counts_the_newline_and_control_characters_are_refused():
    """PROTOCOL.md: a line is at most MAX_LINE bytes with its newline, printable ASCII (a new user's
    audit: the host took 121 bytes, the firmware 120)."""
    from arena_table.hardware.protocol import MAX_LINE

    def line_of(total: int) -> bytes:  # a valid HB line padded to ``total`` bytes with "\n"
        head = b"9 HB up=1 tags=0 pad="
        payload = head + b"x" * (total - len(head) - 6)
        return payload + b"*%04X\n" % crc16(payload)

    assert len(line_of(MAX_LINE)) == MAX_LINE and parse_line(line_of(MAX_LINE)).verb == "HB"
    with pytest.raises(ProtocolError, match=f"121 bytes .newline included. exceeds {MAX_LINE}"):
        parse_line(line_of(MAX_LINE + 1))
    payload = b"9 HB up=1\x07 tags=0"
    with pytest.raises(ProtocolError, match="control character"):
        parse_line(payload + b"*%04X\n" % crc16(payload))
