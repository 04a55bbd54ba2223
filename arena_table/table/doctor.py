"""``arena-table doctor``'s checks: one finding each, pass, warn or fail, and what to do next.

Each check looks at one thing a table needs (:data:`CHECKS`, in the order printed). What a check
reads of the machine comes through :class:`Probes`, so the tests put in a camera, a reader, a Pi or
a clock that this machine lacks. A warning never stops a table (it runs without its camera, readers
or lights); a failure is something ``arena-table run`` refuses or a table that would lose data.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

LEVELS = ("pass", "warn", "fail")

DISK_FAIL_BYTES = 200 * 1024**2
DISK_WARN_BYTES = 1024**3
"""Free space in the data folder below which doctor fails (200 MiB: a few hours of roll photos) or warns (1 GiB)."""

SELFTEST_PHOTO = Path(__file__).with_name("selftest.jpg")
SELFTEST_FACES = (1, 2, 3, 4, 6)
"""The bundled photo (1280x720 JPEG, five d6 drawn by ``vision/render.py`` from a fixed seed, not a
camera's photo) and its dice, sorted: the reader must read exactly these."""


@dataclass(frozen=True)
class Finding:
    """One check's result: ``level`` (pass, warn, fail), ``summary`` (what was found, short) and
    ``advice`` (what to do next; every warn and fail has one)."""

    check: str
    level: str
    summary: str
    advice: str = ""

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"finding level {self.level!r}: expected one of {LEVELS}")
        if self.level != "pass" and not self.advice:
            raise ValueError(f"{self.check}: a {self.level} finding says what to do next")

    def line(self) -> str:
        """``warn  camera        none — connect ...``"""
        return f"{self.level}  {self.check:<13} {self.summary}" + (f" — {self.advice}" if self.advice else "")

    def to_json(self) -> dict[str, str]:
        return {"check": self.check, "level": self.level, "summary": self.summary, "advice": self.advice}


def _picamera2_cameras() -> list[str] | None:
    """The cameras libcamera sees (``Picamera2.global_camera_info()``), or None without picamera2."""
    try:
        from picamera2 import Picamera2
    except Exception:  # ImportError, or a broken install that raises on import
        return None
    return [str(c.get("Model", "camera")) for c in Picamera2.global_camera_info()]


def _usb_cameras(sysfs: Path = Path("/sys/class/video4linux")) -> list[str]:
    """V4L2 devices driven by ``uvcvideo`` (USB webcams); a Pi's ISP and codec nodes are not cameras."""
    found = []
    for node in sorted(sysfs.glob("video*")):
        driver = node / "device" / "driver"
        if driver.exists() and driver.resolve().name == "uvcvideo":
            name = (node / "name").read_text().strip() if (node / "name").exists() else ""
            found.append(f"/dev/{node.name}" + (f" ({name})" if name else ""))
    return found


def _serial_ports() -> list[Any]:
    from serial.tools import list_ports

    return [p for p in list_ports.comports() if p.vid is not None]  # USB serial: a reader's Pico


def _pin_factory() -> str:
    """The pin factory a table would use here: ``lgpio`` (opened and closed again) or ``mock``.

    Raises:
        PinFactoryError: on a Pi whose lgpio is missing or cannot open the GPIO chip.
    """
    from arena_table.hardware.led_driver import is_raspberry_pi, make_pin_factory

    if not is_raspberry_pi():
        return "mock"
    make_pin_factory("lgpio").close()
    return "lgpio"


def _ntp_synchronised() -> bool | None:
    """``timedatectl``'s NTPSynchronized, or None where it cannot tell (no systemd, a container)."""
    import subprocess

    try:
        done = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"], capture_output=True,
                              text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    value = done.stdout.strip()
    return {"yes": True, "no": False}.get(value) if done.returncode == 0 else None


def _read_photo(path: Path) -> tuple[list[int], float]:
    from arena_table.vision.dice import DiceConfig, read_dice
    from arena_table.vision.dice_io import load_image

    started = time.monotonic()
    reading = read_dice(DiceConfig(), load_image(path))
    return sorted(d.value for d in reading.dice if d.value), time.monotonic() - started


@dataclass
class Probes:
    """What the checks read of the machine (the tests replace these)."""

    picamera2_cameras: Callable[[], list[str] | None] = _picamera2_cameras
    usb_cameras: Callable[[], list[str]] = _usb_cameras
    serial_ports: Callable[[], list[Any]] = _serial_ports
    pin_factory: Callable[[], str] = _pin_factory
    disk_free: Callable[[Path], int] = lambda p: shutil.disk_usage(p).free
    now: Callable[[], float] = time.time
    ntp_synchronised: Callable[[], bool | None] = _ntp_synchronised
    read_photo: Callable[[Path], tuple[list[int], float]] = _read_photo


@dataclass
class Setup:
    """What the table is told: its files and devices (from the configuration and ``doctor``'s flags)."""

    db: Path
    data_dir: Path
    data_dir_from: str = "the folder of --db"
    """Where ``data_dir`` was named (``--data-dir``, the config's ``data.dir``), for the PIN's finding."""
    config_file: Path | None = None
    config_problem: str = ""
    """Why the configuration file could not be used, or ""."""
    camera: str | None = None
    tokens: str | None = None
    leds: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# -- the checks -------------------------------------------------------------------------------------
def check_camera(setup: Setup, probes: Probes) -> Finding:
    cams = probes.picamera2_cameras()
    usb = probes.usb_cameras()
    found = [f"picamera2 {c}" for c in cams or ()] + [f"USB {u}" for u in usb]
    if found:
        return Finding("camera", "pass", ", ".join(found))
    if setup.camera not in (None, "sim", "none") and setup.camera and not setup.camera.isdigit() \
            and Path(setup.camera).exists():
        return Finding("camera", "pass", f"{setup.camera} (a recording)")
    why = "" if cams is not None else " (no picamera2: sudo apt install python3-picamera2)"
    return Finding("camera", "warn", "none" + why,
                   "connect the Camera Module's ribbon (power off first) or a USB webcam; until then no dice are "
                   "read from the tray (--camera sim plays with a simulated one)")


def check_readers(setup: Setup, probes: Probes) -> Finding:
    try:
        ports = probes.serial_ports()
    except Exception as exc:
        return Finding("readers", "warn", f"cannot list serial ports ({exc})", "check pyserial is installed")
    names = [f"{p.device} ({p.vid:04X}:{p.pid:04X})" for p in ports]
    if names:
        return Finding("readers", "pass", ", ".join(names))
    wanted = setup.tokens not in (None, "sim", "none")
    return Finding("readers", "fail" if wanted else "warn", "none",
                   ("the table is set to read tokens from " + str(setup.tokens) + ": " if wanted else "")
                   + "plug the token reader's Pico into a USB port with a data cable (firmware/README.md); "
                   "the game runs without tokens")


def check_pin_factory(setup: Setup, probes: Probes) -> Finding:
    try:
        name = probes.pin_factory()
    except Exception as exc:
        return Finding("pin factory", "fail", "unusable", f"{exc}; the table runs with its lights off")
    if name == "mock":
        return Finding("pin factory", "warn", "mock",
                       "not a Raspberry Pi: no GPIO here, so no lights (--leds mock simulates them)")
    return Finding("pin factory", "pass", name)


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_disk(setup: Setup, probes: Probes) -> Finding:
    where = _existing(setup.data_dir.resolve())
    free = probes.disk_free(where)
    text = f"{free / 1024**3:.1f} GiB free in {where}"
    if free < DISK_FAIL_BYTES:
        return Finding("disk space", "fail", text, "free some space (old media in the data folder's media/, "
                       "apt clean) or move the data folder to a bigger card: the log must be able to grow")
    if free < DISK_WARN_BYTES:
        return Finding("disk space", "warn", text, "free some space soon: each recorded roll keeps a photo")
    return Finding("disk space", "pass", text)


def check_configuration(setup: Setup, probes: Probes) -> Finding:
    if setup.config_problem:
        return Finding("configuration", "fail", setup.config_problem,
                       "fix that key (arena-table config check FILE), then restart the table")
    if setup.config_file is None:
        return Finding("configuration", "pass", "the defaults (no config file)")
    return Finding("configuration", "pass", str(setup.config_file))


def _last_recorded(db: Path) -> float | None:
    from .log import EventLog

    with EventLog(db, readonly=True) as elog:
        rows = elog.rows()
    return max((r.recorded for r in rows), default=None)


def check_clock(setup: Setup, probes: Probes) -> Finding:
    now = probes.now()
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
    last = None
    if setup.db.is_file():
        try:
            last = _last_recorded(setup.db)
        except Exception:
            last = None  # the log check says why
    if last is not None and now < last:
        return Finding("clock", "fail", f"{stamp}, behind the log's last event by {last - now:.0f} s",
                       "the Pi has no time yet (no network): connect it to the network or fit a real-time clock "
                       "battery (Pi 5), and wait for 'timedatectl' to say synchronized before playing")
    if time.gmtime(now).tm_year < 2024:
        return Finding("clock", "fail", stamp, "the clock was never set: connect the Pi to the network (NTP)")
    if probes.ntp_synchronised() is False:
        return Finding("clock", "warn", f"{stamp}, not synchronised",
                       "connect the Pi to the network, or check 'timedatectl timesync-status'")
    return Finding("clock", "pass", stamp)


def check_log(setup: Setup, probes: Probes) -> Finding:
    from .data_dir import lock_holder
    from .log import EventLog, writer_lock_path

    db = setup.db
    if not db.exists():
        return Finding("log", "warn", f"{db}: not created yet",
                       "the table makes it when it first starts; if a table ran before, give its --db")
    try:
        with EventLog(db, readonly=True) as elog:
            rows = elog.rows()
    except Exception as exc:
        return Finding("log", "fail", f"{db}: UNREADABLE: {exc}",
                       "point --db at the table's event log (a copy of a broken one: arena-table log export)")
    rejected = sum(1 for r in rows if r.status == "rejected")
    holder = lock_holder(writer_lock_path(db))
    running = f"a table runs on this log (pid {holder})" if holder else "no table runs on this log"
    return Finding("log", "pass", f"{db}: {len(rows)} events ({rejected} rejected); {running}")


def check_pin(setup: Setup, probes: Probes) -> Finding:
    from .secrets_store import PIN_FILE, pin_problem, read_pin, secrets_problem

    data_dir = setup.data_dir.resolve()
    if not data_dir.is_dir():
        what = "is not a folder" if data_dir.exists() else "does not exist"
        return Finding("control PIN", "warn", f"{data_dir} ({setup.data_dir_from}) {what}, so no {PIN_FILE} there",
                       "arena-table run makes the folder and a PIN; give --data-dir if the table runs with one")
    pin = read_pin(data_dir)
    problem = pin_problem(data_dir) if not pin else ""
    others = secrets_problem(data_dir)
    if problem or (others and others != problem):
        shown = f"{pin}; " if pin else ""
        return Finding("control PIN", "fail", shown + (problem or others) + " (`arena-table run` refuses it)",
                       "remove or fix that file, then start the table again (it makes a new one)")
    if pin:
        return Finding("control PIN", "pass", pin)
    return Finding("control PIN", "warn", f"no {PIN_FILE} in {data_dir}",
                   "arena-table run makes one and prints it; give --data-dir if the table runs with one")


def check_model(setup: Setup, probes: Probes) -> Finding:
    try:
        faces, took = probes.read_photo(SELFTEST_PHOTO)
    except Exception as exc:
        return Finding("model", "fail", f"cannot read the bundled photo ({type(exc).__name__}: {exc})",
                       "reinstall (sudo make install-pi): the dice model or onnxruntime is broken")
    if tuple(faces) != SELFTEST_FACES:
        return Finding("model", "fail", f"read {faces} on the bundled photo, not {list(SELFTEST_FACES)}",
                       "reinstall (sudo make install-pi); on an x86 CPU without VNNI see docs/vision.md")
    return Finding("model", "pass", f"read the bundled photo's {len(faces)} dice right in {took:.1f} s")


def check_taught_kinds(setup: Setup, probes: Probes) -> Finding:
    """The die kinds taught in the data folder (``dice teach``; :mod:`.taught_kinds`): a file the
    table cannot read is a warning (the table runs on without that kind)."""
    from .taught_kinds import load_all

    kinds, problems = load_all(setup.data_dir)
    names = ", ".join(f"{t.kind.id} ({len(t.model.faces)} faces)" for t in kinds) or "none"
    if problems:
        return Finding("taught kinds", "warn", f"{names}; not readable: {'; '.join(problems)}",
                       "teach that kind again (arena-table dice teach, or the control page's teach card)")
    return Finding("taught kinds", "pass", names)


CHECKS: tuple[Callable[[Setup, Probes], Finding], ...] = (
    check_camera, check_readers, check_pin_factory, check_disk, check_configuration, check_clock, check_log,
    check_pin, check_model, check_taught_kinds)
"""Every check, in the order doctor prints them."""


IN_SERVICE = tuple(c for c in CHECKS if c not in (check_pin_factory, check_model, check_pin))
"""The checks a running table makes (:class:`Checkup`): its lights hold the GPIO and its camera runs the
model already, each reporting its own status; and the status board is public (``/api/state``), so
the PIN is never on it."""


def diagnose(setup: Setup, probes: Probes | None = None,
             checks: tuple[Callable[[Setup, Probes], Finding], ...] = CHECKS) -> list[Finding]:
    """Each of ``checks``' finding; a check that raises is a fail naming the error, never a crash."""
    probes = probes or Probes()
    out = []
    for check in checks:
        try:
            out.append(check(setup, probes))
        except Exception as exc:  # a check's own bug must not hide the other findings
            name = check.__name__.removeprefix("check_").replace("_", " ")
            out.append(Finding(name, "fail", f"the check failed: {type(exc).__name__}: {exc}",
                               "report it with this line"))
    return out


def summary(findings: list[Finding]) -> dict[str, Any]:
    """The status board entry for ``findings``: ``state`` ok, warn or fail (the worst), ``detail`` the
    warnings and failures in a line, ``findings`` each one.

    >>> summary([Finding("clock", "pass", "now"), Finding("camera", "warn", "none", "plug one in")])["detail"]
    'camera: none — plug one in'
    """
    worst = max((LEVELS.index(f.level) for f in findings), default=0)
    return {"state": ("ok", "warn", "fail")[worst],
            "detail": "; ".join(f"{f.check}: {f.summary} — {f.advice}" for f in findings if f.level != "pass"),
            "findings": [f.to_json() for f in findings]}


class Checkup:
    """A device of a running table: doctor's checks (:data:`IN_SERVICE`) once at start, on a thread of
    their own, reported on the status board as ``checks`` (the control page's status panel lists them).

    Args:
        table: the table (``db``, ``data_dir``, ``config``, ``status_board``).
        probes: what the checks read (tests replace it).
    """

    def __init__(self, table: Any, probes: Probes | None = None) -> None:
        import threading

        self.table = table
        self.probes = probes or Probes()
        self._thread = threading.Thread(target=self._run, name="checkup", daemon=True)

    def start(self) -> "Checkup":
        self._thread.start()
        return self

    def _run(self) -> None:
        cfg = self.table.config
        setup = Setup(db=self.table.db, data_dir=self.table.data_dir, camera=cfg.camera.device(),
                      tokens=cfg.tokens.device(), leds=cfg.leds.device())
        self.table.status_board.set("checks", **summary(diagnose(setup, self.probes, IN_SERVICE)))

    def close(self) -> None:
        self._thread.join(timeout=5)
