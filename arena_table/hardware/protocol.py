"""Host side of the token-reader line protocol (spec: firmware/PROTOCOL.md).

Pure functions: :func:`parse_line` turns one received line into a :class:`Frame`
or raises :class:`ProtocolError`; :func:`encode` builds a line. A line is
``<seq> <VERB>[ key=value]...*<CRC>`` where CRC is CRC-16/CCITT-FALSE (poly
0x1021, init 0xFFFF; ``binascii.crc_hqx(payload, 0xFFFF)``) of the bytes before
``*``. The firmware's own codec (firmware/protocol.py) and this one are tested
against the same golden frames (firmware/golden_frames.txt).
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field
from typing import Mapping

from .errors import ProtocolError

PROTOCOL_VERSION = 1
SEQ_MAX = 65535
MAX_LINE = 120
_WORD = re.compile(r"[A-Za-z0-9._:/+-]+")
_VERB = re.compile(r"[A-Z][A-Z0-9_]*")

DEVICE_VERBS = frozenset({"HELLO", "READER_OK", "READER_FAIL", "PLACED", "REMOVED", "PRESENT", "SNAPSHOT",
                          "HB", "PAD", "PADS", "ERR"})
"""Every verb the device may send (PROTOCOL.md, device to host)."""
HOST_VERBS = frozenset({"HELLO", "STATUS", "PADS", "SNAPSHOT"})
"""Every command the host may send."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    """One protocol line, decoded.

    >>> parse_line(b"6 PLACED pad=0 uid=04A1B2C3D4E5F6*73FB\\r\\n")
    Frame(seq=6, verb='PLACED', fields={'pad': '0', 'uid': '04A1B2C3D4E5F6'})
    """

    seq: int
    """1..65535, wrapping to 1; counts every line the sender wrote since it booted."""
    verb: str
    fields: Mapping[str, str] = field(default_factory=dict)
    """``key -> value`` in line order (values are text; see :meth:`int`)."""

    def int(self, key: str) -> int:
        """Field ``key`` as an integer.

        Raises:
            ProtocolError: missing or not a decimal integer.
        """
        value = self.fields.get(key)
        if value is None or not value.isdigit():
            raise ProtocolError(f"{self.verb} line {self.seq}: field {key}={value!r} is not a number")
        return int(value)

    def text(self, key: str) -> str:
        """Field ``key``; raises :class:`ProtocolError` when missing."""
        value = self.fields.get(key)
        if value is None:
            raise ProtocolError(f"{self.verb} line {self.seq}: no field {key!r}")
        return value


def encode(seq: int, verb: str, fields: Mapping[str, object] | None = None) -> bytes:
    """The bytes of one line, newline included.

    >>> encode(1, "HELLO")
    b'1 HELLO*7DF0\\n'

    Raises:
        ProtocolError: seq outside 1..65535, characters outside ``[A-Za-z0-9._:/+-]``,
            or a line longer than 120 bytes.
    """
    if not 1 <= seq <= SEQ_MAX:
        raise ProtocolError(f"seq {seq} out of range 1..{SEQ_MAX}")
    if not _VERB.fullmatch(verb):
        raise ProtocolError(f"bad verb {verb!r}")
    parts = [str(seq), verb]
    for key, value in (fields or {}).items():
        key, value = str(key), str(value)
        if not _WORD.fullmatch(key) or not _WORD.fullmatch(value):
            raise ProtocolError(f"field {key}={value!r}: only [A-Za-z0-9._:/+-] allowed")
        parts.append(f"{key}={value}")
    payload = " ".join(parts).encode("ascii")
    line = payload + b"*%04X\n" % crc16(payload)
    if len(line) > MAX_LINE:
        raise ProtocolError(f"line of {len(line)} bytes exceeds {MAX_LINE}")
    return line


_CRC = re.compile(r"[0-9A-F]{4}")


def parse_line(line: bytes) -> Frame:
    """Decode one line (without or with its ``\\n``/``\\r\\n``).

    Raises:
        ProtocolError: not ASCII, too long, no checksum, checksum mismatch, bad seq,
            no verb, a field without ``=``; the message says which.
    """
    raw = line
    line = line.rstrip(b"\r\n")
    size = len(raw) if raw.endswith(b"\n") else len(line) + 1  # MAX_LINE counts the newline
    if size > MAX_LINE:
        raise ProtocolError(f"line of {size} bytes (newline included) exceeds {MAX_LINE}")
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"not ASCII at byte {exc.start}: {line[:40]!r}") from None
    if not text.isprintable():
        raise ProtocolError(f"control character in the line: {line[:40]!r}")
    star = text.rfind("*")
    if star < 0 or len(text) - star != 5:
        raise ProtocolError(f"no checksum: {text[:40]!r}")
    payload, given = text[:star], text[star + 1:]
    if not _CRC.fullmatch(given):  # int(x, 16) alone would take "7df0", " DF0", "0x7D"
        raise ProtocolError(f"checksum {given!r} is not 4 upper-case hex digits: {text[:40]!r}")
    want = int(given, 16)
    got = crc16(payload.encode("ascii"))
    if got != want:
        raise ProtocolError(f"checksum mismatch (line says {want:04X}, bytes give {got:04X}): {text[:40]!r}")
    parts = payload.split(" ")
    if len(parts) < 2:
        raise ProtocolError(f"no verb: {text[:40]!r}")
    if not parts[0].isdigit() or not 1 <= int(parts[0]) <= SEQ_MAX:
        raise ProtocolError(f"bad seq {parts[0]!r}: {text[:40]!r}")
    if not _VERB.fullmatch(parts[1]):
        raise ProtocolError(f"bad verb {parts[1]!r}: {text[:40]!r}")
    fields: dict[str, str] = {}
    for part in parts[2:]:
        key, eq, value = part.partition("=")
        if not eq or not _WORD.fullmatch(key) or not _WORD.fullmatch(value):
            raise ProtocolError(f"bad field {part!r}: {text[:40]!r}")
        fields[key] = value
    return Frame(int(parts[0]), parts[1], fields)


def seq_distance(new: int, last: int) -> int:
    """How many steps ``new`` is after ``last`` on the 1..65535 wrapping counter (0 = same line).

    >>> seq_distance(1, 65535), seq_distance(7, 5), seq_distance(5, 7)
    (1, 2, 65533)
    """
    return (new - last) % SEQ_MAX
