"""Rendered board scenes with known truth: figures' markers on a game board seen by a camera.

For the tracking tests, the marker benchmark and ``tools/render_board_scenes.py`` (frames for
``arena-table run --camera DIR``). A scene is a board texture (painted ground, the grid's lines,
blocky board art, cards) seen under perspective, with the four corner markers, figures on white
round bases carrying their marker, dice, and a camera's faults: a hand over part of the board,
glare, blur, noise and JPEG-like softening. :func:`render_scene` returns the frame, the true
image->board homography and, per figure, whether the hand covers it.

Sizes are board millimetres; the board is drawn at :data:`TEXTURE_PX_PER_MM` and warped into the
frame. Markers are drawn straight into the frame through their own homography (crisp edges, the
perspective exact), so truth needs no re-detection.

>>> import numpy as np
>>> from arena_table.rules.kernel.geometry import SquareLayout
>>> spec = SceneSpec(board_mm=(300.0, 200.0), grid=SquareLayout(25.0, 12, 8),
...                  figures=(FigureSpec(5, (37.5, 62.5), 90.0),))
>>> frame, truth = render_scene(spec, np.random.default_rng(1))
>>> frame.shape, truth.figures[0].id, truth.figures[0].covered
((720, 1280, 3), 5, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from .markers import marker_image
from .render import DieSpec, draw_die

Point = tuple[float, float]

TEXTURE_PX_PER_MM = 4.0
"""Resolution at which the board is painted before it is warped into the frame."""
CORNER_IDS = (46, 47, 48, 49)
"""Default corner marker ids, top-left, top-right, bottom-right, bottom-left (the last four of
DICT_4X4_50, so figures take 0-45)."""
BASE_MM = 25.0
"""A miniature's round base (25 mm, the usual size); the marker sits in its middle."""


@dataclass(frozen=True)
class FigureSpec:
    """One figure: marker ``id`` centred at ``at`` (board mm), its up pointing ``heading_deg``
    counterclockwise from the board's +x as seen from above (90: towards the board's top edge)."""

    id: int
    at: Point
    heading_deg: float = 90.0


@dataclass(frozen=True)
class SceneSpec:
    """What to draw (every fault is a switch or a strength; 0 turns it off)."""

    board_mm: Point
    grid: Any = None
    """A ``HexLayout``, ``SquareLayout`` or ``AreaMap`` whose lines are painted (None: no lines)."""
    figures: tuple[FigureSpec, ...] = ()
    size: tuple[int, int] = (1280, 720)
    marker_mm: float = 12.0
    base_mm: float = BASE_MM
    """Diameter of the figures' white round bases."""
    corner_mm: float = 20.0
    """Side of the corner markers; their centres sit on the board's corners."""
    corner_ids: tuple[int, int, int, int] = CORNER_IDS
    dictionary: str = "DICT_4X4_50"
    tilt: float = 0.12
    """Perspective strength: how much narrower the far edge of the board looks (share)."""
    turn_deg: float | None = None
    """In-image rotation of the board; None: random within +-5 degrees."""
    hand: bool = False
    glare: float = 0.0
    """Peak brightness added by one glare spot (0-255)."""
    blur_px: float = 0.0
    """Gaussian blur sigma in frame px (focus)."""
    noise: float = 2.0
    """Sensor noise standard deviation (grey levels)."""
    dice: int = 0
    """Dice lying on the board art."""
    cards: int = 0
    art: bool = True
    """Blocky board art (runes, tiles) and painted ground."""


@dataclass(frozen=True)
class FigureTruth:
    id: int
    at: Point
    heading_deg: float
    covered: bool
    """The hand covers some of its marker (the detector is not expected to see it)."""


@dataclass(frozen=True)
class SceneTruth:
    board_to_image: np.ndarray
    """3x3, board mm -> frame px."""
    figures: tuple[FigureTruth, ...] = field(default=())

    @property
    def image_to_board(self) -> np.ndarray:
        return np.linalg.inv(self.board_to_image)


def _camera(spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """Board mm -> frame px: the board fills ~75 % of the frame, its far edge narrowed by ``tilt``."""
    w, h = spec.size
    bw, bh = spec.board_mm
    scale = min(0.8 * w / bw, 0.74 * h / bh)
    cx, cy = w / 2 + rng.uniform(-0.04, 0.04) * w, h / 2 + rng.uniform(-0.03, 0.03) * h
    hw, hh = bw * scale / 2, bh * scale / 2
    k = spec.tilt * rng.uniform(0.7, 1.0)
    dst = np.array([[-hw * (1 - k), -hh * (1 - k / 2)], [hw * (1 - k), -hh * (1 - k / 2)], [hw, hh], [-hw, hh]])
    a = math.radians(spec.turn_deg if spec.turn_deg is not None else rng.uniform(-5, 5))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    dst = dst @ rot.T + (cx, cy) + rng.normal(0, 0.004 * w, (4, 2))
    src = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32)).astype(np.float64)


def _grid_lines(tex: np.ndarray, spec: SceneSpec, colour) -> None:
    g, s = spec.grid, TEXTURE_PX_PER_MM
    if g is None:
        return
    bw, bh = spec.board_mm

    def poly(pts):
        p = np.round(np.array(pts) * s * 16).astype(np.int32)
        cv2.polylines(tex, [p], True, colour, max(1, round(0.6 * s)), cv2.LINE_AA, 4)

    if hasattr(g, "area_at"):
        for _, pts in g.polygons:
            poly(pts)
    elif hasattr(g, "cols"):
        for c in range(g.cols):
            for r in range(g.rows):
                poly([g._board(c + du, r + dv) for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1))])
    else:
        span = int(max(bw, bh) / g.size_mm) + 4
        for q in range(-2 * span, 2 * span):
            for r in range(-2 * span, 2 * span):
                x, y = g.centre((q, r))
                if -g.size_mm < x < bw + g.size_mm and -g.size_mm < y < bh + g.size_mm:
                    poly(g.corners((q, r)))


def board_texture(spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """The board painted at :data:`TEXTURE_PX_PER_MM` (BGR): ground, art, the grid's lines, cards.
    Painting takes most of a scene's time: pass it to :func:`render_scene` to draw many frames of
    one board."""
    s = TEXTURE_PX_PER_MM
    bw, bh = spec.board_mm
    W, H = int(round(bw * s)), int(round(bh * s))
    base = np.array(rng.uniform([40, 60, 70], [140, 170, 190]), np.float32)
    low = cv2.resize(rng.normal(0, 1, (max(2, H // 60), max(2, W // 60), 3)).astype(np.float32), (W, H),
                     interpolation=cv2.INTER_CUBIC)
    tex = np.clip(base + 28 * low, 0, 255).astype(np.uint8) if spec.art else np.full((H, W, 3), base, np.uint8)
    if spec.art:  # board art: runes of dark blocks on light tiles, stripes, blobs (things a detector may try)
        for _ in range(int(bw * bh / 2500)):
            x, y = rng.uniform(0, W), rng.uniform(0, H)
            kind = rng.integers(0, 4)
            col = tuple(int(v) for v in rng.integers(0, 255, 3))
            if kind == 0:
                side = rng.uniform(6, 22) * s
                n = int(rng.integers(3, 7))
                cell = side / n
                cv2.rectangle(tex, (int(x), int(y)), (int(x + side), int(y + side)), (235, 235, 235), -1)
                for i in range(n):
                    for j in range(n):
                        if rng.random() < 0.5:
                            cv2.rectangle(tex, (int(x + i * cell), int(y + j * cell)),
                                          (int(x + (i + 1) * cell), int(y + (j + 1) * cell)), (20, 20, 20), -1)
            elif kind == 1:
                cv2.circle(tex, (int(x), int(y)), int(rng.uniform(3, 15) * s), col, -1, cv2.LINE_AA)
            elif kind == 2:
                cv2.line(tex, (int(x), int(y)), (int(x + rng.normal(0, 40 * s)), int(y + rng.normal(0, 40 * s))),
                         col, int(rng.uniform(0.5, 3) * s), cv2.LINE_AA)
            else:
                pts = (np.array([x, y]) + rng.normal(0, 8 * s, (5, 2))).astype(np.int32)
                cv2.fillPoly(tex, [pts], col, cv2.LINE_AA)
    _grid_lines(tex, spec, (30, 30, 30))
    for _ in range(spec.cards):
        cw, ch = 63 * s, 88 * s
        cx, cy, a = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(0, 180)
        box = cv2.boxPoints(((cx, cy), (cw, ch), a)).astype(np.int32)
        cv2.fillPoly(tex, [box], (225, 230, 235), cv2.LINE_AA)
        inner = cv2.boxPoints(((cx, cy), (cw * 0.85, ch * 0.6), a)).astype(np.int32)
        cv2.fillPoly(tex, [inner], tuple(int(v) for v in rng.integers(20, 200, 3)), cv2.LINE_AA)
        cv2.putText(tex, "CARD", (int(cx - 20 * s), int(cy + 35 * s)), cv2.FONT_HERSHEY_SIMPLEX, 0.18 * s, (10, 10, 10),
                    max(1, int(s / 2)), cv2.LINE_AA)
    return tex


def _tile(dictionary: str, marker_id: int, marker_mm: float, base_mm: float | None, px_per_mm: float):
    """A square tile (grey image, mask) of the marker on a white base (a disc, or a square label
    when ``base_mm`` is None) and the tile side in mm."""
    side_mm = base_mm if base_mm is not None else marker_mm * 1.6
    n = int(round(side_mm * px_per_mm))
    img = np.full((n, n), 255, np.uint8)
    mask = np.zeros((n, n), np.uint8)
    if base_mm is not None:
        cv2.circle(mask, (n // 2, n // 2), n // 2 - 1, 255, -1, cv2.LINE_AA)
    else:
        mask[:] = 255
    m = int(round(marker_mm * px_per_mm))
    o = (n - m) // 2
    img[o:o + m, o:o + m] = marker_image(dictionary, marker_id, m)
    return img, mask, side_mm


def _paste(frame: np.ndarray, tile: np.ndarray, mask: np.ndarray, H: np.ndarray) -> None:
    """Warp ``tile`` (its own px) into ``frame`` through ``H`` (tile px -> frame px), masked."""
    n = tile.shape[0]
    quad = cv2.perspectiveTransform(np.float32([[[0, 0], [n, 0], [n, n], [0, n]]]), H)[0]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    fh, fw = frame.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ H
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(tile, T, size, flags=cv2.INTER_AREA if n > 4 * max(size) else cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, T, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = (roi * (1 - alpha) + warped[..., None].astype(np.float32) * alpha).astype(np.uint8)


def _place(at: Point, heading_deg: float, side_mm: float, n: int) -> np.ndarray:
    """Tile px -> board mm for a tile of ``side_mm`` centred at ``at`` whose up is ``heading_deg``."""
    a = math.radians(heading_deg)
    up = np.array([math.cos(a), -math.sin(a)])    # board y is down
    right = np.array([-up[1], up[0]])
    k = side_mm / n
    c = np.array(at) - right * side_mm / 2 + up * side_mm / 2  # the tile's top-left: left of and up from centre
    return np.array([[right[0] * k, -up[0] * k, c[0]], [right[1] * k, -up[1] * k, c[1]], [0, 0, 1]])


def _hand(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Draw a hand (palm, fingers, shadow) over ``frame``; returns its mask (uint8, 255 = hand)."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.25, 0.75) * h
    r = rng.uniform(0.07, 0.1) * h
    a = rng.uniform(0, 2 * math.pi)
    cv2.ellipse(mask, (int(cx), int(cy)), (int(r * 1.1), int(r)), math.degrees(a), 0, 360, 255, -1)
    for k in range(4):  # fingers towards a, an arm away from it
        fa = a + (k - 1.5) * 0.32
        bx, by = cx + r * 0.8 * math.cos(fa), cy + r * 0.8 * math.sin(fa)
        ex, ey = bx + r * 1.2 * math.cos(fa), by + r * 1.2 * math.sin(fa)
        cv2.line(mask, (int(bx), int(by)), (int(ex), int(ey)), 255, int(r * 0.38))
    ax, ay = cx - 3 * r * math.cos(a), cy - 3 * r * math.sin(a)
    cv2.line(mask, (int(cx), int(cy)), (int(ax), int(ay)), 255, int(r * 1.5))
    x, y, bw, bh = cv2.boundingRect(mask)
    pad = int(r)
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    m = mask[y0:y1, x0:x1]
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    shadow = cv2.GaussianBlur(np.roll(m, (int(0.15 * r), int(0.1 * r)), (0, 1)).astype(np.float32), (0, 0), r * 0.2)
    roi *= 1 - 0.4 * shadow[..., None] / 255
    skin = np.array(rng.uniform([90, 120, 170], [150, 170, 235]), np.float32)
    shade = rng.standard_normal((max(2, (y1 - y0) // 8), max(2, (x1 - x0) // 8)), dtype=np.float32)
    shade = cv2.resize(cv2.GaussianBlur(shade, (0, 0), 2), (x1 - x0, y1 - y0))[..., None] * 12
    soft = cv2.GaussianBlur(m, (0, 0), 1.5).astype(np.float32)[..., None] / 255
    frame[y0:y1, x0:x1] = np.clip(roi * (1 - soft) + (skin + shade) * soft, 0, 255).astype(np.uint8)
    return mask


def camera_faults(frame: np.ndarray, rng: np.random.Generator, blur_px: float, noise: float) -> np.ndarray:
    """``frame`` blurred (Gaussian sigma ``blur_px``) with sensor noise (sd ``noise`` grey levels)
    added: a new noisy frame of the same scene for each call."""
    if blur_px > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), blur_px)
    if noise > 0:
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))  # OpenCV's generator, seeded from ours: fast and repeatable
        grain = np.empty(frame.shape, np.int16)
        cv2.randn(grain, 0, noise)
        grain += frame
        frame = np.clip(grain, 0, 255).astype(np.uint8)
    return frame


def render_scene(spec: SceneSpec, rng: np.random.Generator, texture: np.ndarray | None = None,
                 camera: np.ndarray | None = None) -> tuple[np.ndarray, SceneTruth]:
    """The frame (HxWx3 uint8 BGR) of ``spec`` and its truth.

    Args:
        texture: :func:`board_texture` of ``spec`` (default: painted anew).
        camera: board mm -> frame px (default: a random view; a fixed camera keeps one).
    """
    w, h = spec.size
    cam = _camera(spec, rng) if camera is None else camera
    s = TEXTURE_PX_PER_MM
    tex = board_texture(spec, rng) if texture is None else texture
    to_tex = np.diag([1 / s, 1 / s, 1.0])  # texture px -> board mm
    table = np.array(rng.uniform([30, 30, 30], [80, 70, 60]), np.uint8)
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = table
    frame = cv2.warpPerspective(tex, cam @ to_tex, (w, h), dst=frame, flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_TRANSPARENT)
    frame = frame.copy()
    bw, bh = spec.board_mm
    px_per_mm = 8.0
    for marker_id, at in zip(spec.corner_ids, ((0.0, 0.0), (bw, 0.0), (bw, bh), (0.0, bh))):
        tile, mask, side = _tile(spec.dictionary, marker_id, spec.corner_mm, None, px_per_mm)
        _paste(frame, tile, mask, cam @ _place(at, 90.0, side, tile.shape[0]))
    for _ in range(spec.dice):
        x, y = rng.uniform(0.1, 0.9) * bw, rng.uniform(0.1, 0.9) * bh
        centre, beside = cv2.perspectiveTransform(np.float64([[[x, y], [x + 16.0, y]]]), cam)[0]  # 16 mm dice
        side_px = float(np.linalg.norm(beside - centre))
        r = int(2 * side_px) + 2
        x0, y0 = max(0, int(centre[0]) - r), max(0, int(centre[1]) - r)
        window = frame[y0:y0 + 2 * r, x0:x0 + 2 * r]  # draw_die works in a window's own px
        draw_die(window, DieSpec(int(rng.integers(1, 7)), (float(centre[0] - x0), float(centre[1] - y0)),
                                 side_px, angle=float(rng.uniform(0, 90))), shadow=True)
    for f in spec.figures:
        tile, mask, side = _tile(spec.dictionary, f.id, spec.marker_mm, spec.base_mm, px_per_mm)
        _paste(frame, tile, mask, cam @ _place(f.at, f.heading_deg, side, tile.shape[0]))
    covered = set()
    if spec.hand:
        hand = _hand(frame, rng)
        for f in spec.figures:
            half = spec.marker_mm * 0.75
            quad = np.float64([[[f.at[0] + dx, f.at[1] + dy] for dx in (-half, half) for dy in (-half, half)]])
            pts = cv2.perspectiveTransform(quad, cam)[0]
            x0, y0 = np.clip(pts.min(axis=0).astype(int), 0, [w - 1, h - 1])
            x1, y1 = np.clip(pts.max(axis=0).astype(int) + 1, 0, [w, h])
            if hand[y0:y1, x0:x1].any():
                covered.add(f.id)
    if spec.glare > 0:
        gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        r = rng.uniform(0.08, 0.18) * w
        x0, x1 = int(max(0, gx - 3 * r)), int(min(w, gx + 3 * r))
        y0, y1 = int(max(0, gy - 2 * r)), int(min(h, gy + 2 * r))
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        spot = np.exp(-(((xx - gx) / r) ** 2 + ((yy - gy) / (0.6 * r)) ** 2))[..., None] * spec.glare
        frame[y0:y1, x0:x1] = np.clip(frame[y0:y1, x0:x1] + spot, 0, 255).astype(np.uint8)
    frame = camera_faults(frame, rng, spec.blur_px, spec.noise)
    truth = SceneTruth(cam, tuple(FigureTruth(f.id, f.at, f.heading_deg, f.id in covered) for f in spec.figures))
    return frame, truth
