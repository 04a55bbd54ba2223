"""Draw die faces as glyphs: numerals, pips and simple vector icons, with OpenCV.

A *glyph* is what a face shows, named by :func:`glyph_id`: ``pips-3`` (three pips), ``num-6`` (the
numeral, ``6`` and ``9`` underlined so they differ upside down), or the face's symbol name
(``sword``, ``hit+gate2``). A symbol joined by ``+`` is drawn as its icons side by side, the
Sword & Sorcery gate numbers as small bars along one edge.

The icons are the project's own drawings of the symbol names (a sword, a shield, a flame for
``burn``...): no rulebook gives the printed artwork, so they stand for it in rendered test sets;
real dice are taught from photos (``arena-table dice teach``).

>>> glyph_id("3", "pips"), glyph_id("-1", "numerals"), glyph_id("hit+gate2", "numerals")
('pips-3', 'num--1', 'hit+gate2')
>>> face = draw_glyph("sword", (40, 40, 40), (240, 240, 240), 64)
>>> face.shape, int(face[0, 0, 0])
((64, 64, 3), 40)
"""

from __future__ import annotations

import math
from typing import Callable

import cv2
import numpy as np

SUPER = 256
"""Side in px a glyph is drawn at before it is shrunk (anti-aliasing)."""

Colour = tuple[int, int, int]


def glyph_id(symbol: str, marks: str = "numerals") -> str:
    """The glyph a face with ``symbol`` shows on a die whose number faces are printed as ``marks``
    (``numerals`` or ``pips``; pips only for 1-6)."""
    if symbol.lstrip("-").isdigit():
        if marks == "pips" and 1 <= int(symbol) <= 6:
            return f"pips-{symbol}"
        return f"num-{symbol}"
    return symbol


def _pt(x: float, y: float) -> tuple[int, int]:
    return int(round(x * SUPER)), int(round(y * SUPER))


def _poly(img, pts, ink, cx, cy, r):
    arr = np.array([_pt(cx + x * r, cy + y * r) for x, y in pts], np.int32)
    cv2.fillPoly(img, [arr], ink, cv2.LINE_AA)


def _line(img, a, b, ink, cx, cy, r, w):
    cv2.line(img, _pt(cx + a[0] * r, cy + a[1] * r), _pt(cx + b[0] * r, cy + b[1] * r), ink,
             max(1, int(w * r * SUPER)), cv2.LINE_AA)


def _circle(img, x, y, rad, colour, cx, cy, r, w=-1.0):
    cv2.circle(img, _pt(cx + x * r, cy + y * r), max(1, int(rad * r * SUPER)), colour,
               -1 if w < 0 else max(1, int(w * r * SUPER)), cv2.LINE_AA)


# Each icon draws itself in a box of half-side r (face fractions) about (cx, cy); coordinates in
# the functions below are in units of r. ``body`` is the face colour, for holes.
def _sword(img, ink, body, cx, cy, r):
    _poly(img, [(-0.1, 0.35), (-0.1, -0.7), (0, -0.95), (0.1, -0.7), (0.1, 0.35)], ink, cx, cy, r)
    _line(img, (-0.45, 0.38), (0.45, 0.38), ink, cx, cy, r, 0.14)
    _line(img, (0, 0.4), (0, 0.78), ink, cx, cy, r, 0.12)
    _circle(img, 0, 0.86, 0.12, ink, cx, cy, r)


def _shield(img, ink, body, cx, cy, r):
    _poly(img, [(-0.75, -0.8), (0.75, -0.8), (0.75, 0.0), (0.4, 0.6), (0, 0.9), (-0.4, 0.6), (-0.75, 0.0)],
          ink, cx, cy, r)
    _poly(img, [(-0.1, -0.6), (0.1, -0.6), (0.1, 0.55), (-0.1, 0.55)], body, cx, cy, r)


def _lightning(img, ink, body, cx, cy, r):
    _poly(img, [(0.2, -0.95), (-0.5, 0.1), (-0.05, 0.1), (-0.25, 0.95), (0.5, -0.15), (0.05, -0.15),
                (0.35, -0.95)], ink, cx, cy, r)


def _spade(img, ink, body, cx, cy, r):
    _poly(img, [(0, -0.9), (0.62, -0.1), (0, 0.05), (-0.62, -0.1)], ink, cx, cy, r)
    _circle(img, -0.33, 0.15, 0.36, ink, cx, cy, r)
    _circle(img, 0.33, 0.15, 0.36, ink, cx, cy, r)
    _poly(img, [(0, 0.2), (0.3, 0.9), (-0.3, 0.9)], ink, cx, cy, r)


def _flame(img, ink, body, cx, cy, r):
    _poly(img, [(0, -0.95), (0.3, -0.45), (0.6, -0.1), (0.65, 0.35), (0.4, 0.75), (0, 0.9), (-0.4, 0.75),
                (-0.65, 0.35), (-0.55, -0.15), (-0.3, 0.1), (-0.2, -0.5)], ink, cx, cy, r)
    _poly(img, [(0, -0.1), (0.25, 0.3), (0.2, 0.6), (0, 0.7), (-0.2, 0.6), (-0.25, 0.3)], body, cx, cy, r)


def _snowflake(img, ink, body, cx, cy, r):
    for k in range(3):
        a = math.pi / 2 + k * math.pi / 3
        dx, dy = math.cos(a), math.sin(a)
        _line(img, (-0.9 * dx, -0.9 * dy), (0.9 * dx, 0.9 * dy), ink, cx, cy, r, 0.12)
        for s in (-1, 1):
            px, py = 0.55 * dx * s, 0.55 * dy * s
            for t in (-1, 1):
                b = a + t * math.pi / 4 + (0 if s > 0 else math.pi)
                _line(img, (px, py), (px + 0.3 * math.cos(b), py + 0.3 * math.sin(b)), ink, cx, cy, r, 0.09)


def _skull(img, ink, body, cx, cy, r):
    _circle(img, 0, -0.2, 0.7, ink, cx, cy, r)
    _poly(img, [(-0.4, 0.2), (0.4, 0.2), (0.4, 0.85), (-0.4, 0.85)], ink, cx, cy, r)
    _circle(img, -0.28, -0.2, 0.2, body, cx, cy, r)
    _circle(img, 0.28, -0.2, 0.2, body, cx, cy, r)
    _poly(img, [(0, 0.05), (0.1, 0.3), (-0.1, 0.3)], body, cx, cy, r)


def _dash(img, ink, body, cx, cy, r):
    _poly(img, [(-0.75, -0.14), (0.75, -0.14), (0.75, 0.14), (-0.75, 0.14)], ink, cx, cy, r)


def _two_pips(img, ink, body, cx, cy, r):
    for x in (-0.3, 0.3):
        _circle(img, x, 0, 0.24, ink, cx, cy, r)


def _four_pips(img, ink, body, cx, cy, r):
    for x in (-0.28, 0.28):
        for y in (-0.28, 0.28):
            _circle(img, x, y, 0.17, ink, cx, cy, r)


def _burst(points: int, inner: float) -> Callable:
    def draw(img, ink, body, cx, cy, r):
        pts = []
        for k in range(2 * points):
            a = -math.pi / 2 + k * math.pi / points
            rad = 0.95 if k % 2 == 0 else inner
            pts.append((rad * math.cos(a), rad * math.sin(a)))
        _poly(img, pts, ink, cx, cy, r)
    return draw


def _knockdown(img, ink, body, cx, cy, r):
    _line(img, (0, -0.9), (0, 0.2), ink, cx, cy, r, 0.2)
    _poly(img, [(-0.5, 0.05), (0.5, 0.05), (0, 0.55)], ink, cx, cy, r)
    _poly(img, [(-0.8, 0.7), (0.8, 0.7), (0.8, 0.9), (-0.8, 0.9)], ink, cx, cy, r)


def _push(img, ink, body, cx, cy, r):
    for x in (-0.45, 0.15):
        _poly(img, [(x, -0.7), (x + 0.25, -0.7), (x + 0.65, 0), (x + 0.25, 0.7), (x, 0.7), (x + 0.4, 0)],
              ink, cx, cy, r)


def _failure(img, ink, body, cx, cy, r):
    _line(img, (-0.7, -0.7), (0.7, 0.7), ink, cx, cy, r, 0.24)
    _line(img, (-0.7, 0.7), (0.7, -0.7), ink, cx, cy, r, 0.24)


def _pure(img, ink, body, cx, cy, r):
    _poly(img, [(0, -0.95), (0.7, 0), (0, 0.95), (-0.7, 0)], ink, cx, cy, r)
    _poly(img, [(0, -0.5), (0.36, 0), (0, 0.5), (-0.36, 0)], body, cx, cy, r)
    _circle(img, 0, 0, 0.14, ink, cx, cy, r)


def _gaar(img, ink, body, cx, cy, r):  # an eye
    cv2.ellipse(img, _pt(cx, cy), (int(0.9 * r * SUPER), int(0.5 * r * SUPER)), 0, 0, 360, ink, -1, cv2.LINE_AA)
    cv2.ellipse(img, _pt(cx, cy), (int(0.68 * r * SUPER), int(0.32 * r * SUPER)), 0, 0, 360, body, -1, cv2.LINE_AA)
    _circle(img, 0, 0, 0.26, ink, cx, cy, r)


def _silver(img, ink, body, cx, cy, r):  # a card
    _poly(img, [(-0.55, -0.85), (0.55, -0.85), (0.55, 0.85), (-0.55, 0.85)], ink, cx, cy, r)
    _poly(img, [(-0.38, -0.68), (0.38, -0.68), (0.38, 0.68), (-0.38, 0.68)], body, cx, cy, r)
    _poly(img, [(0, -0.4), (0.22, 0), (0, 0.4), (-0.22, 0)], ink, cx, cy, r)


def _chaos(img, ink, body, cx, cy, r):  # a spiral
    pts = []
    for k in range(60):
        t = k / 59 * 2.6 * math.pi
        rad = 0.12 + 0.8 * t / (2.6 * math.pi)
        pts.append(_pt(cx + rad * math.cos(t) * r, cy + rad * math.sin(t) * r))
    cv2.polylines(img, [np.array(pts, np.int32)], False, ink, max(1, int(0.16 * r * SUPER)), cv2.LINE_AA)


def _hit(img, ink, body, cx, cy, r):  # three claw marks
    for dx in (-0.45, 0, 0.45):
        _poly(img, [(dx - 0.05, -0.9), (dx + 0.12, -0.85), (dx + 0.05, 0.9), (dx - 0.1, 0.85)], ink, cx, cy, r)


def _tiebreaker(img, ink, body, cx, cy, r):  # an hourglass
    _poly(img, [(-0.6, -0.85), (0.6, -0.85), (0, 0)], ink, cx, cy, r)
    _poly(img, [(-0.6, 0.85), (0.6, 0.85), (0, 0)], ink, cx, cy, r)


def _spawn(img, ink, body, cx, cy, r):  # a portal
    _circle(img, 0, 0, 0.8, ink, cx, cy, r, 0.15)
    _circle(img, 0, 0, 0.3, ink, cx, cy, r)


def _logo(img, ink, body, cx, cy, r):  # a maker's mark: a ring round a triangle
    _circle(img, 0, 0, 0.82, ink, cx, cy, r, 0.13)
    _poly(img, [(0, -0.5), (0.45, 0.35), (-0.45, 0.35)], ink, cx, cy, r)


def _crescent(img, ink, body, cx, cy, r):
    _circle(img, 0, 0, 0.8, ink, cx, cy, r)
    _circle(img, 0.35, -0.2, 0.65, body, cx, cy, r)


def _key(img, ink, body, cx, cy, r):
    _circle(img, -0.5, 0, 0.35, ink, cx, cy, r, 0.14)
    _line(img, (-0.15, 0), (0.85, 0), ink, cx, cy, r, 0.16)
    _line(img, (0.6, 0), (0.6, 0.35), ink, cx, cy, r, 0.14)
    _line(img, (0.85, 0), (0.85, 0.35), ink, cx, cy, r, 0.14)


def _crown(img, ink, body, cx, cy, r):
    _poly(img, [(-0.8, 0.6), (-0.8, -0.5), (-0.4, 0), (0, -0.7), (0.4, 0), (0.8, -0.5), (0.8, 0.6)],
          ink, cx, cy, r)


def _coin(img, ink, body, cx, cy, r):
    _circle(img, 0, 0, 0.8, ink, cx, cy, r, 0.12)
    _circle(img, 0, 0, 0.5, ink, cx, cy, r, 0.1)
    _circle(img, 0, 0, 0.15, ink, cx, cy, r)


def _mask(img, ink, body, cx, cy, r):
    cv2.ellipse(img, _pt(cx, cy), (int(0.9 * r * SUPER), int(0.42 * r * SUPER)), 0, 0, 360, ink, -1, cv2.LINE_AA)
    _circle(img, -0.4, -0.02, 0.2, body, cx, cy, r)
    _circle(img, 0.4, -0.02, 0.2, body, cx, cy, r)
    _poly(img, [(-0.15, 0.45), (0.15, 0.45), (0, 0.2)], body, cx, cy, r)


def _heart(img, ink, body, cx, cy, r):
    _circle(img, -0.35, -0.3, 0.4, ink, cx, cy, r)
    _circle(img, 0.35, -0.3, 0.4, ink, cx, cy, r)
    _poly(img, [(-0.74, -0.2), (0.74, -0.2), (0, 0.85)], ink, cx, cy, r)


ICONS: dict[str, Callable] = {
    "sword": _sword, "shield": _shield, "lightning": _lightning, "spade": _spade, "burn": _flame,
    "flame": _flame, "freeze": _snowflake, "snowflake": _snowflake, "skull": _skull, "dash": _dash,
    "two-pips": _two_pips, "four-pips": _four_pips, "enrage": _burst(8, 0.45), "critical": _burst(4, 0.28),
    "knockdown": _knockdown, "push": _push, "failure": _failure, "pure": _pure, "gaar": _gaar,
    "silver": _silver, "chaos": _chaos, "hit": _hit, "tiebreaker": _tiebreaker, "spawn": _spawn,
    "logo": _logo, "blank": lambda *a: None,
    # Thieves' Guild placeholders (the board's symbols are not in the book's text)
    "symbol1": _crescent, "symbol2": _key, "symbol3": _crown, "symbol4": _coin, "symbol5": _mask,
    "symbol6": _heart,
}
"""Symbol name -> its icon. ``symbol1``..``symbol6`` are placeholders for the Thieves' Guild die."""

PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
"""Pip places of a d6 face in units of the pip spacing (0.27 of the face)."""


def _numeral(img, text: str, ink: Colour, cx: float, cy: float, r: float) -> None:
    scale, thick = 1.0, 0.05
    while True:
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale * SUPER / 64, int(thick * SUPER))
        if tw <= 1.7 * r * SUPER and th <= 1.3 * r * SUPER:
            break
        scale *= 0.92
    org = (int(cx * SUPER - tw / 2), int(cy * SUPER + th / 2))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale * SUPER / 64, ink, int(thick * SUPER), cv2.LINE_AA)
    if text in ("6", "9"):
        y = int(cy * SUPER + th / 2 + 0.07 * SUPER)
        cv2.line(img, (org[0], y), (org[0] + tw, y), ink, int(0.04 * SUPER), cv2.LINE_AA)


def _gates(img, n: int, ink: Colour) -> None:
    for k in range(n):
        x = 0.5 + (k - (n - 1) / 2) * 0.1
        cv2.rectangle(img, _pt(x - 0.03, 0.79), _pt(x + 0.03, 0.87), ink, -1, cv2.LINE_AA)


def known(glyph: str) -> bool:
    """Whether :func:`draw_glyph` can draw ``glyph``."""
    if glyph.startswith(("pips-", "num-")):
        return True
    return all(p in ICONS or (p.startswith("gate") and p[4:].isdigit()) for p in glyph.split("+"))


def draw_glyph(glyph: str, body: Colour, ink: Colour, px: int) -> np.ndarray:
    """A ``px`` x ``px`` BGR face of colour ``body`` showing ``glyph`` (:func:`glyph_id`) in ``ink``,
    upright.

    Raises:
        ValueError: a glyph with no drawing (an unknown icon name).
    """
    if not known(glyph):
        raise ValueError(f"no drawing for die face glyph {glyph!r}; icons: {', '.join(sorted(ICONS))}")
    img = np.full((SUPER, SUPER, 3), body, np.uint8)
    if glyph.startswith("pips-"):
        for x, y in PIPS[int(glyph[5:])]:
            _circle(img, 0.5 + 0.27 * x, 0.5 + 0.27 * y, 0.1, ink, 0, 0, 1.0)
    elif glyph.startswith("num-"):
        _numeral(img, glyph[4:], ink, 0.5, 0.47, 0.34)
    else:
        parts = glyph.split("+")
        gates = [int(p[4:]) for p in parts if p.startswith("gate")]
        icons = [p for p in parts if not p.startswith("gate")]
        cy, r = (0.42, 0.26) if gates else (0.5, 0.3)
        if len(icons) == 1:
            ICONS[icons[0]](img, ink, body, 0.5, cy, r)
        else:
            for k, name in enumerate(icons):
                ICONS[name](img, ink, body, 0.5 + (k - (len(icons) - 1) / 2) * 0.4, cy, 0.17)
        for n in gates:
            _gates(img, n, ink)
    return cv2.resize(img, (px, px), interpolation=cv2.INTER_AREA)
