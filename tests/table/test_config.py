"""The configuration: defaults < file < flags, every key checked, ``config show``/``check``, and
the service started with a file of every key and with an empty one."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from arena_table.cli import main
from arena_table.cli.common import free_port
from arena_table.table import config_sections
from arena_table.table.config import (CameraSettings, ConfigError, DiceSettings, TableConfig, example_file, keys,
                                      load)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "config.toml"


def every_key(text: str) -> str:
    """``examples/config.toml`` with every key's line un-commented."""
    return re.sub(r"^# ([a-z_]+ = .*?)(   # unset by default)?$", r"\1", text, flags=re.M)


def test_the_example_file_is_the_generated_one_and_lists_every_key():
    assert EXAMPLE.read_text(encoding="utf-8") == example_file(), \
        "examples/config.toml is stale: write arena_table.table.config.example_file() to it"
    full = every_key(example_file())
    shown = {f"{section}.{key}" for section, body in __import__("tomllib").loads(full).items() for key in body}
    assert shown == set(keys()) and len(keys()) == 54


def test_precedence_is_defaults_then_file_then_flags(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('[web]\nport = 9001\nhost = "0.0.0.0"\n[camera]\nsettle_s = 1\n')
    loaded = load(f, {"web.port": (9002, "--port")})
    assert (loaded.config.web.port, loaded.config.web.host, loaded.config.camera.settle_s) == (9002, "0.0.0.0", 1.0)
    assert loaded.origin["web.port"] == "flag --port"
    assert loaded.origin["web.host"] == f"file {f}"
    assert loaded.origin["web.max_clients"] == "default" and loaded.config.web.max_clients == 200
    assert load().config == TableConfig()


def test_camera_and_dice_keys_are_checked(tmp_path):
    def refused(body: str) -> str:
        f = tmp_path / "c.toml"
        f.write_text(body)
        with pytest.raises(ConfigError) as err:
            load(f)
        return str(err.value)

    f = tmp_path / "ok.toml"
    f.write_text('[camera]\nsettle_s = 0.6\nsettle_mode = "whole"\n')
    assert (load(f).config.camera.settle_s, load(f).config.camera.settle_mode) == (0.6, "whole")
    assert "unknown key camera.settle (known in [camera]: source, " in refused("[camera]\nsettle = 0.6\n")
    assert "unknown section [camra]" in refused("[camra]\nsettle_s = 0.6\n")
    assert "no such file" in refused('[camera]\ncalibration = "/nonexistent/calib.json"\n')
    assert "calibration /tmp: is a folder; name the calibration file" in refused('[camera]\ncalibration = "/tmp"\n')
    for body, message in [('[camera]\nstill_frames = "abc"', "camera.still_frames: must be a whole number from 1, got 'abc'"),
                          ("[camera]\nfps = 0", "camera.fps: must be a number above 0"),
                          ("[camera]\nfps = -5", "camera.fps: must be a number above 0"),
                          ('[camera]\nsettle_s = "abc"', "camera.settle_s: must be a number above 0"),
                          ('[camera]\nsettle_mode = "fast"', 'camera.settle_mode: must be "moved" or "whole"'),
                          ('[camera]\nrealtime = "maybe"', "camera.realtime: must be true or false"),
                          ("[camera]\nsize = [1280]", "camera.size: must be [width, height]"),
                          ("[camera]\ncalibration = 5", "camera.calibration: must be a file path"),
                          ("[camera]\nbackoff_factor = 0.5", "camera.backoff_factor: must be a number from 1"),
                          ("[dice]\nmin_confidence = 1.5", "dice.min_confidence: must be a number from 0 to 1"),
                          ("[dice]\nlogo_face = 7", "dice.logo_face: must be a face value, a whole number from 1 to 6"),
                          ("[dice]\nlogo_face = true", "dice.logo_face: must be a face value"),
                          ("[dice]\nsize_check = 0.5", "dice.size_check: must be 0 (off) or a number above 1"),
                          ('[web]\npin = "12ab"', "web.pin: the PIN must be 4 to 12 digits, got '12ab'"),
                          ('[leds]\nseats = ["Ann"]', "leds.seats: names the LED seats: give --leds gpio or --leds mock")]:
        assert f"{tmp_path / 'c.toml'}: {message}" in refused(body + "\n")


def test_a_flag_value_is_named_by_its_flag(tmp_path):
    with pytest.raises(ConfigError, match=r"^--port: must be a whole number from 1 to 65535, got 0$"):
        load(overrides={"web.port": (0, "--port")})


def test_a_bad_file_value_is_refused_even_where_a_flag_overrides_it(tmp_path):
    # `config check` refuses this file; `run --config c.toml --port 9000` must too, naming the file's key
    (tmp_path / "c.toml").write_text('[web]\nport = "eighty"\n')
    with pytest.raises(ConfigError, match=r"c\.toml: web\.port: must be a whole number from 1 to 65535, got 'eighty'$"):
        load(tmp_path / "c.toml", overrides={"web.port": (9000, "--port")})
    (tmp_path / "c.toml").write_text("[web]\nport = 8080\n")
    assert load(tmp_path / "c.toml", overrides={"web.port": (9000, "--port")}).config.web.port == 9000


def test_reader_settings_reach_the_reader():
    # [dice]: a logo face mapped to 1, a stricter confidence, the size check off
    import numpy as np

    from arena_table.table.camera_loop import build_camera
    from arena_table.table.camera_settings import default_reader
    from arena_table.vision.render import DieSpec, TableSpec, render_table

    dice = DiceSettings(logo_face=1, min_confidence=0.8, size_check=0)
    cfg = dice.reader_config(None)
    assert (dict(cfg.logo_faces), cfg.min_confidence, cfg.size_check_ratio) == ({"logo": 1}, 0.8, 0.0)
    assert dice.reader_config(40.0).die_size_px == pytest.approx((25.0, 64.0))
    logo = DieSpec(1, (320.0, 240.0), 34.0, 17.0, body=(235, 240, 240), pip=(40, 40, 200),
                   pips=((0.0, 0.0),), pip_radius=0.26)
    frame = render_table(TableSpec(640, 480, dice=(logo,), background=(70, 110, 60)), np.random.default_rng(0))[0]
    assert default_reader()(frame).dice[0].status == "unreadable"
    assert default_reader(None, dice)(frame).values == (1,)
    loop = build_camera(object(), "none", CameraSettings(settle_s=0.5), dice)
    assert loop.dice == dice and loop.detector.config.settle_s == 0.5


def test_default_camera(monkeypatch):
    monkeypatch.setattr(config_sections, "picamera2_available", lambda: False)
    monkeypatch.setattr(config_sections.Path, "exists", lambda self: False)
    assert config_sections.default_camera() == "sim"
    monkeypatch.setattr(config_sections.Path, "exists", lambda self: str(self) == "/dev/video0")
    assert config_sections.default_camera() == "0"
    monkeypatch.setattr(config_sections, "picamera2_available", lambda: True)
    assert config_sections.default_camera() == "picamera2"
    assert CameraSettings(source="none").device() is None and CameraSettings(source="DIR").device() == "DIR"


def test_config_show_says_where_each_value_came_from(tmp_path, capsys):
    f = tmp_path / "c.toml"
    f.write_text('[web]\nport = 9001\n[camera]\nsource = "none"\n')
    assert main(["config", "show", "--config", str(f), "--port", "9002", "--seats", "Ann,Bo", "--leds", "mock"]) == 0
    out = capsys.readouterr().out
    assert "port = 9002   # flag --port\n" in out
    assert f'source = "none"   # file {f}\n' in out
    assert 'seats = ["Ann", "Bo"]   # flag --seats\n' in out
    assert "max_clients = 200   # default\n" in out and "# fps unset   # default\n" in out


def test_config_check_names_a_bad_key_or_value(tmp_path, capsys):
    f = tmp_path / "c.toml"
    f.write_text("[web]\nprot = 9001\n")
    assert main(["config", "check", str(f)]) == 1
    assert capsys.readouterr().err == (f"error: {f}: unknown key web.prot (known in [web]: host, port, pin, "
                                       "max_clients, streams_per_address, tv_addresses, trusted_proxy, public_url)\n")
    f.write_text("[web]\nport = 70000\n")
    assert main(["config", "check", str(f)]) == 1
    assert capsys.readouterr().err == f"error: {f}: web.port: must be a whole number from 1 to 65535, got 70000\n"
    f.write_text('[game]\nname = "chess"\n')
    assert main(["config", "check", str(f)]) == 1
    assert "game.name: unknown game 'chess'" in capsys.readouterr().err
    f.write_text("[web\n")
    assert main(["config", "check", str(f)]) == 1
    assert f"error: {f}: not a TOML file" in capsys.readouterr().err
    assert main(["config", "check", str(EXAMPLE)]) == 0
    assert main(["config", "check", str(tmp_path / "missing.toml")]) == 1


def test_config_check_names_a_bad_counters_key(tmp_path, capsys):
    f = tmp_path / "c.toml"
    f.write_text('[counters]\nslots = [{hero = "knight", box_px = [0, 600, 80, 80]},\n'
                 '         {hero = "trapper", colour = "yellow", box_px = [300, 600, 80, 80]}]\n')
    assert main(["config", "check", str(f)]) == 1
    assert capsys.readouterr().err == (f"error: {f}: counters.slots: slot 2 (trapper): unknown key 'colour' "
                                       "(known: hero, power, box_mm, box_px)\n")
    f.write_text('[[counters.slots]]\nhero = "knight"\npower = "wrath"\nbox_mm = [-60, 0, 40, 40]\n')
    assert main(["config", "check", str(f)]) == 1
    assert capsys.readouterr().err == (f"error: {f}: counters.slots: slot 1 (knight): power must be rage, focus, "
                                       "mana, got 'wrath'\n")
    f.write_text('[counters]\nstable_read = 2\n')
    assert main(["config", "check", str(f)]) == 1
    assert capsys.readouterr().err == (f"error: {f}: unknown key counters.stable_read (known in [counters]: slots, "
                                       "interval_s, stable_reads)\n")
    f.write_text('[[counters.slots]]\nhero = "knight"\npower = "rage"\nbox_mm = [-60, 0, 40, 40]\n'
                 '[[counters.slots]]\nhero = "trapper"\nbox_px = [300, 600, 80, 80]\n')
    assert main(["config", "check", str(f)]) == 0
    slots = load(f).config.counters.slots
    assert [dict(s) for s in slots] == [{"hero": "knight", "power": "rage", "box_mm": (-60.0, 0.0, 40.0, 40.0)},
                                        {"hero": "trapper", "box_px": (300.0, 600.0, 80.0, 80.0)}]
    assert main(["config", "show", "--config", str(f)]) == 0
    shown = capsys.readouterr().out
    assert ('slots = [{ hero = "knight", power = "rage", box_mm = [-60.0, 0.0, 40.0, 40.0] }, '
            '{ hero = "trapper", box_px = [300.0, 600.0, 80.0, 80.0] }]   # file') in shown


@pytest.mark.parametrize("which", ["every key", "no key"])
def test_the_service_starts_with_a_file_of_every_key_and_with_an_empty_one(tmp_path, which):
    port = free_port()
    body = every_key(example_file()) if which == "every key" else ""
    # the file's own address and log, as an installed /etc/arena-table/config.toml would give them
    body = body.replace("port = 8000", f"port = {port}").replace('db = "var/arena-table.db"',
                                                                   f"db = {json.dumps(str(tmp_path / 't.db'))}")
    if which == "every key":
        body = body.replace('source = "auto"', 'source = "none"')  # the test's own: no camera thread
    f = tmp_path / "config.toml"
    f.write_text(body)
    flags = [] if which == "every key" else ["--port", str(port), "--db", str(tmp_path / "t.db"), "--camera", "none"]
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--config", str(f), *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline, status = time.monotonic() + 60, None
        while time.monotonic() < deadline and status is None and proc.poll() is None:
            try:
                status = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=5).read())
            except OSError:
                time.sleep(0.2)
        assert status is not None, proc.communicate(timeout=20)
        state = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5).read())
        assert state["state"]["game"] == "dice-tray"
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "arena-table: stopped" in out
