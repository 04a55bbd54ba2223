"""Tag UIDs as the firmware reports them: canonical upper-case hex, two digits a byte.

Pure: no hardware imports, runs under MicroPython and CPython alike. Sources:
ISO/IEC 14443-3 sections 6.2.4 (UID sizes 4/7/10 bytes, cascade tag 0x88,
BCC = XOR of the four bytes of a cascade level) and 6.2.4/Annex B (CRC_A).
"""

import binascii

UID_LENGTHS = (4, 7, 10)
"""Single, double and triple size UIDs (ISO/IEC 14443-3, 6.2.4)."""
CASCADE_TAG = 0x88
"""First byte of a cascade level whose UID continues on the next level."""


def uid_hex(uid):
    """``uid`` (bytes of 4, 7 or 10) as canonical text: ``b'\\x04\\xa1\\xb2\\xc3'`` -> ``'04A1B2C3'``.

    Raises ValueError for any other length.
    """
    if len(uid) not in UID_LENGTHS:
        raise ValueError("uid of %d bytes (want 4, 7 or 10)" % len(uid))
    return binascii.hexlify(bytes(uid)).decode().upper()


def uid_bytes(text):
    """Inverse of :func:`uid_hex` for canonical text (simulated readers, tests)."""
    raw = binascii.unhexlify(text)
    if len(raw) not in UID_LENGTHS:
        raise ValueError("uid of %d bytes (want 4, 7 or 10)" % len(raw))
    return raw


def bcc(data):
    """Block check character: XOR of ``data`` (ISO/IEC 14443-3, 6.2.4)."""
    x = 0
    for b in data:
        x ^= b
    return x


def from_cascade(levels):
    """Join the anticollision answers of each cascade level into the UID bytes.

    ``levels`` are the 5-byte answers (``uid0..3`` + BCC) of cascade levels 1..3 in
    order. A level starting with the cascade tag 0x88 carries 3 UID bytes and must
    be followed by another level. Raises ValueError on a BCC mismatch, a short
    answer, or a cascade tag on the last level (a fragment, not a whole UID).
    """
    out = bytearray()
    for i, level in enumerate(levels):
        if len(level) != 5:
            raise ValueError("cascade level %d: %d bytes (want 5)" % (i + 1, len(level)))
        if bcc(level[:4]) != level[4]:
            raise ValueError("cascade level %d: BCC mismatch" % (i + 1))
        last = i == len(levels) - 1
        if level[0] == CASCADE_TAG:
            if last:
                raise ValueError("cascade level %d: cascade tag on the last level" % (i + 1))
            out.extend(level[1:4])
        else:
            if not last:
                raise ValueError("cascade level %d: no cascade tag but more levels follow" % (i + 1))
            out.extend(level[0:4])
    if len(out) not in UID_LENGTHS:
        raise ValueError("uid of %d bytes (want 4, 7 or 10)" % len(out))
    return bytes(out)


def crc_a(data):
    """CRC_A of ISO/IEC 14443-3 Annex B (init 0x6363, reflected poly 0x8408), as 2 bytes LSB first.

    >>> crc_a(b'\\x00\\x00') == b'\\xa0\\x1e'
    True
    """
    crc = 0x6363
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return bytes((crc & 0xFF, crc >> 8))
