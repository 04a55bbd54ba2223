"""Read d8, d10, d12 and d20 dice seen from a camera over the table (drawn by :mod:`arena_table.vision.poly_render`).

A d8-d20 at rest lies on a face and shows its result on the parallel face on top, in the middle of
its silhouette. :func:`find_polys` takes every die blob that is not a d4's triangle
(:func:`arena_table.vision.d4.die_hulls`); the net of :mod:`arena_table.vision.poly_model` reads
each from three turned crops round its enclosing circle (:func:`poly_model.poly_crops`) and names
its shape and face (``d20-17``), or ``other`` for a blob that is no d8-d20 (a six-sided die). A
blob the net takes for a d8-d20 is this reader's: the square-faced reader's reading of it is
dropped (:func:`claim`). The die's kind is the first kind in play of that shape whose look holds
its body colour; one of a shape or colour no kind in play has is ``other-kind``.

The net was trained on renders only (Hershey-font numerals, ``tools/train_poly.py``), so its
figures hold for rendered dice; printed dice are not taught yet.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind
from arena_table.vision import d4, poly_model, poly_render
from arena_table.vision.kinds import KindReading

MIN_POLY = 0.7
"""Least probability the net gives the d8-d20 classes together for a blob to be taken for one
(else it is left to the square-faced reader). On the tuning scenes (below) no six-sided die of 443
reached it (2 reached 0.5) and every d8-d20 of 148 did."""
MIN_P = 0.4
"""Least probability of the likeliest (shape, face) of a blob taken for a d8-d20, below which the
reader abstains. Set on rendered scenes of seeds 700 000 on (``kind_sets.scene_frames``: 40 tray
frames, 10 of each game's), apart from the bench's test seeds (900 000 on): of 148 d8-d20 found
(1 not), at 0.4 143 right, 2 wrong; at 0.5 137 right, 1 wrong; at 0.6 129 right, 0 wrong."""
SCREEN = 0.2
"""Least probability of the d8-d20 classes together on a blob's first crop alone for the blob to be
read from all three turns (the rest are no d8-d20: the six-sided dice of a frame cost one crop
each). On the tuning scenes (:data:`MIN_P`) every d8-d20 reached 0.82 on one crop, 3 of 443
six-sided dice 0.2."""
MIN_AREA_PX = 600
"""Smallest blob area in px a d8-d20 may have (the smallest drawn, a 50 px d10 on its side, about 980)."""
MIN_CONTRAST = 31.0
"""Least median ``d4.tray_distance`` inside a blob's hull for it to be a die: a light blotch of a
textured tray passes :data:`arena_table.vision.d4.TRAY_DELTA` (24) by a little (medians 24-29 on
the tuning scenes), a die by far (rendered dice 33 and more, 95 % of them 37 and more)."""


def find_polys(frame: np.ndarray) -> list[np.ndarray]:
    """Candidate d8-d20 silhouettes on ``frame`` (HxWx3 BGR uint8), each an (N, 2) float32 hull
    px: the die blobs (``d4.die_hulls``) of :data:`MIN_AREA_PX` or more that are not a d4's
    triangle, not cut by the frame's edge and far from the tray inside (:data:`MIN_CONTRAST`).

    Raises:
        BadFrame: not an HxWx3 uint8 array.
    """
    hgt, wid = frame.shape[:2]
    dist = d4.tray_distance(frame)
    out = []
    for h in d4.die_hulls(frame, dist):
        x, y, w, hh = cv2.boundingRect(h)
        if (cv2.contourArea(h) < MIN_AREA_PX or d4.triangle(h) is not None
                or x <= 1 or y <= 1 or x + w >= wid - 1 or y + hh >= hgt - 1):
            continue
        inside = np.zeros((hh, w), np.uint8)
        cv2.fillConvexPoly(inside, h.reshape(-1, 2) - (x, y), 1)
        if np.median(dist[y:y + hh, x:x + w][inside > 0]) >= MIN_CONTRAST:
            out.append(h.reshape(-1, 2).astype(np.float32))
    return out


def _body_hsv(frame: np.ndarray, hull: np.ndarray) -> tuple[int, int, int]:
    """Median HSV inside ``hull`` shrunk to 0.7 round its centroid (the die, not the tray)."""
    c = hull.mean(axis=0)
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(c + 0.7 * (hull - c))), 255)
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)[mask > 0]
    h, s, v = (int(x) for x in np.median(hsv, axis=0)) if len(hsv) else (0, 0, 0)
    return h, s, v


def read_polys(frame: np.ndarray, kinds: Sequence[DieKind], *, game: str | None = None) -> list[KindReading]:
    """Every d8-d20 on ``frame`` (HxWx3 BGR uint8) as one of the polyhedral ``kinds``
    (``poly_render.is_poly``; with ``game``, those it throws and game-free ones), as
    :class:`~arena_table.vision.kinds.KindReading`: a blob is taken for a d8-d20 when the net gives
    the d8-d20 classes :data:`MIN_POLY` together over its three crops (one crop first:
    :data:`SCREEN`); it abstains when its likeliest (shape, face) is
    below :data:`MIN_P`; its kind is the first of ``kinds`` of that shape whose look holds its body
    colour, else it is ``other-kind``. ``[]`` when no kind is a d8-d20.

    >>> import arena_table.rules
    >>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    >>> frame, truth = poly_render.render_poly(find_kind("d12"), 11, np.random.default_rng(3))
    >>> [(r.kind, r.face, r.status) for r in read_polys(frame, [find_kind("d12"), find_kind("d6")])]
    [('d12', '11', 'ok')]

    Raises:
        BadFrame: not an HxWx3 uint8 array. ModelMissing: the model is not installed.
    """
    pool = [k for k in kinds if poly_render.is_poly(k) and (game is None or not k.games or game in k.games)]
    if not pool:
        return []
    hulls = find_polys(frame)
    if not hulls:
        return []
    names = poly_model.classes()
    poly = np.array([n.startswith("d") and n[1:2].isdigit() for n in names])
    crops = np.array([poly_model.poly_crops(frame, h) for h in hulls], np.uint8)
    first = poly_model.classify(crops[:, :1])[:, poly].sum(axis=1)
    keep = np.flatnonzero(first >= SCREEN)
    probs = poly_model.classify(crops[keep]) if len(keep) else np.zeros((0, len(names)))
    out = []
    for hull, p in zip([hulls[i] for i in keep], probs):
        if p[poly].sum() < MIN_POLY:
            continue
        best = int(np.flatnonzero(poly)[np.argmax(p[poly])])
        shape, face = names[best].split("-", 1)
        x, y, w, h = cv2.boundingRect(np.int32(np.round(hull)))
        box, conf = (x, y, w, h), round(float(p[best]), 3)
        if p[best] < MIN_P:
            out.append(KindReading(None, None, box, conf, "abstain"))
            continue
        hsv = _body_hsv(frame, hull)
        kind = next((k for k in pool if f"d{k.sides}" == shape and k.look.holds(hsv)), None)
        if kind is None:
            out.append(KindReading(None, None, box, conf, "other-kind"))
        else:
            out.append(KindReading(kind.id, face, box, conf, "ok"))
    return out


def claim(readings: Sequence[KindReading], polys: Sequence[KindReading]) -> list[KindReading]:
    """One reading a die: ``readings`` (of the square-faced reader) and ``polys`` (of
    :func:`read_polys` and ``d4.read_d4_in``), where a reading whose box centre lies inside one of
    ``polys``' boxes is the same die. A d4 or d8-d20 read ``ok`` replaces the other reading (a
    d8's or d20's hexagon passes the square-faced locator's test, and that reader reports it
    ``other-kind`` or takes a d4 for some d6); one that abstained gives way to a square-faced
    reading ``ok`` (a sure reading beats an unsure one) and replaces any other. Square-faced
    readings first, then the ``polys`` kept."""
    def inside(r: KindReading, p: KindReading) -> bool:
        cx, cy = r.box[0] + r.box[2] / 2, r.box[1] + r.box[3] / 2
        return p.box[0] <= cx <= p.box[0] + p.box[2] and p.box[1] <= cy <= p.box[1] + p.box[3]
    kept = [p for p in polys if p.status == "ok" or not any(r.status == "ok" and inside(r, p) for r in readings)]
    return [r for r in readings if not any(inside(r, p) for p in kept)] + kept
