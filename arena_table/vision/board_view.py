"""The board as the calibration sees it: the camera frame warped to board mm, with the game's grid
and the tracked figures drawn over it, so a player can check that the calibration is right (the
control page's board view).

>>> import numpy as np
>>> from arena_table.rules.kernel.geometry import SquareLayout
>>> from arena_table.vision.board_calib import BoardCalibration
>>> cal = BoardCalibration((200, 100), ((0, (0.0, 0.0)), (1, (100.0, 0.0)), (2, (100.0, 50.0)), (3, (0.0, 50.0))),
...                        ((0.5, 0.0, 0.0), (0.0, 0.5, 0.0), (0.0, 0.0, 1.0)))
>>> draw_board(np.zeros((100, 200, 3), np.uint8), cal, SquareLayout(25.0, 4, 2), [], px_per_mm=2.0).shape
(140, 240, 3)
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import cv2
import numpy as np

from .board_calib import BoardCalibration

MARGIN_MM = 10.0
GRID_BGR = (0, 215, 255)
FIGURE_BGR = (60, 220, 60)
OCCLUDED_BGR = (0, 140, 255)


def _cells(layout: Any, cells: Iterable[Any] | None) -> list[np.ndarray]:
    """Each cell's outline in board mm."""
    if hasattr(layout, "polygons"):  # an area map
        return [np.array(poly, np.float64) for _, poly in layout.polygons]
    if hasattr(layout, "cols"):  # squares
        cells = cells or [(c, r) for c in range(layout.cols) for r in range(layout.rows)]
        a = math.radians(layout.angle_deg)
        h = layout.size_mm / 2
        out = []
        for cell in cells:
            cx, cy = layout.centre(cell)
            pts = [(dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a))
                   for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]
            out.append(np.array([(cx + x, cy + y) for x, y in pts]))
        return out
    return [np.array(layout.corners(cell)) for cell in (cells or [])]


def draw_board(frame: np.ndarray, calibration: BoardCalibration, board: Any, figures: Iterable[Any],
               px_per_mm: float = 2.0) -> np.ndarray:
    """``frame`` seen from above in board mm (``px_per_mm``), the board's cells outlined and each
    figure drawn at its point with its facing and name (orange when occluded).

    Args:
        frame: the full camera frame (BGR) at the calibration's resolution.
        board: a board definition (``.layout`` and ``.cells``) or a bare layout.
        figures: :class:`~.tracking.FigureSeen` (``figure``, ``cell``, ``facing``, ``occluded``,
            ``point_mm``).
    """
    poly = calibration.board_polygon()
    lo, hi = poly.min(axis=0) - MARGIN_MM, poly.max(axis=0) + MARGIN_MM
    size = tuple(int(math.ceil(v)) for v in (hi - lo) * px_per_mm)
    to_view = np.array([[px_per_mm, 0, -lo[0] * px_per_mm], [0, px_per_mm, -lo[1] * px_per_mm], [0, 0, 1]])
    view = cv2.warpPerspective(frame, to_view @ np.asarray(calibration.homography), size, flags=cv2.INTER_LINEAR)

    def px(points) -> np.ndarray:
        p = np.asarray(points, np.float64).reshape(-1, 2)
        return np.round((p - lo) * px_per_mm * 16).astype(np.int32)

    layout = getattr(board, "layout", board)
    for outline in _cells(layout, getattr(board, "cells", None)):
        cv2.polylines(view, [px(outline)], True, GRID_BGR, 1, cv2.LINE_AA, 4)
    for f in figures:
        colour = OCCLUDED_BGR if f.occluded else FIGURE_BGR
        centre = px(f.point_mm)[0]
        r = int(8 * px_per_mm) * 16
        cv2.circle(view, tuple(centre), r, colour, 2, cv2.LINE_AA, 4)
        if f.facing is not None and hasattr(layout, "facing_of"):
            a = _facing_vector(layout, f.facing)
            tip = np.array(f.point_mm) + 12 * np.array(a)
            cv2.arrowedLine(view, tuple(centre), tuple(px(tip)[0]), colour, 2, cv2.LINE_AA, 4, 0.3)
        x, y = (centre // 16).tolist()
        cv2.putText(view, f.figure, (x + int(9 * px_per_mm), y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1,
                    cv2.LINE_AA)
    return view


def _facing_vector(layout: Any, facing: int) -> tuple[float, float]:
    """The board direction (unit, ``y`` down) of ``facing`` on ``layout``."""
    if hasattr(layout, "facing_angle"):  # hexes: degrees counterclockwise from +x
        a = math.radians(layout.facing_angle(facing))
        return math.cos(a), -math.sin(a)
    a = math.radians({0: 90.0, 1: 0.0, 2: 270.0, 3: 180.0}[facing % 4] + getattr(layout, "angle_deg", 0.0))
    return math.cos(a), -math.sin(a)
