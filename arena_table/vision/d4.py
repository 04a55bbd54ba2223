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

:func:`read_d4` finds the triangle (OpenCV contours and ``minEnclosingTriangle``), finds the apex
where the three ridges' shading steps are strongest, maps each visible face back onto an upright
face with ``getAffineTransform``, scores each numeral by ``matchTemplate`` at the place the style
shows the result, and votes over the three faces. It abstains when they disagree or fit badly.
The templates are this module's own numerals (Hershey fonts), so its figures hold for rendered
dice; printed fonts of real dice need templates taught from photos.

>>> rng = np.random.default_rng(7)
>>> frame, truth = render_d4("bottom-edge", 3, rng, size=(300, 360), edge_px=(110, 130))
>>> read_d4(frame, "bottom-edge").value, truth.value
(3, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import cv2
import numpy as np

from arena_table.vision.d4_render import (_CANON, FONTS, MAX_TILT, STYLES, TEX, D4StyleError, RenderedD4, _ccw,
                                          _place, check_style, draw_d4, face_texture, render_d4, visible_faces)
from arena_table.vision.errors import BadFrame, DiceNotFound

__all__ = ["STYLES", "D4StyleError", "D4Reading", "RenderedD4", "check_style", "draw_d4", "find_apex", "find_d4s",
           "read_d4", "read_outline", "render_d4", "visible_faces", "MAX_TILT"]

# ---------------------------------------------------------------- reading

READ_SIDE = 96
"""Side in px of the upright face each visible face is mapped onto for reading."""
_RH = int(math.ceil(READ_SIDE * math.sqrt(3) / 2))
_RCANON = _CANON * (READ_SIDE / TEX)
MIN_AREA_PX = 300
"""Smallest d4 outline area in px."""
MIN_FILL = 0.8
"""Least share of its enclosing triangle a blob must fill to be a d4 (a square fills 0.5)."""
TRAY_DELTA = 24
"""Lab distance from the frame border's median colour (the tray) above which a pixel is a die."""
MIN_FIT = 0.6
"""Mean template correlation of the winning numeral over the three faces below which the reader
abstains (no numeral fits there: another style, a blurred or hidden die)."""
MIN_MARGIN = 0.02
"""Least lead of the winning numeral over the next one in mean correlation."""


@dataclass(frozen=True)
class D4Reading:
    """One d4 read: ``value`` 1-4 or ``None`` (abstained), ``confidence`` (mean correlation of the
    winner over the faces, 0-1), ``status`` ``ok`` | ``abstain``, ``votes`` (each face's best
    numeral), the outline ``corners`` and ``apex`` (x, y) px and ``box`` (x, y, w, h) px."""

    value: int | None
    confidence: float
    status: str
    votes: tuple[int, ...]
    corners: tuple[tuple[float, float], ...]
    apex: tuple[float, float]
    box: tuple[int, int, int, int]


def _check_frame(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        got = f"{frame.shape} {frame.dtype}" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise BadFrame(f"a d4 frame must be HxWx3 uint8 BGR, got {got}")


def find_d4s(frame: np.ndarray) -> list[np.ndarray]:
    """Outlines of the d4s on ``frame`` (HxWx3 BGR uint8), each a (3, 2) float32 array of corners
    (x, y) px, counter-clockwise on screen, largest first: blobs far (Lab > :data:`TRAY_DELTA`,
    darkening counted half, so the die's shadow stays tray) from the tray colour (the border's median) that fill :data:`MIN_FILL` of their
    ``cv2.minEnclosingTriangle`` with sides within 1.35 of each other.

    Raises:
        BadFrame: not an HxWx3 uint8 array.
    """
    _check_frame(frame)
    lab = cv2.cvtColor(cv2.GaussianBlur(frame, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    diff = lab - np.median(border, axis=0)
    diff[..., 0] *= np.where(diff[..., 0] < 0, 0.5, 1.0)   # a shadow is the tray, darker: count darkening half
    mask = (np.linalg.norm(diff, axis=2) > TRAY_DELTA).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        c = cv2.convexHull(c)   # a face dark as the tray bites into the blob, not into its hull
        area = cv2.contourArea(c)
        if area < MIN_AREA_PX:
            continue
        tri_area, tri = cv2.minEnclosingTriangle(c)
        tri = tri.reshape(3, 2).astype(np.float32)
        sides = [float(np.linalg.norm(tri[i] - tri[(i + 1) % 3])) for i in range(3)]
        if area >= MIN_FILL * tri_area and max(sides) <= 1.35 * min(sides):
            if not _ccw(*tri):
                tri = tri[[0, 2, 1]]
            out.append((area, tri))
    return [t for _, t in sorted(out, key=lambda a: -a[0])]


def _ink_is_dark(values: np.ndarray) -> bool:
    """Whether the ink is darker than the body of one face's pixels ``values``: ink is the
    minority, so the far tail of the brightness spread is on its side of the median."""
    lo, mid, hi = np.percentile(values, (2, 50, 98))
    return bool(mid - lo >= hi - mid)


def find_apex(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The apex (x, y) px of the d4 with outline ``corners``: of the points within a fifth of an
    edge of the outline's centroid (a tilt of 12° moves it 0.17 edge), the one that splits the
    outline into the three faces of most even brightness each (least squared deviation from each
    face's mean, the ink closed over first): the faces meet at 60-110° to the light, so they are
    lit differently. ``gray`` is the frame in float32 grey."""
    edge = float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 3]) for i in range(3)]))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0 = max(0, x0), max(0, y0)
    roi = gray[y0:y1, x0:x1]
    inside = np.zeros(roi.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.int32(np.round(corners - (x0, y0))), 255)
    inside = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0
    k = np.ones((5, 5), np.uint8)
    clean = cv2.morphologyEx(roi, cv2.MORPH_CLOSE if _ink_is_dark(roi[inside]) else cv2.MORPH_OPEN, k)
    ys, xs = np.nonzero(inside)
    step = max(2, int(len(xs) / 2500))
    px = np.stack([xs[::step] + x0, ys[::step] + y0], 1).astype(np.float32)
    val = clean[ys[::step], xs[::step]].astype(np.float64)
    c0 = corners.mean(axis=0)
    st = max(0.5, edge / 60)
    r = np.arange(-0.2 * edge, 0.2 * edge + st, st)
    cand = (np.stack(np.meshgrid(r, r), -1).reshape(-1, 2) + c0).astype(np.float32)
    rel = px[None, :, :] - cand[:, None, :]                              # (K, N, 2)
    side = []
    for c in corners:
        d = c[None, :] - cand                                           # (K, 2)
        side.append(d[:, None, 0] * rel[..., 1] - d[:, None, 1] * rel[..., 0] < 0)
    sse = np.zeros(len(cand))
    for i in range(3):
        sector = side[i] & ~side[(i + 1) % 3]
        n = sector.sum(axis=1)
        s1 = (sector * val).sum(axis=1)
        s2 = (sector * val * val).sum(axis=1)
        sse += s2 - s1 * s1 / np.maximum(n, 1)
        sse[n < len(val) / 12] = np.inf                                 # a face of next to nothing
    return cand[int(np.argmin(sse))]


def _face_corners(corners: np.ndarray, apex: np.ndarray) -> list[np.ndarray]:
    """Each visible face as (apex, left, right) px, counter-clockwise on screen as the upright
    texture's (apex, base-left, base-right)."""
    out = []
    for opp in range(3):
        x, y = [corners[i] for i in range(3) if i != opp]
        out.append(np.float32([apex, x, y] if _ccw(apex, x, y) else [apex, y, x]))
    return out


def _upright(gray: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """The face ``tri`` (apex, left, right) of ``gray`` mapped onto an upright :data:`READ_SIDE` face."""
    m = cv2.getAffineTransform(tri, _RCANON)
    return cv2.warpAffine(gray, m, (READ_SIDE, _RH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


_SS = 3   # supersampling of drawn faces, as draw_d4


@lru_cache(maxsize=64)
def _numeral_texture(style: str, value: int, font: int) -> np.ndarray:
    tex = face_texture(style, (value,), (200, 200, 200), (30, 30, 30), font, outside=True)
    return cv2.GaussianBlur(cv2.cvtColor(tex, cv2.COLOR_BGR2GRAY), (3, 3), 0)


def _seen_numeral(style: str, value: int, font: int, tri: np.ndarray) -> np.ndarray:
    """The upright reading face of a face at ``tri`` (px) showing only ``value`` at the style's
    place: the texture drawn at the face's own size and slant, as :func:`draw_d4` draws it, then
    mapped back as the reader maps the frame, so it loses what the camera's pixels lose."""
    o = np.floor(tri.min(axis=0)) - 2
    wid, hgt = (np.ceil(tri.max(axis=0) - o) + 3).astype(int)
    m = cv2.getAffineTransform(_CANON, np.float32((tri - o) * _SS))
    big = cv2.warpAffine(_numeral_texture(style, value, font), m, (wid * _SS, hgt * _SS), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    small = cv2.resize(big, (int(wid), int(hgt)), interpolation=cv2.INTER_AREA).astype(np.float32)
    return _upright(small, np.float32(tri - o))


_TPL = 26   # window side, px on the upright reading face
_SLACK = 4  # search slack each way, px (the apex's error)


def _window(style: str) -> tuple[int, int]:
    cx, cy = _place(style) * (READ_SIDE / TEX)
    return int(round(cx - _TPL / 2)), int(round(cy - _TPL / 2))


def _upright_faces(gray: np.ndarray, tris: Sequence[np.ndarray], dark_ink: bool | None) -> list[np.ndarray]:
    """The faces ``tris`` upright (:func:`_upright`), outside the triangle filled with the face's
    median, light ink turned dark: as ``dark_ink`` says, else as most faces' brightness spread says
    (a glare spot on one face does not outvote the ink on three)."""
    inside = np.zeros((_RH, READ_SIDE), np.uint8)
    cv2.fillConvexPoly(inside, np.int32(np.round(_RCANON)), 255)
    inside = cv2.erode(inside, np.ones((3, 3), np.uint8)) > 0
    faces = [_upright(gray, tri) for tri in tris]
    for f in faces:
        f[~inside] = np.median(f[inside])
    if dark_ink is None:
        dark_ink = sum(_ink_is_dark(f[inside]) for f in faces) * 2 > len(faces)
    return faces if dark_ink else [255 - f for f in faces]


def _face_scores(face: np.ndarray, tri: np.ndarray, style: str) -> np.ndarray:
    """Correlation (``TM_CCOEFF_NORMED``, best font, best shift within :data:`_SLACK` px) of the
    upright ``face`` (of the face at ``tri`` px) with each numeral 1-4 as that face would show it
    at the style's place (:func:`_seen_numeral`)."""
    x0, y0 = _window(style)
    roi = face[max(0, y0 - _SLACK):y0 + _TPL + _SLACK, max(0, x0 - _SLACK):x0 + _TPL + _SLACK]
    out = np.full(4, -1.0)
    for i, v in enumerate((1, 2, 3, 4)):
        for font in FONTS:
            t = _seen_numeral(style, v, font, tri)[y0:y0 + _TPL, x0:x0 + _TPL]
            out[i] = max(out[i], float(cv2.matchTemplate(roi, t, cv2.TM_CCOEFF_NORMED).max()))
    return out


def read_outline(frame: np.ndarray, corners: np.ndarray, style: str, dark_ink: bool | None = None) -> D4Reading:
    """Read the d4 with outline ``corners`` ((3, 2) px, from :func:`find_d4s`) on ``frame`` as a
    die of ``style``: each visible face votes for the numeral that fits best at the style's place;
    the numeral with the best mean fit wins if that mean is at least :data:`MIN_SCORE`, leads the
    next by :data:`MIN_MARGIN` with two faces for it, or all three faces voted for it; else the
    reader abstains. ``dark_ink``: the ink is darker than the body (``None``: judged per die).

    Raises:
        D4StyleError: ``style`` unknown. BadFrame: not an HxWx3 uint8 array.
    """
    check_style(style)
    _check_frame(frame)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    corners = np.asarray(corners, np.float32).reshape(3, 2)
    apex = find_apex(gray, corners)
    tris = _face_corners(corners, apex)
    scores = np.array([_face_scores(f, t, style) for f, t in zip(_upright_faces(gray, tris, dark_ink), tris)])
    votes = tuple(int(v) + 1 for v in scores.argmax(axis=1))
    mean = scores.mean(axis=0)
    order = np.argsort(-mean)
    best, lead = int(order[0]) + 1, float(mean[order[0]] - mean[order[1]])
    agree = votes.count(best)
    ok = mean[order[0]] >= MIN_FIT and (agree == 3 or (agree == 2 and lead >= MIN_MARGIN))
    x, y = corners.min(axis=0)
    w, h = corners.max(axis=0) - (x, y)
    return D4Reading(best if ok else None, round(float(max(0.0, mean[order[0]])), 3), "ok" if ok else "abstain",
                     votes, tuple((float(a), float(b)) for a, b in corners), (float(apex[0]), float(apex[1])),
                     (int(x), int(y), int(math.ceil(w)), int(math.ceil(h))))


def read_d4(frame_or_crop: np.ndarray, style: str, dark_ink: bool | None = None) -> D4Reading:
    """Read the largest d4 on ``frame_or_crop`` (HxWx3 BGR uint8, a tray border around the die) as
    a die of ``style`` (one of :data:`STYLES`); see :func:`read_outline`.

    Raises:
        D4StyleError: ``style`` unknown. BadFrame: not an HxWx3 uint8 array.
        DiceNotFound: no d4 outline on the frame.
    """
    check_style(style)
    found = find_d4s(frame_or_crop)
    if not found:
        raise DiceNotFound("no d4 outline (a triangle far from the tray colour) on the frame")
    return read_outline(frame_or_crop, found[0], style, dark_ink)
