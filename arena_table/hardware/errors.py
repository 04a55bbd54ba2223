"""Errors raised by :mod:`arena_table.hardware`.

Every error derives from :class:`HardwareError`; specific errors also inherit
the builtin a caller would naturally catch (STYLE.md §5, gpiozero ``exc.py``).
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every error raised by :mod:`arena_table.hardware`."""


class ReaderDisconnected(HardwareError, ConnectionError):
    """The token reader's serial link is gone (unplugged, port vanished, read failed)."""


class ReaderNotFound(HardwareError, LookupError):
    """No serial port matches the reader's spec (path or ``usb:VID:PID[:SERIAL]``)."""


class ProtocolError(HardwareError, ValueError):
    """A line from the reader breaks firmware/PROTOCOL.md (checksum, seq, fields)."""


class BadUid(HardwareError, ValueError):
    """A tag UID that is not 4, 7 or 10 bytes of hex once separators and check byte are removed."""


class RegistryError(HardwareError, ValueError):
    """A tag registry request that cannot be honoured (bad object name, unreadable file)."""
