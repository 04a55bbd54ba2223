"""The token-reader line protocol, firmware side (spec: firmware/PROTOCOL.md).

Pure: no hardware imports, runs under MicroPython and CPython. A line is::

    <seq> <VERB>[ <key>=<value>]...*<CRC>\\n

``seq`` counts 1..65535 and wraps to 1; ``CRC`` is CRC-16/CCITT-FALSE (poly
0x1021, init 0xFFFF, no reflection) of every byte before the ``*``, as four
upper-case hex digits. The host's codec (arena_table/hardware/protocol.py) is
tested against the same golden frames (firmware/golden_frames.txt).
"""

PROTOCOL_VERSION = 1
SEQ_MAX = 65535
MAX_LINE = 120
"""Longest line either side sends, in bytes, newline included."""

_VALUE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:/+-"
_CRC_CHARS = "0123456789ABCDEF"


def crc16(data):
    """CRC-16/CCITT-FALSE of ``data`` (bytes): check value of b'123456789' is 0x29B1."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def next_seq(seq):
    """The sequence number after ``seq`` (1..65535, then 1 again; 0 means none sent yet)."""
    return 1 if seq >= SEQ_MAX else seq + 1


def _word(text, what):
    text = str(text)
    if not text:
        raise ValueError("empty " + what)
    for ch in text:
        if ch not in _VALUE_CHARS:
            raise ValueError("%s %r: character %r not allowed" % (what, text, ch))
    return text


def encode(seq, verb, fields=()):
    """One line (``str`` ending in ``\\n``) for ``verb`` with ``fields`` (``(key, value)`` pairs).

    Raises ValueError for a seq out of range, characters outside ``[A-Za-z0-9._:/+-]`` or a
    line longer than MAX_LINE.
    """
    if not 1 <= seq <= SEQ_MAX:
        raise ValueError("seq %d out of range 1..%d" % (seq, SEQ_MAX))
    parts = [str(seq), _word(verb, "verb")]
    for key, value in fields:
        parts.append(_word(key, "key") + "=" + _word(value, "value"))
    payload = " ".join(parts)
    line = "%s*%04X\n" % (payload, crc16(payload.encode()))
    if len(line) > MAX_LINE:
        raise ValueError("line of %d bytes exceeds %d" % (len(line), MAX_LINE))
    return line


def decode(line):
    """``(seq, verb, fields)`` from one line (``str``, newline optional); ``fields`` is a list of pairs.

    Raises ValueError naming what is wrong: no checksum, checksum not 4 upper-case hex digits,
    checksum mismatch, bad seq, bad field.
    """
    line = line.rstrip("\r\n")
    star = line.rfind("*")
    if star < 0 or len(line) - star != 5:
        raise ValueError("no checksum")
    payload, given = line[:star], line[star + 1:]
    for ch in given:  # PROTOCOL.md: 4 upper-case hex digits (int(x, 16) alone takes "7df0", " DF0", "0x7D")
        if ch not in _CRC_CHARS:
            raise ValueError("checksum %r is not 4 upper-case hex digits" % given)
    want = int(given, 16)
    if crc16(payload.encode()) != want:
        raise ValueError("checksum mismatch")
    parts = payload.split(" ")
    if len(parts) < 2:
        raise ValueError("no verb")
    if not parts[0].isdigit() or not 1 <= int(parts[0]) <= SEQ_MAX:
        raise ValueError("bad seq %r" % parts[0])
    fields = []
    for part in parts[2:]:
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError("field %r has no '='" % part)
        fields.append((_word(key, "key"), _word(value, "value")))
    return int(parts[0]), _word(parts[1], "verb"), fields
