"""A die held in a hand is not a thrown die: skin around a die, unlike the table, refuses it.

A player holding a die over the tray (about to throw, or showing it to the table) shows its top
face to the camera like a thrown die, and the classifier reads it. The settle detector keeps a
roll from being read while a hand moves in the tray (``settle.py``), but a still frame, a photo
read with ``dice read``, or a hand held still at the tray's edge is read as it is.

The test, per die:

* the **ring** around it: the square band from ``inner`` to ``outer`` die sides from its centre,
  less the boxes of the other dice (an orange neighbour is not a finger);
* a ring pixel is **hand** when it is skin-coloured (``settle.skin_mask``: the YCrCb box of Chai &
  Ngan 1999) *and* differs from the table: its CIE Lab distance from the frame's median colour
  (the table fills most of a dice frame) is above ``table_distance``. A wooden or beige table is
  skin-coloured too; it is the frame's median, so it never counts;
* a die whose ring is more than ``share`` hand is held: ``unreadable``.

On the shared photos (``../shared/data/dice``) the one die in fingers has 0.72 of its ring hand
(byler_d6 ``IMG_20191208_112623.jpg``, a die the set leaves unlabelled). Of the 3183 other dice
found there and on ``bench dice``'s rendered stress sets, the highest is 0.42 and the next 0.27;
matteo's dice on a wooden desk have up to 0.69 of their ring skin-coloured, but 0.08 at most once
the table's own colour is left out (``python bench/dice_hands.py`` prints these figures).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .settle import skin_mask


@dataclass(frozen=True)
class HandConfig:
    """Thresholds of the held-die test (sides are die sides, distances CIE Lab units)."""

    share: float = 0.6
    """Share of the ring that is hand above which a die is held (``0``: never test)."""
    inner: float = 0.75
    """Inner half-width of the ring, in die sides (past the die's own side faces and shadow)."""
    outer: float = 1.5
    """Outer half-width of the ring, in die sides (a finger's width for dice of usual size)."""
    table_distance: float = 25.0
    """Lab distance from the frame's median colour above which a skin-coloured pixel is not table."""
    min_ring: int = 40
    """Fewest ring pixels inside the frame for a verdict (a die in a corner has too little ring)."""


def table_colour(frame: np.ndarray) -> np.ndarray:
    """The frame's median colour in 8-bit CIE Lab (OpenCV scaling), from a 1/8 nearest-pixel copy.

    Args:
        frame: HxWx3 uint8 BGR image.

    Returns:
        A float32 array of 3 (L, a, b).
    """
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_NEAREST)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    return np.median(lab.reshape(-1, 3), axis=0).astype(np.float32)


def _ring(cfg: HandConfig, frame: np.ndarray, center: tuple[float, float], side: float,
          others: list[tuple[int, int, int, int]]):
    """(window of the frame around the die, bool ring mask over it), or ``None`` when the ring
    has fewer than ``cfg.min_ring`` pixels in the frame."""
    h, w = frame.shape[:2]
    cx, cy = center
    r = cfg.outer * side
    x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
    x1, y1 = min(w, int(cx + r) + 1), min(h, int(cy + r) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1]
    reach = np.maximum(np.abs(xx - cx), np.abs(yy - cy))
    ring = (reach > cfg.inner * side) & (reach < r)
    for bx, by, bw, bh in others:
        ring[max(0, by - y0):max(0, by + bh - y0), max(0, bx - x0):max(0, bx + bw - x0)] = False
    if int(ring.sum()) < cfg.min_ring:
        return None
    return frame[y0:y1, x0:x1], ring


def hand_share(cfg: HandConfig, frame: np.ndarray, center: tuple[float, float], side: float,
               others: list[tuple[int, int, int, int]], table: np.ndarray | None) -> float | None:
    """Share of the ring around one die that is hand (skin-coloured and not table).

    Args:
        cfg: thresholds.
        frame: HxWx3 uint8 BGR image.
        center: the die's centre (x, y), frame px.
        side: the die's side, frame px.
        others: (x, y, w, h) boxes of the other dice in the frame, left out of the ring.
        table: :func:`table_colour` of the frame; ``None``: the share of skin colour alone (an
            upper bound, cheaper: no colour conversion).

    Returns:
        0..1, or ``None`` when fewer than ``cfg.min_ring`` ring pixels lie in the frame.
    """
    found = _ring(cfg, frame, center, side, others)
    if found is None:
        return None
    win, ring = found
    hand = skin_mask(win)
    if table is not None:
        lab = cv2.cvtColor(win, cv2.COLOR_BGR2LAB).astype(np.float32)
        hand &= np.linalg.norm(lab - table, axis=2) > cfg.table_distance
    return float(hand[ring].sum()) / float(ring.sum())


def held_dice(cfg: HandConfig, frame: np.ndarray, dice: list[tuple[tuple[float, float], float]],
              boxes: list[tuple[int, int, int, int]]) -> dict[int, float]:
    """The dice held in a hand.

    Args:
        cfg: thresholds.
        frame: HxWx3 uint8 BGR image.
        dice: per die to test, its (centre (x, y), side), frame px.
        boxes: the (x, y, w, h) box of every die in the frame, in the order of ``dice``.

    Returns:
        Index in ``dice`` -> the ring's hand share, for each die above ``cfg.share``.
    """
    if cfg.share <= 0 or not dice:
        return {}
    table = None  # the frame's median is computed only when some die has enough skin colour around it
    out = {}
    for k, (center, side) in enumerate(dice):
        others = boxes[:k] + boxes[k + 1:]
        skin = hand_share(cfg, frame, center, side, others, None)
        if skin is None or skin <= cfg.share:
            continue
        if table is None:
            table = table_colour(frame)
        share = hand_share(cfg, frame, center, side, others, table)
        if share is not None and share > cfg.share:
            out[k] = share
    return out


def refuse_held(cfg: HandConfig, frame: np.ndarray, dice: list, sides: list[float]) -> list:
    """``dice`` (``dice.DieReading``) with each die held in a hand made ``unreadable``.

    Args:
        cfg: thresholds.
        frame: HxWx3 uint8 BGR image.
        dice: the frame's readings; a ``partial`` or ``cocked`` die keeps its status.
        sides: each die's side, frame px.

    Returns:
        A new list, in the order of ``dice``.
    """
    out = list(dice)
    for k, share in held_dice(cfg, frame, [(d.center, s) for d, s in zip(dice, sides)], [d.box for d in dice]).items():
        if out[k].status in ("ok", "unreadable"):
            out[k] = replace(out[k], value=None, status="unreadable",
                             reason=f"held in a hand ({share:.0%} of the ring around it is skin)")
    return out
