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
import signal
import sys
from pathlib import Path
from typing import Any

from arena_table.table.config import ConfigError, Loaded, load
from arena_table.table.secrets_store import load_or_create_pin, load_or_create_session_secret, secrets_problem

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
             "pin": "web.pin", "max_clients": "web.max_clients"}
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
            except ValueError as exc:
                raise ConfigError(f"--options: {exc}") from None
            if not isinstance(value, dict):
                raise ConfigError("--options must be a JSON object")
        overrides[key] = (value, "--" + name.replace("_", "-"))
    return load(args.config, overrides)


class GameInProgress(Exception):
    """``run --game/--options`` would end a game in progress, and ``--new-game`` was not given."""


def game_from_flags(engine, game: str | None, options: dict | None, new_game: bool = False) -> int | None:
    """Apply ``run --game/--options`` to the log (:func:`~arena_table.table.app.record_game`).

    ``--options`` alone set up the log's running game anew, ``--game`` alone starts that game
    with no options unless it is the one running (which then goes on with its own options), and
    neither changes nothing. A start that would end a game in progress (``rules.in_progress``: a
    board game with events after its start not undone, a dice tray with rolls) needs ``new_game``
    (``--new-game``), as the control page asks before one: a table restarted with the same
    command line (a service unit, ``make run ARGS=...``) must not end the game it was running.

    Returns:
        The recorded ``start`` event's sequence number, or ``None``.

    Raises:
        ValueError: the game refuses the options (nothing is recorded).
        GameInProgress: a game in progress would end and ``new_game`` is false (nothing is recorded).
        UnknownGame: no such game.
    """
    from arena_table.rules import Refused, find_game, in_progress, new_table

    from arena_table.table.app import record_game

    running = engine.state.game
    name = find_game(game).name if game is not None else running
    if options is None and name == running:
        return None

    def check(ts) -> None:  # in the writer's step, with the state the start would replace
        losing = in_progress(ts)
        if losing and not new_game:
            raise GameInProgress(f"{'--game ' + name if game is not None else '--options'} would end {losing}, "
                                 "and undo cannot bring it back")
    try:
        new_table(name, options or {})  # refuse bad options before anything is written
        return record_game(engine, name, options or {}, check=check)
    except (ValueError, TypeError, Refused) as exc:
        raise ValueError(f"{name} refuses them: {exc}") from None


def _busy_table(db: Path, data_dir: Path) -> str:
    """Why a table already runs on log ``db`` or data folder ``data_dir``, in words, or ``""``; read
    only (no lock taken, no file made): ``Table`` takes the locks for good later."""
    from arena_table.table.app import busy_folder_message
    from arena_table.table.data_dir import DataDir, lock_holder
    from arena_table.table.log import busy_log_message, writer_lock_path

    if str(db) == ":memory:":
        return ""
    if holder := lock_holder(writer_lock_path(db)):
        return busy_log_message(db, holder)
    if holder := DataDir(data_dir).holder():
        return busy_folder_message(data_dir, holder)
    return ""


def cmd_run(args: argparse.Namespace) -> int:
    from arena_table.rules import UnknownGame, find_game
    from arena_table.table.app import Table
    from arena_table.table.log import LogError
    from arena_table.webui.app import WebConfig, create_app, shutdown
    from arena_table.webui.server import address_problem, make_server, stop_server

    try:
        config = load_flags(args).config
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    camera, web = config.camera.device(), config.web
    if camera not in (None, "sim"):
        import cv2

        # OpenCV's own warnings ("can't open camera by index") would repeat on every retry; the camera
        # status on the dashboard and our log lines say what is wrong once, with the back-off
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    db, data_dir = config.data.db_path, config.data.dir_path
    if problem := secrets_problem(data_dir, pin_given=bool(web.pin)):
        print(f"error: {problem}", file=sys.stderr)  # checked before the log is made, written after it is ours
        return 2
    if busy := _busy_table(db, data_dir):  # the commonest double start: the same command twice
        print(f"error: {busy}", file=sys.stderr)
        return 1
    try:
        if config.game.name:
            find_game(config.game.name)
    except UnknownGame as exc:
        print(f"error: --game: {exc}", file=sys.stderr)
        return 1
    if why := address_problem(web.host, web.port):  # before the log, PIN and key are made for a table
        print(f"error: cannot listen on {web.host}:{web.port}: {why}", file=sys.stderr)  # that cannot serve
        return 1
    # The log replays from the default table; game.name/options become a recorded start event
    # (record_game), so a restart without them finds the game in the log.
    try:
        table = Table(config)  # holds the log's writer lock: a second run on it stops here
    except (LogError, UnknownGame) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # the data folder: a file in the place of a folder, no permission
        print(f"error: cannot open the table's files: {exc}", file=sys.stderr)
        return 1
    try:  # only now, with the log ours, the PIN and the login key beside it may be written
        table.pin = load_or_create_pin(data_dir, web.pin or None)
        session_key = load_or_create_session_secret(data_dir, table.pin)
        from arena_table.table.revoked_sessions import StoredSessionRevocations  # with the web app: not for every command

        revocations = StoredSessionRevocations(data_dir)
    except (ValueError, OSError) as exc:
        table.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pin = table.pin
    server = app = None
    old_term = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    try:
        try:
            game_from_flags(table.engine, config.game.name or None, config.game.options, args.new_game)
        except ValueError as exc:
            table.close()
            print(f"error: --options: {exc}", file=sys.stderr)
            return 2
        except GameInProgress as exc:  # the table comes up with the game it runs: nothing is lost
            print(f"arena-table: warning: {exc}: the table goes on with it (add --new-game to end it, "
                  "or start a new game from the control page)", file=sys.stderr)
        try:
            table.start()
            from arena_table.table.doctor import Checkup

            table.devices.append(Checkup(table).start())  # doctor's findings on the control page
        except ModuleNotFoundError as exc:
            table.close()
            print(f"error: cannot start the devices: module {exc.name} is missing "
                  f"(try --camera none / --tokens none)", file=sys.stderr)
            return 1
        except Exception as exc:
            table.close()
            print(f"error: cannot start the table: {exc}", file=sys.stderr)
            return 1
        app = create_app(table, WebConfig(pin=pin, max_clients=web.max_clients, host=web.host,
                                          secret_key=session_key, revocations=revocations))
        try:
            server = make_server(app, web.host, web.port, clients=web.max_clients)
        except (OSError, ValueError) as exc:  # ValueError: waitress found no such address ("999.1.1.1")
            shutdown(app)
            table.close()
            why = getattr(exc, "strerror", None) or ("no such address" if isinstance(exc, ValueError) else exc)
            print(f"error: cannot listen on {web.host}:{web.port}: {why}", file=sys.stderr)
            return 1
        signal.signal(signal.SIGTERM, on_term)
    except KeyboardInterrupt:  # Ctrl-C while starting: close what is open, in order; main() exits 130
        signal.signal(signal.SIGTERM, old_term)
        if server is not None:
            stop_server(app, server)
        elif app is not None:
            shutdown(app)
        table.close()
        raise
    try:  # the socket listens: from here on Ctrl-C and SIGTERM are the normal stop
        url = f"http://{_shown_host(web.host)}:{server.effective_port}/"
        print(f"arena-table: {table.state.game} · camera {camera or 'none'} · tokens {config.tokens.device() or 'none'} · "
              f"log {db}", flush=True)
        print(f"arena-table: spectator screen {url}", flush=True)
        print(f"arena-table: control page {url}control   PIN {pin}", flush=True)
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        signal.signal(signal.SIGTERM, old_term)
        stop_server(app, server)
        table.close()
        print("arena-table: stopped", flush=True)
    return 0


# --- doctor -------------------------------------------------------------------------------------

def _shown_host(host: str) -> str:
    """The host to print in the page addresses: for a server on every interface (``0.0.0.0``, ``::``)
    this machine's LAN address, which other devices can open, else ``host`` (IPv6 in brackets).

    >>> _shown_host("127.0.0.1"), _shown_host("::1")
    ('127.0.0.1', '[::1]')
    """
    if host in ("0.0.0.0", "::", ""):
        from arena_table.webui.app import lan_address

        host = lan_address() or "127.0.0.1"
    return f"[{host}]" if ":" in host else host




def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run the table: sensors, rules engine, spectator screen and control page")
    add_config_flags(p)
    p.add_argument("--new-game", action="store_true",
                   help="let --game/--options end a game in progress (a board game with events after its start not undone, "
                   "a dice tray with rolls); without it the table goes on with that game and says so")
    p.set_defaults(func=cmd_run)
