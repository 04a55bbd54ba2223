"""Draw top-down d6 dice on a table into a BGR frame, with the ground truth.

A small pure renderer for stress tests, benchmarks and the simulated camera.
Every die is drawn in its own face coordinates (units of die sides, origin
at the top-face centre) and mapped to the frame by one 2x3 affine map, so
rotation, size, position and a cocked (tilted) die all use the same code:
a tilted die's top face is foreshortened by ``cos(tilt)`` and a side face
strip of width ``sin(tilt)`` appears next to it.

The frame is then post-processed like a camera would: exposure gain, colour
cast, motion blur and sensor noise.

>>> import numpy as np
>>> spec = TableSpec(320, 240, dice=(DieSpec(5, (160.0, 120.0), 40.0),))
>>> frame, truth = render_table(spec, np.random.default_rng(0))
>>> frame.shape, truth[0].value, truth[0].status, truth[0].box
((240, 320, 3), 5, 'ok', (140, 100, 40, 40))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

BGR = tuple[int, int, int]
PIP_OFFSET = 0.27
"""Pip centre offset from the face centre in die sides (standard d6 layout)."""
PIP_RADIUS = 0.085
"""Pip radius in die sides."""
CORNER = 0.14
"""Corner rounding radius of the die outline in die sides."""
SHIFT = 4
"""Sub-pixel bits used for anti-aliased drawing."""


def pip_layout(value: int, offset: float = PIP_OFFSET) -> tuple[tuple[float, float], ...]:
    """Pip centres of face ``value`` (1..6) in die sides, face-centre origin.

    >>> len(pip_layout(6)), pip_layout(1)
    (6, ((0.0, 0.0),))
    """
    q = offset
    corners = ((-q, -q), (q, q), (q, -q), (-q, q))
    table = {1: ((0.0, 0.0),), 2: corners[:2], 3: corners[:2] + ((0.0, 0.0),), 4: corners,
             5: corners + ((0.0, 0.0),), 6: corners + ((-q, 0.0), (q, 0.0))}
    return tuple((float(x), float(y)) for x, y in table[value])


@dataclass(frozen=True)
class DieSpec:
    """One die to draw."""

    value: int
    """Face on top, 1..6 (also the ground truth)."""
    center: tuple[float, float]
    """Top-face centre (x, y) in frame px."""
    size: float
    """Die side in frame px."""
    angle: float = 0.0
    """Rotation in degrees (counter-clockwise in the image)."""
    body: BGR = (235, 240, 240)
    """Die colour (BGR)."""
    pip: BGR = (25, 25, 25)
    """Pip colour (BGR)."""
    tilt: float = 0.0
    """Tilt of the top face away from the camera in degrees; > 0 draws a cocked die."""
    glare: tuple[float, float, float] | None = None
    """Specular highlight (u, v, radius) in die sides on the top face, or ``None``."""
    pip_offset: float = PIP_OFFSET
    """Pip offset from the centre in die sides (smaller: rows of a 6 nearly merge)."""
    pip_radius: float = PIP_RADIUS
    """Pip radius in die sides."""
    pips: tuple[tuple[float, float], ...] | None = None
    """Explicit pip centres (die sides) overriding the layout of ``value`` (invalid faces)."""
    marble: float = 0.0
    """Amplitude (0..1) of swirled light and dark streaks in the body: marbled or smoky translucent
    plastic. The streaks follow from ``value``, ``center`` and ``angle``, so a spec draws the same."""
    side_value: int | None = None
    """Face (1..6) on the side face a tilted die shows, its pips drawn foreshortened like the side
    face (an oblique camera sees the pips of a die's front face); ``None``: a plain side face."""


@dataclass(frozen=True)
class TableSpec:
    """A frame to render: table, dice and camera effects."""

    width: int
    """Frame width px."""
    height: int
    """Frame height px."""
    dice: tuple[DieSpec, ...] = ()
    """Dice to draw, in order (later dice are drawn over earlier ones)."""
    background: BGR = (70, 110, 60)
    """Table colour (BGR)."""
    texture: float = 8.0
    """Amplitude of the low-frequency table texture (grey levels)."""
    texture_cell: int = 32
    """Size (px) of the texture's noise cells: smooth blotches about this wide."""
    exposure: float = 1.0
    """Global gain: 0.6 = 40 % darker, 1.4 = 40 % brighter."""
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Per-channel (B, G, R) gain, a colour cast."""
    motion_blur: float = 0.0
    """Motion blur length in px (0 = none)."""
    blur_angle: float = 0.0
    """Motion direction in degrees."""
    noise: float = 2.0
    """Sensor noise standard deviation in grey levels."""
    shadow: bool = True
    """Draw a soft contact shadow under each die."""


@dataclass(frozen=True)
class RenderedDie:
    """Ground truth of one drawn die."""

    value: int
    """Face on top."""
    center: tuple[float, float]
    """Top-face centre (x, y) in frame px."""
    box: tuple[int, int, int, int]
    """(x, y, w, h) of the whole die outline, clipped to the frame."""
    status: str
    """What a reader should report: ``"ok"``, ``"cocked"`` or ``"partial"``."""


def _face_map(d: DieSpec) -> np.ndarray:
    """2x3 affine map from face coordinates (die sides) to frame px."""
    a = math.radians(d.angle)
    c, s = math.cos(a), math.sin(a)
    squash = math.cos(math.radians(d.tilt))
    lin = d.size * np.array([[c, s], [-s, c]]) @ np.diag([1.0, squash])
    return np.hstack([lin, np.array([[d.center[0]], [d.center[1]]])])


def _rounded_square(half_w: float, half_h: float, r: float, cy: float = 0.0, n: int = 6) -> np.ndarray:
    pts = []
    for qx, qy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        ox, oy = qx * (half_w - r), cy + qy * (half_h - r)
        for k in range(n + 1):
            t = math.radians(a0 + 90 * k / n)
            pts.append((ox + r * math.cos(t), oy + r * math.sin(t)))
    return np.array(pts)


def _ellipse(u: float, v: float, r: float, n: int = 20) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([u + r * np.cos(t), v + r * np.sin(t)], 1)


def _poly(img: np.ndarray, m: np.ndarray, pts: np.ndarray, colour) -> None:
    px = pts @ m[:, :2].T + m[:, 2]
    cv2.fillPoly(img, [np.round(px * (1 << SHIFT)).astype(np.int32)], colour, cv2.LINE_AA, SHIFT)


def _scale(colour: BGR, k: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, c * k))) for c in colour)


def _marble(img: np.ndarray, d: DieSpec, m: np.ndarray, outline: np.ndarray) -> None:
    """Blend swirled streaks (a sine of a smooth random phase field) into the die body."""
    px = outline @ m[:, :2].T + m[:, 2]
    x0, y0 = np.floor(px.min(0)).astype(int)
    x1, y1 = np.ceil(px.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    rng = np.random.default_rng(abs(hash((d.value, round(d.center[0], 1), round(d.center[1], 1), d.angle))) % 2**32)
    field = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (x1 - x0, y1 - y0), interpolation=cv2.INTER_CUBIC)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    streak = np.sin((xx * math.cos(a) + yy * math.sin(a)) * 6.0 / d.size + 3.0 * field)
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((px - (x0, y0)) * (1 << SHIFT)).astype(np.int32)], 1.0, cv2.LINE_AA, SHIFT)
    gain = 1.0 + d.marble * streak * mask
    roi = img[y0:y1, x0:x1].astype(np.float32) * gain[..., None]
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def draw_die(img: np.ndarray, d: DieSpec, shadow: bool) -> np.ndarray:
    """Draw one die (with its shadow when ``shadow``) over ``img`` (HxWx3 uint8 BGR, in place).

    ``d.center`` and ``d.size`` are in ``img``'s pixels, so a die can be drawn into a window of a
    larger frame by shifting its centre (``sim.py`` redraws only where a flying die reaches).

    Returns:
        The die's outline polygon, Nx2 float frame px.
    """
    m = _face_map(d)
    side_h = math.sin(math.radians(d.tilt)) / max(math.cos(math.radians(d.tilt)), 1e-3)
    # The side face shows below the top face (face v grows towards it).
    outline = _rounded_square(0.5, 0.5 + side_h / 2, CORNER, cy=side_h / 2)
    if shadow:
        sh = np.zeros(img.shape[:2], np.float32)
        off = np.array([[1, 0, 0.08 * d.size], [0, 1, 0.1 * d.size]])
        px = outline @ m[:, :2].T + m[:, 2] + off[:, 2]
        cv2.fillPoly(sh, [np.round(px * (1 << SHIFT)).astype(np.int32)], 1.0, cv2.LINE_AA, SHIFT)
        sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, 0.08 * d.size))
        img[:] = (img * (1 - 0.45 * sh[..., None])).astype(np.uint8)
    _poly(img, m, outline, _scale(d.body, 0.62))
    _poly(img, m, _rounded_square(0.5, 0.5, CORNER), _scale(d.body, 0.85))
    _poly(img, m, _rounded_square(0.45, 0.45, CORNER * 0.8), d.body)
    if d.marble > 0:
        _marble(img, d, m, outline)
    for u, v in d.pips if d.pips is not None else pip_layout(d.value, d.pip_offset):
        _poly(img, m, _ellipse(u, v, d.pip_radius), d.pip)
    if d.side_value is not None and side_h > 0.05:  # front-face pips, squashed to the strip's height
        for u, v in pip_layout(d.side_value, d.pip_offset):
            pts = _ellipse(u, v, d.pip_radius)
            pts[:, 1] = 0.5 + (pts[:, 1] + 0.5) * side_h
            _poly(img, m, pts, _scale(d.pip, 0.8))
    if d.glare is not None:
        u, v, r = d.glare
        gx, gy = m[:, :2] @ np.array([u, v]) + m[:, 2]
        yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
        sigma = max(1.0, r * d.size / 2)
        w = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2))[..., None] * 0.95
        img[:] = (img * (1 - w) + 255 * w).astype(np.uint8)
    return outline @ m[:, :2].T + m[:, 2]


def render_table(spec: TableSpec, rng: np.random.Generator) -> tuple[np.ndarray, list[RenderedDie]]:
    """Render ``spec`` into a frame.

    Args:
        spec: what to draw.
        rng: randomness for the table texture and sensor noise (the dice
            themselves are fully given by ``spec``).

    Returns:
        (HxWx3 uint8 BGR frame, one :class:`RenderedDie` per die in ``spec.dice``
        order). A die whose outline leaves the frame is ``partial``; one with
        ``tilt >= 15`` degrees is ``cocked``.
    """
    h, w = spec.height, spec.width
    img = np.empty((h, w, 3), np.uint8)
    img[:] = spec.background
    if spec.texture:
        cell = max(1, int(spec.texture_cell))
        small = rng.normal(0, 1, (max(2, h // cell), max(2, w // cell))).astype(np.float32)
        tex = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * spec.texture
        img = np.clip(img + tex[..., None], 0, 255).astype(np.uint8)
    truth = []
    for d in spec.dice:
        poly = draw_die(img, d, spec.shadow)
        x0, y0 = poly.min(0)
        x1, y1 = poly.max(0)
        inside = x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h
        status = "partial" if not inside else "cocked" if d.tilt >= 15 else "ok"
        bx0, by0 = max(0, int(math.floor(x0))), max(0, int(math.floor(y0)))
        bx1, by1 = min(w, int(math.ceil(x1))), min(h, int(math.ceil(y1)))
        truth.append(RenderedDie(d.value, d.center, (bx0, by0, bx1 - bx0, by1 - by0), status))
    out = img.astype(np.float32)
    if spec.motion_blur > 1:
        n = int(math.ceil(spec.motion_blur)) | 1
        ker = np.zeros((n, n), np.float32)
        ker[n // 2, :] = 1.0
        rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), spec.blur_angle, 1.0)
        ker = cv2.warpAffine(ker, rot, (n, n))
        out = cv2.filter2D(out, -1, ker / ker.sum())
    out = out * spec.exposure * np.array(spec.cast, np.float32)
    if spec.noise:
        out += rng.normal(0, spec.noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8), truth


DIE_COLOURS: tuple[tuple[BGR, BGR], ...] = (
    ((235, 240, 240), (25, 25, 25)),    # white, black pips
    ((40, 40, 200), (245, 245, 245)),   # red, white pips
    ((245, 245, 245), (40, 40, 200)),   # white, red pips
    ((40, 40, 40), (240, 240, 240)),    # black, white pips
    ((60, 160, 40), (245, 245, 245)),   # green, white pips
    ((40, 200, 230), (30, 30, 30)),     # yellow, black pips
    ((170, 80, 30), (240, 240, 240)),   # blue, white pips
    ((150, 60, 120), (60, 220, 240)),   # purple, yellow pips
)
"""(body, pip) colour pairs used by :func:`random_table`."""


def random_table(rng: np.random.Generator, width: int = 1280, height: int = 720, n_dice: int = 10,
                 size: float = 64.0, touching_pairs: int = 0, **frame) -> TableSpec:
    """A random table of flat, non-overlapping dice fully inside the frame.

    Args:
        rng: the source of every random choice.
        width, height: frame size px.
        n_dice: number of dice (touching pairs count as two).
        size: mean die side px (each die varies by +-10 %).
        touching_pairs: how many of the dice are laid out as edge-to-edge pairs.
        **frame: other :class:`TableSpec` fields (exposure, cast, motion_blur...).

    Returns:
        A :class:`TableSpec`; placement gives up after many tries, so a very
        crowded request may hold fewer dice.
    """
    dice: list[DieSpec] = []
    for _ in range(n_dice * 200):
        if len(dice) >= n_dice:
            break
        s = size * rng.uniform(0.9, 1.1)
        body, pip = DIE_COLOURS[rng.integers(len(DIE_COLOURS))]
        ang = rng.uniform(0, 360)
        pair = len(dice) < 2 * touching_pairs and len(dice) + 2 <= n_dice
        c = (rng.uniform(s, width - s * (2.2 if pair else 1)), rng.uniform(s, height - s))
        group = [DieSpec(int(rng.integers(1, 7)), c, s, ang, body, pip)]
        if pair:
            a = math.radians(ang)
            c2 = (c[0] + s * 1.02 * math.cos(a), c[1] - s * 1.02 * math.sin(a))
            group.append(replace(group[0], value=int(rng.integers(1, 7)), center=c2))
        if all(math.hypot(g.center[0] - o.center[0], g.center[1] - o.center[1]) > 1.6 * max(g.size, o.size)
               for g in group for o in dice):
            dice.extend(group)
    return TableSpec(width, height, tuple(dice), **frame)


__all__ = ["DieSpec", "TableSpec", "RenderedDie", "render_table", "random_table", "pip_layout", "DIE_COLOURS"]
