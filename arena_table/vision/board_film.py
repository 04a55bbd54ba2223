"""Frames of one game board from one fixed camera: figures at the cells and facings asked for.

For the end-to-end tests (``arena-table run --camera DIR`` on a folder of these frames) and
``tools/render_board_scenes.py --game``. A :class:`BoardFilm` takes a game's board definition
(:class:`arena_table.rules.kernel.geometry.boards.Board`, in the board's own millimetres), paints
it once (:func:`.board_scenes.board_texture`) with four corner markers just outside its cells,
fixes one camera, and calibrates that camera from a clean frame as ``arena-table calibrate``
does. :meth:`BoardFilm.frame` then draws figures (marker id -> cell, facing) through that camera
with sensor noise and a little blur, so every frame is a new photo of the same table.

>>> from arena_table.rules.kernel.geometry import SquareLayout
>>> from arena_table.rules.kernel.geometry.boards import board_from
>>> b = board_from({"id": "x", "game": "demigods", "kind": "square", "size_mm": 30.0, "cols": 4, "rows": 3})
>>> film = BoardFilm(b, marker_mm=14.0)
>>> film.corners[46], film.heading(1)
((-20.0, -20.0), 0.0)
>>> film.frame({5: ((1, 2), 1)}).shape
(720, 1280, 3)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import numpy as np

from .board_calib import BoardCalibration, calibrate_board
from .board_scenes import CORNER_IDS, FigureSpec, SceneSpec, board_texture, render_scene
from .markers import MarkerConfig, locate_markers

Point = tuple[float, float]

SQUARE_HEADINGS = {0: 90.0, 1: 0.0, 2: 270.0, 3: 180.0}
"""A square grid's facing (0 N, 1 E, 2 S, 3 W) as a heading, degrees counterclockwise from +x."""


class BoardFilm:
    """One board, one camera, any number of frames.

    Args:
        board: the game's board definition (its ``layout`` in board mm, its ``cells``).
        margin_mm: room between the outermost cells and the corner markers' centres.
        marker_mm / base_mm: the figures' printed markers and their round bases.
        seed: the board art, the camera's view and each frame's noise follow from it.
        dice: dice lying on the board art in every frame (they must never become figures).
        size: frame size (px).
    """

    def __init__(self, board: Any, *, margin_mm: float = 20.0, marker_mm: float = 20.0, base_mm: float = 32.0,
                 seed: int = 0, dice: int = 0, size: tuple[int, int] = (1280, 720), blur_px: float = 0.6) -> None:
        self.board = board
        layout = board.layout
        pts = [p for c in board.cells for p in _outline(layout, c)]
        x0, y0 = min(p[0] for p in pts) - margin_mm, min(p[1] for p in pts) - margin_mm
        x1, y1 = max(p[0] for p in pts) + margin_mm, max(p[1] for p in pts) + margin_mm
        self.offset = (x0, y0)
        """Board mm of the painted board's top-left corner (the renderer's board starts at 0, 0)."""
        self.layout = dataclasses.replace(layout, origin_mm=(layout.origin_mm[0] - x0, layout.origin_mm[1] - y0))
        """The board's grid on the painted board."""
        self.corners = dict(zip(CORNER_IDS, ((x0, y0), (x1, y0), (x1, y1), (x0, y1))))
        """Corner marker id -> its centre in the board's own mm (``arena-table calibrate`` takes these)."""
        self.marker_mm = marker_mm
        self.blur_px = blur_px
        self.rng = np.random.default_rng(seed)
        self.base = SceneSpec(board_mm=(x1 - x0, y1 - y0), grid=self.layout, marker_mm=marker_mm, base_mm=base_mm,
                              dice=dice, size=size)
        self.texture = board_texture(self.base, self.rng)
        clean, truth = render_scene(self.base, self.rng, self.texture)
        self.camera = truth.board_to_image
        self.clean = clean
        """A frame without figures (what ``arena-table calibrate`` is given)."""
        self.calibration: BoardCalibration = calibrate_board(locate_markers(MarkerConfig(), clean), size, self.corners)

    def __repr__(self) -> str:
        return f"<BoardFilm {self.board.id} {self.base.board_mm[0]:.0f}x{self.base.board_mm[1]:.0f} mm>"

    def heading(self, facing: int | None) -> float:
        """The heading (degrees counterclockwise from +x) a figure of ``facing`` points its marker's
        up along (``None``: 90, the board's top edge)."""
        if facing is None:
            return 90.0
        if hasattr(self.layout, "facing_angle"):
            return self.layout.facing_angle(facing)
        return (SQUARE_HEADINGS[facing % 4] + getattr(self.layout, "angle_deg", 0.0)) % 360.0

    def frame(self, figures: Mapping[int, tuple], *, hand: bool = False) -> np.ndarray:
        """A new photo (HxWx3 BGR) with marker ``id`` standing on ``cell`` facing ``facing`` for each
        ``id: (cell, facing)``, or ``id: (cell, facing, (dx, dy))`` to stand ``(dx, dy)`` mm off the
        cell's centre (two figures sharing a hex)."""
        figs = []
        for i, (cell, facing, *off) in figures.items():
            x, y = self.layout.centre(cell)
            dx, dy = off[0] if off else (0.0, 0.0)
            figs.append(FigureSpec(i, (x + dx, y + dy), self.heading(facing)))
        figs = tuple(figs)
        spec = dataclasses.replace(self.base, figures=figs, blur_px=self.blur_px, hand=hand)
        return render_scene(spec, self.rng, self.texture, camera=self.camera)[0]


def _outline(layout: Any, cell: Any) -> list[Point]:
    """The corners of ``cell`` in board mm."""
    if hasattr(layout, "corners"):
        return list(layout.corners(cell))
    c, r = cell
    return [layout._board(c + du, r + dv) for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1))]
