"""The configuration's sections: one frozen dataclass per table of the file, inside :class:`TableConfig`.

Each field is declared with :func:`~.config_checks.setting`: its default, its meaning (the line
``examples/config.toml`` shows), its check and ``run``'s flag. A section checks every field on
construction, from a file, flags or Python alike, and raises :class:`BadValue` naming the key.
Loading a file and laying flags over it is :mod:`.config`'s.

>>> TableConfig().camera.source, keys()[:2], flag_of("web.port")
('auto', ['camera.source', 'camera.calibration'], '--port')
>>> WebSettings(port=0)
Traceback (most recent call last):
arena_table.table.config_sections.BadValue: web.port: must be a whole number from 1 to 65535, got 0
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from arena_table.hardware.leds import CUE_BEEPS, MAX_SEATS, LedConfig

from .config_checks import (broker_url, cue_beeps, face, flag, gpio_pins, ip_address_or_none, ip_addresses, number,
                            one_of, path, pin_text, port, ratio_or_off, seats, setting, size, table, table_id, text,
                            web_url, whole)
from .counter_slots import counter_slots
from .log import DEFAULT_DB


class ConfigError(ValueError):
    """A key or value of the configuration that cannot be used; the message names the key
    (``camera.fps``), and the file or flag it came from."""


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


def field_of(key: str) -> dataclasses.Field:
    section, _, name = key.partition(".")
    return next(f for f in dataclasses.fields(SECTIONS[section]) if f.name == name)


def flag_of(key: str) -> str:
    """``run``'s flag for ``key``, or ``""``."""
    return field_of(key).metadata["flag"]


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
