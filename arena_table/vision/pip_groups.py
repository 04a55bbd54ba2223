"""Dice read 1 that are the pips of a larger die: a pip-geometry check across the dice of a frame.

A pip seen at the scale of a small die is a dark (or light) disc on the face colour: the
classifier reads it as a die showing 1. When the frame's real dice are larger than the automatic
size range looks for, every pip of them is "found" that way (on rune55_d6's sample 110 of the 173
dice read ``ok`` wrongly were read 1, most of them pips of dice of 20-25 % of the frame). Two dice
read 1 may be pips of one face when they are of one size, close enough, and the straight line between
them runs over the colour around both (:func:`pips_of_one_face`). Dice apart on a plain table pass
that test too, so it is a cue only: the reader then reads the frame above the automatic range, and
only a die read surely there over two of them, and over no die read 2-6, stands for them
(``size_search.read_pip_groups``).

>>> import numpy as np
>>> from arena_table.vision.dice import DiceReading, DieReading
>>> face = np.full((200, 200, 3), 230, np.uint8)   # one large white face with two dark pips
>>> for x in (60, 140): _ = cv2.circle(face, (x, 100), 9, (20, 20, 20), -1)
>>> one = lambda x: DieReading(1, "ok", "", 0.9, (float(x), 100.0), (x - 14, 86, 28, 28))
>>> pips_of_one_face(PipGroupConfig(), face, DiceReading((one(60), one(140)), 200, 200))
[0, 1]
>>> seam = face.copy(); seam[:, 98:102] = (60, 60, 60)   # a dark line between them: not one surface
>>> pips_of_one_face(PipGroupConfig(), seam, DiceReading((one(60), one(140)), 200, 200))
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from .dice import DiceReading


@dataclass(frozen=True)
class PipGroupConfig:
    """Thresholds of :func:`pips_of_one_face` (distances in die sides, colours in CIE Lab units)."""

    max_gap: float = 3.0
    """Largest distance between two dice read 1, in their mean side, for them to be pips of one face.
    Neighbouring pips of a 3-6 lie 0.27-0.54 of the die's side apart, under 3 sides of the "die" the
    detector finds on a pip (about 0.19 of the die's side on rune55_d6); a 2's pips, 0.76 apart, are
    beyond it."""
    size_ratio: float = 1.5
    """Largest ratio of the two dice's sides (pips of one face are of one size)."""
    ring: tuple[float, float] = (0.55, 0.8)
    """Ring (radii in die sides) around each die whose median colour is the surface it lies on."""
    tolerance: float = 20.0
    """Largest Lab distance between the two rings' colours, and from their mean to every sample of
    the line between the dice, for the line to run over one surface."""
    samples: int = 25
    """Points sampled along the line between two dice (those within ``ring[0]`` of either centre are
    the dice themselves and skipped)."""


def _ring_colour(lab: np.ndarray, cx: float, cy: float, r0: float, r1: float) -> np.ndarray | None:
    """Median Lab colour of the pixels between radius ``r0`` and ``r1`` px around (cx, cy)."""
    h, w = lab.shape[:2]
    x0, x1 = max(0, int(cx - r1 - 1)), min(w, int(cx + r1 + 2))
    y0, y1 = max(0, int(cy - r1 - 1)), min(h, int(cy + r1 + 2))
    yy, xx = np.mgrid[y0:y1, x0:x1]
    rr = np.hypot(xx - cx, yy - cy)
    px = lab[y0:y1, x0:x1][(rr >= r0) & (rr <= r1)]
    return np.median(px, axis=0) if len(px) else None


def _on_one_surface(cfg: PipGroupConfig, lab: np.ndarray, a, b, side_a: float, side_b: float) -> bool:
    """Whether the line from die centre ``a`` to ``b`` runs over the colour both dice lie on."""
    ca = _ring_colour(lab, a[0], a[1], cfg.ring[0] * side_a, cfg.ring[1] * side_a)
    cb = _ring_colour(lab, b[0], b[1], cfg.ring[0] * side_b, cfg.ring[1] * side_b)
    if ca is None or cb is None or np.linalg.norm(ca - cb) > cfg.tolerance:
        return False
    h, w = lab.shape[:2]
    t = np.linspace(0.0, 1.0, cfg.samples)
    xs, ys = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
    far = (np.hypot(xs - a[0], ys - a[1]) > cfg.ring[0] * side_a) & (np.hypot(xs - b[0], ys - b[1]) > cfg.ring[0] * side_b)
    if not far.any():
        return False
    ix = np.clip(np.round(xs[far]).astype(int), 0, w - 1)
    iy = np.clip(np.round(ys[far]).astype(int), 0, h - 1)
    return bool(np.all(np.linalg.norm(lab[iy, ix] - (ca + cb) / 2, axis=1) <= cfg.tolerance))


def pips_of_one_face(cfg: PipGroupConfig, frame: np.ndarray, reading: DiceReading) -> list[int]:
    """Indices (into ``reading.dice``) of the dice read ``ok`` as 1 that may lie on one face with
    another die read 1: by size and distance they could be pips of one die (``max_gap``,
    ``size_ratio``) and the line between them runs over the surface both lie on (``tolerance``).
    Dice apart on a plain table pass too: a cue for ``size_search.read_pip_groups``, not a verdict.

    Args:
        cfg: thresholds.
        frame: the HxWx3 uint8 BGR frame ``reading`` was read from.
        reading: the reader's reading of ``frame``.

    Returns:
        The indices, increasing; empty when fewer than two dice are read 1.
    """
    ones = [k for k, d in enumerate(reading.dice) if d.status == "ok" and d.value == 1]
    if len(ones) < 2:
        return []
    side = {k: float(max(reading.dice[k].box[2:])) or 1.0 for k in ones}
    # Lab of the region around the dice read 1 only (a whole 1280x720 frame costs a few ms).
    reach = max(side.values()) * cfg.ring[1] + 2
    xs = [reading.dice[k].center[0] for k in ones]
    ys = [reading.dice[k].center[1] for k in ones]
    h, w = frame.shape[:2]
    x0, y0 = max(0, int(min(xs) - reach)), max(0, int(min(ys) - reach))
    x1, y1 = min(w, int(max(xs) + reach) + 1), min(h, int(max(ys) + reach) + 1)
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB).astype(np.float32)
    found: set[int] = set()
    for n, i in enumerate(ones):
        for j in ones[n + 1:]:
            a = (reading.dice[i].center[0] - x0, reading.dice[i].center[1] - y0)
            b = (reading.dice[j].center[0] - x0, reading.dice[j].center[1] - y0)
            si, sj = side[i], side[j]
            if max(si, sj) / min(si, sj) > cfg.size_ratio or math.dist(a, b) > cfg.max_gap * (si + sj) / 2:
                continue
            if _on_one_surface(cfg, lab, a, b, si, sj):
                found.update((i, j))
    return sorted(found)
