"""Draw top views of dice of any :class:`DieKind` for test sets: body colour from the kind's
:class:`Look` (centre of its HSV range; ivory when the range is open), ink from ``Look.ink``,
the face as its numeral or a short label of its symbol name, under random rotation, scale,
light, blur, glare and tray colour. Several kinds per frame; seeds make sets reproducible.

The labels stand in for the printed icons, which no rulebook page gives as artwork.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind

FACE_PX = 64
"""Side in px of a face drawn by :func:`face_image`."""
_INK = {"black": (20, 20, 20), "white": (245, 245, 245), "gold": (40, 180, 220)}


def body_bgr(kind: DieKind) -> tuple[int, int, int]:
    """BGR body colour: centre of the kind's HSV range (hue wrap handled); ivory if open."""
    (h0, s0, v0), (h1, s1, v1) = kind.look.body
    if (h0, s0, v0, h1, s1, v1) == (0, 0, 0, 179, 255, 255):
        return (200, 225, 235)
    h = ((h0 + (h1 + 180 - h0) % 180 / 2) % 180) if h0 > h1 else (h0 + h1) / 2
    px = np.uint8([[[int(h), int((s0 + s1) / 2 + (s1 - s0) / 4), int((v0 + v1) / 2)]]])
    return tuple(int(c) for c in cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0])


def ink_bgr(kind: DieKind) -> tuple[int, int, int]:
    """BGR ink: ``Look.ink`` by name, else black on light bodies and white on dark ones."""
    if kind.look.ink in _INK:
        return _INK[kind.look.ink]
    return (20, 20, 20) if sum(body_bgr(kind)) > 380 else (245, 245, 245)


def label(symbol: str) -> str:
    """Text drawn for a face: numerals as is (6 and 9 underlined), names as initials of
    their ``+``-joined parts (``hit+gate2`` → ``Hg2``), at most 3 characters."""
    if symbol.lstrip("-").isdigit():
        return symbol + ("_" if symbol in ("6", "9") else "")
    if symbol[-1].isdigit() and "+" not in symbol:
        return symbol[0].upper() + symbol[-1]
    parts = symbol.split("+")
    txt = "".join(p[0].upper() if i == 0 else (p[0] + p[-1] if p[-1].isdigit() else p[0]) for i, p in enumerate(parts))
    return txt[:3] if len(parts) > 1 else symbol[:2].capitalize()


def face_image(kind: DieKind, symbol: str, px: int = FACE_PX) -> np.ndarray:
    """A flat ``px``x``px`` BGR face of ``kind`` showing ``symbol``, upright."""
    img = np.full((px, px, 3), body_bgr(kind), np.uint8)
    txt = label(symbol)
    scale = px / 64 * (1.1 if len(txt) <= 2 else 0.75)
    (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    cv2.putText(img, txt, ((px - tw) // 2, (px + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                ink_bgr(kind), max(2, px // 24), cv2.LINE_AA)
    return img


@dataclass(frozen=True)
class RenderedDie:
    """Truth for one drawn die: kind id, face symbol, centre (x, y) px."""

    kind: str
    face: str
    centre: tuple[int, int]


def render_frame(kinds: Sequence[DieKind], seed: int, n: int = 4, size: tuple[int, int] = (480, 640)
                 ) -> tuple[np.ndarray, list[RenderedDie]]:
    """One BGR frame (``size`` = (H, W)) with ``n`` dice of kinds drawn from ``kinds`` on a
    grid (no overlap), each rotated 0-360°, 50-80 px wide, with random light gain, blur,
    a glare spot and tray colour. Returns the frame and the truth."""
    rng = np.random.default_rng(seed)
    hgt, wid = size
    tray = np.array([rng.integers(20, 90), rng.integers(40, 110), rng.integers(20, 90)], np.uint8)
    frame = np.empty((hgt, wid, 3), np.uint8)
    frame[:] = tray
    frame = cv2.add(frame, rng.normal(0, 4, frame.shape).astype(np.int16).clip(0, 255).astype(np.uint8))
    cols, rows = 4, 3
    cells = rng.permutation(cols * rows)[:n]
    truth = []
    for c in cells:
        kind = kinds[int(rng.integers(len(kinds)))]
        sym = kind.symbols[int(rng.integers(len(kind.symbols)))]
        side = int(rng.integers(50, 81))
        face = face_image(kind, sym, side)
        cx = int((c % cols + 0.5) * wid / cols + rng.integers(-15, 16))
        cy = int((c // cols + 0.5) * hgt / rows + rng.integers(-15, 16))
        m = cv2.getRotationMatrix2D((side / 2, side / 2), float(rng.uniform(0, 360)), 1.0)
        m[:, 2] += (cx - side / 2, cy - side / 2)
        warped = cv2.warpAffine(face, m, (wid, hgt), flags=cv2.INTER_LINEAR)
        mask = cv2.warpAffine(np.full((side, side), 255, np.uint8), m, (wid, hgt))
        frame[mask > 127] = warped[mask > 127]
        truth.append(RenderedDie(kind.id, sym, (cx, cy)))
    gain = float(rng.uniform(0.75, 1.2))
    frame = cv2.convertScaleAbs(frame, alpha=gain, beta=float(rng.uniform(-10, 10)))
    gx, gy = int(rng.integers(0, wid)), int(rng.integers(0, hgt))
    glare = np.zeros((hgt, wid), np.float32)
    cv2.circle(glare, (gx, gy), int(rng.integers(15, 40)), 1.0, -1)
    glare = cv2.GaussianBlur(glare, (0, 0), 12) * float(rng.uniform(0, 90))
    frame = np.clip(frame.astype(np.float32) + glare[..., None], 0, 255).astype(np.uint8)
    k = int(rng.choice([1, 3, 5]))
    if k > 1:
        frame = cv2.GaussianBlur(frame, (k, k), 0)
    return frame, truth
