"""Draw top views of dice of any :class:`DieKind` on a tray, for test and training sets.

A die's body takes the kind's usual colour (``Look.colour``, else the centre of its HSV range), its
faces the kind's glyphs (:mod:`arena_table.vision.kind_icons`: numerals, pips or icons) in the ink
``Look.ink`` names. A frame varies what a camera over a table varies: each die's rotation (0-360°)
and size (:data:`SIDE_PX`), the light (gain, a gradient across the frame, a colour cast, a lamp's
hot spot), blur (Gaussian or motion), glare (a specular highlight on a glossy die's face), sensor
noise, JPEG compression, and the tray (felt, wood or slate, with texture). Dice lie on a grid, not touching. Everything comes from one seed.

The tray's colour is drawn at least :data:`TRAY_CONTRAST` (Lab distance) from every die of the
frame where it can be: a die the tray hides is a locating problem, not the kind and face reading these sets test.

>>> import arena_table.rules
>>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
>>> frame, truth = render_frame([find_kind("sns-red")], seed=3, n=2)
>>> frame.shape, [(d.kind, d.other) for d in truth]
((480, 640, 3), [('sns-red', False), ('sns-red', False)])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind
from arena_table.vision import d4_render, poly_render  # module imports: both import this module too
from arena_table.vision.kind_icons import draw_glyph, glyph_id

FACE_PX = 64
"""Side in px of a face drawn by :func:`face_image` by default."""
SIDE_PX = (44, 84)
"""Range of a drawn six-sided die's side in px (a 16 mm die, :data:`SIDE_MM`)."""
SIDE_MM = 16.0
"""Edge in mm of the six-sided dice :data:`SIDE_PX` draws (``Look.size_mm`` of every shipped d6 kind)."""
PX_PER_MM = (SIDE_PX[0] / SIDE_MM, SIDE_PX[1] / SIDE_MM)
"""Range of the scene's scale, px a mm, that :data:`SIDE_PX` spans. A d4 is drawn at its own
``Look.size_mm`` (18 mm for the shipped d4 kinds) times a scale drawn from this range, so it is as
much larger than the d6s as the real die is."""
TRAY_CONTRAST = 45.0
"""Least 8-bit Lab distance between the tray's colour and any die's body colour in a frame."""
GLARE_SHARE = 0.4
"""Share of dice drawn with a specular highlight on the face (the dice are glossy, the tray matte)."""
TRAY_TRIES = 200
"""Tray colours drawn before the farthest from the dice is taken."""
IVORY = (200, 225, 235)
"""BGR body of a kind whose look has neither a colour nor a bounded range."""
_INK = {"black": (25, 25, 25), "white": (240, 240, 240), "gold": (40, 180, 220), "red": (40, 40, 200)}

Palette = Callable[[np.random.Generator, DieKind], tuple[tuple[int, int, int], tuple[int, int, int]]]
"""``(rng, kind) -> (body BGR, ink BGR)``: colours to draw a die in instead of its kind's look."""


def _hsv_to_bgr(hsv: Sequence[int]) -> tuple[int, int, int]:
    px = np.uint8([[list(hsv)]])
    return tuple(int(c) for c in cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0])


def body_bgr(kind: DieKind) -> tuple[int, int, int]:
    """BGR body colour: ``Look.colour``, else the centre of the HSV range (hue wrap handled), ivory
    when the range is the whole space."""
    if kind.look.colour is not None:
        return _hsv_to_bgr(kind.look.colour)
    (h0, s0, v0), (h1, s1, v1) = kind.look.body
    if (h0, s0, v0, h1, s1, v1) == (0, 0, 0, 179, 255, 255):
        return IVORY
    h = ((h0 + (h1 + 180 - h0) % 180 / 2) % 180) if h0 > h1 else (h0 + h1) / 2
    return _hsv_to_bgr((int(h), int((s0 + s1) / 2), int((v0 + v1) / 2)))


def ink_bgr(kind: DieKind) -> tuple[int, int, int]:
    """BGR ink: ``Look.ink`` by name, else black on light bodies and white on dark ones."""
    if kind.look.ink in _INK:
        return _INK[kind.look.ink]
    return (25, 25, 25) if sum(body_bgr(kind)) > 380 else (240, 240, 240)


def light_ink(kind: DieKind) -> bool | None:
    """Whether the kind's ink is lighter than its body (white on black), ``None`` when its look
    names no ink (the ink then follows the body: any die of the kind)."""
    if kind.look.ink not in _INK:
        return None
    return sum(ink_bgr(kind)) > sum(body_bgr(kind))


def face_glyph(kind: DieKind, symbol: str) -> str:
    """The glyph (:func:`~arena_table.vision.kind_icons.glyph_id`) the face ``symbol`` of ``kind`` shows."""
    return glyph_id(symbol, kind.look.marks)


def face_image(kind: DieKind, symbol: str, px: int = FACE_PX, body=None, ink=None) -> np.ndarray:
    """A flat ``px`` x ``px`` BGR face of ``kind`` showing ``symbol``, upright (``body``, ``ink``:
    BGR colours instead of the kind's)."""
    return draw_glyph(face_glyph(kind, symbol), body or body_bgr(kind), ink or ink_bgr(kind), px)


@dataclass(frozen=True)
class RenderedDie:
    """Truth for one drawn die: kind id, face symbol, centre (x, y) px, size px, whether the
    die is a distractor of a kind the scene's game does not use (``other``) and, for a d4 or a
    polyhedral die, its outline.

    ``side``: a six-sided die's side; a d4's edge; a d8-d20's longest vertex-to-vertex length
    (``Look.size_mm`` times the frame's scale; its outline spans about 0.8 of it). ``centre``: a
    d4's base centroid; a d8-d20's centre (straight down: its top face's centre).
    ``outline``: the silhouette's corners (x, y) px, convex (a d4's three base corners), empty
    for a six-sided die (its square is ``side`` turned about ``centre``)."""

    kind: str
    face: str
    centre: tuple[int, int]
    side: int = 0
    other: bool = False
    outline: tuple[tuple[float, float], ...] = ()


def _lab(bgr) -> np.ndarray:
    return cv2.cvtColor(np.uint8([[list(bgr)]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


def tray(rng: np.random.Generator, size: tuple[int, int], avoid: Sequence[tuple[int, int, int]]) -> np.ndarray:
    """A ``size`` (H, W) BGR tray: felt (any hue), wood or slate, with fine noise and soft
    blotches (wood: grain stripes), its colour at least :data:`TRAY_CONTRAST` from each of ``avoid``
    (the farthest of :data:`TRAY_TRIES` tries when none is that far)."""
    hgt, wid = size
    labs = np.array([_lab(c) for c in avoid] or [[0.0, 128.0, 128.0]], np.float32)
    tries = []
    for _ in range(TRAY_TRIES):
        style = str(rng.choice(["felt", "wood", "slate"], p=[0.5, 0.3, 0.2]))
        if style == "felt":
            hsv = (int(rng.integers(0, 180)), int(rng.integers(80, 220)), int(rng.integers(70, 150)))
        elif style == "wood":
            hsv = (int(rng.integers(8, 20)), int(rng.integers(90, 190)), int(rng.integers(80, 160)))
        else:
            hsv = (int(rng.integers(0, 180)), int(rng.integers(0, 50)), int(rng.integers(60, 130)))
        tries.append((style, hsv))
    bgr = cv2.cvtColor(np.uint8([[h for _, h in tries]]), cv2.COLOR_HSV2BGR)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    gaps = np.linalg.norm(lab[:, None, :] - labs[None, :, :], axis=2).min(axis=1) if avoid else np.full(len(tries), 255.0)
    ok = np.flatnonzero(gaps >= TRAY_CONTRAST)
    pick = int(ok[0]) if ok.size else int(np.argmax(gaps))
    style, colour = tries[pick][0], tuple(int(c) for c in bgr[0, pick])
    img = np.empty((hgt, wid, 3), np.float32)
    img[:] = colour
    low = cv2.resize(rng.normal(0, 1, (max(2, hgt // 40), max(2, wid // 40))).astype(np.float32), (wid, hgt),
                     interpolation=cv2.INTER_CUBIC)
    if style == "wood":
        y = np.arange(hgt, dtype=np.float32)[:, None] + 6 * low
        low = np.sin(y / float(rng.uniform(3, 9))) + 0.5 * low
    img += (low * float(rng.uniform(2, 9)))[..., None]
    img += rng.standard_normal(img.shape, dtype=np.float32) * float(rng.uniform(1.5, 5))
    return img


def _rounded_mask(side: int) -> np.ndarray:
    mask = np.zeros((side, side), np.uint8)
    r = max(2, int(side * 0.12))
    cv2.rectangle(mask, (r, 0), (side - 1 - r, side - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (side - 1, side - 1 - r), 255, -1)
    for x, y in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(mask, (x, y), r, 255, -1, cv2.LINE_AA)
    return mask


def _bevel(side: int) -> np.ndarray:
    """Light factor over a face: 1 inside, falling to about 0.8 on the rounded edge."""
    d = np.minimum.outer(np.minimum(np.arange(side), np.arange(side)[::-1]),
                         np.minimum(np.arange(side), np.arange(side)[::-1])).astype(np.float32)
    return 0.8 + 0.2 * np.clip(d / (0.08 * side), 0, 1)


def place_die(frame: np.ndarray, face: np.ndarray, centre: tuple[float, float], angle: float,
              glare: tuple[float, float, float, float] | None = None) -> None:
    """Draw the square BGR ``face`` into the float ``frame`` at ``centre`` (x, y px) turned by
    ``angle`` degrees, with rounded corners, a darker edge and a faint shadow (drawn in the die's
    own window of the frame). ``glare``: a specular highlight on the face, (x, y, radius) as
    fractions of the side and its peak in grey levels."""
    side = face.shape[0]
    hgt, wid = frame.shape[:2]
    reach = int(side * 0.75) + 4
    x0, y0 = max(0, int(centre[0]) - reach), max(0, int(centre[1]) - reach)
    x1, y1 = min(wid, int(centre[0]) + reach + side // 7), min(hgt, int(centre[1]) + reach + side // 7)
    win = frame[y0:y1, x0:x1]
    m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    m[:, 2] += (centre[0] - x0 - side / 2, centre[1] - y0 - side / 2)
    size = (x1 - x0, y1 - y0)
    mask = cv2.warpAffine(_rounded_mask(side), m, size).astype(np.float32) / 255.0
    shadow = cv2.GaussianBlur(np.roll(mask, (side // 14, side // 14), (0, 1)), (0, 0), side / 12)
    win *= (1 - 0.35 * shadow)[..., None]
    shaded = face.astype(np.float32) * _bevel(side)[..., None]
    if glare is not None:
        spot = np.zeros((side, side), np.float32)
        cv2.circle(spot, (int(glare[0] * side), int(glare[1] * side)), max(1, int(glare[2] * side)), 1.0, -1)
        shaded += (cv2.GaussianBlur(spot, (0, 0), max(1.0, glare[2] * side / 2)) * glare[3])[..., None]
    warped = cv2.warpAffine(shaded, m, size, flags=cv2.INTER_LINEAR)
    win *= (1 - mask)[..., None]
    win += warped * mask[..., None]


def finish(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The camera's part on a float BGR ``frame``: light gain with a gradient and a colour cast,
    a lamp's broad hot spot, blur (Gaussian or motion), sensor noise, JPEG; returns uint8 BGR."""
    hgt, wid = frame.shape[:2]
    a = float(rng.uniform(0, 2 * np.pi))
    ramp = (((np.arange(wid, dtype=np.float32) - wid / 2) * np.cos(a))[None, :]
            + ((np.arange(hgt, dtype=np.float32) - hgt / 2) * np.sin(a))[:, None]) / max(hgt, wid)
    gain = float(rng.uniform(0.72, 1.25)) * (1 + float(rng.uniform(-0.2, 0.2)) * ramp)
    cast = rng.uniform(0.93, 1.07, 3).astype(np.float32)
    frame = frame * (gain[..., None] * cast) + float(rng.uniform(-12, 12))
    if rng.random() < 0.5:
        gx, gy, sigma = float(rng.uniform(0, wid)), float(rng.uniform(0, hgt)), float(rng.uniform(60, 150))
        spot = (np.exp(-((np.arange(wid, dtype=np.float32) - gx) / sigma) ** 2 / 2)[None, :]
                * np.exp(-((np.arange(hgt, dtype=np.float32) - gy) / sigma) ** 2 / 2)[:, None])
        frame += (spot * float(rng.uniform(5, 25)))[..., None]
    frame = np.clip(frame, 0, 255)
    if rng.random() < 0.3:
        n = int(rng.integers(3, 8))
        k = np.zeros((n, n), np.float32)
        k[n // 2] = 1.0 / n
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), float(rng.uniform(0, 180)), 1.0),
                           (n, n))
        frame = cv2.filter2D(frame, -1, k / max(k.sum(), 1e-6))
    else:
        sigma = float(rng.uniform(0, 1.5))
        if sigma > 0.3:
            frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    frame = frame + rng.standard_normal(frame.shape, dtype=np.float32) * float(rng.uniform(1, 4))
    out = np.clip(frame, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 96))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def render_frame(kinds: Sequence[DieKind], seed: int, n: int = 4, size: tuple[int, int] = (480, 640), *,
                 others: Sequence[DieKind] = (), n_others: int = 0, palette: Palette | None = None
                 ) -> tuple[np.ndarray, list[RenderedDie]]:
    """One BGR frame (``size`` = (H, W)) with ``n`` dice of kinds drawn from ``kinds`` and
    ``n_others`` distractors drawn from ``others`` (truth ``other=True``), each face drawn at
    random, on a 4x3 grid (at most 12 dice). A d4 kind (``Look.style``) is drawn by
    :func:`arena_table.vision.d4_render.draw_d4` in its style (edge ``Look.size_mm`` times a scale from :data:`PX_PER_MM`, truth
    centre its base's centroid), a d8-d20 (:func:`arena_table.vision.poly_render.is_poly`) by
    :func:`arena_table.vision.poly_render.draw_poly` (longest vertex-to-vertex length
    ``Look.size_mm`` times such a scale), both after the square dice, in the order drawn.
    ``palette`` draws each die in other colours (training sets).
    Returns the frame and the truth: the square dice, then the d4s and d8-d20s.

    Raises:
        ValueError: more than 12 dice, or distractors asked for without ``others``.
    """
    if n + n_others > 12:
        raise ValueError(f"a frame holds at most 12 dice, not {n + n_others}")
    if n_others and not others:
        raise ValueError("n_others distractors need kinds to draw them from (others)")
    rng = np.random.default_rng(seed)
    hgt, wid = size
    picks = [(kinds[int(rng.integers(len(kinds)))], False) for _ in range(n)]
    picks += [(others[int(rng.integers(len(others)))], True) for _ in range(n_others)]
    colours = [(palette(rng, k) if palette else (body_bgr(k), ink_bgr(k))) for k, _ in picks]
    frame = tray(rng, size, [c[0] for c in colours])
    cols, rows = 4, 3
    cells = rng.permutation(cols * rows)[:len(picks)]
    truth, d4s = [], []
    for c, (kind, other), (body, ink) in zip(cells, picks, colours):
        sym = kind.symbols[int(rng.integers(len(kind.symbols)))]
        cx = int((c % cols + 0.5) * wid / cols + rng.integers(-12, 13))
        cy = int((c // cols + 0.5) * hgt / rows + rng.integers(-12, 13))
        if kind.look.style:
            edge = float(rng.uniform(*PX_PER_MM)) * (kind.look.size_mm or SIDE_MM)
            margin = int(0.83 * edge) + 6  # the die's reach about its base centroid, with its shadow
            centre = (min(max(cx, margin), wid - margin), min(max(cy, margin), hgt - margin))
            d4s.append((kind, sym, centre, other, body, ink, edge))
            continue
        if poly_render.is_poly(kind):
            size = float(rng.uniform(*PX_PER_MM)) * (kind.look.size_mm or SIDE_MM)
            margin = int(0.62 * size) + 6  # half its longest length, with its shadow
            centre = (min(max(cx, margin), wid - margin), min(max(cy, margin), hgt - margin))
            d4s.append((kind, sym, centre, other, body, ink, size))
            continue
        side = int(rng.integers(SIDE_PX[0], SIDE_PX[1] + 1))
        glare = None
        if rng.random() < GLARE_SHARE:
            glare = (*(float(v) for v in rng.uniform(0.2, 0.8, 2)), float(rng.uniform(0.12, 0.4)),
                     float(rng.uniform(30, 120)))
        place_die(frame, face_image(kind, sym, side, body, ink), (cx, cy), float(rng.uniform(0, 360)), glare)
        truth.append(RenderedDie(kind.id, sym, (cx, cy), side, other))
    if d4s:
        frame = np.clip(frame, 0, 255).astype(np.uint8)
        for kind, sym, centre, other, body, ink, edge in d4s:
            if kind.look.style:
                drawn = d4_render.draw_d4(frame, kind.look.style, int(sym), centre, edge, rng, body=body, ink=ink)
                outline = drawn.corners
            else:
                outline = poly_render.draw_poly(frame, kind.sides, sym, centre, edge, rng, body=body, ink=ink).outline
            truth.append(RenderedDie(kind.id, sym, centre, int(edge), other,
                                     tuple((round(x, 1), round(y, 1)) for x, y in outline)))
        frame = frame.astype(np.float32)
    return finish(frame, rng), truth
