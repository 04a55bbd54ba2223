"""Canonical tag UIDs: upper-case hex, two digits a byte, 4, 7 or 10 bytes.

Readers, people and label printers spell one UID many ways (``04:a1:b2:c3``,
``04-A1-B2-C3``, ``0x04a1b2c3``, ``04 A1 B2 C3``, with or without the BCC check
byte some tools append). :func:`canonical_uid` reduces every spelling to the
one form the firmware prints (firmware/PROTOCOL.md) and the tag registry keys
on. Sizes and the check byte from ISO/IEC 14443-3 section 6.2.4: a UID is 4
(single), 7 (double) or 10 (triple) bytes; BCC is the XOR of the bytes before
it; the cascade tag 0x88 marks a level that continues and never starts a
double/triple UID's first byte alone.
"""

from __future__ import annotations

import re

from .errors import BadUid

UID_LENGTHS = (4, 7, 10)
CASCADE_TAG = 0x88
_SEPARATORS = re.compile(r"[\s:.\-_]")


def _xor(data: bytes) -> int:
    x = 0
    for b in data:
        x ^= b
    return x


def canonical_uid(text: str | bytes) -> str:
    """The canonical form of a UID given in any common spelling.

    Separators (``:``, ``-``, ``.``, ``_``, blanks) and a ``0x`` prefix are dropped;
    hex is upper-cased; a 5-, 8- or 11-byte value whose last byte is the XOR of the
    others has that check byte removed.

    >>> canonical_uid("04:a1:b2:c3")
    '04A1B2C3'
    >>> canonical_uid("0x04a1b2c3d4")  # trailing BCC 04^A1^B2^C3 = D4
    '04A1B2C3'

    Raises:
        BadUid: not hex, an odd number of digits, a length other than 4/7/10 bytes
            (5/8/11 only with a matching check byte), or a cascade-tag fragment
            (a 4-byte value starting with 0x88 is one level of a longer UID).
    """
    if isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
    else:
        s = _SEPARATORS.sub("", str(text))
        if s[:2].lower() == "0x":
            s = s[2:]
        if not s:
            raise BadUid(f"empty UID {text!r}")
        if not re.fullmatch(r"[0-9A-Fa-f]+", s):
            raise BadUid(f"UID {text!r} is not hex")
        if len(s) % 2:
            raise BadUid(f"UID {text!r} has an odd number of hex digits ({len(s)})")
        raw = bytes.fromhex(s)
    if len(raw) - 1 in UID_LENGTHS:
        if _xor(raw[:-1]) != raw[-1]:
            raise BadUid(f"UID {text!r}: {len(raw)} bytes and the last is not the check byte "
                         f"(XOR of the others is {_xor(raw[:-1]):02X})")
        raw = raw[:-1]
    if len(raw) not in UID_LENGTHS:
        raise BadUid(f"UID {text!r} is {len(raw)} bytes; tags have 4, 7 or 10")
    if raw[0] == CASCADE_TAG:
        raise BadUid(f"UID {text!r} starts with the cascade tag 88: a fragment of a longer UID")
    return raw.hex().upper()


def is_uid(text: str) -> bool:
    """Whether :func:`canonical_uid` accepts ``text``."""
    try:
        canonical_uid(text)
    except BadUid:
        return False
    return True
