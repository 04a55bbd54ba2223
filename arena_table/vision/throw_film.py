"""Photos of a dice tray from one fixed camera: dice of any kinds, each where and how it is asked to lie.

For the end-to-end tests of throws by die kind (``arena-table run --camera DIR`` on a folder of
these photos). The tray is a plain cloth of one colour with a fixed fine texture; each square-faced die as
:func:`~arena_table.vision.kind_render.face_image` draws its upper face (the kind's body colour and
glyph), placed by :func:`~arena_table.vision.kind_render.place_die` (rounded, shaded, turned by its
angle), a d4 as :func:`~arena_table.vision.d4_render.draw_d4` draws it (lit, numerals in its
kind's style); then the camera's part, new in every photo (:func:`~arena_table.vision.kind_render.finish`:
light gain with a gradient and a colour cast, glare, blur, sensor noise, JPEG; or sensor noise alone
with ``camera=False``). A die that lies still from one photo to the next is drawn at the same place,
as a die nobody picked up.

>>> import arena_table.rules
>>> film = ThrowFilm(seed=1)
>>> image = film.frame([ThrownDie("demigods-ice", "failure", (100, 120), 30.0)])
>>> image.shape, film.frame([]).shape
((480, 640, 3), (480, 640, 3))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import find_kind

from . import kind_render  # before d4_render: kind_render imports d4_render's draw_d4, which imports kind_render
from . import d4_render

D4_EDGE = 1.4
"""A d4's edge as a share of :attr:`ThrownDie.side` (a d4 of 18 mm beside a 16 mm cube, its base a
triangle of that edge)."""


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
    """Its edge in px (a d4's edge is :data:`D4_EDGE` times it)."""


class ThrowFilm:
    """One tray, one camera, any number of photos.

    Args:
        size: photo size (H, W) px.
        tray_bgr: the cloth's colour (BGR); the default green felt lies far from the bodies of the
            Demigods dice.
        camera: each photo through :func:`~arena_table.vision.kind_render.finish` (light, glare,
            blur, noise, JPEG); ``False``: sensor noise of ``noise`` alone.
        noise: standard deviation of the sensor noise (grey levels) without ``camera``.
        seed: the cloth's texture and each photo's camera effects follow from it.
    """

    def __init__(self, size: tuple[int, int] = (480, 640), tray_bgr: tuple[int, int, int] = (40, 90, 50),
                 camera: bool = True, noise: float = 2.0, seed: int = 0) -> None:
        self.size = size
        self.camera = camera
        self.noise = noise
        self.rng = np.random.default_rng(seed)
        self.tray = np.empty((*size, 3), np.float32)
        """The tray without dice (float BGR)."""
        self.tray[:] = tray_bgr
        self.tray += self.rng.normal(0.0, 2.0, self.tray.shape).astype(np.float32)

    def __repr__(self) -> str:
        return f"<ThrowFilm {self.size[1]}x{self.size[0]}>"

    def frame(self, dice: Sequence[ThrownDie]) -> np.ndarray:
        """A new photo (HxWx3 BGR uint8) of the tray with ``dice`` in it.

        Raises:
            DieKindError: a die names no shipped kind. ValueError: a face its kind does not have.
        """
        img = self.tray.copy()
        kinds = [find_kind(d.kind) for d in dice]
        for d, kind in zip(dice, kinds):
            if d.face not in kind.symbols:
                raise ValueError(f"a {kind.id} die has no face {d.face!r}; its faces: {', '.join(kind.symbols)}")
            if not kind.look.style:
                kind_render.place_die(img, kind_render.face_image(kind, d.face, d.side), d.centre, float(d.angle))
        out = np.clip(img, 0, 255).astype(np.uint8)
        for d, kind in zip(dice, kinds):  # a d4 shows no upper face: drawn as it lies, seen from above
            if kind.look.style:
                d4_render.draw_d4(out, kind.look.style, int(d.face), d.centre, d.side * D4_EDGE, self.rng,
                                  body=kind_render.body_bgr(kind), ink=kind_render.ink_bgr(kind),
                                  angle=float(d.angle), tilt=0.0)
        if self.camera:
            return kind_render.finish(out.astype(np.float32), self.rng)
        noisy = out.astype(np.float32) + self.rng.normal(0.0, self.noise, out.shape).astype(np.float32)
        return np.clip(noisy, 0, 255).astype(np.uint8)
