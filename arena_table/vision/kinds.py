"""Read dice of any kind on a tray: find each die, tell its kind by body colour and face, read
its face with the kind face classifier (:mod:`arena_table.vision.kind_model`).

A die is found as a near-square blob that differs from the tray (:func:`locate`), squared to its
outline (:func:`face_crop`) and its body colour measured in a band inside the outline
(:func:`body_hsv`). The kinds whose :class:`~arena_table.rules.kernel.mechanics.die_kinds.Look`
holds that colour, and whose ink is light or dark as the die's (:func:`ink_is_light`: a grey die
with white ink is no ivory die with black ink under a dim light), are its candidates; the
classifier gives each glyph a probability and the die is the candidate kind and face whose glyph
is likeliest. A die that no candidate fits is
``other-kind`` (a die of a kind the game does not use is reported as such, not forced into one).

The classifier was trained on rendered faces only (``kind_render``): figures on rendered sets
(``arena-table bench dice --kinds``) do not carry over to printed dice, which are taught.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind
from arena_table.vision import kind_model, kind_render
from arena_table.vision.kind_icons import glyph_id

CROP = kind_model.CROP
"""Side in px of the deskewed face crop."""
MIN_P = 0.25
"""Least probability of the best candidate's glyph: below it the die fits no candidate kind (a
die of another kind in the same colour has its own glyph's probability, near 1)."""
MIN_MARGIN = 0.2
"""Least lead of the best (kind, face) over the best reading of another face; below: ``abstain``."""
MIN_AREA_PX = 400
"""Smallest die outline area in px (smaller blobs are noise)."""
MIN_BOX_FILL = 0.72
"""Least share of its ``minAreaRect`` box a die's blob fills (a sharp square 0.97, a small die
blurred round at the corners 0.74)."""
MAX_CIRCLE_FILL = 0.88
"""Most share of its enclosing circle a die's blob fills (a square 0.64, a disc 1.0)."""
INK_LEVEL = 0.6
"""Ink map value (Lab distance over 80) above which a pixel of a face is ink."""
INK_TOP_SHARE = 0.7
"""Share of the face's strongest ink map value (99th percentile) an ink pixel must reach."""
INK_LIGHTNESS = 20.0
"""Least 8-bit Lab lightness difference from the body for an ink pixel to count as light or dark."""
MIN_INK_SHARE = 0.02
"""Least share of a face's pixels that must be ink for its ink to tell light from dark."""
TRAY_DISTANCE = 30.0
"""8-bit Lab distance from the tray's colour above which a pixel may belong to a die."""
SMALL_SHARE = 0.25
"""Least share of the median die box area a box must have (a 12 mm die beside 16 mm ones has 0.56;
the renders draw dice of 44 to 84 px, areas 0.27 to 1 of the largest)."""
RECUT_DISTANCES = (45.0, 65.0, 90.0)
"""Stricter distances a blob that is not square is cut at, in turn."""


@dataclass(frozen=True)
class KindReading:
    """One die seen: kind id and face symbol (``None`` when not known), box (x, y, w, h)
    in px, confidence 0-1, status ``ok`` | ``abstain`` | ``other-kind``."""

    kind: str | None
    face: str | None
    box: tuple[int, int, int, int]
    confidence: float
    status: str


def _square(contour) -> tuple | None:
    # the hull: glare on a dark die can bring part of its face close to the tray's colour
    contour = cv2.convexHull(contour)
    area, rect = cv2.contourArea(contour), cv2.minAreaRect(contour)
    w, h = rect[1]
    if area < MIN_AREA_PX or max(w, h) > 1.3 * min(w, h) or area < MIN_BOX_FILL * w * h:
        return None
    # a round spot fills its box as a blurred small die does (0.79), but also its enclosing circle
    _, radius = cv2.minEnclosingCircle(contour)
    return rect if area <= MAX_CIRCLE_FILL * np.pi * radius ** 2 else None


def _blobs(mask: np.ndarray) -> list:
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])


def locate(frame_bgr: np.ndarray) -> list[tuple]:
    """Die outlines as ``cv2.minAreaRect`` boxes: pixels far (> :data:`TRAY_DISTANCE`) from the median
    colour of the frame's border, taken as the tray, in blobs whose convex hull fills a near-square
    box. A blob
    that is not square (a die merged with a glare spot or a shadow beside it) is cut again at the
    stricter distances of :data:`RECUT_DISTANCES`, inside its own box. A blob the frame's edge cuts
    is not a die seen whole and is left out. With three boxes or more, a
    box under :data:`SMALL_SHARE` of their median area is dropped (a piece of a die whose body is
    close to the tray's colour, a blot on the tray).

    Raises:
        ValueError: a frame that is not HxWx3 uint8.
    """
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
        raise ValueError(f"frame must be HxWx3 uint8, got {frame_bgr.shape} {frame_bgr.dtype}")
    lab = cv2.cvtColor(cv2.GaussianBlur(frame_bgr, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    dist = np.linalg.norm(lab - np.median(border, axis=0), axis=2)
    rects = []
    todo = [(c, 0) for c in _blobs((dist > TRAY_DISTANCE).astype(np.uint8) * 255)]
    while todo:
        contour, level = todo.pop()
        rect = _square(contour)
        if rect is not None:
            x, y, w, h = cv2.boundingRect(contour)
            if x > 1 and y > 1 and x + w < dist.shape[1] - 1 and y + h < dist.shape[0] - 1:  # not cut by the frame
                rects.append(rect)
            continue
        if level >= len(RECUT_DISTANCES) or cv2.contourArea(contour) < MIN_AREA_PX:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        x, y = max(0, x - 8), max(0, y - 8)  # a margin: morphology treats a window's edge as foreground
        w, h = min(dist.shape[1] - x, w + 16), min(dist.shape[0] - y, h + 16)
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [contour - (x, y)], -1, 255, -1)
        sub = ((dist[y:y + h, x:x + w] > RECUT_DISTANCES[level]) & (inside > 0)).astype(np.uint8) * 255
        todo += [(c + (x, y), level + 1) for c in _blobs(sub)]
    if len(rects) >= 3:  # dice seen by one camera are about one size: a much smaller blob is a piece
        least = SMALL_SHARE * float(np.median([w * h for _, (w, h), _ in rects]))
        rects = [r for r in rects if r[1][0] * r[1][1] >= least]
    return rects


def face_crop(frame_bgr: np.ndarray, rect) -> np.ndarray:
    """The die inside ``rect`` (a ``cv2.minAreaRect`` box) squared to CROP x CROP px BGR."""
    pts = cv2.boxPoints(rect).astype(np.float32)
    dst = np.float32([[0, CROP - 1], [0, 0], [CROP - 1, 0], [CROP - 1, CROP - 1]])
    return cv2.warpPerspective(frame_bgr, cv2.getPerspectiveTransform(pts, dst), (CROP, CROP))


def body_hsv(crop_bgr: np.ndarray) -> tuple[int, int, int]:
    """Body colour HSV of a face crop: in the band inside its outline (``kind_model.ring``), the
    circular mean hue (a red body's hues lie on both sides of 0) and the median S and V."""
    hsv = kind_model.ring(cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2HSV)).astype(np.float32)
    a = hsv[:, 0] * (np.pi / 90.0)
    w = hsv[:, 1] + 1.0
    hue = int(round(np.degrees(np.arctan2((np.sin(a) * w).sum(), (np.cos(a) * w).sum())) / 2)) % 180
    return hue, int(np.median(hsv[:, 1])), int(np.median(hsv[:, 2]))


def ink_is_light(crop_bgr: np.ndarray, ink: np.ndarray) -> bool | None:
    """Whether the ink of a face crop is lighter than its body: whether most of the pixels inside
    the rim whose ink map (``kind_model.ink_map``) exceeds :data:`INK_LEVEL` and
    :data:`INK_TOP_SHARE` of its 99th percentile there (glare is far from the body colour too, but
    less than ink), and whose lightness
    differs by :data:`INK_LIGHTNESS` from the median there (the body) are lighter; ``None`` when
    under :data:`MIN_INK_SHARE` of that part is ink (a blank face)."""
    n = len(crop_bgr)
    inner = slice(round(n * 0.16), n - round(n * 0.16))  # not the rounded corners (tray) or the rim
    light = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2LAB)[inner, inner, 0].astype(np.float32)
    body = float(np.median(light))  # the face is mostly body; the rim's bevel is darker
    inside = ink[inner, inner]
    # the strongest marks: a glare spot is far from the body too, but less than ink
    level = max(INK_LEVEL, INK_TOP_SHARE * float(np.percentile(inside, 99)))
    marks = (inside > level) & (np.abs(light - body) > INK_LIGHTNESS)
    if marks.mean() < MIN_INK_SHARE:
        return None
    return bool((light[marks] > body).mean() > 0.5)


def colour_distance(hsv: tuple[int, int, int], kind: DieKind) -> float:
    """How far a measured body colour lies from the kind's usual one (``Look.colour``; 0 when the
    look names none): lightness as a log ratio (light gain multiplies it), hue in steps of 15
    when both are coloured, saturation over 255."""
    usual = kind.look.colour
    if usual is None:
        return 0.0
    d = abs(np.log((hsv[2] + 10.0) / (usual[2] + 10.0))) + abs(hsv[1] - usual[1]) / 255.0
    if hsv[1] > 60 and usual[1] > 60:
        d += min(abs(hsv[0] - usual[0]), 180 - abs(hsv[0] - usual[0])) / 15.0
    return float(d)


def square_faced(kind: DieKind) -> bool:
    """Whether dice of ``kind`` show their result on a square upper face (six-sided, not a d4's
    vertex or edge style): the dice this reader reads."""
    return kind.sides == 6 and not kind.look.style


def _pool(kinds: Sequence[DieKind], game: str | None, known: set[str]) -> list[DieKind]:
    return [k for k in kinds if (game is None or not k.games or game in k.games) and square_faced(k)
            and all(glyph_id(s, k.look.marks) in known for s in k.symbols)]


def read_kinds(frame_bgr: np.ndarray, kinds: Sequence[DieKind], *, game: str | None = None) -> list[KindReading]:
    """Read every die on ``frame_bgr`` (HxWx3 BGR uint8) as one of ``kinds`` (those of ``game`` and
    game-free kinds when ``game`` is given; only :func:`square_faced` kinds whose glyphs the
    classifier knows: not the d4s nor d8-d20).

    A die whose body colour no candidate's look holds, or whose best candidate glyph has a
    probability under :data:`MIN_P`, is ``other-kind``; a best reading less than :data:`MIN_MARGIN`
    ahead of a reading of another face is ``abstain``. A kind fits when its look holds the body
    colour and its ink is light or dark as the die's (:func:`ink_is_light`; a look naming no ink
    fits either). Among kinds that fit, the glyph's probability decides, then the nearer usual
    colour (:func:`colour_distance`); kinds with the same look that
    share a glyph cannot be told apart on that face: the first of ``kinds`` wins. Readings run top
    to bottom.

    Raises:
        ValueError: a frame that is not HxWx3 uint8.
        ModelMissing: the kind face model is not installed.
    """
    rects = sorted(locate(frame_bgr), key=lambda r: (round(r[0][1] / 40), r[0][0]))
    names = kind_model.glyphs()
    index = {g: i for i, g in enumerate(names)}
    pool = _pool(kinds, game, set(names))
    crops = [face_crop(frame_bgr, r) for r in rects]
    maps = np.array([kind_model.ink_map(c) for c in crops]).reshape(-1, CROP, CROP)
    probs = kind_model.classify(maps)
    inks = [kind_render.light_ink(k) for k in pool]
    out = []
    for rect, crop, ink, p in zip(rects, crops, maps, probs):
        x, y, w, h = cv2.boundingRect(cv2.boxPoints(rect).astype(np.int32))
        hsv, light = body_hsv(crop), ink_is_light(crop, ink)
        fits = [i for i, k in enumerate(pool) if k.look.holds(hsv) and (light is None or inks[i] in (None, light))]
        options = sorted(((float(p[index[glyph_id(s, pool[i].look.marks)]]), -colour_distance(hsv, pool[i]), -i,
                           pool[i].id, s) for i in fits for s in pool[i].symbols), reverse=True)
        if not options or options[0][0] < MIN_P:
            out.append(KindReading(None, None, (x, y, w, h), 0.0, "other-kind"))
            continue
        best, kid, sym = options[0][0], options[0][-2], options[0][-1]
        rival = next((o[0] for o in options[1:] if o[-1] != sym), 0.0)
        ok = best - rival >= MIN_MARGIN
        out.append(KindReading(kid if ok else None, sym if ok else None, (x, y, w, h), round(best, 3),
                               "ok" if ok else "abstain"))
    return out
