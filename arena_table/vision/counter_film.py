"""Rendered photos of divine dice lying beside hero cards: the counters tests and
``arena_table.bench.counters``.

Each die is drawn by the kind renderer (``vision.kind_render.face_image``: the kind's body colour
from its look, its numeral in its ink), turned and pasted where it is asked for, on a table cloth
with sensor noise; hero cards are pale rectangles, as the dice lie beside them. A die can also be drawn on the table
plane of a rendered board (:mod:`.board_film`) through that camera (:func:`paste_die_mm`).
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

import arena_table.rules  # noqa: F401 - loads the games' die kinds
from arena_table.rules.kernel.mechanics.die_kinds import find_kind

from . import kind_render

SIZE = (1280, 720)
CLOTH = (60, 90, 70)
"""BGR of the table cloth."""
TRAY = (0, 0, 1280, 520)
"""A dice tray (px) above the hero cards of :func:`table_photo`'s usual layout, so the pip reader
of a camera calibrated with it never takes a divine die beside a card for a throw."""


def tray_calibration(path) -> str:
    """Write a camera calibration file (``arena-table dice calibrate``'s kind) at ``path`` with the
    tray :data:`TRAY` at :data:`SIZE`; returns the path as text."""
    from .frames import Calibration

    Calibration(SIZE, tray=TRAY).save(path)
    return str(path)


def paste_die(frame: np.ndarray, kind: str, face: int, centre: Sequence[float], side: int = 44,
              angle: float = 0.0) -> None:
    """Draw a die of ``kind`` showing ``face``, ``side`` px wide, turned ``angle`` degrees, centred at
    ``centre`` (x, y px) onto ``frame``, in place."""
    img = kind_render.face_image(find_kind(kind), str(face), side)
    m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    m[:, 2] += (centre[0] - side / 2, centre[1] - side / 2)
    h, w = frame.shape[:2]
    warped = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((side, side), 255, np.uint8), m, (w, h))
    frame[mask > 127] = warped[mask > 127]


def table_photo(dice: Sequence[tuple], seed: int, cards: Sequence[tuple] = (), size=SIZE,
                base: np.ndarray | None = None) -> np.ndarray:
    """A photo: ``base`` (or the cloth) with hero cards (x, y, w, h px) and ``dice``
    ``(kind, face, (x, y), angle)``, light noise and a slight blur."""
    rng = np.random.default_rng(seed)
    if base is None:
        frame = np.empty((size[1], size[0], 3), np.uint8)
        frame[:] = CLOTH
    else:
        frame = base.copy()
    for x, y, w, h in cards:
        cv2.rectangle(frame, (x, y), (x + w, y + h), (200, 215, 225), -1)
    for kind, face, centre, angle in dice:
        paste_die(frame, kind, face, centre, angle=angle)
    noisy = frame.astype(np.int16) + rng.normal(0, 3, frame.shape).astype(np.int16)
    return cv2.GaussianBlur(noisy.clip(0, 255).astype(np.uint8), (3, 3), 0)


def paste_die_mm(frame: np.ndarray, board_to_image: np.ndarray, kind: str, face: int, centre_mm: Sequence[float],
                 side_mm: float = 16.0, angle: float = 0.0, px_per_mm: float = 6.0) -> None:
    """Draw a die of ``kind`` showing ``face`` lying on the table plane at ``centre_mm`` (board mm),
    ``side_mm`` wide (the catalogue's divine die: 16 mm), turned ``angle`` degrees, through the
    camera ``board_to_image`` (3x3, board mm -> frame px), perspective included; in place."""
    side = int(round(side_mm * px_per_mm))
    img = kind_render.face_image(find_kind(kind), str(face), side)
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) / px_per_mm
    to_mm = np.eye(3)
    to_mm[:2, :2] = rot
    to_mm[:2, 2] = np.asarray(centre_mm, float) - rot @ (side / 2, side / 2)
    m = board_to_image @ to_mm
    h, w = frame.shape[:2]
    warped = cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((side, side), 255, np.uint8), m, (w, h))
    frame[mask > 127] = warped[mask > 127]
