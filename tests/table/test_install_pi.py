"""``make install-pi`` into a temporary root (DESTDIR): the files, the unit ``systemd-analyze verify``
accepts, an upgrade that keeps the data, and ``uninstall-pi`` that removes all but the data."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
pytestmark = pytest.mark.slow  # a real venv and pip install of the tree (--no-deps)


def make(target: str, destdir: Path) -> str:
    env = {**os.environ, "DESTDIR": str(destdir), "ARENA_PIP_ARGS": "--no-deps"}
    env.pop("MAKEFLAGS", None)
    done = subprocess.run(["make", "-s", "-C", str(ROOT), target, f"DESTDIR={destdir}"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def verify(destdir: Path) -> subprocess.CompletedProcess:
    """``systemd-analyze verify`` of the installed unit, inside ``destdir`` (``--root``): the unit's
    ExecStart must be an executable there; the system's own units are copied in beside it."""
    units = Path("/usr/lib/systemd/system")
    if not (destdir / "usr/lib/systemd/system").exists():
        shutil.copytree(units, destdir / "usr/lib/systemd/system", symlinks=True)
    return subprocess.run(["systemd-analyze", "verify", f"--root={destdir}", "arena-table.service"],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    destdir = tmp_path_factory.mktemp("root")
    out = make("install-pi", destdir)
    return destdir, out


def test_the_install_lays_out_program_venv_data_and_service(installed):
    destdir, out = installed
    assert (destdir / "opt/arena-table/src/pyproject.toml").is_file()
    assert not (destdir / "opt/arena-table/src/.git").exists()
    venv = destdir / "opt/arena-table/venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()  # picamera2, lgpio from apt
    assert os.access(venv / "bin/arena-table", os.X_OK)
    assert os.readlink(destdir / "usr/local/bin/arena-table") == "/opt/arena-table/venv/bin/arena-table"
    assert (destdir / "var/lib/arena-table").is_dir()
    unit = (destdir / "etc/systemd/system/arena-table.service").read_text()
    for line in ("User=arena-table", "SupplementaryGroups=gpio video dialout", "After=network-online.target",
                 "Restart=on-failure", "StartLimitBurst=5", "ProtectSystem=strict",
                 "ReadWritePaths=/var/lib/arena-table", "NoNewPrivileges=yes", "PrivateTmp=yes",
                 "StandardOutput=journal", "WantedBy=multi-user.target",
                 "ExecStart=/opt/arena-table/venv/bin/arena-table run --config /etc/arena-table/config.toml"):
        assert line in unit
    assert "@" not in unit.replace("# @PREFIX@, @DATA@ and @ETC@", "")  # every placeholder filled in
    assert "program in" in out and "service" in out


def test_the_installed_configuration_passes_config_check(installed, capsys):
    """The Pi's config.toml (the data folder, the whole network, the GPIO lights) and the example
    listing every key are both files ``run --config`` takes."""
    from arena_table.cli import main
    from arena_table.table.config import load

    destdir, _ = installed
    etc = destdir / "etc/arena-table"
    for name in ("config.toml", "config.example.toml"):
        assert main(["config", "check", str(etc / name)]) == 0, capsys.readouterr()
    cfg = load(etc / "config.toml").config
    assert (str(cfg.data.db_path), cfg.web.host, cfg.leds.kind) == ("/var/lib/arena-table/table.db", "0.0.0.0", "gpio")


def test_a_wrong_pin_type_in_the_config_is_named(tmp_path, capsys):
    from arena_table.cli import main

    bad = tmp_path / "config.toml"
    bad.write_text('[leds]\nkind = "gpio"\nseat_pins = ["17", 27]\n')
    assert main(["config", "check", str(bad)]) != 0
    assert "leds.seat_pins" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (apt systemd)")
def test_the_unit_passes_systemd_analyze_verify(installed):
    destdir, _ = installed
    done = verify(destdir)
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (apt systemd)")
def test_verify_fails_a_unit_whose_program_is_missing(tmp_path):
    """The check itself: the same unit with no program installed is refused."""
    unit = tmp_path / "etc/systemd/system/arena-table.service"
    unit.parent.mkdir(parents=True)
    unit.write_text((ROOT / "scripts/pi/arena-table.service").read_text().replace("@PREFIX@", "/opt/arena-table")
                    .replace("@DATA@", "/var/lib/arena-table").replace("@RUN_ARGS@", ""))
    done = verify(tmp_path)
    assert done.returncode != 0 and "is not executable" in done.stderr


def test_an_upgrade_keeps_the_data_and_the_config_and_uninstall_keeps_only_them(installed):
    """Last in this file: it upgrades, then uninstalls, the module's installed root."""
    tmp_path, _ = installed
    data = tmp_path / "var/lib/arena-table"
    kept = {"table.db": b"SQLite format 3\x00 the log", "pin.txt": b"246810\n", "secret.key": b"k" * 32,
            "dice/taught-d6.json": b'{"faces": 6}', "media/roll-1.jpg": b"\xff\xd8"}
    for name, body in kept.items():
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_bytes(body)
    config = tmp_path / "etc/arena-table/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[web]\nport = 8080\n")
    stale = tmp_path / "opt/arena-table/src/arena_table/gone.py"
    stale.write_text("# a module an upgrade removed\n")

    make("install-pi", tmp_path)  # git pull && sudo make install-pi
    assert {n: (data / n).read_bytes() for n in kept} == kept
    assert config.read_text() == "[web]\nport = 8080\n"
    assert not stale.exists()  # the program is replaced whole

    out = make("uninstall-pi", tmp_path)
    assert not (tmp_path / "opt/arena-table").exists()
    assert not (tmp_path / "etc/systemd/system/arena-table.service").exists()
    assert not (tmp_path / "usr/local/bin/arena-table").is_symlink()
    assert {n: (data / n).read_bytes() for n in kept} == kept and config.exists()
    assert "kept /var/lib/arena-table" in out
