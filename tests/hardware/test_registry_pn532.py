"""Tag registry (SQLite) and the PN532-on-UART backend (with a stand-in for Adafruit's driver)."""

from __future__ import annotations

import threading

import pytest

from arena_table.hardware.errors import BadUid, RegistryError
from arena_table.hardware.pn532_uart import Pn532TokenReader
from arena_table.hardware.registry import Binding, TagRegistry


def test_bind_lookup_forget_across_spellings(tmp_path):
    clock = iter([100.0, 200.0, 300.0]).__next__
    with TagRegistry(tmp_path / "tags.db", clock=clock) as reg:
        assert reg.bind("04:a1:b2:c3", "theosis:hero:rochon") == Binding("04A1B2C3", "theosis:hero:rochon", 100.0)
        reg.bind("0x04A1B2C3D4E5F6", "demigods:hero:trapper")
        assert reg.lookup("04-A1-B2-C3") == "theosis:hero:rochon"
        assert reg.lookup("0A0B0C0D") == ""
        reg.bind("04 A1 B2 C3", "theosis:power:fiery-purge")  # rebinding replaces
        assert reg.bindings() == [Binding("04A1B2C3D4E5F6", "demigods:hero:trapper", 200.0),
                                  Binding("04A1B2C3", "theosis:power:fiery-purge", 300.0)]
    with TagRegistry(tmp_path / "tags.db") as reg:  # durable
        assert reg.lookup("04A1B2C3") == "theosis:power:fiery-purge"
        assert reg.forget("04:a1:b2:c3") is True
        assert reg.forget("04A1B2C3") is False
        assert [b.uid for b in reg.bindings()] == ["04A1B2C3D4E5F6"]


@pytest.mark.parametrize("name", ["Theosis:hero:rochon", "rochon", "theosis::rochon", "theosis:hero:", "a b:c"])
def test_malformed_object_names_are_refused(name):
    with TagRegistry(":memory:") as reg, pytest.raises(RegistryError, match="lower-case words"):
        reg.bind("04A1B2C3", name)


def test_bad_uid_is_refused():
    with TagRegistry(":memory:") as reg, pytest.raises(BadUid):
        reg.bind("04A1B2", "theosis:hero:rochon")


def test_not_a_database_is_a_registry_error(tmp_path):
    bad = tmp_path / "tags.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(RegistryError, match="not a tag registry"):
        TagRegistry(bad)


class FakeChip:
    """Stands in for ``adafruit_pn532.uart.PN532_UART``: answers polls from a script."""

    firmware_version = (0x32, 1, 6, 7)

    def __init__(self, script):
        self.script = list(script)
        self.done = threading.Event()
        self.last = None

    def read_passive_target(self, timeout=1):
        if not self.script:  # script over: the table stays as it is
            self.done.set()
            threading.Event().wait(0.01)
            return self.last
        item = self.script.pop(0)
        if not self.script:
            self.done.set()
        if isinstance(item, Exception):
            raise item
        self.last = item
        return item


def run_pn532(script, opens=None, **kw):
    changes, statuses = [], []
    chips = [FakeChip(s) for s in script]
    it = iter(chips)
    opener = opens or (lambda path: next(it))
    reader = Pn532TokenReader("/dev/serial0", changes.append, statuses.append, open_pn532=opener, retry=0.01, **kw)
    with reader:
        for chip in chips:
            assert chip.done.wait(5)
        threading.Event().wait(0.05)  # the last polls of the script are handled
    return [(c.pad, c.uid, c.placed) for c in changes], statuses


def test_pn532_reports_transitions_with_debounce():
    uid7 = bytearray.fromhex("04a1b2c3d4e5f6")
    other = bytearray.fromhex("0a0b0c0d")
    script = [None, uid7, uid7, None, None, uid7, uid7, None, None, None, other, other, b"\x04\xa1", other]
    changes, statuses = run_pn532([script])
    assert changes == [(0, "04A1B2C3D4E5F6", True), (0, "04A1B2C3D4E5F6", False), (0, "0A0B0C0D", True)]
    assert statuses[0].state == "up" and statuses[0].readers == {0: "ok:pn532-v1.6"}


def test_pn532_failure_is_reported_and_recovered():
    uid4 = bytearray.fromhex("0a0b0c0d")
    changes, statuses = run_pn532([[uid4, OSError("read failed")], [uid4, None, None, None]])
    assert changes == [(0, "0A0B0C0D", True), (0, "0A0B0C0D", False)]  # the tag stays across the re-open
    assert [s.state for s in statuses][:3] == ["up", "down", "up"]
    assert statuses[1].readers == {0: "fail:read failed"}


def test_pn532_missing_library_or_chip_shows_down():
    statuses = []

    def no_chip(path):
        raise RuntimeError("Failed to detect the PN532")

    reader = Pn532TokenReader("/dev/serial0", lambda c: None, statuses.append, open_pn532=no_chip, retry=0.01)
    with reader:
        for _ in range(200):
            if statuses:
                break
            threading.Event().wait(0.01)
    assert statuses[0].state == "down" and "Failed to detect" in statuses[0].detail


def test_pn532_starts_from_the_presence_the_log_knows():
    """After a service restart: the tag on pad 0 rests (not placed again) and is then lifted; a tag
    the log has on pad 2, which one PN532 does not have, is removed once the chip answers."""
    uid7 = bytearray.fromhex("04a1b2c3d4e5f6")
    changes, statuses = run_pn532([[uid7, uid7, None, uid7, None, None, None]],
                                  present={0: "04:a1:b2:c3:d4:e5:f6", 2: "0A0B0C0D"})
    assert changes == [(2, "0A0B0C0D", False), (0, "04A1B2C3D4E5F6", False)]
    assert statuses[0].state == "up"
