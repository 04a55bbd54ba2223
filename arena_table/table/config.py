"""The table's configuration, loaded: defaults < file < flags, and the file written back.

:func:`load` reads a TOML file (``tomllib``) whose tables are the sections of
:class:`TableConfig` (``[camera]``, ``[dice]``, ``[tokens]``, ``[leds]``, ``[web]``, ``[data]``,
``[game]``, ``[publish]``, ``[counters]``), lays the overrides of ``arena-table run``'s flags over
it, checks every value and says where each came from (:class:`Loaded`). The sections and their
fields are :mod:`.config_sections` (imported from here too); the checks of the values are
:mod:`.config_checks`. Each key's meaning and default is the ``doc`` of its field
(:func:`~.config_checks.setting`); ``examples/config.toml`` lists them all (:func:`example_file`,
kept in step by a test) and ``docs/configuration.md`` explains the file.

>>> cfg = TableConfig()
>>> cfg.camera.source, cfg.web.port, cfg.dice.min_confidence
('auto', 8000, 0.5)
>>> load(overrides={"web.port": (9000, "--port")}).origin["web.port"]
'flag --port'
"""

from __future__ import annotations

import dataclasses
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .config_checks import default_of
from .config_sections import (SECTIONS, BadValue, CameraSettings, ConfigError, CounterSettings, DataSettings,
                              DiceSettings, GameSettings, LedSettings, PublishSettings, TableConfig, TokenSettings,
                              WebSettings, field_of, flag_of, keys)

__all__ = ["SECTIONS", "BadValue", "CameraSettings", "ConfigError", "CounterSettings", "DataSettings", "DiceSettings",
           "EXAMPLE_VALUES", "GameSettings", "LedSettings", "Loaded", "PublishSettings", "TableConfig",
           "TokenSettings", "WebSettings", "example_file", "flag_of", "keys", "load", "read_file", "show",
           "toml_value"]


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
    f = field_of(f"{section}.{name}")
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
