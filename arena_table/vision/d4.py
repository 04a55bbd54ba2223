"""Read four-sided dice (d4) seen from a camera over the table (drawn by :mod:`arena_table.vision.d4_render`).

A d4 lying on the table shows no upper face: the camera sees a triangle, the base face's outline,
split into three side faces by the ridges that meet at the top vertex (the apex). Each side face
carries three of the four numerals, and the result is the numeral that stands upright on all
three (Look.style, :data:`STYLES`):

- ``top-vertex``: one numeral at each corner of a face, its top toward that corner. Each vertex
  has one number, repeated on the three faces that meet there; the result is the apex's number,
  seen near the apex on each visible face.
- ``bottom-edge``: one numeral along each edge of a face, its foot on that edge. The numeral along
  an edge is the number of the face across it; the result is the number of the face on the table,
  seen along the base edge of each visible face.

Seen from straight above, a side face (70.5° from the table) is foreshortened to a third of its
height, so numerals are squashed toward the apex; :func:`draw_d4` projects each face's texture
with the die's pose (rotation, tilt up to 12°, light), so this holds in the renders too.

:func:`find_d4s` finds the triangle (OpenCV contours and ``minEnclosingTriangle``);
:func:`read_outlines` maps it onto a fixed upright triangle with each corner on top in turn and
a small CNN (:mod:`arena_table.vision.poly_model`, ``models/poly_face.onnx``) names the style and
the result from the three crops together. The reader abstains when the net's likeliest class is
below :data:`MIN_P`. The net was trained on this module's renders (Hershey-font numerals), so its
figures hold for rendered dice; printed fonts of real dice are not taught yet.

>>> rng = np.random.default_rng(7)
>>> frame, truth = render_d4("bottom-edge", 3, rng, size=(300, 360), edge_px=(110, 130))
>>> read_d4(frame, "bottom-edge").value, truth.value
(3, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind
from arena_table.vision import poly_model
from arena_table.vision.d4_render import (MAX_TILT, STYLES, D4StyleError, RenderedD4, _ccw, check_style, draw_d4,
                                          draw_d4_kind, kind_style, render_d4, render_d4_scene, visible_faces)
from arena_table.vision.errors import BadFrame, DiceNotFound
from arena_table.vision.kinds import KindReading

__all__ = ["STYLES", "MAX_TILT", "D4StyleError", "D4Reading", "RenderedD4", "check_style", "draw_d4", "draw_d4_kind",
           "die_hulls", "find_d4s", "tray_distance", "kind_style", "read_d4", "read_d4_in", "read_outline", "read_outlines", "render_d4",
           "render_d4_scene", "triangle", "visible_faces"]

MIN_AREA_PX = 300
"""Smallest d4 outline area in px."""
MIN_FILL = 0.8
"""Least share of its enclosing triangle a blob must fill to be a d4 (a square fills 0.5)."""
TRAY_DELTA = 24
"""Lab distance from the frame border's median colour (the tray) above which a pixel is a die."""
MIN_P = 0.4
"""Least probability (the net's, the mean over the three turns) of the likeliest (style, result)
below which the reader abstains. Set on rendered scenes apart from the bench's test seeds (900 000
on): Theosis and tray scenes of seeds 700 000 on (``kind_sets.scene_frames``, 40 frames each, 185
d4s found): at 0.4 183 right, 0 wrong; at 0.3 184 right, 1 wrong."""


@dataclass(frozen=True)
class D4Reading:
    """One d4 read: ``value`` 1-4 or ``None`` (abstained), ``style`` the likeliest style,
    ``confidence`` the net's probability of (style, value) 0-1, ``status`` ``ok`` | ``abstain``,
    ``guess`` the likeliest result even when abstained, the outline ``corners`` (x, y) px and
    ``box`` (x, y, w, h) px."""

    value: int | None
    style: str
    confidence: float
    status: str
    guess: int
    corners: tuple[tuple[float, float], ...]
    box: tuple[int, int, int, int]


def _check_frame(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        got = f"{frame.shape} {frame.dtype}" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise BadFrame(f"a d4 frame must be HxWx3 uint8 BGR, got {got}")


def tray_distance(frame: np.ndarray) -> np.ndarray:
    """HxW float32: each pixel's Lab distance (8-bit Lab, the frame smoothed 5x5) from the tray
    colour (the median of the frame's border), darkening counted half, so a die's shadow stays
    near the tray.

    Raises:
        BadFrame: not an HxWx3 uint8 array.
    """
    _check_frame(frame)
    lab = cv2.cvtColor(cv2.GaussianBlur(frame, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    diff = lab - np.median(border, axis=0)
    diff[..., 0] *= np.where(diff[..., 0] < 0, 0.5, 1.0)
    return np.linalg.norm(diff, axis=2)


def die_hulls(frame: np.ndarray, dist: np.ndarray | None = None) -> list[np.ndarray]:
    """Convex hulls ((K, 1, 2) int32 px) of the blobs of ``frame`` (HxWx3 BGR uint8) whose
    :func:`tray_distance` (or ``dist``, that map already made) passes :data:`TRAY_DELTA`, of at
    least :data:`MIN_AREA_PX`: the dice, before their shapes are told.

    Raises:
        BadFrame: not an HxWx3 uint8 array.
    """
    _check_frame(frame)
    mask = ((tray_distance(frame) if dist is None else dist) > TRAY_DELTA).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hulls = [cv2.convexHull(c) for c in contours]   # a face dark as the tray bites into the blob, not into its hull
    return [h for h in hulls if cv2.contourArea(h) >= MIN_AREA_PX]


def triangle(hull: np.ndarray) -> np.ndarray | None:
    """The corners ((3, 2) float32 px, counter-clockwise on screen) of the d4 whose outline is
    ``hull`` (from :func:`die_hulls`), or ``None``: the hull must fill :data:`MIN_FILL` of its
    ``cv2.minEnclosingTriangle``, whose sides lie within 1.35 of each other."""
    tri_area, tri = cv2.minEnclosingTriangle(hull)
    if tri is None:   # a degenerate hull (its points on a line)
        return None
    tri = tri.reshape(3, 2).astype(np.float32)
    sides = [float(np.linalg.norm(tri[i] - tri[(i + 1) % 3])) for i in range(3)]
    if cv2.contourArea(hull) < MIN_FILL * tri_area or max(sides) > 1.35 * min(sides):
        return None
    return tri if _ccw(*tri) else tri[[0, 2, 1]]


def find_d4s(frame: np.ndarray) -> list[np.ndarray]:
    """Outlines of the d4s on ``frame`` (HxWx3 BGR uint8), each a (3, 2) float32 array of corners
    (x, y) px, counter-clockwise on screen, largest first: the :func:`die_hulls` that are
    :func:`triangle` s.

    Raises:
        BadFrame: not an HxWx3 uint8 array.
    """
    out = [(cv2.contourArea(h), t) for h in die_hulls(frame) if (t := triangle(h)) is not None]
    return [t for _, t in sorted(out, key=lambda a: -a[0])]


def read_outlines(frame: np.ndarray, outlines: Sequence[np.ndarray]) -> np.ndarray:
    """(N, C) probabilities of the d4s with ``outlines`` ((3, 2) px each, from :func:`find_d4s`) on
    ``frame`` (HxWx3 BGR uint8) over the classes ``poly_model.classes()`` (the d4's
    ``top-vertex-1`` ... ``bottom-edge-4`` among them): :func:`poly_model.classify` of each die's
    three turned crops.

    Raises:
        BadFrame: not an HxWx3 uint8 array. ModelMissing: the model is not installed.
    """
    _check_frame(frame)
    crops = [poly_model.d4_crops(frame, c) for c in outlines]
    return poly_model.classify(np.array(crops, np.uint8).reshape(-1, poly_model.TURNS, poly_model.CROP,
                                                                  poly_model.CROP))


def _box(corners: np.ndarray) -> tuple[int, int, int, int]:
    x, y = corners.min(axis=0)
    w, h = corners.max(axis=0) - (x, y)
    return int(x), int(y), int(math.ceil(w)), int(math.ceil(h))


def _reading(p: np.ndarray, corners: np.ndarray, style: str | None) -> D4Reading:
    """The :class:`D4Reading` of class probabilities ``p`` (its likeliest d4 class); with
    ``style``, a die the net sees in the other style abstains."""
    names = poly_model.classes()
    d4s = [i for i, n in enumerate(names) if n.rsplit("-", 1)[0] in STYLES]
    best = d4s[int(np.argmax(p[d4s]))]
    got_style, value = names[best].rsplit("-", 1)
    ok = p[best] >= MIN_P and (style is None or got_style == style)
    return D4Reading(int(value) if ok else None, got_style, round(float(p[best]), 3), "ok" if ok else "abstain",
                     int(value), tuple((float(a), float(b)) for a, b in corners), _box(corners))


def read_outline(frame: np.ndarray, corners: np.ndarray, style: str | None = None) -> D4Reading:
    """Read the d4 with outline ``corners`` ((3, 2) px, from :func:`find_d4s`) on ``frame``
    (:func:`read_outlines`): the likeliest (style, result) if its probability is at least
    :data:`MIN_P`, else an abstention. ``style``: the die is known to be of that style; one the net
    sees in the other style abstains.

    Raises:
        D4StyleError: ``style`` unknown. BadFrame: not an HxWx3 uint8 array.
    """
    if style is not None:
        check_style(style)
    corners = np.asarray(corners, np.float32).reshape(3, 2)
    return _reading(read_outlines(frame, [corners])[0], corners, style)


def read_d4(frame_or_crop: np.ndarray, style: str | None = None) -> D4Reading:
    """Read the largest d4 on ``frame_or_crop`` (HxWx3 BGR uint8, a tray border around the die);
    see :func:`read_outline`.

    Raises:
        D4StyleError: ``style`` unknown. BadFrame: not an HxWx3 uint8 array.
        DiceNotFound: no d4 outline on the frame.
    """
    if style is not None:
        check_style(style)
    found = find_d4s(frame_or_crop)
    if not found:
        raise DiceNotFound("no d4 outline (a triangle far from the tray colour) on the frame")
    return read_outline(frame_or_crop, found[0], style)


def _body_hsv(frame: np.ndarray, corners: np.ndarray) -> tuple[int, int, int]:
    """Median HSV of the die inside its outline, an inset away from the tray (the body: ink is the minority)."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    c = corners.mean(axis=0)
    cv2.fillConvexPoly(mask, np.int32(np.round(c + 0.8 * (corners - c))), 255)
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)[mask > 0]
    h, s, v = (int(x) for x in np.median(hsv, axis=0))
    return h, s, v


def read_d4_in(frame: np.ndarray, kinds: Sequence[DieKind], *, game: str | None = None) -> list[KindReading]:
    """Every d4 on ``frame`` (HxWx3 BGR uint8) read as one of the d4 ``kinds`` (four faces and a
    ``Look.style``; others are skipped; with ``game``, those it throws and game-free ones), as
    :class:`arena_table.vision.kinds.KindReading` (kind id, face symbol, box, confidence, status),
    largest die first. The net names the style and the result (:func:`read_outlines`); the die's
    kind is the first of the kinds whose look holds its body colour and whose style is the one
    read. A d4 whose colour no kind holds, or read surely in a style no kind of its colour has, is
    ``other-kind``; one read below :data:`MIN_P` abstains. Kinds of one look and one style cannot be
    told apart: the first of ``kinds`` is named.

    >>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    >>> frame, truth = render_d4_scene(find_kind("theosis-d4"), 3, np.random.default_rng(4))
    >>> [(r.kind, r.face, r.status) for r in read_d4_in(frame, [find_kind("theosis-d4"), find_kind("d6")])]
    [('theosis-d4', '3', 'ok')]

    Raises:
        BadFrame: not an HxWx3 uint8 array. ModelMissing: the model is not installed.
    """
    pool = [k for k in kinds if k.sides == 4 and k.look.style in STYLES
            and (game is None or not k.games or game in k.games)]
    if not pool:
        return []
    outlines = find_d4s(frame)
    out = []
    for corners, p in zip(outlines, read_outlines(frame, outlines)):
        hsv = _body_hsv(frame, corners)
        fits = [k for k in pool if k.look.holds(hsv)]
        got = _reading(p, corners, None)
        kind = next((k for k in fits if k.look.style == got.style), None)
        if not fits or (got.status == "ok" and kind is None):
            out.append(KindReading(None, None, got.box, got.confidence, "other-kind"))
        elif got.status != "ok":
            out.append(KindReading(None, None, got.box, got.confidence, "abstain"))
        else:
            symbol = next(f.symbol for f in kind.faces if f.symbol == str(got.value))
            out.append(KindReading(kind.id, symbol, got.box, got.confidence, "ok"))
    return out
