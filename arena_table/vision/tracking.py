"""Figure tracking: markers seen frame by frame -> each figure's cell and facing -> moves.

Pure: the caller hands in each frame's markers and its time (seconds, any monotonic clock); nothing
here reads a clock, a camera or a file. :meth:`FigureTracker.update` returns the moves that became
certain with that frame.

- Each marker's centre goes through the board calibration's homography to board mm and the game's
  grid gives the cell (:mod:`arena_table.rules.kernel.geometry`). Facing is the marker's "up" in
  the image mapped to a board direction (no 3D pose, which flips on a flat table).
- A figure not seen in a frame (a hand over it) keeps its cell and is ``occluded``; it is removed
  (a move to no cell) only after :attr:`TrackConfig.lost_s` unseen.
- A new cell or facing is reported only once it has held for :attr:`TrackConfig.stable_s`.
- Hysteresis: a figure keeps its cell while its centre is within :attr:`TrackConfig.margin_mm`
  beyond that cell's border, and its facing while the direction is within
  :attr:`TrackConfig.facing_margin_deg` beyond that facing's sector; so a figure standing on an
  edge does not flicker between two cells.
- Markers that are not figures are ignored, each id logged once with its reason: an id the
  registry does not know, an id seen twice in one frame, a size implausible for a printed marker
  (a marker in the dice tray, nearer the camera, or a false detection in board art), and a marker
  off the board.

>>> from arena_table.rules.kernel.geometry import SquareLayout
>>> from arena_table.vision.board_calib import BoardCalibration
>>> cal = BoardCalibration((640, 480), ((0, (0.0, 0.0)), (1, (100.0, 0.0)), (2, (100.0, 100.0)), (3, (0.0, 100.0))),
...                        ((0.2, 0.0, 0.0), (0.0, 0.2, 0.0), (0.0, 0.0, 1.0)))   # 5 px per mm
>>> t = FigureTracker(TrackConfig(stable_s=0.3, marker_mm=10.0), cal, SquareLayout(25.0, 4, 4), {7: "rochon"})
>>> seen = [marker_at(7, (60.0, 60.0), 50.0)]              # 10 mm marker at board (12, 12) mm
>>> t.update(seen, 0.0).moves, t.update(seen, 0.4).moves
((), (Move(figure='rochon', marker_id=7, from_cell=None, to_cell=(0, 0), facing=0),))
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol, Sequence

from .board_calib import BoardCalibration
from .errors import BadConfig
from .markers import Marker

log = logging.getLogger(__name__)

Point = tuple[float, float]


class Grid(Protocol):
    """What the tracker asks of a game's grid (``HexLayout``, ``SquareLayout``; :class:`AreaGrid`
    for an ``AreaMap``)."""

    def cell_at(self, point: Point, *, keep: Any = None, margin_mm: float = 0.0) -> Any: ...

    def facing_of(self, dx_mm: float, dy_mm: float) -> int: ...


@dataclass(frozen=True)
class AreaGrid:
    """An ``AreaMap`` as a :class:`Grid`: areas have no facing (``facing_of`` gives ``None``) and
    a figure keeps its area while a point ``margin_mm`` from its centre, in any of eight
    directions, is still inside it."""

    areas: Any
    """An :class:`arena_table.rules.kernel.geometry.AreaMap`."""

    def cell_at(self, point: Point, *, keep: Any = None, margin_mm: float = 0.0) -> Any:
        here = self.areas.area_at(point, keep=keep)
        if keep is None or here == keep or margin_mm <= 0:
            return here
        for k in range(8):
            a = math.pi / 4 * k
            near = (point[0] + margin_mm * math.cos(a), point[1] + margin_mm * math.sin(a))
            if self.areas.area_at(near, keep=keep) == keep:
                return keep
        return here

    def facing_of(self, dx_mm: float, dy_mm: float) -> None:
        return None


def as_grid(layout: Any) -> Grid:
    """``layout`` as a :class:`Grid` (an ``AreaMap`` wrapped in :class:`AreaGrid`)."""
    return AreaGrid(layout) if hasattr(layout, "area_at") and not hasattr(layout, "cell_at") else layout


@dataclass(frozen=True)
class TrackConfig:
    """The tracker's thresholds (documented defaults)."""

    stable_s: float = 0.2
    """A new cell or facing must hold this long before it is a move (a figure carried over the
    board passes cells it does not stop on). 0.2 s keeps a figure put down within the 500 ms the
    screens have to show it (with the figure reader's 0.1 s between frames read: at most 0.3 s of
    waiting, docs/markers.md "How fast a figure is shown"); a hand sweeping a miniature across a
    25 mm hex spends well under that on each cell it passes."""
    lost_s: float = 10.0
    """A figure unseen this long is taken off the board (a hand resting on it for a few seconds
    is not a removal)."""
    margin_mm: float = 3.0
    """Hysteresis: how far past its cell's border a figure's centre may go and keep the cell.
    Larger than the centre's jitter (well under 1 mm at 1 px/mm), smaller than half a cell."""
    facing_margin_deg: float = 12.0
    """Hysteresis of facing, degrees beyond the facing's sector (hex sectors are 60 degrees)."""
    marker_mm: float = 12.0
    """Printed side of the figures' markers (``markers print --size-mm``)."""
    size_tolerance: float = 0.35
    """A marker whose side on the board is off ``marker_mm`` by more than this share is
    implausible (one lifted in a hand, or in the dice tray, looks larger; a false detection in
    board art has any size)."""
    board_margin_mm: float = 0.0
    """How far outside the corner markers a figure still counts as on the board."""

    def __post_init__(self) -> None:
        for name in ("stable_s", "lost_s", "margin_mm", "facing_margin_deg", "board_margin_mm"):
            if not getattr(self, name) >= 0:
                raise BadConfig(f"tracking {name} {getattr(self, name)!r}: want a number >= 0")
        if not self.marker_mm > 0 or not 0 < self.size_tolerance < 1:
            raise BadConfig(f"tracking marker_mm {self.marker_mm!r} / size_tolerance {self.size_tolerance!r}: "
                            f"want marker_mm > 0 and 0 < size_tolerance < 1")


@dataclass(frozen=True)
class Move:
    """A figure stood still on a new cell or facing (``to_cell`` None: it left the board)."""

    figure: str
    marker_id: int
    from_cell: Any
    to_cell: Any
    facing: int | None


@dataclass(frozen=True)
class FigureSeen:
    """Where the tracker holds a figure now (for the pages)."""

    figure: str
    marker_id: int
    cell: Any
    facing: int | None
    occluded: bool
    """Not seen in the latest frame (it keeps its cell)."""
    point_mm: Point
    """Its centre on the board when last seen."""


@dataclass(frozen=True)
class TrackUpdate:
    moves: tuple[Move, ...] = ()
    ignored: tuple[tuple[int, str], ...] = ()
    """Markers ignored for the first time with this reason: ``(id, reason)``."""


@dataclass
class _Track:
    marker_id: int
    cell: Any = None
    facing: int | None = None
    placed: bool = False
    last_seen: float = 0.0
    point: Point = (0.0, 0.0)
    occluded: bool = False
    pending: tuple[Any, int | None] | None = None
    since: float = 0.0


def marker_at(marker_id: int, centre: Point, side_px: float, angle_deg: float = 0.0) -> Marker:
    """A square :class:`Marker` at ``centre`` (px) with ``side_px`` and its up turned ``angle_deg``
    clockwise in the image (for tests and examples)."""
    a = math.radians(angle_deg)
    ux, uy = math.sin(a), -math.cos(a)       # up
    rx, ry = -uy, ux                          # right
    h = side_px / 2
    pts = [(-1, 1), (1, 1), (1, -1), (-1, -1)]  # (right, up) of top-left, top-right, bottom-right, bottom-left
    return Marker(marker_id, tuple((centre[0] + h * (r * rx + u * ux), centre[1] + h * (r * ry + u * uy))
                                   for r, u in pts))


class FigureTracker:
    """Tracks the figures of ``figures`` (marker id -> figure name) on one calibrated board.

    Args:
        cfg: thresholds.
        calibration: the board calibration (its corner markers are not figures, never logged).
        grid: the game's grid (:func:`as_grid` is applied).
        figures: marker id -> the figure's name in the running game (``rochon``).
    """

    def __init__(self, cfg: TrackConfig, calibration: BoardCalibration, grid: Any,
                 figures: Mapping[int, str]) -> None:
        self.cfg = cfg
        self.calibration = calibration
        self.grid = as_grid(grid)
        self.figures = dict(figures)
        self._tracks: dict[int, _Track] = {}
        self._logged: set[tuple[int, str]] = set()

    def __repr__(self) -> str:
        return f"<FigureTracker {len(self.figures)} figures, {sum(t.placed for t in self._tracks.values())} placed>"

    # -- what is known ------------------------------------------------------------------------------
    def seen(self) -> list[FigureSeen]:
        """Every figure on the board, by marker id."""
        return [FigureSeen(self.figures[i], i, t.cell, t.facing, t.occluded, t.point)
                for i, t in sorted(self._tracks.items()) if t.placed]

    # -- one frame ---------------------------------------------------------------------------------
    def _ignore(self, marker_id: int, reason: str, out: list[tuple[int, str]]) -> None:
        key = (marker_id, reason.split(" (")[0])
        if key not in self._logged:
            self._logged.add(key)
            out.append((marker_id, reason))
            log.info("marker %d ignored: %s", marker_id, reason)

    def _sightings(self, markers: Sequence[Marker], ignored: list[tuple[int, str]]) -> dict[int, tuple[Point, Point]]:
        """marker id -> (board centre mm, board up vector) of the figures' markers fit to track."""
        counts: dict[int, int] = {}
        for m in markers:
            counts[m.id] = counts.get(m.id, 0) + 1
        corners = self.calibration.corner_ids
        lo = self.cfg.marker_mm * (1 - self.cfg.size_tolerance)
        hi = self.cfg.marker_mm * (1 + self.cfg.size_tolerance)
        out = {}
        fit = []
        for m in markers:
            if m.id in corners:
                continue
            if m.id not in self.figures:
                self._ignore(m.id, "unknown id (not in the marker registry)", ignored)
                continue
            if counts[m.id] > 1:
                self._ignore(m.id, f"seen {counts[m.id]} times in one frame (which one is {self.figures[m.id]}?)", ignored)
                continue
            fit.append(m)
        for m, (centre, up, side) in zip(fit, self.calibration.markers_on_board(fit)):
            if not lo <= side <= hi:
                self._ignore(m.id, f"implausible size ({side:.1f} mm on the board, markers are "
                                   f"{self.cfg.marker_mm:g} mm)", ignored)
                continue
            if not self.calibration.on_board(centre, self.cfg.board_margin_mm):
                self._ignore(m.id, f"off the board (at {centre[0]:.0f}, {centre[1]:.0f} mm)", ignored)
                continue
            out[m.id] = (centre, up)
        return out

    def _facing(self, current: int | None, up: Point) -> int | None:
        """The facing of board direction ``up``, keeping ``current`` within the facing margin."""
        if up == (0.0, 0.0):
            return current
        f = self.grid.facing_of(up[0], up[1])
        if f is None or current is None or f == current:
            return f
        m = math.radians(self.cfg.facing_margin_deg)
        for a in (m, -m):
            c, s = math.cos(a), math.sin(a)
            if self.grid.facing_of(c * up[0] - s * up[1], s * up[0] + c * up[1]) == current:
                return current
        return f

    def _cell(self, track: _Track, centre: Point) -> Any:
        """The cell under ``centre``: the figure's own while within the margin of it, else the
        pending one's while within the margin of that (hysteresis for both)."""
        margin = self.cfg.margin_mm
        if track.placed:
            cell = self.grid.cell_at(centre, keep=track.cell, margin_mm=margin)
            if cell == track.cell or track.pending is None:
                return cell
        return self.grid.cell_at(centre, keep=track.pending[0] if track.pending else None, margin_mm=margin)

    def update(self, markers: Iterable[Marker], t: float) -> TrackUpdate:
        """Take one frame's markers (:func:`.markers.locate_markers` on the full frame) seen at
        time ``t`` (s); returns the moves that became certain and the newly ignored markers."""
        ignored: list[tuple[int, str]] = []
        moves: list[Move] = []
        seen: set[int] = set()
        for marker_id, (centre, up) in self._sightings(list(markers), ignored).items():
            track = self._tracks.get(marker_id) or _Track(marker_id)
            cell = self._cell(track, centre)
            if cell is None:
                self._ignore(marker_id, f"off the grid (at {centre[0]:.0f}, {centre[1]:.0f} mm)", ignored)
                continue
            self._tracks[marker_id] = track
            seen.add(marker_id)
            track.last_seen, track.point, track.occluded = t, centre, False
            pending_facing = track.pending[1] if track.pending and track.pending[0] == cell else None
            facing = self._facing(pending_facing if pending_facing is not None else
                                  (track.facing if track.placed else None), up)
            if track.placed and (cell, facing) == (track.cell, track.facing):
                track.pending = None
                continue
            if track.pending != (cell, facing):
                track.pending, track.since = (cell, facing), t
            if t - track.since >= self.cfg.stable_s:
                moves.append(Move(self.figures[marker_id], marker_id, track.cell if track.placed else None, cell, facing))
                track.cell, track.facing, track.placed, track.pending = cell, facing, True, None
        for marker_id, track in list(self._tracks.items()):
            if marker_id in seen:
                continue
            track.occluded, track.pending = True, None
            if t - track.last_seen >= self.cfg.lost_s:
                if track.placed:
                    moves.append(Move(self.figures[marker_id], marker_id, track.cell, None, None))
                del self._tracks[marker_id]
        return TrackUpdate(tuple(moves), tuple(ignored))
