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
where the outline splits into three evenly lit faces, maps each visible face back onto an upright
face with ``getAffineTransform``, and scores each of its three numeral places against each
numeral as that face would show it (``matchTemplate``). The three faces vote together: the result
is that of the best layout of all nine places a real d4 of either handedness can show, and the
reader abstains when that fits badly or barely beats another result. The templates are this
module's own numerals (Hershey fonts), so its figures hold for rendered dice; printed fonts of
real dice need templates taught from photos.

>>> rng = np.random.default_rng(7)
>>> frame, truth = render_d4("bottom-edge", 3, rng, size=(300, 360), edge_px=(110, 130))
>>> read_d4(frame, "bottom-edge").value, truth.value
(3, 3)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind
from arena_table.vision import kind_render
from arena_table.vision.d4_render import (_CANON, FONTS, MAX_TILT, STYLES, TEX, D4StyleError, RenderedD4, _ccw,
                                          check_style, draw_d4, draw_d4_kind, face_texture, kind_style, place,
                                          render_d4, render_d4_scene, visible_faces)
from arena_table.vision.errors import BadFrame, DiceNotFound
from arena_table.vision.kinds import KindReading

__all__ = ["STYLES", "MAX_TILT", "D4StyleError", "D4Reading", "RenderedD4", "check_style", "draw_d4", "draw_d4_kind",
           "find_apex", "find_d4s", "kind_style", "read_d4", "read_d4_in", "read_outline", "render_d4",
           "render_d4_scene", "visible_faces"]

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
"""Mean template correlation over the nine numeral places of the best layout below which the
reader abstains (no numerals fit there: another style, a blurred or hidden die)."""
MIN_SURE = 0.04
"""Least lead of the best result's fit over the next result's, divided by how far the best fit
falls short of 1.05: a small lead counts for more where the numerals fit closely (set on rendered
seeds apart from the test's: 0 wrong of 400 dice of 90-130 px, 0 of 320 of 60-96 px)."""
MIN_VOTES = 1
"""Least number of faces whose result place fits the winning numeral best."""


@dataclass(frozen=True)
class D4Reading:
    """One d4 read: ``value`` 1-4 or ``None`` (abstained), ``confidence`` (mean correlation of the
    best layout over the nine numeral places, 0-1), ``status`` ``ok`` | ``abstain``, ``votes``
    (each face's best numeral at the result's place), ``lead`` of the best result's layout over
    the next result's, ``guess`` the best result even when abstained, the outline ``corners`` and ``apex`` (x, y) px and ``box`` (x, y,
    w, h) px."""

    value: int | None
    confidence: float
    status: str
    votes: tuple[int, ...]
    lead: float
    guess: int
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
    """Whether the ink is darker than the body in one face's pixels ``values``: more of them lie
    well below the median (the body) than well above it (glare, lit ridges are fewer than ink)."""
    mid = float(np.median(values))
    return bool((values < mid - 20).sum() >= (values > mid + 20).sum())


def find_apex(gray: np.ndarray, corners: np.ndarray, n: int = 1) -> np.ndarray:
    """Up to ``n`` places (x, y) px, best first, (n, 2), where the apex of the d4 with outline
    ``corners`` may be: of the points within a fifth of an edge of the outline's centroid (a tilt
    of 12° moves it 0.17 edge), those that split the outline into three faces of most even
    brightness each (least squared deviation from each face's mean, the ink closed over first):
    the faces meet at 60-110° to the light, so they are lit differently. When two faces are lit
    alike the split between them is loose, hence several places, each a local best at least
    0.06 edge from the others. ``gray`` is the frame in float32 grey."""
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
    step = max(1, int(len(xs) / 1200))
    px = np.stack([xs[::step] + x0, ys[::step] + y0], 1).astype(np.float32)
    val = clean[ys[::step], xs[::step]].astype(np.float64)
    val = np.minimum(val, np.percentile(val, 90))   # a specular spot is a few % of the die: flatten it
    c0 = corners.mean(axis=0)
    st = max(0.5, edge / 45)
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
        count = sector.sum(axis=1)
        s1 = (sector * val).sum(axis=1)
        s2 = (sector * val * val).sum(axis=1)
        sse += s2 - s1 * s1 / np.maximum(count, 1)
        sse[count < len(val) / 12] = np.inf                                 # a face of next to nothing
    picked: list[np.ndarray] = []
    for i in np.argsort(sse):
        if not np.isfinite(sse[i]) or len(picked) == n:
            break
        if all(np.linalg.norm(cand[i] - q) >= 0.06 * edge for q in picked):
            picked.append(cand[i])
    return np.float32(picked if picked else [c0]).reshape(-1, 2)


def _face_corners(corners: np.ndarray, apex: np.ndarray) -> list[tuple[np.ndarray, int, int]]:
    """Each visible face as ((apex, left, right) px, left's corner index, right's), counter-clockwise
    on screen as the upright texture's (apex, base-left, base-right)."""
    out = []
    for opp in range(3):
        x, y = [i for i in range(3) if i != opp]
        if not _ccw(apex, corners[x], corners[y]):
            x, y = y, x
        out.append((np.float32([apex, corners[x], corners[y]]), x, y))
    return out


def _upright(gray: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """The face ``tri`` (apex, left, right) of ``gray`` mapped onto an upright :data:`READ_SIDE` face."""
    m = cv2.getAffineTransform(tri, _RCANON)
    return cv2.warpAffine(gray, m, (READ_SIDE, _RH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


CAMERA_BLURS = (0.5, 0.9)
"""Blurs in frame px (Gaussian sigma) the camera is taken to add to a pixel's own footprint when
the reader predicts how a numeral looks on a face (:func:`_seen_numerals`). Each die below
:data:`BLUR_EDGE_PX` is read with the one blur under which its result is surest (:func:`_fit_at`),
so a blurred die meets blurred numerals while a sharp one keeps sharp templates. Set on rendered
scenes of seeds 300 000-300 029 and 320 000-320 029 (``kind_sets.scene_frames``, theosis and tray:
390 d4s, 49-95 px edges, apart from the bench's 900 000 on): (0.5,) read 282 right, (0.5, 0.9) 296,
both 0 wrong; (0.5, 1.0) and (0.5, 1.2) read one wrong. Taking the best blur per numeral instead
of per die made more numerals fit alike (more abstentions)."""


@lru_cache(maxsize=64)
def _numeral_texture(style: str, value: int, font: int, j: int) -> np.ndarray:
    """Upright face of :data:`READ_SIDE` px, grey, showing only ``value`` at place ``j``."""
    nums: list[int | None] = [None, None, None]
    nums[j] = value
    tex = face_texture(style, nums, (200, 200, 200), (30, 30, 30), font, outside=True)
    gray = cv2.cvtColor(tex, cv2.COLOR_BGR2GRAY)
    return cv2.resize(gray, (READ_SIDE, _RH), interpolation=cv2.INTER_AREA).astype(np.float32)


def _footprint(tri: np.ndarray, blur: float) -> np.ndarray:
    """The blur kernel, on the upright reading face, of one frame pixel of the face at ``tri``
    (px): the pixel's box (variance 1/12), the reader's bilinear resampling (1/6) and the camera's
    ``blur`` (sigma, px), mapped through the face's affine map. Squashed faces blur along their
    height, as on the frame."""
    a = cv2.getAffineTransform(_RCANON, np.float32(tri))[:, :2]        # upright -> frame
    b = np.linalg.inv(a)
    cov = b @ b.T * (1 / 12 + 1 / 6 + blur ** 2)
    half = int(min(12, math.ceil(3 * math.sqrt(max(np.linalg.eigvalsh(cov))))))
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float64)
    inv = np.linalg.inv(cov)
    k = np.exp(-0.5 * (inv[0, 0] * xx * xx + 2 * inv[0, 1] * xx * yy + inv[1, 1] * yy * yy))
    return (k / k.sum()).astype(np.float32)


def _seen_numerals(style: str, tri: np.ndarray) -> dict[tuple[int, int, int], np.ndarray]:
    """Per (place, numeral, look) — a look is a font of :data:`FONTS` and a blur of
    :data:`CAMERA_BLURS` — the :data:`_TPL` px window at that place of an upright reading face of a
    face at ``tri`` (px) showing only that numeral there, blurred by the face's pixel footprint
    (:func:`_footprint`): what the camera's pixels leave of it once the reader maps it back upright."""
    out = {}
    for b, blur in enumerate(CAMERA_BLURS):
        k = _footprint(tri, blur)
        h = k.shape[0] // 2
        for j in range(3):
            x0, y0 = _window(style, j)
            for v in (1, 2, 3, 4):
                for f, font in enumerate(FONTS):
                    tex = cv2.copyMakeBorder(_numeral_texture(style, v, font, j), h, h, h, h, cv2.BORDER_REPLICATE)
                    part = tex[y0:y0 + _TPL + 2 * h, x0:x0 + _TPL + 2 * h]
                    out[j, v, b * len(FONTS) + f] = cv2.filter2D(part, -1, k)[h:h + _TPL, h:h + _TPL]
    return out


_TPL = 20   # window side, px on the upright reading face: the numeral (19 px tall) and little body (26 px read 3-8 % fewer small dice on seeds 7000-7159)
_SLACK = 4  # search slack each way, px (the apex's error)


def _window(style: str, j: int) -> tuple[int, int]:
    cx, cy = place(style, j) * (READ_SIDE / TEX)
    return int(round(cx - _TPL / 2)), int(round(cy - _TPL / 2))


def _upright_faces(gray: np.ndarray, tris: Sequence[np.ndarray], dark_ink: bool | None) -> list[np.ndarray]:
    """The faces ``tris`` upright (:func:`_upright`), outside the triangle filled with the face's
    median, light ink turned dark: as ``dark_ink`` says, else as most faces' brightness spread says
    (a glare spot on one face does not outvote the ink on three)."""
    inside = np.zeros((_RH, READ_SIDE), np.uint8)
    cv2.fillConvexPoly(inside, np.int32(np.round(_RCANON)), 255)
    inside = cv2.erode(inside, np.ones((3, 3), np.uint8)) > 0
    core = cv2.erode(inside.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0   # away from the ridges
    faces = [_upright(gray, tri) for tri in tris]
    for f in faces:
        f[~inside] = np.median(f[inside])
    if dark_ink is None:
        dark_ink = sum(_ink_is_dark(f[core]) for f in faces) * 2 > len(faces)
    return faces if dark_ink else [255 - f for f in faces]


def _face_scores(face: np.ndarray, tri: np.ndarray, style: str) -> np.ndarray:
    """(blurs, 3, 4): per blur of :data:`CAMERA_BLURS`, the correlation (``TM_CCOEFF_NORMED``, best
    font, best shift within :data:`_SLACK` px) at each numeral place of the upright ``face`` (of the
    face at ``tri`` px) with each numeral 1-4 as that face would show it there (:func:`_seen_numerals`)."""
    seen = _seen_numerals(style, tri)
    out = np.full((len(CAMERA_BLURS), 3, 4), -1.0)
    for j in range(3):
        x0, y0 = _window(style, j)
        roi = face[max(0, y0 - _SLACK):y0 + _TPL + _SLACK, max(0, x0 - _SLACK):x0 + _TPL + _SLACK]
        for i, v in enumerate((1, 2, 3, 4)):
            for b in range(len(CAMERA_BLURS)):
                for f in range(len(FONTS)):
                    score = float(cv2.matchTemplate(roi, seen[j, v, b * len(FONTS) + f], cv2.TM_CCOEFF_NORMED).max())
                    out[b, j, i] = max(out[b, j, i], score)
    return out


def _hypotheses() -> list[tuple[int, tuple[int, int, int]]]:
    """Every (result, numbers of base corners 0-2) a d4 of either handedness can show: the other
    three numbers in any order (top-vertex: the corners' own; bottom-edge: the faces opposite)."""
    return [(r, p) for r in (1, 2, 3, 4) for p in itertools.permutations([v for v in (1, 2, 3, 4) if v != r])]


APEX_TRIES = 8
"""Places tried for the apex (:func:`find_apex`), best first; the one whose faces fit a numeral
layout best is kept."""
APEX_GOOD = 0.85
"""Fit of a numeral layout at which the apex tried is taken without trying the rest."""


BLUR_EDGE_PX = 90.0
"""Mean outline edge, px, from which a die is read with the first of :data:`CAMERA_BLURS` alone:
its numerals (about 0.07 edge tall on screen) are 6 px and more, so a camera blur of a pixel
leaves them legible, and a softer template only loosens the fit (on seeds 7000-7119 of
``render_d4`` at 90-130 px the second blur read no die more)."""


def _sureness(fit: dict[int, float]) -> float:
    """How surely ``fit`` (per result, the best layout's fit) names its best result: the lead over
    the next result's fit divided by how far the best falls short of 1.05 (:data:`MIN_SURE`)."""
    top, nxt = sorted(fit.values(), reverse=True)[:2]
    return (top - nxt) / (1.05 - top)


def _fit_at(gray: np.ndarray, corners: np.ndarray, apex: np.ndarray, style: str, dark_ink: bool | None
            ) -> tuple[dict[int, float], tuple[int, ...]]:
    """Per result 1-4, the best mean correlation over the nine numeral places of the three faces
    split at ``apex`` of any layout with that result; and each face's best numeral at the result's
    place; all with the one blur of :data:`CAMERA_BLURS` under which the best result is surest
    (:func:`_sureness`), the first alone for a die of :data:`BLUR_EDGE_PX` and more.
    A face (apex, x, y) shows (r, p[x], p[y]) at its places for some order p of the other three
    numbers over the base corners (top-vertex: the corners' numbers; bottom-edge: those of the
    faces opposite them), either handedness."""
    faces = _face_corners(corners, apex)
    upright = _upright_faces(gray, [t for t, _, _ in faces], dark_ink)
    every = [_face_scores(f, t, style) for f, (t, _, _) in zip(upright, faces)]
    best_fit, best_votes = None, ()
    edge = float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 3]) for i in range(3)]))
    for b in range(len(CAMERA_BLURS) if edge < BLUR_EDGE_PX else 1):   # one blur for the whole die
        scores = [s[b] for s in every]
        fit: dict[int, float] = {}
        for r, p in _hypotheses():
            total = sum(s[0, r - 1] + s[1, p[x] - 1] + s[2, p[y] - 1] for s, (_, x, y) in zip(scores, faces)) / 9
            fit[r] = max(fit.get(r, -1.0), float(total))
        if best_fit is None or _sureness(fit) > _sureness(best_fit):
            best_fit, best_votes = fit, tuple(int(s[0].argmax()) + 1 for s in scores)
    return best_fit, best_votes


def read_outline(frame: np.ndarray, corners: np.ndarray, style: str, dark_ink: bool | None = None) -> D4Reading:
    """Read the d4 with outline ``corners`` ((3, 2) px, from :func:`find_d4s`) on ``frame`` as a
    die of ``style``. Each numeral place of each visible face is scored against each numeral as
    that face would show it (:func:`_face_scores`); the result whose best layout fits best
    (:func:`_fit_at`, over :data:`APEX_TRIES` apex places) wins if that fit is at least
    :data:`MIN_FIT`, leads the next result's surely enough (:data:`MIN_SURE`) and :data:`MIN_VOTES`
    faces alone put it at the result's place; else the reader abstains. ``dark_ink``: the ink is darker
    than the body (``None``: judged per die).

    Raises:
        D4StyleError: ``style`` unknown. BadFrame: not an HxWx3 uint8 array.
    """
    check_style(style)
    _check_frame(frame)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    corners = np.asarray(corners, np.float32).reshape(3, 2)
    best_try = None
    for a in find_apex(gray, corners, APEX_TRIES):
        tried = _fit_at(gray, corners, a, style, dark_ink)
        if best_try is None or max(tried[0].values()) > max(best_try[0][0].values()):
            best_try = (tried, a)
        if max(tried[0].values()) >= APEX_GOOD:
            break
    (fit, votes), apex = best_try
    order = sorted(fit, key=lambda r: -fit[r])
    best, lead = order[0], fit[order[0]] - fit[order[1]]
    ok = fit[best] >= MIN_FIT and lead / (1.05 - fit[best]) >= MIN_SURE and votes.count(best) >= MIN_VOTES
    x, y = corners.min(axis=0)
    w, h = corners.max(axis=0) - (x, y)
    return D4Reading(best if ok else None, round(max(0.0, fit[best]), 3), "ok" if ok else "abstain", votes,
                     round(lead, 3), best, tuple((float(a), float(b)) for a, b in corners),
                     (float(apex[0]), float(apex[1])), (int(x), int(y), int(math.ceil(w)), int(math.ceil(h))))


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


STYLE_LEAD = 0.05
"""Least lead in fit of one style's reading over the other's for a die whose look two d4 kinds of
different styles share (else the reader abstains)."""


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
    largest die first. A d4 whose body colour no kind's look holds is ``other-kind``; one kind's
    style, ink and faces read it (:func:`read_outline`); when kinds of both styles hold it, the
    style whose numerals fit better by :data:`STYLE_LEAD` wins, else the reader abstains. Kinds
    of one look and one style cannot be told apart: the first of ``kinds`` is named.

    >>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    >>> frame, truth = render_d4_scene(find_kind("theosis-d4"), 3, np.random.default_rng(4))
    >>> [(r.kind, r.face, r.status) for r in read_d4_in(frame, [find_kind("theosis-d4"), find_kind("d6")])]
    [('theosis-d4', '3', 'ok')]

    Raises:
        BadFrame: not an HxWx3 uint8 array.
    """
    pool = [k for k in kinds if k.sides == 4 and k.look.style in STYLES
            and (game is None or not k.games or game in k.games)]
    out = []
    for corners in find_d4s(frame):
        hsv = _body_hsv(frame, corners)
        fits = [k for k in pool if k.look.holds(hsv)]
        reads = {}
        for k in fits:
            dark = sum(kind_render.ink_bgr(k)) < sum(kind_render.body_bgr(k))
            key = (k.look.style, dark)
            if key not in reads:
                reads[key] = (k, read_outline(frame, corners, k.look.style, dark))
        x, y = corners.min(axis=0)
        w, h = corners.max(axis=0) - (x, y)
        box = (int(x), int(y), int(math.ceil(w)), int(math.ceil(h)))
        if not reads:
            out.append(KindReading(None, None, box, 0.0, "other-kind"))
            continue
        ranked = sorted(reads.values(), key=lambda kr: -kr[1].confidence)
        kind, got = ranked[0]
        rival = next((r.confidence for k, r in ranked[1:] if k.look.style != kind.look.style), None)
        if got.value is None or (rival is not None and got.confidence - rival < STYLE_LEAD):
            out.append(KindReading(None, None, box, got.confidence, "abstain"))
        else:
            symbol = next(f.symbol for f in kind.faces if f.symbol == str(got.value))
            out.append(KindReading(kind.id, symbol, box, got.confidence, "ok"))
    return out
