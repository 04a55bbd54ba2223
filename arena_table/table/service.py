"""Serving a table: the table a configuration describes (:meth:`Table.build <.app.Table.build>`),
started and served until SIGINT/SIGTERM, then closed in order (``arena-table run``).

Before anything is written, :func:`serve` checks what would stop the table later: the secret files,
another table on the same log or data folder, the game named and the address. A refused start
leaves no PIN, key or log behind. Errors are one ``error:`` line on standard error; the exit status
is 2 for a value to change (a secret file, options the game refuses) and 1 otherwise.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

from .app import SecretsRefused, Table, busy_folder_message, record_game
from .config import TableConfig
from .data_dir import DataDir, lock_holder
from .log import LogError, busy_log_message, writer_lock_path
from .secrets_store import secrets_problem


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


def serve(config: TableConfig, new_game: bool = False) -> int:
    """Build the table ``config`` describes, record ``[game]``'s start (``new_game``: even if it ends a
    game in progress), start the devices and serve the web app until SIGINT/SIGTERM; returns the
    exit status. Ctrl-C while starting closes what is open and raises ``KeyboardInterrupt``."""
    from arena_table.rules import Refused, UnknownGame, find_game, new_table
    from arena_table.webui.server import address_problem, make_server, stop_server

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
    options = config.game.options
    if config.game.name and (options is not None or not db.exists()):  # set up anew: refuse before writing
        try:
            new_table(config.game.name, options or {})
        except (ValueError, TypeError, Refused) as exc:
            said = (f"--options: {find_game(config.game.name).name} refuses them" if options is not None
                    else f"--game {config.game.name} needs --options (its setup has no defaults)")
            print(f"error: {said}: {exc}", file=sys.stderr)
            return 2
    if why := address_problem(web.host, web.port):  # before the log, PIN and key are made for a table
        print(f"error: cannot listen on {web.host}:{web.port}: {why}", file=sys.stderr)  # that cannot serve
        return 1
    # The log replays from the default table; game.name/options become a recorded start event
    # (record_game), so a restart without them finds the game in the log.
    try:
        table = Table.build(config)  # holds the log's writer lock: a second run on it stops here
    except (LogError, UnknownGame) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except SecretsRefused as exc:  # the PIN, login key or logged-out sessions cannot be used
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the data folder: a file in the place of a folder, no permission
        print(f"error: cannot open the table's files: {exc}", file=sys.stderr)
        return 1
    pin, app = table.pin, table.web
    server = None
    old_term = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    try:
        try:
            game_from_flags(table.engine, config.game.name or None, config.game.options, new_game)
        except ValueError as exc:
            table.close()
            print(f"error: --options: {exc}", file=sys.stderr)
            return 2
        except GameInProgress as exc:  # the table comes up with the game it runs: nothing is lost
            print(f"arena-table: warning: {exc}: the table goes on with it (add --new-game to end it, "
                  "or start a new game from the control page)", file=sys.stderr)
        try:
            table.start()
            from .doctor import Checkup

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
        try:
            server = make_server(app, web.host, web.port, clients=web.max_clients)
        except (OSError, ValueError) as exc:  # ValueError: waitress found no such address ("999.1.1.1")
            table.close()
            why = getattr(exc, "strerror", None) or ("no such address" if isinstance(exc, ValueError) else exc)
            print(f"error: cannot listen on {web.host}:{web.port}: {why}", file=sys.stderr)
            return 1
        signal.signal(signal.SIGTERM, on_term)
    except KeyboardInterrupt:  # Ctrl-C while starting: close what is open, in order; main() exits 130
        signal.signal(signal.SIGTERM, old_term)
        if server is not None:
            stop_server(app, server)
        table.close()
        raise
    try:  # the socket listens: from here on Ctrl-C and SIGTERM are the normal stop
        url = _shown_url(web.host, server.effective_port, web.public_url)
        print(f"arena-table: {table.state.game} · camera {camera or 'none'} · tokens {config.tokens.device() or 'none'} · "
              f"log {db}", flush=True)
        print(f"arena-table: spectator screen {config.publish.spectator_url or url}", flush=True)
        print(f"arena-table: control page {url}control   PIN {pin}", flush=True)
        if table.taught.ids():  # a kind taught with `dice teach` is read from this start on
            print(f"arena-table: taught die kinds {', '.join(table.taught.ids())} (from {table.taught.data_dir})",
                  flush=True)
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        signal.signal(signal.SIGTERM, old_term)
        stop_server(app, server)
        table.close()
        print("arena-table: stopped", flush=True)
    return 0


def _shown_url(host: str, port: int, public_url: str = "") -> str:
    """The spectator screen's address to print: ``public_url`` when configured, else for a server
    on every interface (``0.0.0.0``, ``::``) this machine's LAN address, which other devices can
    open (the QR code shows the same), else ``host`` (IPv6 in brackets).

    >>> _shown_url("127.0.0.1", 8000), _shown_url("::1", 80), _shown_url("0.0.0.0", 1, "http://a.example/")
    ('http://127.0.0.1:8000/', 'http://[::1]:80/', 'http://a.example/')
    """
    from arena_table.webui.address import EVERY_INTERFACE, lan_address

    if public_url:
        return public_url
    if host in EVERY_INTERFACE:
        host = lan_address() or "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"
