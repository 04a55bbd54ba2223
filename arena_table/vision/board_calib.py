"""Board calibration: four corner markers give the homography from camera pixels to board mm.

Each corner marker is known by its id (``corners``: id -> board mm of the marker's centre), never
guessed from where it lies in the image, so a camera turned round or a board put down the other
way still maps each pixel to the right place. The centre of a marker is where its diagonals cross
(:attr:`.markers.Marker.centre`): a point that stays the projection of the printed centre under
perspective.

A calibration records the camera resolution it was made at and refuses frames of another
(:meth:`BoardCalibration.check`, raising :class:`~.frames.CalibrationMismatch`). A reference
marker, when given, must land in its expected cell of the game's grid, or the calibration is
refused with how many mm it missed by (:class:`CalibrationRefused`).

Board mm: ``x`` right, ``y`` down, seen from above with the board's top edge away from the viewer
(:mod:`arena_table.rules.kernel.geometry`).

>>> import numpy as np
>>> from arena_table.vision.markers import Marker
>>> def square(c, s=10):
...     x, y = c
...     return ((x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s))
>>> seen = [Marker(i, square(c)) for i, c in zip((0, 1, 2, 3), ((100, 100), (500, 100), (500, 400), (100, 400)))]
>>> cal = calibrate_board(seen, (640, 480), {0: (0, 0), 1: (400, 0), 2: (400, 300), 3: (0, 300)})
>>> cal.to_board([(300.0, 250.0)]).round(3).tolist()
[[200.0, 150.0]]
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import cv2
import numpy as np

from .errors import VisionError
from .frames import CalibrationMismatch
from .markers import Marker

Point = tuple[float, float]

CALIBRATION_FILE = "board-calibration.json"
"""Where ``arena-table calibrate`` stores the calibration in the data dir."""


class CalibrationRefused(VisionError, ValueError):
    """The frame cannot calibrate the board (a corner marker missing or seen twice, corners in a
    line or mirrored, a reference marker off its cell); the message says which and by how much."""


@dataclass(frozen=True)
class Reference:
    """The check a calibration passed: marker ``id`` landed ``offset_mm`` from the centre of ``cell``."""

    id: int
    cell: Any
    offset_mm: float


@dataclass(frozen=True)
class BoardCalibration:
    """Image px -> board mm for one camera at one resolution."""

    resolution: tuple[int, int]
    """(width, height) of the frames it was made from; others are refused."""
    corners: tuple[tuple[int, Point], ...]
    """``(marker id, board mm of its centre)`` of the four corner markers."""
    homography: tuple[tuple[float, float, float], ...]
    """3x3, image px (x, y, 1) -> board mm (homogeneous)."""
    dictionary: str = "DICT_4X4_50"
    made: str = ""
    """ISO 8601 UTC time it was made (informative)."""
    reference: Reference | None = None

    @cached_property
    def corner_ids(self) -> frozenset[int]:
        return frozenset(i for i, _ in self.corners)

    def check(self, resolution: tuple[int, int]) -> None:
        """Refuse frames of another size.

        Raises:
            CalibrationMismatch: ``resolution`` (width, height) is not :attr:`resolution`.
        """
        if tuple(resolution) != tuple(self.resolution):
            (cw, ch), (w, h) = self.resolution, resolution
            raise CalibrationMismatch(f"board calibration made at {cw}x{ch} cannot be used with {w}x{h} frames; "
                                      f"recalibrate at {w}x{h} (arena-table calibrate)")

    def to_board(self, points: Iterable[Sequence[float]]) -> np.ndarray:
        """Image px ``(x, y)`` points -> board mm, an ``Nx2`` float array."""
        pts = np.asarray(list(points), np.float64).reshape(-1, 1, 2)
        if not len(pts):
            return np.zeros((0, 2))
        return cv2.perspectiveTransform(pts, np.asarray(self.homography, np.float64)).reshape(-1, 2)

    def marker_on_board(self, marker: Marker) -> tuple[Point, Point, float]:
        """Where ``marker`` is on the board: its centre (mm), its "up" direction as a board vector
        (mm, about one side long) and its side (mm, the mean edge).

        Facing comes from the marker's orientation in the image mapped through the homography: a
        direction on the board plane, with no 3D pose (which flips on a flat table)."""
        return self.markers_on_board([marker])[0]

    def markers_on_board(self, markers: Sequence[Marker]) -> list[tuple[Point, Point, float]]:
        """:meth:`marker_on_board` of each marker, mapped in one call (the tracker's every frame)."""
        if not markers:
            return []
        pts = self.to_board([p for m in markers for p in (m.centre, *m.corners)]).reshape(-1, 5, 2)
        centre, q = pts[:, 0], pts[:, 1:]
        # all four edges vote: up from the two side edges, and the top and bottom edges turned a
        # quarter (half the jitter of one edge's midpoint)
        up = (q[:, 0] - q[:, 3] + q[:, 1] - q[:, 2]) / 2
        right = (q[:, 1] - q[:, 0] + q[:, 2] - q[:, 3]) / 2
        nu = np.hypot(up[:, 0], up[:, 1])[:, None]
        nr = np.hypot(right[:, 0], right[:, 1])[:, None]
        turned = np.stack([right[:, 1], -right[:, 0]], axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            vote = (up / nu + turned / nr) / 2 * (nu + nr) / 2
        vote = np.where((nu > 0) & (nr > 0), vote, up)
        edges = np.diff(np.concatenate([q, q[:, :1]], axis=1), axis=1)
        side = np.hypot(edges[..., 0], edges[..., 1]).mean(axis=1)
        return [((float(c[0]), float(c[1])), (float(u[0]), float(u[1])), float(sd))
                for c, u, sd in zip(centre, vote, side)]

    @cached_property
    def _polygon(self) -> np.ndarray:
        return self.board_polygon().astype(np.float32).reshape(-1, 1, 2)

    def board_polygon(self) -> np.ndarray:
        """The corner markers' board positions, in the order that walks round the board (4x2 mm)."""
        pts = np.array([p for _, p in self.corners], np.float64)
        centre = pts.mean(axis=0)
        order = np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))
        return pts[order]

    def on_board(self, point: Point, margin_mm: float = 0.0) -> bool:
        """Whether a board point lies within the corner markers' quadrilateral grown by ``margin_mm``."""
        return cv2.pointPolygonTest(self._polygon, (float(point[0]), float(point[1])), True) >= -margin_mm

    # -- files ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"kind": "board-calibration", "resolution": list(self.resolution), "dictionary": self.dictionary,
                "corners": [{"id": i, "mm": list(p)} for i, p in self.corners],
                "homography": [list(r) for r in self.homography], "made": self.made,
                "reference": None if self.reference is None else {
                    "id": self.reference.id, "cell": _cell_json(self.reference.cell),
                    "offset_mm": self.reference.offset_mm}}

    @staticmethod
    def from_json(data: Mapping[str, Any], where: str = "board calibration") -> "BoardCalibration":
        """Raises: CalibrationRefused naming ``where`` and the bad key."""
        try:
            if data.get("kind") != "board-calibration":
                raise ValueError("kind is not 'board-calibration'")
            h = tuple(tuple(float(v) for v in row) for row in data["homography"])
            if len(h) != 3 or any(len(r) != 3 for r in h):
                raise ValueError("homography is not 3x3")
            w, hh = (int(v) for v in data["resolution"])
            corners = tuple((int(c["id"]), (float(c["mm"][0]), float(c["mm"][1]))) for c in data["corners"])
            ref = data.get("reference")
            reference = None if not ref else Reference(int(ref["id"]), _cell_back(ref["cell"]), float(ref["offset_mm"]))
            return BoardCalibration((w, hh), corners, h, str(data.get("dictionary", "DICT_4X4_50")),
                                    str(data.get("made", "")), reference)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise CalibrationRefused(f"{where}: not a board calibration ({exc})") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @staticmethod
    def load(path: str | Path) -> "BoardCalibration":
        """Raises: CalibrationRefused (unreadable or not a board calibration), naming ``path``."""
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise CalibrationRefused(f"{path}: cannot read a board calibration ({exc})") from None
        if not isinstance(data, dict):
            raise CalibrationRefused(f"{path}: not a board calibration (not a JSON object)")
        return BoardCalibration.from_json(data, str(path))


def _cell_json(cell: Any) -> Any:
    return list(cell) if isinstance(cell, tuple) else cell


def _cell_back(cell: Any) -> Any:
    return tuple(cell) if isinstance(cell, list) else cell


def _orientations(H: np.ndarray, pts: np.ndarray) -> list[bool]:
    """Per image point: whether ``H`` keeps the sense of turning there (image and board both have
    ``y`` down, so a right calibration keeps it at every corner; a mirror flips it at all of them,
    two swapped ids fold the board between them)."""
    out = []
    for x, y in pts:
        a, b, c = cv2.perspectiveTransform(np.float64([[[x, y], [x + 1, y], [x, y + 1]]]), H)[0]
        w = H[2] @ (x, y, 1.0)
        u, v = b - a, c - a
        out.append(bool(u[0] * v[1] - u[1] * v[0] > 0 and w > 0))
    return out


def calibrate_board(markers: Sequence[Marker], resolution: tuple[int, int], corners: Mapping[int, Point], *,
                    dictionary: str = "DICT_4X4_50",
                    reference: tuple[int, Any] | None = None,
                    cell_at: Callable[[Point], Any] | None = None,
                    centre_of: Callable[[Any], Point] | None = None,
                    made: str | None = None) -> BoardCalibration:
    """The calibration of the frame in which ``markers`` were found.

    Args:
        markers: every marker found in the frame (:func:`.markers.locate_markers`).
        resolution: the frame's (width, height).
        corners: four distinct marker ids -> board mm of each one's centre.
        reference: ``(marker id, expected cell)``, checked with ``cell_at`` (board mm -> cell) and
            ``centre_of`` (cell -> board mm), e.g. a grid layout's ``cell_at`` and ``centre``.
        made: ISO 8601 stamp to record (default now, UTC).

    Raises:
        CalibrationRefused: not four distinct corner ids; a corner or the reference marker not seen,
            or seen twice; corners in a line or mirrored; the reference marker in another cell
            ("missed by N mm").
    """
    ids = list(corners)
    if len(set(ids)) != 4 or len(ids) != 4:
        raise CalibrationRefused(f"a board calibration needs four distinct corner marker ids, got {ids}")
    if reference is not None and (cell_at is None or centre_of is None):
        raise CalibrationRefused("a reference marker needs the game's grid to check its cell")
    by_id: dict[int, list[Marker]] = {}
    for m in markers:
        by_id.setdefault(m.id, []).append(m)
    missing = [i for i in ids if i not in by_id]
    if missing:
        seen = ", ".join(map(str, sorted(by_id))) or "none"
        raise CalibrationRefused(f"corner marker{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                                 f"not seen (markers seen: {seen})")
    twice = [i for i in ids if len(by_id[i]) > 1]
    if twice:
        raise CalibrationRefused(f"corner marker {twice[0]} seen {len(by_id[twice[0]])} times: cover all but one")
    src = np.array([by_id[i][0].centre for i in ids], np.float64)
    dst = np.array([corners[i] for i in ids], np.float64)
    for pts, where in ((dst, "on the board (their mm)"), (src, "in the image")):
        for k in range(4):
            a, b, c = (pts[j] for j in range(4) if j != k)
            u, v = b - a, c - a
            if abs(u[0] * v[1] - u[1] * v[0]) < 1e-3 * max(1.0, float(np.ptp(pts, axis=0).max())) ** 2:
                raise CalibrationRefused(f"three corner markers are in a line {where}: "
                                         f"{', '.join(str(ids[j]) for j in range(4) if j != k)}")
    H = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    folds = _orientations(H, src)
    if not all(folds):
        raise CalibrationRefused(f"the corner markers are seen mirrored: check their ids ({ids}) against "
                                 f"the board's corners" if not any(folds) else
                                 f"the corner markers' ids do not match their places (two swapped?): check "
                                 f"{ids} against the board's corners")
    stamp = made or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    cal = BoardCalibration((int(resolution[0]), int(resolution[1])),
                           tuple((int(i), (float(corners[i][0]), float(corners[i][1]))) for i in ids),
                           tuple(tuple(float(v) for v in row) for row in H / H[2, 2]), dictionary, stamp)
    if reference is None:
        return cal
    ref_id, want = reference
    seen = by_id.get(ref_id, [])
    if len(seen) != 1:
        raise CalibrationRefused(f"reference marker {ref_id} " + ("not seen" if not seen else f"seen {len(seen)} times"))
    point = tuple(float(v) for v in cal.to_board([seen[0].centre])[0])
    want = _cell_back(want)
    got = cell_at(point)
    cx, cy = centre_of(want)
    off = math.hypot(point[0] - cx, point[1] - cy)
    if got != want:
        raise CalibrationRefused(f"reference marker {ref_id} landed in cell {_cell_text(got)}, not "
                                 f"{_cell_text(want)}: missed by {off:.1f} mm (from the centre of "
                                 f"{_cell_text(want)}); check the corner markers' positions and ids")
    return BoardCalibration(cal.resolution, cal.corners, cal.homography, dictionary, stamp,
                            Reference(ref_id, want, round(off, 2)))


def _cell_text(cell: Any) -> str:
    if cell is None:
        return "none (off the grid)"
    return f"[{', '.join(map(str, cell))}]" if isinstance(cell, (tuple, list)) else str(cell)
