"""Locate dice of any kind on a plain tray, tell kinds apart by body colour and face, and
read the face by normalised correlation over the four square orientations of the
deskewed crop (so reading does not depend on how the die lies).

Early version for square-faced dice: face templates come from
:mod:`arena_table.vision.kind_render` (numerals and labels, not printed icons), so its
figures hold for rendered sets only; real dice need taught face models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind
from arena_table.vision import kind_render

CROP = kind_render.FACE_PX
"""Side in px of the deskewed face crop compared against the templates."""
MIN_SCORE = 0.55
"""Normalised correlation below which no kind's face fits: the die is another kind."""
MIN_AREA_PX = 400
"""Smallest die outline area in px (smaller blobs are noise)."""


@dataclass(frozen=True)
class KindReading:
    """One die seen: kind id and face symbol (``None`` when not known), box (x, y, w, h)
    in px, confidence 0-1, status ``ok`` | ``abstain`` | ``other-kind``."""

    kind: str | None
    face: str | None
    box: tuple[int, int, int, int]
    confidence: float
    status: str


def _templates(kind: DieKind) -> list[tuple[str, np.ndarray]]:
    out = []
    for sym in dict.fromkeys(kind.symbols):
        img = kind_render.face_image(kind, sym, CROP)
        out.append((sym, cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)))
    return out


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    d = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / d) if d > 0 else 0.0


def locate(frame_bgr: np.ndarray) -> list[tuple]:
    """Die outlines as ``cv2.minAreaRect`` boxes: pixels far (ΔLab > 30) from the median
    colour of the frame's border, taken as the tray, in blobs that fill a near-square box. Raises ``ValueError`` for a frame
    that is not HxWx3 uint8."""
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
        raise ValueError(f"frame must be HxWx3 uint8, got {frame_bgr.shape} {frame_bgr.dtype}")
    lab = cv2.cvtColor(cv2.GaussianBlur(frame_bgr, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    dist = np.linalg.norm(lab - np.median(border, axis=0), axis=2)
    mask = (dist > 30).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rects = []
    for c in contours:
        area, rect = cv2.contourArea(c), cv2.minAreaRect(c)
        w, h = rect[1]
        # a square face fills its box; a round glare spot fills ~0.79 of it
        if area >= MIN_AREA_PX and area >= 0.85 * w * h and max(w, h) <= 1.3 * min(w, h):
            rects.append(rect)
    return rects


def _crop(frame_bgr: np.ndarray, rect) -> np.ndarray:
    pts = cv2.boxPoints(rect).astype(np.float32)
    dst = np.float32([[0, CROP - 1], [0, 0], [CROP - 1, 0], [CROP - 1, CROP - 1]])
    return cv2.warpPerspective(frame_bgr, cv2.getPerspectiveTransform(pts, dst), (CROP, CROP))


def _body_hsv(crop: np.ndarray) -> tuple[int, int, int]:
    """Median HSV of the crop's ring just inside the outline (where no ink lies)."""
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    ring = np.concatenate([hsv[3:7].reshape(-1, 3), hsv[-7:-3].reshape(-1, 3),
                           hsv[:, 3:7].reshape(-1, 3), hsv[:, -7:-3].reshape(-1, 3)])
    h, s, v = (int(x) for x in np.median(ring, axis=0))
    return h, s, v


def read_kinds(frame_bgr: np.ndarray, kinds: Sequence[DieKind], *, game: str | None = None) -> list[KindReading]:
    """Read every die on ``frame_bgr`` (HxWx3 BGR uint8) as one of ``kinds`` (those of
    ``game`` and game-free kinds when ``game`` is given). A die whose body colour no
    kind's :class:`Look` holds, or whose face fits no template (score < :data:`MIN_SCORE`),
    is ``other-kind``; a best fit within 0.03 of a different face is ``abstain``. Kinds
    with the same look and the same face symbol cannot be told apart: the best wins.
    Readings run top to bottom."""
    pool = [k for k in kinds if game is None or not k.games or game in k.games]
    temps = {k.id: _templates(k) for k in pool}
    out = []
    for rect in sorted(locate(frame_bgr), key=lambda r: (round(r[0][1] / 40), r[0][0])):
        x, y, w, h = cv2.boundingRect(cv2.boxPoints(rect).astype(np.int32))
        crop = _crop(frame_bgr, rect)
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        hsv = _body_hsv(crop)
        scores = []
        for k in pool:
            if not k.look.holds(hsv):
                continue
            for sym, t in temps[k.id]:
                scores.append((max(_ncc(np.rot90(gray, r), t) for r in range(4)), k.id, sym))
        scores.sort(reverse=True)
        if not scores or scores[0][0] < MIN_SCORE:
            out.append(KindReading(None, None, (x, y, w, h), 0.0, "other-kind"))
            continue
        best, kid, sym = scores[0]
        rival = next((s[0] for s in scores[1:] if s[2] != sym), 0.0)
        ok = best - rival >= 0.03
        out.append(KindReading(kid if ok else None, sym if ok else None, (x, y, w, h),
                               round(min(1.0, best), 3), "ok" if ok else "abstain"))
    return out
