"""``--tokens sim`` through the composition root: sim firmware -> pty -> driver -> engine."""

from __future__ import annotations

import time

import pytest

from arena_table.hardware.registry import TagRegistry
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, TokenSettings, WebSettings
from arena_table.table.tokens import SimTokenDevice, TokenDevice, build_tokens, enroll_tag


def wait(pred, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


@pytest.fixture
def table(tmp_path):
    with TagRegistry(tmp_path / "tags.db") as reg:
        reg.bind("04:a1:b2:c3", "theosis:hero:rochon")
    with Table(TableConfig(data=DataSettings(db=tmp_path / "log.db"), camera=CameraSettings(source="none"),
                           tokens=TokenSettings(reader="sim"), web=WebSettings(pin="123456"))) as t:
        wait(lambda: t.status().get("tokens", {}).get("state") == "up")
        yield t


def tag_events(table):
    return [(r.event.KIND, r.event.pad, r.event.uid, r.event.object) for r in table.rows()
            if r.event.KIND in ("tag-on", "tag-off")]


def test_placing_a_known_token_reaches_the_rules_with_its_object(table):
    dev = next(d for d in table.devices if isinstance(d, TokenDevice))
    dev.place(2, "04-A1-B2-C3")
    wait(lambda: table.state.tags)
    assert table.state.tags == ((2, "04A1B2C3", "theosis:hero:rochon"),)
    dev.remove(2)
    wait(lambda: not table.state.tags)
    assert tag_events(table) == [("tag-on", 2, "04A1B2C3", "theosis:hero:rochon"),
                                 ("tag-off", 2, "04A1B2C3", "theosis:hero:rochon")]
    status = table.status()["tokens"]
    assert status["sim"] is True and status["backend"] == "sim"
    assert status["readers"] == {"0": "ok:sim", "1": "ok:sim", "2": "ok:sim", "3": "ok:sim"}


def test_unknown_tag_is_offered_for_enrolment_and_announced_once_bound(table):
    dev = next(d for d in table.devices if isinstance(d, TokenDevice))
    assert dev.last_unknown_uid() is None
    dev.place(0, "0A0B0C0D")
    wait(lambda: table.state.tags)
    assert dev.last_unknown_uid() == "0A0B0C0D"
    assert table.state.tags == ((0, "0A0B0C0D", ""),)
    assert dev.pads()[0] == {"pad": 0, "uid": "0A0B0C0D", "object": "", "health": "ok:sim"}
    dev.enroll(dev.last_unknown_uid(), "theosis:power:fiery-purge")
    assert dev.last_unknown_uid() is None
    assert table.state.tags == ((0, "0A0B0C0D", "theosis:power:fiery-purge"),)
    assert dev.pads()[0]["object"] == "theosis:power:fiery-purge"
    assert len(dev.pads()) == 4
    assert tag_events(table) == [("tag-on", 0, "0A0B0C0D", ""), ("tag-on", 0, "0A0B0C0D", "theosis:power:fiery-purge")]


def test_only_the_simulated_reader_can_lay_tags(tmp_path):
    t = Table(TableConfig(data=DataSettings(db=tmp_path / "log.db"), camera=CameraSettings(source="none"),
                          web=WebSettings(pin="1111")))
    assert isinstance(build_tokens(t.ports("tokens"), "sim"), SimTokenDevice)
    for spec in ("/dev/ttyACM0", "usb:2E8A:0005", "pn532:/dev/serial0"):
        dev = build_tokens(t.ports("tokens"), spec)
        assert not hasattr(dev, "place") and not hasattr(dev, "remove")
        assert callable(dev.pads) and callable(dev.last_unknown_uid)
    with pytest.raises(ValueError, match="usb:VID:PID"):
        build_tokens(t.ports("tokens"), "usb:pico")
    t.log.close()


def test_enroll_tag_checks_the_catalogue_and_announces_the_tag(table):
    dev = next(d for d in table.devices if isinstance(d, TokenDevice))
    dev.place(1, "04112233")
    wait(lambda: table.state.tags)
    with pytest.raises(ValueError, match="unknown game 'nosuchgame'"):
        enroll_tag(table, "04112233", "nosuchgame:hero:x")
    with pytest.raises(ValueError, match="3 bytes"):
        enroll_tag(table, "041122", "dice-tray:die:red")
    assert enroll_tag(table, "04:11:22:33", "dice-tray:die:red") == {"uid": "04112233", "object": "dice-tray:die:red"}
    assert table.state.tags == ((1, "04112233", "dice-tray:die:red"),)


def test_enroll_tag_without_a_token_device_writes_the_registry(tmp_path):
    t = Table(TableConfig(data=DataSettings(db=tmp_path / "log.db"), camera=CameraSettings(source="none"),
                          web=WebSettings(pin="1111")))
    assert enroll_tag(t, "0x0A0B0C0D", "dice-tray:die:red") == {"uid": "0A0B0C0D", "object": "dice-tray:die:red"}
    with TagRegistry(tmp_path / "tags.db") as reg:
        assert reg.lookup("0A0B0C0D") == "dice-tray:die:red"
    t.log.close()


@pytest.mark.perf
def test_service_restart_rebuilds_presence_from_the_log(tmp_path):
    """A tag resting through a restart is recorded once; one taken away while the service was
    down gets its tag-off, one laid down meanwhile its tag-on (PROTOCOL.md, host rule 2)."""
    from arena_table.table.tokens_sim import SimFirmware

    with TagRegistry(tmp_path / "tags.db") as reg:
        reg.bind("04:a1:b2:c3", "theosis:hero:rochon")
    config = dict(data=DataSettings(db=tmp_path / "log.db"), camera=CameraSettings(source="none"),
                  web=WebSettings(pin="123456"))
    with SimFirmware(pads=3) as sim:
        sim.place(0, "04A1B2C3")
        sim.place(1, "0A0B0C0D")
        with Table(TableConfig(tokens=TokenSettings(reader=sim.port), **config)) as t:
            wait(lambda: len(t.state.tags) == 2)
        sim.remove(1)  # while the service is down
        sim.place(2, "04112233")
        wait(lambda: sim.scanner.pads[1].uid is None)  # the firmware's debounce has let it go
        with Table(TableConfig(tokens=TokenSettings(reader=sim.port), **config)) as t:
            wait(lambda: t.status().get("tokens", {}).get("state") == "up")
            wait(lambda: len(tag_events(t)) == 4)
            time.sleep(0.3)  # the HELLO answers' snapshots: nothing more
            assert tag_events(t) == [("tag-on", 0, "04A1B2C3", "theosis:hero:rochon"), ("tag-on", 1, "0A0B0C0D", ""),
                                     ("tag-off", 1, "0A0B0C0D", ""), ("tag-on", 2, "04112233", "")]
            assert sorted(t.state.tags) == [(0, "04A1B2C3", "theosis:hero:rochon"), (2, "04112233", "")]
            dev = next(d for d in t.devices if isinstance(d, TokenDevice))
            assert dev.reader.present == {0: "04A1B2C3", 2: "04112233"}


def test_logged_presence_is_plain_pad_to_uid(tmp_path):
    from arena_table.rules import TagPlaced, TagRemoved
    from arena_table.table.tokens import logged_presence

    t = Table(TableConfig(data=DataSettings(db=tmp_path / "log.db"), camera=CameraSettings(source="none"),
                          web=WebSettings(pin="1111")))
    assert logged_presence(t.state) == {}
    for ev in (TagPlaced(pad=0, uid="04A1B2C3"), TagPlaced(pad=1, uid="0A0B0C0D", object="dice-tray:die:red"),
               TagPlaced(pad=0, uid="04112233"), TagRemoved(pad=1, uid="0A0B0C0D")):
        t.submit(ev)
    assert logged_presence(t.state) == {0: "04112233"}
    t.log.close()
