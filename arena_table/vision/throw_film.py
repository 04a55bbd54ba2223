"""Photos of a dice tray from one fixed camera: dice of any kinds, each where and how it is asked to lie.

For the end-to-end tests of throws by die kind (``arena-table run --camera DIR`` on a folder of
these photos). Each die is drawn as :func:`arena_table.vision.kind_render.face_image` draws its
upper face (the kind's body colour, its face's numeral or label), turned by its angle, on a plain
tray with sensor noise, so every photo is a new one of the same table; a die that lies still from
one photo to the next is drawn at the same place, as a die nobody picked up.

>>> import arena_table.rules
>>> film = ThrowFilm(seed=1)
>>> image = film.frame([ThrownDie("demigods-ice", "failure", (100, 120), 30.0)])
>>> image.shape, film.frame([]).shape
((480, 640, 3), (480, 640, 3))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import find_kind

from . import kind_render


@dataclass(frozen=True)
class ThrownDie:
    """One die lying in the tray."""

    kind: str
    """Die kind id (``demigods-fire``)."""
    face: str
    """The symbol of its upper face (``burn``, ``2``)."""
    centre: tuple[int, int]
    """Where it lies, (x, y) px."""
    angle: float = 0.0
    """How it is turned, degrees counterclockwise."""
    side: int = 70
    """Its edge in px."""


class ThrowFilm:
    """One tray, one camera, any number of photos.

    Args:
        size: photo size (H, W) px.
        tray_bgr: the tray cloth's colour (BGR).
        noise: standard deviation of the sensor noise (grey levels).
        seed: each photo's noise follows from it.
    """

    def __init__(self, size: tuple[int, int] = (480, 640), tray_bgr: tuple[int, int, int] = (40, 90, 50),
                 noise: float = 3.0, seed: int = 0) -> None:
        self.size = size
        self.tray_bgr = tray_bgr
        self.noise = noise
        self.rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"<ThrowFilm {self.size[1]}x{self.size[0]} tray {self.tray_bgr}>"

    def frame(self, dice: Sequence[ThrownDie]) -> np.ndarray:
        """A new photo (HxWx3 BGR uint8) of the tray with ``dice`` in it.

        Raises:
            DieKindError: a die names no shipped kind. ValueError: a face its kind does not have.
        """
        hgt, wid = self.size
        img = np.empty((hgt, wid, 3), np.uint8)
        img[:] = self.tray_bgr
        for d in dice:
            kind = find_kind(d.kind)
            if d.face not in kind.symbols:
                raise ValueError(f"a {kind.id} die has no face {d.face!r}; its faces: {', '.join(kind.symbols)}")
            face = kind_render.face_image(kind, d.face, d.side)
            m = cv2.getRotationMatrix2D((d.side / 2, d.side / 2), float(d.angle), 1.0)
            m[:, 2] += (d.centre[0] - d.side / 2, d.centre[1] - d.side / 2)
            warped = cv2.warpAffine(face, m, (wid, hgt), flags=cv2.INTER_LINEAR)
            mask = cv2.warpAffine(np.full((d.side, d.side), 255, np.uint8), m, (wid, hgt))
            img[mask > 127] = warped[mask > 127]
        noisy = img.astype(np.float32) + self.rng.normal(0.0, self.noise, img.shape)
        return np.clip(noisy, 0, 255).astype(np.uint8)
