"""The figure reader: the camera loop's frames -> markers -> tracked figures -> ``figure-moved``.

One camera sees dice and figures, and one frame owner (:class:`~.camera_loop.CameraLoop`) hands
every full frame to both readers: the dice reader gets the tray, this reader the whole board. A
:class:`FigureReader` is built when the data folder holds a board calibration
(``board-calibration.json``, ``arena-table calibrate``) and a marker registry (``markers.db``,
``arena-table markers assign``); it reads at most one frame every ``interval_s`` (0.1 s; markers
need no settle), maps the markers through the calibration onto the running game's board
(``Game.board``) and submits each stable move as ``FigureMoved``, which the engine turns into the
game's own move or a "check the table" desync.

A throw in the tray does not move figures: the dice carry no markers, a hand over figures only
hides them (they keep their cells), and a marker in the tray is off the board or of an
implausible size, ignored and logged once.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

from arena_table.rules import Refused, find_game
from arena_table.rules.kernel.events import FigureMoved
from arena_table.vision.board_calib import CALIBRATION_FILE, BoardCalibration, CalibrationRefused, calibrate_board
from arena_table.vision.frames import CalibrationMismatch, Frame
from arena_table.vision.marker_registry import MarkerRegistry
from arena_table.vision.markers import MarkerConfig, MarkerDetector
from arena_table.vision.tracking import FigureTracker, TrackConfig

from .ports import Ports

log = logging.getLogger(__name__)

REGISTRY_FILE = "markers.db"
FRAME_SLACK_S = 0.005
"""Frame times are ``k / fps`` in floating point: a frame 0.1 s after the last one read may be
0.0999999 s after it, and is still due."""


class FigureReader:
    """Feeds a :class:`~arena_table.vision.tracking.FigureTracker` from the camera loop's frames.

    Args:
        ports: the table as the ``figures`` device sees it (submit, state, report).
        calibration: the board calibration (resolution checked on every frame read).
        figures: marker id -> registry figure name ``game:kind:name``; only the running game's
            are tracked, as the game's figure ``name``.
        track: the tracker's thresholds.
        interval_s: least time between two frames read (frame clock; a frame due within
            :data:`FRAME_SLACK_S` of it counts, so a 10 fps camera is read every frame).
    """

    def __init__(self, ports: Ports, calibration: BoardCalibration, figures: dict[int, str],
                 track: TrackConfig = TrackConfig(), interval_s: float = 0.1,
                 calibration_file: Path | None = None) -> None:
        self.ports = ports
        self.calibration_file = calibration_file
        """Where :meth:`recalibrate` stores a new calibration (``None``: kept in memory only)."""
        self.calibration = calibration
        self.figures = dict(figures)
        self.track = track
        self.interval_s = interval_s
        self.detector = MarkerDetector(MarkerConfig(dictionary=calibration.dictionary))
        self.moves = 0
        """``figure-moved`` events accepted by the engine."""
        self._tracker: FigureTracker | None = None
        self._game: tuple[str, Any] | None = None
        self._last_t: float | None = None
        self._failed = ""
        self._image = None
        """The last full frame read (for :meth:`board_view`)."""
        ports.report(state="ok", detail=f"figures: {len(self.figures)} markers, board calibrated at "
                                         f"{calibration.resolution[0]}x{calibration.resolution[1]}")

    def __repr__(self) -> str:
        return f"<FigureReader {len(self.figures)} markers, {self.moves} moves>"

    def _tracker_for(self, game: str, board: Any) -> FigureTracker | None:
        """The tracker of the running game's board (made anew when the game or its board changes)."""
        if board is None:
            return None
        if self._game is None or self._game[0] != game or (self._game[1] is not board and self._game[1] != board):
            names = {i: f.split(":")[2] for i, f in self.figures.items() if f.split(":")[0] == game}
            self._tracker = FigureTracker(self.track, self.calibration, board, names)
            self._game = (game, board)
        return self._tracker

    # the table's device protocol: the camera loop drives this reader, so there is nothing to run
    def start(self) -> "FigureReader":
        return self

    def close(self) -> None:
        pass

    def board_view(self):
        """The last frame read, warped to the board with the grid and the figures drawn over it
        (``vision.board_view``), or ``None`` before a frame of a game with a board."""
        image, game = self._image, self._game
        if image is None or game is None:
            return None
        from arena_table.vision.board_view import draw_board

        return draw_board(image, self.calibration, game[1], self.seen())

    def recalibrate(self, corners: dict[int, tuple[float, float]], reference: tuple[int, Any] | None = None
                    ) -> BoardCalibration:
        """Calibrate anew from the last frame read (the control page's "Calibrate"): four corner
        marker ids -> board mm, and a reference marker that must land in its cell of the running
        game's board. The new calibration replaces the old one (and its file) only when accepted.

        Raises:
            CalibrationRefused: no frame yet, or :func:`~arena_table.vision.board_calib.calibrate_board`'s
                refusals ("missed by N mm").
        """
        image, game = self._image, self._game
        if image is None or game is None:
            raise CalibrationRefused("no frame of a game with a board yet: the camera must see the board")
        board = game[1]
        new = calibrate_board(self.detector.detect(image), image.shape[1::-1], corners,
                              dictionary=self.calibration.dictionary, reference=reference,
                              cell_at=board.cell_at, centre_of=board.centre)
        if self.calibration_file is not None:
            new.save(self.calibration_file)
        self.calibration, self._game = new, None
        self._tracker_for(*game)  # figures are tracked anew through the new calibration
        log.info("figures: board calibrated anew from the control page (%s)", self.calibration_file or "not saved")
        return new

    def set_figures(self, figures: dict[int, str]) -> None:
        """Track these figures (marker id -> ``game:kind:name``) from the next frame on (the
        registry was edited)."""
        self.figures = dict(figures)
        self._game = self._tracker = None

    def seen(self) -> list:
        """The figures on the board now (:class:`~arena_table.vision.tracking.FigureSeen`)."""
        return self._tracker.seen() if self._tracker is not None else []

    def __call__(self, frame: Frame) -> None:
        """Read ``frame`` (the full camera frame) unless one was read less than ``interval_s`` ago."""
        if self._failed or (self._last_t is not None and frame.t - self._last_t < self.interval_s - FRAME_SLACK_S):
            return
        self._last_t = frame.t
        try:
            self.calibration.check(frame.image.shape[1::-1])
        except CalibrationMismatch as exc:
            self._failed = str(exc)
            log.error("figures: %s", exc)
            self.ports.report(state="failed", detail=f"figures: {exc}")
            return
        table = self.ports.state()
        game = find_game(table.game)
        board = game.board(table.state) if game.board is not None else None
        tracker = self._tracker_for(game.name, board)
        if tracker is None:
            return
        self._image = frame.image
        update = tracker.update(self.detector.detect(frame.image), frame.t)
        for marker_id, reason in update.ignored:
            self.ports.report(last_ignored={"id": marker_id, "reason": reason})
        for move in update.moves:
            event = FigureMoved(figure=move.figure, from_cell=move.from_cell, to_cell=move.to_cell,
                                facing=move.facing, source=frame.name)
            try:
                self.ports.submit(event)
            except Refused as exc:  # recorded as refused by the engine; tracking goes on
                log.info("figures: %s refused: %s", move.figure, exc)
                continue
            self.moves += 1
            self.ports.report(last_move={"figure": move.figure, "to": _cell(move.to_cell), "facing": move.facing,
                                         "frame": frame.name, "frame_index": frame.index, "frame_t": frame.t})


def _cell(cell: Any) -> Any:
    return list(cell) if isinstance(cell, tuple) else cell


def build_figures(ports: Ports, data_dir: Path, track: TrackConfig = TrackConfig()) -> FigureReader | None:
    """The figure reader of a data folder, or ``None`` when it has no board calibration or no
    marker registry (figures are then entered by hand). The markers' size is the registry's.

    Raises:
        CalibrationRefused: ``board-calibration.json`` is there but unreadable.
    """
    cal_path, reg_path = Path(data_dir) / CALIBRATION_FILE, Path(data_dir) / REGISTRY_FILE
    if not cal_path.is_file() or not reg_path.is_file():
        return None
    calibration = BoardCalibration.load(cal_path)
    with MarkerRegistry(reg_path) as reg:
        if reg.dictionary != calibration.dictionary:
            log.warning("figures: %s holds %s markers, the calibration %s; figures not tracked",
                        reg_path, reg.dictionary, calibration.dictionary)
            return None
        figures = {i: m.figure for i, m in reg.figures().items()}
        track = dataclasses.replace(track, marker_mm=reg.marker_mm)
    return FigureReader(ports, calibration, figures, track, calibration_file=cal_path)


def registry_rows(data_dir: Path) -> dict:
    """The marker registry of a data folder as JSON: ``{"dictionary", "marker_mm", "markers":
    [{"id", "figure", "team", "game", "kind"}]}`` (an empty list when there is none yet)."""
    path = Path(data_dir) / REGISTRY_FILE
    if not path.is_file():
        return {"dictionary": None, "marker_mm": None, "markers": []}
    with MarkerRegistry(path) as reg:
        return {"dictionary": reg.dictionary, "marker_mm": reg.marker_mm,
                "markers": [{"id": m.id, "figure": m.figure, "team": m.team, "game": m.game, "kind": m.kind}
                            for m in reg.figures().values()]}


def edit_registry(data_dir: Path, readers: list, marker_id: int, figure: str | None, team: str = "") -> dict:
    """Assign ``marker_id`` to ``figure`` (``None``: remove it) in the data folder's registry (made
    when missing), and let the running figure readers track the new set.

    Raises:
        ValueError: a bad id, figure or team (``BadConfig``), or removing an id not assigned.
    """
    with MarkerRegistry(Path(data_dir) / REGISTRY_FILE) as reg:
        if figure is None:
            if not reg.remove(marker_id):
                raise ValueError(f"marker {marker_id} is not assigned")
        else:
            reg.assign(marker_id, figure, team)
        figures = {i: m.figure for i, m in reg.figures().items()}
    for reader in readers:
        reader.set_figures(figures)
    return registry_rows(data_dir)
