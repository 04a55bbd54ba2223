"""Draw four-sided dice (d4) of both styles as a camera over the table sees them, and the layout of
their numerals (see :mod:`arena_table.vision.d4` for the styles and the reader).

A d4 of edge 1 rests on its base; the camera looks down, tilted up to :data:`MAX_TILT`. Each side
face is an upright texture (:func:`face_texture`) mapped onto its projected triangle by one affine
map (an orthographic camera), so a face 70.5° from the table is squashed to a third of its height
seen from straight above, as on a real die. The labelling is one fixed real die
(:func:`visible_faces`: 1, 2, 3 counter-clockwise round the 4).

>>> visible_faces("bottom-edge", 1)
((1, 4, 3), (1, 3, 2), (1, 2, 4))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import D4_STYLES, DieKind, face_index
from arena_table.vision import kind_render
from arena_table.vision.errors import VisionError

STYLES = D4_STYLES
"""The two ways a d4 shows its result (``top-vertex``, ``bottom-edge``)."""
TEX = 192
"""Side in px of a face texture (an upright equilateral triangle, apex at the top)."""
_TH = TEX * math.sqrt(3) / 2
_CANON = np.float32([[TEX / 2, 0], [0, _TH], [TEX, _TH]])   # apex, base-left, base-right
_CENTROID = np.float32([TEX / 2, _TH * 2 / 3])
NUMERAL_H = 0.2 * TEX
"""Height of a numeral on a face texture, px."""
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)
"""Fonts the renders use and the reader's templates cover."""
MAX_TILT = 12.0
"""Largest tilt of the camera from straight down drawn, degrees (all three side faces stay in view
up to 19.5°)."""
_HEIGHT = math.sqrt(2 / 3)   # apex height of a tetrahedron of edge 1


class D4StyleError(VisionError, ValueError):
    """A d4 style that is not one of :data:`STYLES`."""


def check_style(style: str) -> str:
    """``style`` if it is one of :data:`STYLES`.

    >>> check_style("middle")
    Traceback (most recent call last):
    ...
    arena_table.vision.d4_render.D4StyleError: unknown d4 style 'middle'; a d4 shows its result at the top-vertex or bottom-edge (Look.style)
    """
    if style not in STYLES:
        raise D4StyleError(f"unknown d4 style {style!r}; a d4 shows its result at the "
                           f"{' or '.join(STYLES)} (Look.style)")
    return style


TURNS = (0.0, 120.0, -120.0)
"""Turn in degrees (counter-clockwise) about a face's centroid of its three numeral places from
the result's place."""


def place(style: str, j: int = 0) -> np.ndarray:
    """Centre (x, y) on the upright face texture of numeral place ``j`` (0: the result's)."""
    m = cv2.getRotationMatrix2D((float(_CENTROID[0]), float(_CENTROID[1])), TURNS[j], 1.0)
    return (m[:, :2] @ _place(style) + m[:, 2]).astype(np.float32)


def _place(style: str) -> np.ndarray:
    """Centre (x, y) on the upright face texture of the numeral the style reads (the result)."""
    if style == "top-vertex":   # halfway from the centroid to the apex, top toward the apex
        return _CENTROID + 0.5 * (_CANON[0] - _CENTROID)
    edge_mid = (_CANON[1] + _CANON[2]) / 2   # halfway to the base edge, foot on the edge
    return _CENTROID + 0.52 * (edge_mid - _CENTROID)


def face_texture(style: str, numerals: Sequence[int | None], body: tuple[int, int, int], ink: tuple[int, int, int],
                 font: int = FONTS[0], weight: float = 1.0, outside: bool = False) -> np.ndarray:
    """One upright side face (``TEX`` wide, apex at the top, BGR, outside the triangle black).

    ``numerals`` are (the result's place, then the two places a third of a turn each way):
    top-vertex (apex, base-left corner, base-right corner); bottom-edge (base edge, right edge,
    left edge). Each numeral is drawn upright at :func:`_place` and turned with the face about its
    centroid, so it points its top at its corner (top-vertex) or stands on its edge (bottom-edge).
    A ``None`` leaves its place blank.
    ``outside``: leave the body colour outside the triangle (templates) instead of black.
    """
    check_style(style)
    wid, hgt = TEX, int(math.ceil(_TH))
    ink_mask = np.zeros((hgt, wid), np.float32)
    cx, cy = _place(style)
    for numeral, turn in zip(numerals, TURNS):
        if numeral is None:
            continue
        layer = np.zeros((hgt, wid), np.uint8)
        txt = str(numeral)
        (tw, th), _ = cv2.getTextSize(txt, font, 1.0, 2)
        scale = NUMERAL_H / th
        thick = max(2, int(round(weight * NUMERAL_H / 7)))
        (tw, th), _ = cv2.getTextSize(txt, font, scale, thick)
        cv2.putText(layer, txt, (int(cx - tw / 2), int(cy + th / 2)), font, scale, 255, thick, cv2.LINE_AA)
        m = cv2.getRotationMatrix2D((float(_CENTROID[0]), float(_CENTROID[1])), turn, 1.0)
        ink_mask = np.maximum(ink_mask, cv2.warpAffine(layer, m, (wid, hgt)).astype(np.float32) / 255)
    tex = (np.float32(body) * (1 - ink_mask[..., None]) + np.float32(ink) * ink_mask[..., None])
    tri = np.zeros((hgt, wid), np.uint8)
    cv2.fillConvexPoly(tri, np.int32(np.round(_CANON)), 255)
    if not outside:
        tex[tri == 0] = 0
    return tex.astype(np.uint8)


def _cycle(apex: int, others: Sequence[int]) -> tuple[int, int, int]:
    """The cyclic order of ``others`` around ``apex`` (counter-clockwise seen from outside) of one
    fixed die: the order (apex, a, b, c) that is an even permutation of (4, 1, 2, 3), which has
    1, 2, 3 counter-clockwise around 4. A real die is one of the two mirror labellings; this one
    is used throughout, the reader does not depend on it."""
    a, b, c = sorted(others)
    for cyc in ((a, b, c), (a, c, b)):
        seq = (apex, *cyc)
        inv = sum(1 for i in range(4) for j in range(i + 1, 4) if "4123".index(str(seq[i])) > "4123".index(str(seq[j])))
        if inv % 2 == 0:
            return cyc
    raise AssertionError("one of the two cyclic orders is even")


@dataclass(frozen=True)
class RenderedD4:
    """Truth for one drawn d4: style, result, apex and base corners (x, y) in frame px,
    bounding box (x, y, w, h)."""

    style: str
    value: int
    apex: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    box: tuple[int, int, int, int]


def visible_faces(style: str, value: int) -> tuple[tuple[int, int, int], ...]:
    """The numerals on the three side faces of a d4 of ``style`` resting with result ``value``,
    each face as (the result's place, a third of a turn counter-clockwise, two thirds), face ``k``
    the one opposite base corner ``k`` of corners counter-clockwise seen from above.

    top-vertex: (apex, base-left, base-right) corners: the apex's number and those of the face's
    two base corners. bottom-edge: (base, right, left) edges: the number of the face across each
    edge, the one across the base being the face on the table. A face never shows the number of
    the vertex opposite it (top-vertex) or its own (bottom-edge).

    >>> visible_faces("top-vertex", 4)
    ((4, 2, 3), (4, 3, 1), (4, 1, 2))
    """
    check_style(style)
    if value not in (1, 2, 3, 4):
        raise ValueError(f"a d4 shows 1 to 4, not {value!r}")
    corner = _cycle(value, [v for v in (1, 2, 3, 4) if v != value])
    return tuple((value, corner[(k + 1) % 3], corner[(k + 2) % 3]) for k in range(3))


def _ccw(a, b, c) -> bool:
    """Whether a→b→c turn counter-clockwise on the screen (image y points down)."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) < 0


SUPERSAMPLE = 3
"""A die is drawn on a patch this many times finer, shrunk with INTER_AREA: smooth outlines and
numerals on squashed faces."""


def die_window(frame: np.ndarray, img: np.ndarray, pad: float, what: str) -> tuple[int, int, int, int]:
    """The window (x0, y0, x1, y1) of ``frame`` holding the points ``img`` (N x 2 px) with ``pad``
    px round them, where a die is drawn.

    Raises:
        ValueError: the window leaves the frame (``what`` names the die in the message).
    """
    hgt, wid = frame.shape[:2]
    x0, y0 = int(math.floor(img[:, 0].min() - pad)), int(math.floor(img[:, 1].min() - pad))
    x1, y1 = int(math.ceil(img[:, 0].max() + pad)), int(math.ceil(img[:, 1].max() + pad))
    if x0 < 0 or y0 < 0 or x1 > wid or y1 > hgt:
        raise ValueError(f"{what} does not fit a {wid}x{hgt} frame")
    return x0, y0, x1, y1


def random_light(rng: np.random.Generator) -> np.ndarray:
    """A unit light direction (x, y, z; z toward the camera) 35-80° from the table, from any side."""
    light = np.array([math.cos(rng.uniform(0, 2 * math.pi)), math.sin(rng.uniform(0, 2 * math.pi)), 0.0])
    light = light * math.cos(math.radians(rng.uniform(35, 80)))
    light[2] = math.sqrt(max(0.0, 1 - light[0] ** 2 - light[1] ** 2))
    return light


def drop_shadow(patch: np.ndarray, outline: np.ndarray, light: np.ndarray, size: float,
                rng: np.random.Generator) -> np.ndarray:
    """``patch`` (uint8 BGR) with a soft shadow of the convex ``outline`` (N x 2 px of the patch)
    pushed away from ``light``, offset and softness scaled by the die's ``size`` (px of the patch)."""
    shadow = np.zeros(patch.shape[:2], np.float32)
    off = -light[:2] / max(light[2], 0.5) * 0.1 * size
    cv2.fillConvexPoly(shadow, np.int32(np.round(outline + off)), 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.04 * size) * float(rng.uniform(0.1, 0.3))
    return (patch.astype(np.float32) * (1 - shadow[..., None])).astype(np.uint8)


def ridge_colour(body: tuple[int, int, int], rng: np.random.Generator) -> tuple[int, ...]:
    """The BGR of a die's rounded ridges catching the light: ``body`` 5-30 % brighter."""
    return tuple(int(min(255, c * float(rng.uniform(1.05, 1.3)))) for c in body)


def gloss_spot(patch: np.ndarray, outline: np.ndarray, near: np.ndarray, size_px: float, ss: int,
               rng: np.random.Generator) -> np.ndarray:
    """``patch`` (uint8 BGR, supersampled ``ss`` times) with a specular spot on the glossy die
    inside the convex ``outline`` (patch px; the tray is matte), within a quarter of the die's
    ``size_px`` (frame px) of ``near``."""
    spot = np.zeros(patch.shape[:2], np.float32)
    sx, sy = near + rng.uniform(-0.25, 0.25, 2) * size_px * ss
    cv2.circle(spot, (int(sx), int(sy)), max(2, int(rng.uniform(0.05, 0.15) * size_px * ss)), 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), (0.05 * size_px + 1) * ss) * float(rng.uniform(0, 120))
    die = np.zeros(patch.shape[:2], np.uint8)
    cv2.fillConvexPoly(die, np.int32(np.round(outline)), 1)
    return np.clip(patch + (spot * die)[..., None], 0, 255).astype(np.uint8)


def draw_d4(frame: np.ndarray, style: str, value: int, centre: tuple[float, float], edge_px: float,
            rng: np.random.Generator, *, body: tuple[int, int, int] = (200, 225, 235),
            ink: tuple[int, int, int] = (20, 20, 20), angle: float | None = None,
            tilt: float | None = None) -> RenderedD4:
    """Draw one d4 resting on the table, result ``value`` (1-4), into ``frame`` (HxWx3 BGR uint8,
    changed in place) with its base centroid at ``centre`` and edges ``edge_px`` long.

    The die is turned by ``angle`` degrees, the camera tilted ``tilt`` degrees from straight down
    (random when ``None``: 0-360°, 0-:data:`MAX_TILT`°, toward a random side); the faces are lit
    by a random light with their ridges' rounded edges catching it and a specular spot on them, a
    soft shadow beside the die;
    font and ink weight drawn from ``rng``. Orthographic camera: each face's image is an affine
    map of its texture.

    Raises:
        D4StyleError: ``style`` unknown. ValueError: ``value`` not 1-4, or the die not inside the frame.
    """
    check_style(style)
    if value not in (1, 2, 3, 4):
        raise ValueError(f"a d4 shows 1 to 4, not {value!r}")
    angle = float(rng.uniform(0, 360)) if angle is None else angle
    tilt = float(rng.uniform(0, MAX_TILT)) if tilt is None else tilt
    azim = float(rng.uniform(0, 2 * math.pi))
    font = FONTS[int(rng.integers(len(FONTS)))]
    weight = float(rng.uniform(0.8, 1.25))
    # the die in edge units: base centroid at the origin, x right, y down the screen, z to the camera
    base = [np.array([math.cos(t), math.sin(t), 0.0]) / math.sqrt(3)
            for t in (math.radians(-90 + 120 * k) for k in (0, -1, -2))]
    pts = np.array(base + [np.array([0.0, 0.0, _HEIGHT])])
    ax = np.array([math.cos(azim), math.sin(azim), 0.0])          # tilt about a horizontal axis
    t = math.radians(tilt)
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    rot = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * k @ k
    pts = pts @ rot.T
    a = math.radians(angle)
    spin = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    img = pts[:, :2] @ spin.T * edge_px + np.asarray(centre, float)
    if not _ccw(img[0], img[1], img[2]):   # keep the base corners counter-clockwise on screen
        img[[1, 2]], pts[[1, 2]] = img[[2, 1]], pts[[2, 1]]
    ss = SUPERSAMPLE
    x0, y0, x1, y1 = die_window(frame, img, 0.25 * edge_px + 4, f"a d4 of edge {edge_px:.0f} px at {centre}")
    patch = cv2.resize(frame[y0:y1, x0:x1], ((x1 - x0) * ss, (y1 - y0) * ss), interpolation=cv2.INTER_LINEAR)
    loc = (img - (x0, y0)) * ss
    light = random_light(rng)
    patch = drop_shadow(patch, loc[:3], light, edge_px * ss, rng)
    centroid3 = pts.mean(axis=0)
    for opp, nums in enumerate(visible_faces(style, value)):
        x, y = (opp + 1) % 3, (opp + 2) % 3   # the apex lies inside the base: (apex, x, y) turns counter-clockwise
        normal = np.cross(pts[x] - pts[3], pts[y] - pts[3])
        normal = normal / np.linalg.norm(normal)
        if np.dot(normal, pts[3] - centroid3) < 0:
            normal = -normal
        shade = 0.55 + 0.6 * max(0.0, float(np.dot(normal, light)))
        tex = face_texture(style, nums, body, ink, font, weight).astype(np.float32) * shade
        tex = cv2.GaussianBlur(np.clip(tex, 0, 255).astype(np.uint8), (3, 3), 0)
        m = cv2.getAffineTransform(_CANON, np.float32([loc[3], loc[x], loc[y]]))
        warped = cv2.warpAffine(tex, m, (patch.shape[1], patch.shape[0]), flags=cv2.INTER_AREA)
        mask = np.zeros(patch.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.int32(np.round(np.float32([loc[3], loc[x], loc[y]]) * 16)), 255,
                           cv2.LINE_AA, 4)
        a_ = (mask.astype(np.float32) / 255)[..., None]
        patch = (patch * (1 - a_) + warped * a_).astype(np.uint8)
    ridge = ridge_colour(body, rng)
    for i in range(3):
        p, q = np.int32(np.round(loc[3] * 16)), np.int32(np.round(loc[i] * 16))
        cv2.line(patch, tuple(map(int, p)), tuple(map(int, q)), ridge, max(1, ss // 2), cv2.LINE_AA, 4)
    patch = gloss_spot(patch, loc[:3], loc[3], edge_px, ss, rng)
    frame[y0:y1, x0:x1] = cv2.resize(patch, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    bx, by = img[:3].min(axis=0)
    bw, bh = img[:3].max(axis=0) - (bx, by)
    return RenderedD4(style, value, (float(img[3, 0]), float(img[3, 1])),
                      tuple((float(px), float(py)) for px, py in img[:3]),
                      (int(bx), int(by), int(math.ceil(bw)), int(math.ceil(bh))))


def _camera(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Exposure gain and offset, a faint sheen on the tray, blur and sensor noise, as a camera adds them."""
    hgt, wid = frame.shape[:2]
    out = cv2.convertScaleAbs(frame, alpha=float(rng.uniform(0.75, 1.2)), beta=float(rng.uniform(-10, 10)))
    sheen = np.zeros((hgt, wid), np.float32)
    cv2.circle(sheen, (int(rng.integers(0, wid)), int(rng.integers(0, hgt))), int(rng.integers(15, 40)), 1.0, -1)
    sheen = cv2.GaussianBlur(sheen, (0, 0), 12) * float(rng.uniform(0, 15))
    out = np.clip(out.astype(np.float32) + sheen[..., None] + rng.normal(0, 2.5, out.shape), 0, 255).astype(np.uint8)
    k = int(rng.choice([1, 3, 5]))
    return cv2.GaussianBlur(out, (k, k), 0) if k > 1 else out


def render_d4(style: str, value: int, rng: np.random.Generator, *, size: tuple[int, int] = (240, 320),
              edge_px: tuple[float, float] = (90, 130), body: tuple[int, int, int] | None = None,
              ink: tuple[int, int, int] | None = None) -> tuple[np.ndarray, RenderedD4]:
    """One BGR frame (``size`` = (H, W)) of a random tray colour with one d4 of ``style`` showing
    ``value``, edges ``edge_px`` (low, high) px long, placed, turned, tilted and lit at random,
    then a camera's gain, a faint sheen on the tray, blur and noise. ``body``/``ink`` BGR: ivory and black unless given.

    Raises:
        D4StyleError: ``style`` unknown. ValueError: ``value`` not 1-4, or ``size`` too small.
    """
    check_style(style)
    hgt, wid = size
    frame = np.empty((hgt, wid, 3), np.uint8)
    frame[:] = (int(rng.integers(20, 90)), int(rng.integers(40, 110)), int(rng.integers(20, 90)))
    frame = np.clip(frame + rng.normal(0, 4, frame.shape), 0, 255).astype(np.uint8)
    edge = float(rng.uniform(*edge_px))
    margin = 0.83 * edge + 6
    if min(hgt, wid) < 2 * margin + 2:
        raise ValueError(f"a {wid}x{hgt} frame is too small for a d4 of edge {edge:.0f} px")
    centre = (float(rng.uniform(margin, wid - margin)), float(rng.uniform(margin, hgt - margin)))
    truth = draw_d4(frame, style, value, centre, edge, rng, body=body or (200, 225, 235), ink=ink or (20, 20, 20))
    return _camera(frame, rng), truth


def kind_style(kind: DieKind) -> str:
    """The d4 style of ``kind`` (its ``Look.style``).

    Raises:
        D4StyleError: ``kind`` is not a four-sided kind with a style of :data:`STYLES`.
    """
    if kind.sides != 4 or kind.look.style not in STYLES:
        raise D4StyleError(f"die kind {kind.id} is not a d4 with a style ({kind.sides} faces, style "
                           f"{kind.look.style!r}); a d4 kind has 4 faces and look.style {' or '.join(STYLES)}")
    return kind.look.style


def kind_value(kind: DieKind, face: int | str) -> int:
    """The numeral 1-4 printed for ``face`` (its symbol or number) of the d4 ``kind``.

    Raises:
        DieKindError: ``kind`` has no such face. ValueError: the face is not a numeral 1-4.
    """
    symbol = kind.faces[face_index(kind, face) - 1].symbol
    if symbol not in ("1", "2", "3", "4"):
        raise ValueError(f"face {symbol!r} of {kind.id} is not a numeral 1-4: a d4 reader reads numerals")
    return int(symbol)


def draw_d4_kind(frame: np.ndarray, kind: DieKind, face: int | str, centre: tuple[float, float], edge_px: float,
                 rng: np.random.Generator, **pose) -> RenderedD4:
    """:func:`draw_d4` for a die of ``kind`` showing ``face``: its style, its body and ink
    colours as :mod:`arena_table.vision.kind_render` draws them (``pose``: ``angle``, ``tilt``).
    Lets a bench put d4s into its own frames of several kinds.

    Raises:
        D4StyleError: ``kind`` is not a d4. DieKindError, ValueError: no such face; the die does not fit.
    """
    return draw_d4(frame, kind_style(kind), kind_value(kind, face), centre, edge_px, rng,
                   body=kind_render.body_bgr(kind), ink=kind_render.ink_bgr(kind), **pose)


def render_d4_scene(kind: DieKind, face: int | str, rng: np.random.Generator, *, size: tuple[int, int] = (240, 320),
                    edge_px: tuple[float, float] = (90, 130)) -> tuple[np.ndarray, RenderedD4]:
    """:func:`render_d4` for one die of the d4 ``kind`` showing ``face`` (symbol or number), in its
    style and colours (see :func:`draw_d4_kind`).

    >>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    >>> frame, truth = render_d4_scene(find_kind("d4-edge"), 2, np.random.default_rng(0))
    >>> frame.shape, truth.style, truth.value
    ((240, 320, 3), 'bottom-edge', 2)

    Raises:
        D4StyleError: ``kind`` is not a d4. DieKindError, ValueError: no such face.
    """
    return render_d4(kind_style(kind), kind_value(kind, face), rng, size=size, edge_px=edge_px,
                     body=kind_render.body_bgr(kind), ink=kind_render.ink_bgr(kind))
