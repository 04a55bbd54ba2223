"""``arena-table run``: the table service with its dashboard.

``run`` loads the configuration (:func:`arena_table.table.config.load`: the defaults, the
``--config`` file, then its other flags), starts the :class:`~arena_table.table.app.Table`,
serves the web app (``arena_table.webui``) until SIGINT/SIGTERM and closes everything in order.
The control page's PIN (``pin.txt``) and the key that signs its login cookie (``session-secret``)
live in the data folder (:mod:`~arena_table.table.secrets_store`), where ``doctor --data-dir``
finds the PIN.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from arena_table.table.config import ConfigError, Loaded, load

from .common import DEFAULT_DB

# --- run ----------------------------------------------------------------------------------------

def port_number(text: str) -> int:
    """argparse type: a TCP port 1..65535.

    >>> port_number("8000")
    8000
    """
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1-65535)")
    return port


FLAG_KEYS = {"config": None, "game": "game.name", "options": "game.options", "camera": "camera.source",
             "calibration": "camera.calibration", "tokens": "tokens.reader", "leds": "leds.kind",
             "seats": "leds.seats", "db": "data.db", "data_dir": "data.dir", "host": "web.host", "port": "web.port",
             "pin": "web.pin", "max_clients": "web.max_clients",
             "streams_per_address": "web.streams_per_address", "public_url": "web.public_url", "publish": "publish.broker",
             "table_id": "publish.table_id", "hub_url": "publish.hub_url"}
"""``run``'s flags (argparse names) and the configuration key each overrides."""


def add_config_flags(p: argparse.ArgumentParser) -> None:
    """``--config FILE`` and a flag for each key ``run`` has one for (:data:`FLAG_KEYS`); a flag not
    given leaves the file's value, else the default (shown by ``config show``)."""
    p.add_argument("--config", metavar="FILE", help="a TOML configuration file (examples/config.toml lists every "
                   "key; docs/configuration.md); the flags below override it")
    p.add_argument("--game", help="start this game (recorded in the event log, so a restart without the flag "
                   "keeps it) unless the log already runs it (with these --options, when given); default: the "
                   "log's game, else dice-tray")
    p.add_argument("--options", help="the game's setup options as a JSON object (with no --game: a new game of "
                   "the log's running game, unless it already runs with these options)")
    p.add_argument("--camera", help="sim, a device index or path, a video file, a folder of stills, picamera2, "
                                    "none or auto (default: auto, a camera if one is found, else sim)")
    p.add_argument("--calibration", metavar="FILE",
                   help="the camera's calibration (resolution, tray, die size) from `arena-table dice calibrate`")
    p.add_argument("--tokens", help="sim, a serial port (/dev/ttyACM0), usb:VID:PID[:SERIAL], "
                   "pn532:/dev/serial0, or none (default: none)")
    p.add_argument("--leds", choices=("gpio", "mock", "none"),
                   help="seat LEDs: gpio (the pins, BCM wiring in arena_table/hardware/leds.py) or mock "
                        "(gpiozero's MockFactory, no hardware); default: none")
    p.add_argument("--seats", metavar="NAMES",
                   help="comma-separated player (or team) at each LED seat, seat 1 first "
                        "(default: the game's sides in setup order)")
    p.add_argument("--db", help=f"the event log (default: {DEFAULT_DB})")
    p.add_argument("--data-dir", help="media and PIN folder (default: the folder of --db)")
    p.add_argument("--host", help="address to listen on (default 127.0.0.1; 0.0.0.0: the whole network)")
    p.add_argument("--port", type=port_number, help="TCP port, 1-65535 (default: 8000)")
    p.add_argument("--pin", help="the control page's PIN (default: the stored one, else a new random one)")
    p.add_argument("--max-clients", type=int, help="spectator streams served at once (default 200)")
    p.add_argument("--streams-per-address", type=int, metavar="N",
                   help="spectator streams one client address may hold (default 8)")
    p.add_argument("--public-url", metavar="URL", help="the address the QR code and the console show, such as "
                   "http://arena.local:8000/ (default: this machine's LAN address when --host is 0.0.0.0)")
    p.add_argument("--publish", metavar="mqtt://HOST[:PORT]",
                   help="publish the view, events and presence to this MQTT broker (a convention hub)")
    p.add_argument("--table-id", help="this table's id on the broker (arena-table/<id>/...); with --publish")
    p.add_argument("--hub-url", metavar="URL", help="the hub's address (http://HUB:8080/): the QR code and the "
                   "console show this table's screen on the hub (HUB/table/ID/); with --publish")


def load_flags(args: argparse.Namespace) -> Loaded:
    """The configuration ``args`` ask for: the defaults, ``--config``'s file, then the flags given.

    Raises:
        ConfigError: a bad file, key or value (``--options`` that is not a JSON object too).
    """
    overrides: dict[str, tuple[Any, str]] = {}
    for name, key in FLAG_KEYS.items():
        value = getattr(args, name, None)
        if key is None or value is None:
            continue
        if name == "options":
            try:
                value = json.loads(value)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"--options: not JSON ({exc.msg} at character {exc.pos + 1})") from None
            if not isinstance(value, dict):
                raise ConfigError("--options must be a JSON object")
        overrides[key] = (value, "--" + name.replace("_", "-"))
    return load(args.config, overrides)


def cmd_run(args: argparse.Namespace) -> int:
    """Parse, load, serve: the configuration ``args`` give (:func:`load_flags`), served by
    :func:`arena_table.table.service.serve`."""
    from arena_table.table.service import serve

    try:
        config = load_flags(args).config
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return serve(config, new_game=args.new_game)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run the table: sensors, rules engine, spectator screen and control page")
    add_config_flags(p)
    p.add_argument("--new-game", action="store_true",
                   help="let --game/--options end a game in progress (a board game with events after its start not undone, "
                   "a dice tray with rolls); without it the table goes on with that game and says so")
    p.set_defaults(func=cmd_run)
