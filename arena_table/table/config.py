"""The table's configuration: one frozen dataclass per section, loaded defaults < file < flags.

:func:`load` reads a TOML file (``tomllib``) whose tables are the sections of
:class:`TableConfig` (``[camera]``, ``[dice]``, ``[tokens]``, ``[leds]``, ``[web]``, ``[data]``,
``[game]``, ``[publish]``, ``[counters]``), lays the overrides of ``arena-table run``'s flags over
it, checks every value and says where each came from (:class:`Loaded`). Each key's meaning and default is the ``doc`` of its
field (:func:`setting`); ``examples/config.toml`` lists them all (:func:`example_file`, kept in step
by a test) and ``docs/configuration.md`` explains the file.

>>> cfg = TableConfig()
>>> cfg.camera.source, cfg.web.port, cfg.dice.min_confidence
('auto', 8000, 0.5)
>>> load(overrides={"web.port": (9000, "--port")}).origin["web.port"]
'flag --port'
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import os
import textwrap
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from arena_table.hardware.leds import CUE_BEEPS, CUE_KINDS, MAX_SEATS, LedConfig

from .counter_slots import counter_slots
from .log import DEFAULT_DB


class ConfigError(ValueError):
    """A key or value of the configuration that cannot be used; the message names the key
    (``camera.fps``), and the file or flag it came from."""


# --- checks: each returns the value as the table uses it, or raises ValueError("must be ...") -------

def _fail(what: str, value: Any) -> None:
    shown = f"{value:g}" if _is_number(value) else f"{value!r:.60}"
    raise ValueError(f"must be {what}, got {shown}")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def number(lo: float, hi: float = math.inf, lo_open: bool = False) -> Callable[[Any], float]:
    """A finite number from ``lo`` (above it when ``lo_open``) to ``hi``.

    >>> number(0, 60, lo_open=True)(2)
    2.0
    """
    what = f"a number {'above' if lo_open else 'from'} {lo:g}" + ("" if hi == math.inf else f" to {hi:g}")

    def check(v: Any) -> float:
        if not _is_number(v) or not (v > lo if lo_open else v >= lo) or v > hi:
            _fail(what, v)
        return float(v)
    return check


def whole(lo: int, hi: int | None = None) -> Callable[[Any], int]:
    what = f"a whole number from {lo}" + ("" if hi is None else f" to {hi}")

    def check(v: Any) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
            _fail(what, v)
        return v
    return check


def face(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
        _fail("a face value, a whole number from 1 to 6", v)
    return v


def flag(v: Any) -> bool:
    if not isinstance(v, bool):
        _fail("true or false", v)
    return v


def one_of(*choices: str) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if v not in choices:
            _fail(" or ".join(f'"{c}"' for c in choices), v)
        return v
    return check


def text(v: Any) -> str:
    if not isinstance(v, str):
        _fail("text", v)
    return v


def path(v: Any) -> str:
    """A file path, ``~`` expanded; ``""`` for none."""
    if not isinstance(v, (str, Path)):
        _fail("a file path", v)
    return os.path.expanduser(str(v)) if str(v) else ""


def size(v: Any) -> tuple[int, int]:
    if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                                  and x >= 1 for x in v):
        _fail("[width, height] in whole pixels", v)
    return (v[0], v[1])


def ratio_or_off(v: Any) -> float:
    if not _is_number(v) or not (v == 0 or v > 1):
        _fail("0 (off) or a number above 1", v)
    return float(v)


def seats(v: Any) -> tuple[str, ...]:
    names = [s.strip() for s in v.split(",")] if isinstance(v, str) else v
    if (not isinstance(names, (list, tuple)) or not all(isinstance(s, str) and s.strip() for s in names)
            or len(names) > 6 or len(set(names)) != len(names)):
        _fail("1 to 6 distinct comma-separated names (or a list of them)", v)
    return tuple(s.strip() for s in names)


def gpio_pins(most: int, exactly: int | None = None) -> Callable[[Any], tuple[int, ...]]:
    what = (f"a list of {exactly} BCM pin numbers (0-27)" if exactly else f"a list of up to {most} BCM pin numbers "
            "(0-27)") + (", or [] for none" if exactly else "")

    def check(v: Any) -> tuple[int, ...]:
        if (not isinstance(v, (list, tuple)) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                        and 0 <= n <= 27 for n in v)
                or len(v) > most or (exactly and len(v) not in (0, exactly))):
            _fail(what, v)
        return tuple(v)
    return check


def cue_beeps(v: Any) -> Mapping[str, int]:
    if (not isinstance(v, Mapping) or not set(v) <= set(CUE_KINDS)
            or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 10 for n in v.values())):
        _fail(f"a table of beeps (0-10) for the cues {', '.join(CUE_KINDS)}", v)
    return MappingProxyType(dict(CUE_BEEPS, **v))


def pin_text(v: Any) -> str:
    from .secrets_store import valid_pin

    if not isinstance(v, str) or (v.strip() and not valid_pin(v.strip())):
        raise ValueError(f"the PIN must be 4 to 12 digits, got {v.strip() if isinstance(v, str) else v!r}")
    return v.strip()


def ip_addresses(v: Any) -> tuple[str, ...]:
    """A list of IP addresses (each as :mod:`ipaddress` writes it).

    >>> ip_addresses(["127.0.0.1", "::1", "192.168.1.30"])
    ('127.0.0.1', '::1', '192.168.1.30')
    """
    import ipaddress

    if not isinstance(v, (list, tuple)) or not all(isinstance(a, str) for a in v):
        _fail("a list of IP addresses", v)
    out = []
    for a in v:
        try:
            out.append(str(ipaddress.ip_address(a.strip())))
        except ValueError:
            _fail("a list of IP addresses (such as \"192.168.1.30\")", a)
    return tuple(out)


def ip_address_or_none(v: Any) -> str:
    """``""`` or one IP address.

    >>> ip_address_or_none("127.0.0.1"), ip_address_or_none("")
    ('127.0.0.1', '')
    """
    if not isinstance(v, str):
        _fail("an IP address, or empty", v)
    return ip_addresses([v])[0] if v.strip() else ""


def web_url(v: Any) -> str:
    """``""`` or an ``http://`` or ``https://`` address with a host, ending in ``/`` (one is added).

    >>> web_url("https://arena.example.org/t1"), web_url("")
    ('https://arena.example.org/t1/', '')
    """
    from urllib.parse import urlsplit

    if not isinstance(v, str):
        _fail("an http:// or https:// address, or empty", v)
    v = v.strip()
    if not v:
        return v
    try:
        parts = urlsplit(v)
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment or any(c.isspace() for c in v):
        _fail("an http:// or https:// address with a host name (and no ?query or #fragment), or empty", v)
    return v if v.endswith("/") else v + "/"


def port(v: Any) -> int:
    return whole(1, 65535)(v)


def table(v: Any) -> dict[str, Any]:
    if not isinstance(v, Mapping):
        _fail("a table (JSON object) of the game's setup options", v)
    return dict(v)


def setting(default: Any, doc: str, check: Callable[[Any], Any] | None = None, *, flag: str = "",
            optional: bool = False) -> Any:
    """A configuration key: its default, what it means (the line ``examples/config.toml`` shows),
    the check of a value given for it, and ``run``'s flag that overrides it. ``optional``: the
    default ``None`` means "not set" (TOML has no null: leave the key out)."""
    meta = {"doc": doc, "check": check, "flag": flag, "optional": optional}
    if isinstance(default, Mapping):  # a table (cue_beeps): each instance its own copy
        return field(default_factory=lambda: MappingProxyType(dict(default)), metadata=meta)
    return field(default=default, metadata=meta)


def default_of(f: dataclasses.Field) -> Any:
    """The default of key field ``f``."""
    return f.default_factory() if f.default is dataclasses.MISSING else f.default


# --- the sections -------------------------------------------------------------------------------

class BadValue(ConfigError):
    """A value a key refuses; ``key`` is the field's name in its section."""

    def __init__(self, section: str, key: str, why: str) -> None:
        super().__init__(f"{section}.{key}: {why}")
        self.key, self.why = f"{section}.{key}", why


class _Section:
    """Checks every field on construction (from a file, flags or Python alike) and keeps the value
    as its check returns it (a list of pins becomes a tuple, an int a float)."""

    def __post_init__(self) -> None:
        section = next(name for name, cls in SECTIONS.items() if isinstance(self, cls))
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata["optional"]:
                continue
            try:
                object.__setattr__(self, f.name, f.metadata["check"](value))
            except ValueError as exc:
                raise BadValue(section, f.name, str(exc)) from None


@dataclass(frozen=True)
class CameraSettings(_Section):
    """``[camera]``: the frame source and the settle detector (docs/camera.md)."""

    source: str = setting("auto", "sim, a device index (0) or /dev/videoN, a video file, a folder of stills, "
                          "picamera2[:N], none, or auto (picamera2 if it imports, else /dev/video0 if it "
                          "exists, else sim)", text, flag="--camera")
    calibration: str = setting("", "the calibration file from `arena-table dice calibrate` (resolution, tray, "
                               "die size); empty: none", path, flag="--calibration")
    settle_s: float = setting(0.4, "seconds the dice must lie still before they are read", number(0, 60, True))
    settle_mode: str = setting("moved", '"moved" (only the dice that moved make the roll) or "whole" (every die '
                               'in view)', one_of("moved", "whole"))
    still_frames: int = setting(10, "a folder source: identical frames given for each photo", whole(1))
    fps: float | None = setting(None, "frame rate of the timestamps; unset: the source's own (12 sim, 10 folder)",
                                number(0, 1000, True), optional=True)
    realtime: bool | None = setting(None, "pace frames in real time; unset: the source's own (true sim, false "
                                    "folder and video file)", flag, optional=True)
    seed: int = setting(0, "the simulated camera's script", whole(0))
    size: tuple[int, int] | None = setting(None, "[width, height] asked of the camera; unset: its default "
                                           "(OpenCV), 1280x720 (picamera2)", size, optional=True)
    warmup_s: float = setting(1.0, "seconds before exposure lock and the first frame", number(0, 60))
    lock_exposure: bool = setting(True, "lock exposure and white balance after warm-up", flag)
    backoff_initial_s: float = setting(0.5, "seconds before the second attempt to open a missing or busy camera",
                                       number(0, lo_open=True))
    backoff_factor: float = setting(2.0, "each further wait is this many times the one before", number(1))
    backoff_maximum_s: float = setting(10.0, "the longest wait between attempts", number(0, lo_open=True))

    def device(self) -> str | None:
        """The source the camera opens: ``auto`` resolved (:func:`default_camera`), ``None`` for
        ``none``."""
        if self.source == "auto":
            return default_camera()
        return None if self.source.lower() == "none" else self.source

    def source_options(self) -> dict[str, Any]:
        """:func:`~arena_table.vision.capture.open_source` options (a source's own default where unset).

        >>> CameraSettings(fps=5).source_options()["fps"]
        5.0
        """
        from arena_table.vision.capture import Backoff

        out = {"still_frames": self.still_frames, "fps": self.fps, "realtime": self.realtime, "seed": self.seed,
               "size": self.size, "warmup_s": self.warmup_s, "lock_exposure": self.lock_exposure,
               "backoff": Backoff(self.backoff_initial_s, self.backoff_factor, self.backoff_maximum_s)}
        return {k: v for k, v in out.items() if v is not None}

    def settle(self):
        """The settle detector's :class:`~arena_table.vision.settle.SettleConfig`."""
        from arena_table.vision.settle import SettleConfig

        return dataclasses.replace(SettleConfig(), settle_s=self.settle_s, mode=self.settle_mode)


@dataclass(frozen=True)
class DiceSettings(_Section):
    """``[dice]``: the dice reader's thresholds and how a roll with refused dice is recorded."""

    min_confidence: float = setting(0.5, "a die whose best face is less likely than this is unreadable",
                                    number(0, 1))
    logo_face: int | None = setting(None, "the value (1-6) of a face showing a maker's logo instead of pips; "
                                    "unset: a logo face is unreadable", face, optional=True)
    size_check: float = setting(1.6, "a die this many times larger or smaller than the others is read again at "
                                "their size (docs/vision.md); 0 turns the check off", ratio_or_off)
    partial_rolls: bool = setting(False, "record the dice read when others of the same settle were refused "
                                  "(default: ask for a re-roll and record nothing)", flag)

    def reader_config(self, die_side_px: float | None = None):
        """The reader's :class:`~arena_table.vision.dice.DiceConfig` with these thresholds, looking for
        dice of about ``die_side_px`` when given (a calibration's ``die_size_px``)."""
        from types import MappingProxyType

        from arena_table.vision.dice import DiceConfig
        from arena_table.vision.size_search import sized_config

        cfg = DiceConfig() if die_side_px is None else sized_config(float(die_side_px))
        logo = MappingProxyType({"logo": self.logo_face}) if self.logo_face is not None else cfg.logo_faces
        return dataclasses.replace(cfg, min_confidence=self.min_confidence, size_check_ratio=self.size_check,
                                   logo_faces=logo)


@dataclass(frozen=True)
class TokenSettings(_Section):
    """``[tokens]``: the NFC token reader."""

    reader: str = setting("none", "sim, a serial port (/dev/ttyACM0), usb:VID:PID[:SERIAL], pn532:/dev/serial0, "
                          "or none", text, flag="--tokens")
    pads: int = setting(4, "pads of the simulated reader (reader = \"sim\")", whole(1, 16))

    def device(self) -> str | None:
        return None if self.reader.lower() == "none" else self.reader


@dataclass(frozen=True)
class LedSettings(_Section):
    """``[leds]``: the seat LEDs, the status LED and the cue (arena_table/hardware/leds.py)."""

    kind: str = setting("none", "gpio (the Raspberry Pi's pins through lgpio), mock (gpiozero's MockFactory, no "
                        "hardware) or none", one_of("gpio", "mock", "none"), flag="--leds")
    seats: tuple[str, ...] = setting((), "player (or team) at each seat LED, seat 1 first; empty: the game's sides in "
                                     "setup order", seats, flag="--seats")
    seat_pins: tuple[int, ...] = setting(LedConfig.seat_pins, f"BCM pin of each seat's LED, seat 1 first (at most "
                                         f"{MAX_SEATS})", gpio_pins(MAX_SEATS))
    status_pins: tuple[int, ...] = setting(LedConfig.status_pins, "the RGB status LED's red, green and blue legs "
                                           "(common cathode); []: none", gpio_pins(3, exactly=3))
    buzzer_pin: int = setting(LedConfig.buzzer_pin, "an active buzzer's pin; -1: none (a cue flashes the status LED "
                              "white)", whole(-1, 27))
    active_high: bool = setting(LedConfig.active_high, "false for LEDs wired from 3V3 to the pin (common anode)", flag)
    seat_brightness: float = setting(LedConfig.seat_brightness, "PWM duty of a lit seat LED", number(0, 1))
    status_brightness: float = setting(LedConfig.status_brightness, "PWM duty scaling the status colour",
                                       number(0, 1))
    blink_on: float = setting(LedConfig.blink_on, "seconds a blinking seat LED is on", number(0, lo_open=True))
    blink_off: float = setting(LedConfig.blink_off, "seconds it is off", number(0, lo_open=True))
    beep_on: float = setting(LedConfig.beep_on, "seconds of one beep", number(0, lo_open=True))
    beep_off: float = setting(LedConfig.beep_off, "seconds of the pause after a beep", number(0, lo_open=True))
    cue_beeps: Mapping[str, int] = setting(CUE_BEEPS, "beeps per cue (a table)", cue_beeps)

    def __post_init__(self) -> None:
        super().__post_init__()
        try:
            self.wiring()
        except ValueError as exc:  # two parts on one pin
            raise BadValue("leds", "seat_pins", str(exc)) from None

    def device(self) -> str | None:
        return None if self.kind == "none" else self.kind

    def wiring(self) -> LedConfig:
        """The lights' :class:`~arena_table.hardware.leds.LedConfig`."""
        return LedConfig(seat_pins=self.seat_pins, status_pins=self.status_pins or None,
                         buzzer_pin=None if self.buzzer_pin < 0 else self.buzzer_pin, active_high=self.active_high,
                         seat_brightness=self.seat_brightness, status_brightness=self.status_brightness,
                         blink_on=self.blink_on, blink_off=self.blink_off, cue_beeps=dict(self.cue_beeps),
                         beep_on=self.beep_on, beep_off=self.beep_off)


@dataclass(frozen=True)
class WebSettings(_Section):
    """``[web]``: the spectator screen and control page server."""

    host: str = setting("127.0.0.1", "address to listen on (0.0.0.0: the whole network)", text, flag="--host")
    port: int = setting(8000, "TCP port, 1-65535", port, flag="--port")
    pin: str = setting("", "the control page's PIN, 4 to 12 digits; empty: the stored one, else a new random one",
                       pin_text, flag="--pin")
    max_clients: int = setting(200, "spectator streams served at once", whole(1), flag="--max-clients")
    streams_per_address: int = setting(8, "spectator streams one client address may hold (a phone's tabs); the "
                                       "TV's and logged-in control pages' streams have slots of their own",
                                       whole(1), flag="--streams-per-address")
    tv_addresses: tuple[str, ...] = setting(("127.0.0.1", "::1"), "client addresses whose streams are the TV's, with "
                                            "slots no spectator can take (the Pi's own browser; add a TV set's)",
                                            ip_addresses)
    trusted_proxy: str = setting("", "the address of a reverse proxy in front of the table whose X-Forwarded-For "
                                 "names the client (docs/security.md); empty: none, every client counts by its own "
                                 "address", ip_address_or_none)
    public_url: str = setting("", "the address the QR code and the console show (http(s)://NAME[:PORT][/PATH]/, "
                              "a hall's DNS name or a proxy); empty: this machine's LAN address", web_url,
                              flag="--public-url")


@dataclass(frozen=True)
class DataSettings(_Section):
    """``[data]``: where the table keeps its files."""

    db: str = setting(str(DEFAULT_DB), "the event log (SQLite), relative to the working folder", path, flag="--db")
    dir: str = setting("", "media, PIN and login key folder; empty: the folder of db", path, flag="--data-dir")

    @property
    def db_path(self) -> Path:
        """``db`` made absolute (the web app serves media by path; Flask would resolve a relative
        one against its package folder), or ``:memory:``."""
        return Path(self.db) if str(self.db) == ":memory:" else Path(self.db).absolute()

    @property
    def dir_path(self) -> Path:
        return Path(self.dir).absolute() if self.dir else self.db_path.parent


@dataclass(frozen=True)
class GameSettings(_Section):
    """``[game]``: the game ``run`` starts (recorded in the event log as a start event)."""

    name: str = setting("", "start this game unless the log already runs it; empty: the log's game, else dice-tray",
                        text, flag="--game")
    options: dict[str, Any] | None = setting(None, "the game's setup options ([game.options]); unset: a new game "
                                             "only when name changes the game", table, flag="--options",
                                             optional=True)


def broker_url(v: Any) -> str:
    """``""`` (publish nowhere) or ``mqtt://HOST[:PORT]`` (:func:`arena_table.hub.topics.parse_broker`)."""
    from arena_table.hub.topics import parse_broker

    if not isinstance(v, str):
        _fail("mqtt://HOST[:PORT] or empty", v)
    if v:
        parse_broker(v)
    return v


def table_id(v: Any) -> str:
    from arena_table.hub.topics import check_table_id

    if not isinstance(v, str):
        _fail("a table id (text)", v)
    return check_table_id(v) if v else v


@dataclass(frozen=True)
class PublishSettings(_Section):
    """``[publish]``: the convention hub's MQTT broker this table publishes to (arena_table/table/publish.py)."""

    broker: str = setting("", "mqtt://HOST[:PORT] of the hub's broker (Mosquitto); empty: publish nowhere",
                          broker_url, flag="--publish")
    table_id: str = setting("", "this table's id on the broker (topics arena-table/<id>/...); needed with broker",
                            table_id, flag="--table-id")
    username: str = setting("", "the table's broker user (`arena-table hub init` prints it); empty: anonymous", text)
    password: str = setting("", "that user's password (`arena-table hub init` prints it)", text)
    keepalive_s: int = setting(10, "MQTT keep-alive in seconds: the broker marks the table offline after 1.5x "
                               "this much silence", whole(2, 600))
    hub_url: str = setting("", "the hub's address (http(s)://HUB[:PORT]/): the QR code and the console then show "
                           "this table's spectator screen on the hub, HUB/table/<table_id>/, so phones load the "
                           "hub, not this table; empty: this table's own address", web_url, flag="--hub-url")

    @property
    def spectator_url(self) -> str:
        """The hub's spectator screen of this table (``hub_url`` + ``table/<id>/``), or ``""``.

        >>> PublishSettings("mqtt://hub", "t1", hub_url="http://hub:8080/").spectator_url
        'http://hub:8080/table/t1/'
        """
        return f"{self.hub_url}table/{self.table_id}/" if self.hub_url and self.table_id else ""

    def __post_init__(self) -> None:
        super().__post_init__()
        if bool(self.broker) != bool(self.table_id):
            raise BadValue("publish", "table_id" if self.broker else "broker",
                           "broker and table_id go together (--publish mqtt://HOST[:PORT] --table-id ID)")
        if self.hub_url and not self.broker:
            raise BadValue("publish", "hub_url", "needs broker and table_id: the hub shows only tables that "
                           "publish (--publish mqtt://HOST --table-id ID --hub-url URL)")


@dataclass(frozen=True)
class CounterSettings(_Section):
    """``[counters]``: Demigods divine dice beside the hero cards read by the camera (table/counters.py)."""

    slots: tuple[Mapping[str, Any], ...] = setting((), "where each hero's divine die lies: a list of {hero = \"knight\", "
                                                   "power = \"rage\" (or focus, mana; left out: the hero's own), "
                                                   "box_mm = [x, y, w, h] (board mm, through the board calibration) "
                                                   "and/or box_px = [x, y, w, h] (camera pixels)}; empty: not read",
                                                   counter_slots)
    interval_s: float = setting(0.5, "seconds of camera time between two readings of the slots", number(0, 60, True))
    stable_reads: int = setting(2, "readings in a row a new value must show before it is recorded", whole(1, 20))


SECTIONS: dict[str, type] = {"camera": CameraSettings, "dice": DiceSettings, "tokens": TokenSettings,
                             "leds": LedSettings, "web": WebSettings, "data": DataSettings, "game": GameSettings,
                             "publish": PublishSettings, "counters": CounterSettings}
"""The file's tables, in the order ``config show`` and ``examples/config.toml`` list them."""


@dataclass(frozen=True)
class TableConfig:
    """Everything a table is told, one section a field (defaults: the table ``arena-table run``
    starts with no file and no flags)."""

    camera: CameraSettings = CameraSettings()
    dice: DiceSettings = DiceSettings()
    tokens: TokenSettings = TokenSettings()
    leds: LedSettings = LedSettings()
    web: WebSettings = WebSettings()
    data: DataSettings = DataSettings()
    game: GameSettings = GameSettings()
    publish: PublishSettings = PublishSettings()
    counters: CounterSettings = CounterSettings()

    def __post_init__(self) -> None:
        if self.leds.seats and self.leds.device() is None:
            raise ConfigError("names the LED seats: give --leds gpio or --leds mock too (leds.kind)")

    @property
    def shown_url(self) -> str:
        """The spectator address the QR code and the console show: the hub's screen of this table
        (``publish.hub_url``) when it publishes there, else ``web.public_url``; ``""``: worked out
        from the request (the LAN address)."""
        return self.publish.spectator_url or self.web.public_url

    def value(self, key: str) -> Any:
        """The value of ``key`` (``"camera.fps"``)."""
        section, _, name = key.partition(".")
        return getattr(getattr(self, section), name)


def keys() -> list[str]:
    """Every key, ``section.name``, in file order."""
    return [f"{s}.{f.name}" for s, cls in SECTIONS.items() for f in dataclasses.fields(cls)]


def _field(key: str) -> dataclasses.Field:
    section, _, name = key.partition(".")
    return next(f for f in dataclasses.fields(SECTIONS[section]) if f.name == name)


def flag_of(key: str) -> str:
    """``run``'s flag for ``key``, or ``""``."""
    return _field(key).metadata["flag"]


# --- loading ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Loaded:
    """A configuration and where each of its values came from."""

    config: TableConfig
    origin: dict[str, str]
    """``key -> "default" | "file PATH" | "flag --NAME"``."""


def read_file(path: str | Path) -> dict[str, dict[str, Any]]:
    """The sections of the TOML file at ``path``, every key known.

    Raises:
        ConfigError: the file cannot be read or is not TOML, or names a section or key there is not.
    """
    try:
        with open(path, "rb") as fp:
            data = tomllib.load(fp)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not a TOML file ({exc})") from None
    for section, body in data.items():
        if section not in SECTIONS:
            raise ConfigError(f"{path}: unknown section [{section}] (known: {', '.join(SECTIONS)})")
        if not isinstance(body, dict):
            raise ConfigError(f"{path}: {section} must be a table ([{section}]), got {body!r:.60}")
        names = [f.name for f in dataclasses.fields(SECTIONS[section])]
        for key in body:
            if key not in names:
                raise ConfigError(f"{path}: unknown key {section}.{key} (known in [{section}]: {', '.join(names)})")
    return data


def load(path: str | Path | None = None, overrides: Mapping[str, tuple[Any, str]] | None = None) -> Loaded:
    """The configuration: the defaults, then the file at ``path`` (if given), then ``overrides``.

    Args:
        path: a TOML file of sections (``examples/config.toml`` lists every key).
        overrides: ``{"web.port": (9000, "--port")}``: a value and the flag that gave it.

    Raises:
        ConfigError: a bad file, an unknown key, or a value its key refuses; the message names the
            key and the file or flag.
    """
    origin = {k: "default" for k in keys()}
    values: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
    said: dict[str, str] = {}  # key -> how the error message names where it came from
    for section, body in (read_file(path) if path is not None else {}).items():
        for name, value in body.items():
            values[section][name] = value
            origin[f"{section}.{name}"] = f"file {path}"
            said[f"{section}.{name}"] = f"{path}: {section}.{name}"
            _check_file_value(section, name, value, path)
    for key, (value, flag_name) in (overrides or {}).items():
        section, _, name = key.partition(".")
        values[section][name] = value
        origin[key] = f"flag {flag_name}"
        said[key] = flag_name
    try:
        sections = {section: cls(**values[section]) for section, cls in SECTIONS.items()}
    except BadValue as exc:
        raise ConfigError(f"{said.get(exc.key, exc.key)}: {exc.why}") from None
    try:
        config = TableConfig(**sections)
    except ConfigError as exc:
        raise ConfigError(f"{said.get('leds.seats', 'leds.seats')}: {exc}") from None
    _check_paths(config, said)
    return Loaded(config, origin)


def _check_file_value(section: str, name: str, value: Any, path: str | Path) -> None:
    """A value the file gives is checked even where a flag overrides it: a bad file stays bad
    (``config check`` refuses it, and so does ``run --config`` with the flag)."""
    f = _field(f"{section}.{name}")
    if value is None and f.metadata["optional"]:
        return
    try:
        f.metadata["check"](value)
    except ValueError as exc:
        raise ConfigError(f"{path}: {section}.{name}: {exc}") from None


def _check_paths(config: TableConfig, said: Mapping[str, str]) -> None:
    """A camera source or calibration named that is not there is a typo, not a camera to retry."""
    from arena_table.vision.frames import Calibration, CameraError

    source = config.camera.source
    if source not in ("auto", "sim") and config.camera.device() is not None and not source.startswith("picamera2") \
            and not source.isdigit() and not source.startswith("/dev/video") and not Path(source).exists():
        raise ConfigError(f"{said.get('camera.source', 'camera.source')} {source}: no such file or folder (sim, "
                          "picamera2, a device index, a folder of images or a video file)")
    calib = config.camera.calibration
    if calib:
        where = said.get("camera.calibration", "camera.calibration")
        if Path(calib).is_dir():
            raise ConfigError(f"{where}: calibration {calib}: is a folder; name the calibration file "
                              "(make one with `arena-table dice calibrate --out FILE`)")
        if not Path(calib).is_file():
            raise ConfigError(f"{where}: calibration {calib}: no such file (make one with `arena-table dice "
                              "calibrate`)")
        try:
            Calibration.load(calib)
        except (CameraError, OSError) as exc:
            raise ConfigError(f"{where}: calibration {exc}") from None


# --- the camera found on this machine -------------------------------------------------------------

def picamera2_available() -> bool:
    try:
        importlib.import_module("picamera2")
    except Exception:  # ImportError, or a broken install that raises on import
        return False
    return True


def default_camera() -> str:
    """``picamera2`` if it imports, ``0`` if ``/dev/video0`` exists, else ``sim`` (``camera.source = "auto"``)."""
    if picamera2_available():
        return "picamera2"
    if Path("/dev/video0").exists():
        return "0"
    return "sim"


# --- the file, written ----------------------------------------------------------------------------

def toml_value(value: Any) -> str:
    """``value`` in TOML.

    >>> toml_value(((1, 2), (3, 4))), toml_value("a\\"b"), toml_value(0.5), toml_value({"heroes": ["Rochon"]})
    ('[[1, 2], [3, 4]]', '"a\\\\"b"', '0.5', '{ heroes = ["Rochon"] }')
    """
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{json.dumps(k) if not k.isidentifier() else k} = {toml_value(v)}"
                                for k, v in value.items()) + " }"
    return "[" + ", ".join(toml_value(v) for v in value) + "]"


EXAMPLE_VALUES = {"camera.fps": 12.0, "camera.realtime": True, "camera.size": (1280, 720), "dice.logo_face": 1,
                  "game.options": {}}
"""Values shown, commented out, for the keys that are unset by default."""


def example_file() -> str:
    """``examples/config.toml``: every section and key, commented out at its default, each with
    what it means. A copy changes nothing until a line is un-commented."""
    lines = ["# arena-table configuration: `arena-table run --config FILE` (flags override it).",
             "# Every key is shown at its default, commented out; `arena-table config check FILE` checks a copy.",
             "# Generated by arena_table.table.config.example_file(); docs/configuration.md explains it."]
    for section, cls in SECTIONS.items():
        lines += ["", f"[{section}]"]
        for f in dataclasses.fields(cls):
            key = f"{section}.{f.name}"
            flag_name = f.metadata["flag"]
            doc = f.metadata["doc"] + (f" (flag {flag_name})" if flag_name else "")
            lines += textwrap.wrap(doc, 99, initial_indent="# ", subsequent_indent="#   ")
            if f.metadata["optional"]:
                lines.append(f"# {f.name} = {toml_value(EXAMPLE_VALUES[key])}   # unset by default")
            else:
                lines.append(f"# {f.name} = {toml_value(default_of(f))}")
    return "\n".join(lines) + "\n"


def show(loaded: Loaded) -> str:
    """The values in force as a TOML file, each with where it came from (``config show``)."""
    lines = []
    for section, cls in SECTIONS.items():
        lines += ([""] if lines else []) + [f"[{section}]"]
        for f in dataclasses.fields(cls):
            key = f"{section}.{f.name}"
            value = loaded.config.value(key)
            where = loaded.origin[key]
            lines.append(f"# {f.name} unset   # {where}" if value is None else
                         f"{f.name} = {toml_value(value)}   # {where}")
    return "\n".join(lines) + "\n"
