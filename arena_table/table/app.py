"""The composition root: builds the log, the engine, the devices and the web app.

Nothing else in the program constructs these; there are no module-level
singletons (STYLE.md §10). :class:`Table` is also the *service* the web app is
given (``webui`` imports only ``rules``, so it sees this object through the
duck-typed ``arena_table.webui.service.TableService`` protocol).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable, Protocol

from arena_table.rules import Event, GameStarted, TableState, find_game

from .engine import Change, Clock, Engine
from .config import TableConfig
from .data_dir import DataDir, LockBusy, lock_holder
from .log import EventLog, LogError, LogRow, busy_log_message, check_log_file, writer_lock_path
from .media import MediaStore
from .ports import Ports

log = logging.getLogger(__name__)


class Device(Protocol):
    """A sensor or output the table owns: started with the table, closed with it."""

    def start(self) -> Any: ...

    def close(self) -> None: ...


DEFAULT_GAME = "dice-tray"
"""The game a log replays from until its first ``start`` event."""


class SecretsRefused(Exception):
    """A secret file of the data folder (PIN, login key, logged-out sessions) cannot be used; the
    message says which and why."""


def busy_folder_message(data_dir: Path, pid: str) -> str:
    """The refusal of a second table whose data folder ``data_dir`` process ``pid`` runs a table in."""
    return (f"{data_dir}: the data folder of another running table (pid {pid}), which keeps its PIN, login key "
            "and media there; give each table its own --data-dir")


class StatusBoard:
    """Health of each device (``camera``, ``tokens``, ``leds``...), shown on the dashboard.

    Devices call :meth:`set`; readers get a copy from :meth:`snapshot`; listeners are
    told of every change (they must not block).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[str, dict[str, Any]] = {}
        self._listeners: list[Callable[[dict[str, dict[str, Any]]], None]] = []

    def set(self, name: str, **info: Any) -> None:
        with self._lock:
            self._items[name] = {**info, "updated": time.time()}
            snap = {k: dict(v) for k, v in self._items.items()}
            listeners = list(self._listeners)
        for fn in listeners:
            try:
                fn(snap)
            except Exception:
                log.exception("status listener failed")

    def snapshot(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {k: dict(v) for k, v in self._items.items()}

    def listen(self, fn: Callable[[dict[str, dict[str, Any]]], None]) -> None:
        with self._lock:
            self._listeners.append(fn)


class Table:
    """One table: its log, engine, media store, devices and status.

    Use as a context manager, or call :meth:`start` and :meth:`close`.
    """

    def __init__(self, config: TableConfig = TableConfig(), clock: Clock = time.time) -> None:
        self.config = config
        self.clock = clock
        self.db = config.data.db_path
        self.data_dir = config.data.dir_path
        self.pin = config.web.pin or f"{secrets.randbelow(10**6):06d}"
        """The control page's PIN: the configured one, else a random one (``run`` puts the stored PIN here)."""
        self._folder_lock = None
        if str(self.db) != ":memory:":  # a test table in memory keeps nothing in a folder
            check_log_file(self.db)  # a file that is no log: refused before the folder is made
            self._folder_lock = self._take_folder(self.db, self.data_dir)
        try:
            self.log = EventLog(self.db)
        except BaseException:
            self._release_folder()
            raise
        from .camera_taught import TaughtKinds

        from .teach_session import TeachSession

        self.taught = TaughtKinds(self.data_dir).load()
        """The die kinds taught in the data folder (``dice teach``, the control page's teach card),
        over the shipped kinds before the log is replayed."""
        self.teaching = TeachSession(self.taught, self._camera_frame)
        """The control page's teach card: shots from the camera, taught into :attr:`taught`."""
        try:
            self.engine = Engine(self.log, DEFAULT_GAME, clock=clock)
            self.media = MediaStore(self.data_dir / "media")
        except BaseException:  # the locks are let go: a caller in the same process may retry
            self.log.close()
            self._release_folder()
            raise
        self.status_board = StatusBoard()
        self.devices: list[Device] = []
        self.web = None
        """The web app (``Flask``) when made by :meth:`build`; :meth:`close` ends its streams."""

    @classmethod
    def build(cls, config: TableConfig, clock: Clock = time.time) -> "Table":
        """The whole table ``config`` describes, wired: the log and engine (holding the data folder's
        and the log's locks), then, with the log ours, the control page's PIN (``web.pin``, else the
        stored one, else a new one), the key that signs its login cookie, the logged-out sessions and
        the web app (:attr:`web`). Devices are built and started by :meth:`start`.

        Raises:
            LogError: another table runs on the log or the data folder, or the log is no event log.
            SecretsRefused: a secret file of the data folder cannot be read or written.
            OSError: the data folder cannot be made or opened.
        """
        from arena_table.webui.app import WebConfig, create_app

        from .login_codes import LoginCodes
        from .revoked_sessions import StoredSessionRevocations
        from .secrets_store import load_or_create_pin, load_or_create_session_secret

        table = cls(config, clock)
        try:
            try:  # only now, with the log ours, the PIN and the login key beside it may be written
                table.pin = load_or_create_pin(table.data_dir, config.web.pin or None)
                key = load_or_create_session_secret(table.data_dir, table.pin)
                revocations = StoredSessionRevocations(table.data_dir)
            except (ValueError, OSError) as exc:
                raise SecretsRefused(str(exc)) from exc
            table.web = create_app(table, WebConfig(pin=table.pin, max_clients=config.web.max_clients,
                                                    streams_per_address=config.web.streams_per_address,
                                                    tv_addresses=config.web.tv_addresses, host=config.web.host,
                                                    trusted_proxy=config.web.trusted_proxy or None, public_url=config.shown_url or None,
                                                    secret_key=key, revocations=revocations,
                                                    login_code=LoginCodes(table.data_dir).use))
        except BaseException:
            table.close()
            raise
        return table

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> "Table":
        self.engine.start()
        for dev in self._build_devices():
            self.devices.append(dev)
            dev.start()
        return self

    def close(self) -> None:
        if self.web is not None:
            from arena_table.webui.app import shutdown

            shutdown(self.web)
            self.web = None
        for dev in reversed(self.devices):
            try:
                dev.close()
            except Exception:
                log.exception("closing %r failed", dev)
        self.devices.clear()
        self.teaching.close()
        self.engine.close()
        self.log.close()
        self._release_folder()

    @staticmethod
    def _take_folder(db: Path, data_dir: Path):
        """The data folder's lock (:meth:`DataDir.lock`: two tables with one data folder would rewrite
        each other's PIN and login key), taken before the log so that a refused second table makes
        no log beside the first's. Raises LogError naming the running table's pid."""
        try:
            return DataDir(data_dir).lock(busy_folder_message(data_dir, "{pid}"))
        except LockBusy as exc:
            if holder := lock_holder(writer_lock_path(db)):  # the same log: say so, as EventLog does
                raise LogError(busy_log_message(db, holder)) from None
            raise LogError(str(exc)) from None

    def _release_folder(self) -> None:
        if self._folder_lock is not None:
            self._folder_lock.close()  # releases the flock
            self._folder_lock = None

    def __enter__(self) -> "Table":
        try:
            return self.start()
        except BaseException:  # a device that cannot start: the locks are let go all the same
            self.close()
            raise

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ports(self, name: str) -> Ports:
        """The :class:`~.ports.Ports` of device ``name`` (its status entry on the board)."""
        board = self.status_board
        return Ports(submit=self.submit, media=self.media, clock=self.clock,
                     report=lambda **info: board.set(name, **info), rows=self.rows, state=lambda: self.state,
                     subscribe=self.subscribe, on_refused=self.engine.on_refused, status=self.status,
                     watch_status=board.listen)

    def _build_devices(self) -> list[Device]:
        devices: list[Device] = []
        cfg = self.config
        if camera := cfg.camera.device():
            from .camera_loop import build_camera
            from .counters import build_counters
            from .figures import build_figures

            figures = build_figures(self.ports("figures"), self.data_dir)  # the same camera's second reader
            counters = (build_counters(self.ports("counters"), cfg.counters,  # and third: the hero-card slots
                                       (lambda: figures.calibration) if figures else self._board_calibration())
                        if cfg.counters.slots else None)
            readers = tuple(r for r in (figures, counters) if r)
            devices.append(build_camera(self.ports("camera"), camera, cfg.camera, cfg.dice, frame_readers=readers,
                                        taught=self.taught))
            devices.extend(readers)  # the figure reader listed for the control page's board view
        if tokens := cfg.tokens.device():
            from .tokens import build_tokens

            devices.append(build_tokens(self.ports("tokens"), tokens, cfg.tokens.pads, self.data_dir / "tags.db"))
        if leds := cfg.leds.device():
            from .leds import build_leds

            devices.append(build_leds(self.ports("leds"), leds, cfg.leds.wiring(), cfg.leds.seats))
        if cfg.publish.broker:
            from .publish import build_publisher

            devices.append(build_publisher(self, cfg.publish))
        return devices

    def _camera_frame(self) -> Any:
        """The camera's last frame (BGR), or ``None`` without a camera or before its first frame."""
        cam = next((d for d in self.devices if callable(getattr(d, "latest_frame", None))), None)
        return None if cam is None else cam.latest_frame()

    def _board_calibration(self) -> Callable[[], Any]:
        """The data folder's board calibration (``board-calibration.json``) as the counters reader
        asks for it, or a function giving ``None`` when there is none (box_mm slots then unused).

        Raises:
            CalibrationRefused: the file is there but unreadable.
        """
        from arena_table.vision.board_calib import CALIBRATION_FILE, BoardCalibration

        path = self.data_dir / CALIBRATION_FILE
        board = BoardCalibration.load(path) if path.is_file() else None
        return lambda: board

    # -- the service the web app and devices use ----------------------------------------------------
    @property
    def state(self) -> TableState:
        return self.engine.state

    @property
    def epoch(self) -> str:
        return self.engine.epoch

    @property
    def version(self) -> int:
        return self.engine.version

    def submit(self, event: Event, check: Callable[[TableState], None] | None = None) -> int:
        """Validate, commit and apply ``event``; see :meth:`Engine.submit` (``check`` too)."""
        return self.engine.submit(event, check=check)

    def correct(self, event: Event, drops: tuple[int, ...] = ()) -> int:
        return self.engine.correct(event, drops)

    def undo(self, expected: int | None = None) -> tuple[int, Event]:
        return self.engine.undo(expected=expected)

    def undo_preview(self) -> tuple[int, Event]:
        return self.engine.undo_preview()

    def subscribe(self, fn: Callable[[Change], None]) -> Callable[[], None]:
        return self.engine.subscribe(fn)

    def rows(self, since: int = 0, limit: int | None = None, include_rejected: bool = True) -> list[LogRow]:
        return self.log.rows(since=since, limit=limit, include_rejected=include_rejected)

    def status(self) -> dict[str, dict[str, Any]]:
        return self.status_board.snapshot()

    def media_path(self, ref: str) -> Path:
        return self.media.path(ref)

    def markers(self) -> dict:
        """The marker registry (:func:`arena_table.table.figures.registry_rows`)."""
        from .figures import registry_rows

        return registry_rows(self.data_dir)

    def edit_marker(self, marker_id: int, figure: str | None, team: str = "") -> dict:
        """Assign a marker to a figure, or remove it (``figure`` None); the figure reader follows."""
        from .figures import FigureReader, edit_registry

        readers = [d for d in self.devices if isinstance(d, FigureReader)]
        return edit_registry(self.data_dir, readers, marker_id, figure, team)

    def enroll_tag(self, uid: str, obj: str) -> dict[str, str]:
        """Bind tag ``uid`` to game object ``obj`` (see :func:`arena_table.table.tokens.enroll_tag`)."""
        from .tokens import enroll_tag

        return enroll_tag(self, uid, obj)


def record_game(engine: Engine, game: str, options: dict[str, Any],
                check: Callable[[TableState], None] | None = None) -> int | None:
    """Make ``game`` set up with ``options`` the log's running game, durably.

    A ``start`` event is recorded unless the log already runs that game with those options (a
    restart with the same ``run --game/--options``), so a later restart without the flags, an
    export or a replay finds the game in the log (the log is the source of truth). The engine must
    replay the log from the default table (:data:`DEFAULT_GAME`, no options): the default game
    needs no ``start`` event.

    ``check``: run by the engine's single writer just before the start is recorded (see
    :meth:`Engine.submit`); what it raises is raised here and nothing is recorded.

    Returns:
        The ``start`` event's sequence number, or ``None`` when nothing was recorded.

    Raises:
        UnknownGame: no such game.
        Refused: the game refuses ``options`` (stored as a rejected event, like any refusal).
    """
    name = find_game(game).name
    ts = engine.state
    if ts.started_seq:
        started = next(ev for seq, ev in engine.log.records() if seq == ts.started_seq)
        if find_game(started.game).name == name and dict(started.options) == dict(options):
            return None
    elif name == find_game(DEFAULT_GAME).name and not options:
        return None
    return engine.submit(GameStarted(game=name, options=dict(options), at=engine.clock()), check=check)
