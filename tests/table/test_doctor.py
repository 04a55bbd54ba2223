"""``arena-table doctor``: one pass/warn/fail line a check, each warn and fail saying what to do."""

import time
from types import SimpleNamespace

import pytest

from arena_table.cli import main
from arena_table.hardware.led_driver import PinFactoryError, is_raspberry_pi
from arena_table.rules import parse
from arena_table.table import doctor
from arena_table.table.doctor import CHECKS, Finding, Probes, Setup, diagnose
from arena_table.table.log import EventLog


def probes(**over) -> Probes:
    """Probes of a bare machine (no camera, reader or Pi, a set clock), with ``over`` replaced."""
    base = dict(picamera2_cameras=lambda: None, usb_cameras=lambda: [], serial_ports=lambda: [],
                pin_factory=lambda: "mock", disk_free=lambda p: 50 * 1024**3, now=lambda: 1.8e9,
                ntp_synchronised=lambda: None, read_photo=lambda p: (list(doctor.SELFTEST_FACES), 0.5))
    return Probes(**{**base, **over})


def found(setup: Setup, **over) -> dict[str, Finding]:
    return {f.check: f for f in diagnose(setup, probes(**over))}


@pytest.fixture
def setup(tmp_path):
    return Setup(db=tmp_path / "t.db", data_dir=tmp_path)


@pytest.mark.skipif(is_raspberry_pi(), reason="this machine's own findings: not a Pi")
def test_on_this_machine_camera_readers_none_pin_factory_mock_exit_0_with_warnings(tmp_path, capsys):
    assert main(["doctor", "--db", str(tmp_path / "t.db")]) == 0
    out = capsys.readouterr().out.splitlines()
    lines = {line[6:20].strip(): line for line in out if line[:4] in ("pass", "warn", "fail")}
    assert list(lines) == ["camera", "readers", "pin factory", "disk space", "configuration", "clock", "log",
                           "control PIN", "model", "taught kinds"]
    assert lines["camera"].startswith("warn  camera        none")
    assert lines["readers"].startswith("warn  readers       none")
    assert lines["pin factory"].startswith("warn  pin factory   mock — not a Raspberry Pi")
    assert lines["model"].startswith("pass  model         read the bundled photo's 5 dice right")
    assert all(" — " in line for line in out if line.startswith(("warn", "fail")))  # what to do next
    assert out[-1].startswith("ready with warnings: camera, readers, pin factory")


def test_every_check_passes_on_a_ready_pi(setup):
    with EventLog(setup.db) as log:
        log.append(parse("roll faces=[3,5]"))
    (setup.data_dir / "pin.txt").write_text("246810\n")
    (setup.data_dir / "pin.txt").chmod(0o600)
    ready = found(setup, picamera2_cameras=lambda: ["imx708"], pin_factory=lambda: "lgpio", now=time.time,
                  serial_ports=lambda: [SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x0005)],
                  ntp_synchronised=lambda: True)
    assert {k: f.level for k, f in ready.items()} == {k: "pass" for k in ready} and len(ready) == len(CHECKS)
    assert ready["camera"].summary == "picamera2 imx708"
    assert ready["readers"].summary == "/dev/ttyACM0 (2E8A:0005)"
    assert ready["pin factory"].summary == "lgpio"
    assert ready["log"].summary.endswith("1 events (0 rejected); no table runs on this log")
    assert ready["control PIN"].summary == "246810"


def test_a_reader_the_table_is_set_to_use_and_not_plugged_in_fails(setup):
    setup.tokens = "usb:2E8A:0005"
    f = found(setup)["readers"]
    assert (f.level, f.summary) == ("fail", "none") and "usb:2E8A:0005" in f.advice


def test_a_pin_factory_that_cannot_open_fails_and_says_the_lights_stay_off(setup):
    def broken():
        raise PinFactoryError("GPIO pin factory lgpio failed (error: can not open gpiochip)")

    f = found(setup, pin_factory=broken)["pin factory"]
    assert f.level == "fail" and "can not open gpiochip" in f.advice and "lights off" in f.advice


@pytest.mark.parametrize("free, level", [(100 * 1024**2, "fail"), (600 * 1024**2, "warn"), (2 * 1024**3, "pass")])
def test_disk_space_of_the_data_folder(setup, free, level):
    f = found(setup, disk_free=lambda p: free)["disk space"]
    assert f.level == level and str(setup.data_dir) in f.summary


def test_a_clock_behind_the_log_fails(setup):
    """A Pi off the network boots with the time it last saved: events would go back in time."""
    with EventLog(setup.db) as log:
        log.append(parse("roll faces=[3,5]"))
    f = found(setup, now=lambda: time.time() - 3600)["clock"]
    assert f.level == "fail" and "behind the log's last event by 3600 s" in f.summary.replace("3599", "3600")
    assert "network" in f.advice
    assert found(setup, now=lambda: 0.0)["clock"].level == "fail"  # never set: 1970
    assert found(setup, now=time.time, ntp_synchronised=lambda: False)["clock"].level == "warn"


def test_a_misread_bundled_photo_fails_the_model(setup):
    f = found(setup, read_photo=lambda p: ([1, 2, 3, 4, 5], 0.4))["model"]
    assert f.level == "fail" and "not [1, 2, 3, 4, 6]" in f.summary


def test_the_bundled_photo_reads_as_labelled():
    faces, _ = doctor._read_photo(doctor.SELFTEST_PHOTO)
    assert tuple(faces) == doctor.SELFTEST_FACES == (1, 2, 3, 4, 6)


def test_a_config_file_that_is_not_toml_fails_and_exits_1(tmp_path, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text("[leds\nkind = gpio\n")
    assert main(["doctor", "--config", str(bad), "--db", str(tmp_path / "t.db")]) == 1
    captured = capsys.readouterr()
    assert f"fail  configuration {bad}: not a TOML file" in captured.out
    assert captured.err == "arena-table doctor: 1 failed (configuration): see above\n"


def test_the_config_names_the_log_and_data_folder(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "pin.txt").write_text("97531\n")
    (data / "pin.txt").chmod(0o600)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[data]\ndb = "{data / "table.db"}"\ndir = "{data}"\n')
    assert main(["doctor", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert f"event log {data / 'table.db'}" in out and "pass  control PIN   97531" in out


def test_a_check_that_breaks_is_a_failure_not_a_crash(setup):
    def boom():
        raise RuntimeError("probe broke")

    f = found(setup, usb_cameras=boom)["camera"]
    assert f.level == "fail" and "RuntimeError: probe broke" in f.summary
    assert len(found(setup, usb_cameras=boom)) == len(CHECKS)


def test_a_warning_without_advice_is_refused():
    with pytest.raises(ValueError, match="says what to do next"):
        Finding("camera", "warn", "none")
    with pytest.raises(ValueError, match="level 'bad'"):
        Finding("camera", "bad", "none", "x")


def test_a_running_table_shows_the_findings_on_the_control_page(tmp_path):
    """The same findings on the control page's status panel (doctor's checks but the pin factory and
    the model, which the lights and the camera report themselves)."""
    from arena_table.table.app import Table
    from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
    from arena_table.table.doctor import IN_SERVICE, Checkup
    from arena_table.webui.app import create_app, shutdown

    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"), web=WebSettings(pin="246810"))) as table:
        table.devices.append(Checkup(table, probes()).start())
        deadline = time.monotonic() + 10
        while "checks" not in table.status() and time.monotonic() < deadline:
            time.sleep(0.02)
        checks = table.status()["checks"]
        assert checks["state"] == "warn" and len(checks["findings"]) == len(IN_SERVICE)
        assert checks["detail"].startswith("camera: none (no picamera2")
        app = create_app(table, {"heartbeat": 0.3})
        try:
            client = app.test_client()
            token = client.get("/api/session").get_json()["csrf"]
            client.post("/login", json={"pin": "246810"}, headers={"X-CSRF-Token": token})
            page = client.get("/control").get_data(as_text=True)
            assert 'checks: <span class="state">warn</span>' in page
            assert '<li class="warn">warn · readers: none — plug the token reader' in page
            assert '<li class="pass">pass · disk space: 50.0 GiB free in' in page
            # the status board is public: the PIN is on no finding a spectator can read
            assert "246810" not in client.get("/api/state").get_data(as_text=True)
            assert "control PIN" not in [f["check"] for f in checks["findings"]]
        finally:
            shutdown(app)


def test_a_config_key_run_would_refuse_is_named(tmp_path, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text('[leds]\nkind = "gpio"\nseat_pins = [17, "27"]\n')
    assert main(["doctor", "--config", str(bad), "--db", str(tmp_path / "t.db")]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("fail  configuration"))
    assert f"{bad}: leds.seat_pins" in line and "arena-table config check" in line
