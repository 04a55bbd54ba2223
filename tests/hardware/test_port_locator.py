"""Finding the reader's port by path or by USB identity (pyserial's list_ports, injected)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from arena_table.hardware.errors import ReaderNotFound
from arena_table.hardware.ports import PortLocator


@dataclass
class Info:
    device: str
    vid: int | None
    pid: int | None
    serial_number: str | None


PORTS = [Info("/dev/ttyAMA0", None, None, None), Info("/dev/ttyACM0", 0x2E8A, 0x0005, "AAAA"),
         Info("/dev/ttyACM1", 0x2E8A, 0x0005, "BBBB"), Info("/dev/ttyUSB0", 0x10C4, 0xEA60, "0001")]


def test_usb_spec_picks_the_port_with_that_serial_number():
    assert PortLocator("usb:2E8A:0005:BBBB", lambda: PORTS).find() == "/dev/ttyACM1"
    assert PortLocator("usb:2e8a:0005", lambda: PORTS).find() == "/dev/ttyACM0"  # first match
    assert PortLocator("usb:10C4:EA60", lambda: PORTS).find() == "/dev/ttyUSB0"


def test_no_match_names_what_was_looked_for():
    with pytest.raises(ReaderNotFound, match="usb:2E8A:0005:CCCC"):
        PortLocator("usb:2E8A:0005:CCCC", lambda: PORTS).find()


@pytest.mark.parametrize("spec", ["usb:", "usb:2E8A", "usb:xyz:0005", "usb:2E8A:0005:S:extra"])
def test_malformed_usb_spec(spec):
    with pytest.raises(ValueError, match="usb:VID:PID"):
        PortLocator(spec)


def test_a_vanished_path_is_found_again_by_its_learnt_identity(tmp_path):
    first = tmp_path / "ttyACM0"
    first.touch()
    ports = [Info(str(first), 0x2E8A, 0x0005, "BBBB")]
    loc = PortLocator(str(first), lambda: list(ports))
    assert loc.find() == str(first)
    loc.learn(str(first))
    first.unlink()
    ports[:] = [Info("/dev/ttyACM0", 0x2E8A, 0x0005, "AAAA"), Info("/dev/ttyACM3", 0x2E8A, 0x0005, "BBBB")]
    assert loc.find() == "/dev/ttyACM3"
    ports[:] = []
    with pytest.raises(ReaderNotFound):
        PortLocator(str(first), lambda: []).find()
