"""Finding the token reader's serial port: a device path, or a USB identity found again under a
new tty name after an unplug (pyserial's ``serial.tools.list_ports``)."""

from __future__ import annotations

import logging
import os
from typing import Any, Callable, Iterable

import serial.tools.list_ports

from .errors import ReaderNotFound

log = logging.getLogger(__name__)

PortLister = Callable[[], Iterable[Any]]
"""Returns objects with ``device``, ``vid``, ``pid``, ``serial_number`` (pyserial's ``ListPortInfo``)."""


class PortLocator:
    """Finds the reader's port from its spec and recognises it again under a new name.

    Args:
        spec: a device path (``/dev/ttyACM0``) or ``usb:VID:PID[:SERIAL]`` (hex VID/PID).
        list_ports: pyserial's ``serial.tools.list_ports.comports`` or a test double.

    Raises:
        ValueError: a ``usb:`` spec that is not ``usb:VID:PID[:SERIAL]`` with hex ids.
    """

    def __init__(self, spec: str, list_ports: PortLister = serial.tools.list_ports.comports) -> None:
        self.spec = spec
        self.list_ports = list_ports
        self.identity: tuple[int, int, str | None] | None = None
        self.path: str | None = None
        if spec.startswith("usb:"):
            parts = spec.split(":")
            try:
                vid, pid = int(parts[1], 16), int(parts[2], 16)
            except (IndexError, ValueError):
                raise ValueError(f"port spec {spec!r}: want usb:VID:PID[:SERIAL] with hex ids") from None
            if len(parts) > 4:
                raise ValueError(f"port spec {spec!r}: want usb:VID:PID[:SERIAL]")
            self.identity = (vid, pid, parts[3] if len(parts) == 4 else None)
        else:
            self.path = spec

    def _match(self) -> str | None:
        vid, pid, serial_no = self.identity  # type: ignore[misc]
        for info in self.list_ports():
            if info.vid == vid and info.pid == pid and (serial_no is None or info.serial_number == serial_no):
                return info.device
        return None

    def find(self) -> str:
        """The device path to open now.

        Raises:
            ReaderNotFound: the path is gone and no port has the remembered USB identity.
        """
        if self.path and os.path.exists(self.path):
            return self.path
        if self.identity is not None:
            found = self._match()
            if found:
                if self.path and found != self.path:
                    log.info("token reader %s found again as %s", self.describe(), found)
                self.path = found
                return found
        raise ReaderNotFound(f"no port for token reader {self.describe()}")

    def learn(self, path: str) -> None:
        """Remember the USB identity of ``path`` (if the lister knows it) for finding it again."""
        real = os.path.realpath(path)
        for info in self.list_ports():
            if (info.device == path or os.path.realpath(info.device) == real) and info.vid is not None:
                self.identity = (info.vid, info.pid, info.serial_number or None)
                return

    def describe(self) -> str:
        if self.identity is None:
            return self.spec
        vid, pid, serial_no = self.identity
        return f"{self.path or ''} usb:{vid:04X}:{pid:04X}" + (f":{serial_no}" if serial_no else "")
