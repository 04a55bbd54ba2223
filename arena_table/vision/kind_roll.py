"""A settled throw of dice of several kinds as one roll: kind readings in, (kind, face) per die out.

:func:`read_throw` reads every die of a frame as one of the kinds in play:
:func:`arena_table.vision.kinds.read_kinds` the square-faced dice, each as a kind and a face
symbol, :mod:`arena_table.vision.d4` the d4s (style and result told by the net, kind by the
style and the body colour) and :mod:`arena_table.vision.poly` the d8-d20 (shape and face told by
the same net, kind by the shape and the body colour). The roll
assembly (:func:`arena_table.vision.roll.decide`: which dice moved, which hold the roll back for a
re-roll) works on a :class:`~arena_table.vision.dice.DiceReading` whose faces are numbers, so
:class:`KindCodes` gives each (kind, face) of the kinds in play a number of its own: a die that
turned to another face of its kind, or was swapped for a die of another kind at its spot, reads as
another value, as a pip die's new face does.

- a die read ``ok`` is a die of the roll;
- a die whose face was not told apart (``abstain``) is refused (``unreadable``): the roll waits for
  a re-roll, as for a pip die the reader cannot read;
- a die of no kind in play (``other-kind``) is left out of the roll and returned, to be reported
  (never forced into a kind).

>>> import arena_table.rules
>>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
>>> from arena_table.vision.kinds import KindReading
>>> codes = KindCodes([find_kind("demigods-ice"), find_kind("demigods-demigod")])
>>> seen = [KindReading("demigods-ice", "failure", (0, 0, 20, 20), 0.9, "ok"),
...         KindReading(None, None, (40, 0, 20, 20), 0.0, "other-kind")]
>>> reading, others = as_dice_reading(seen, codes, (100, 200))
>>> [(d.value, d.status) for d in reading.dice], len(others), codes.pair(reading.dice[0].value)
([(2, 'ok')], 1, ('demigods-ice', 'failure'))
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind

from . import d4, poly
from .dice import DiceReading, DieReading
from .kinds import KindReading, read_kinds


class KindCodes:
    """One number (1, 2, ...) for each (kind id, face symbol) of ``kinds``, in kind then face order."""

    def __init__(self, kinds: Sequence[DieKind]) -> None:
        self.kinds = tuple(kinds)
        pairs = [(k.id, s) for k in self.kinds for s in k.symbols]
        self._code = {p: i for i, p in enumerate(pairs, 1)}
        self._pair = {i: p for p, i in self._code.items()}

    def code(self, kind: str, face: str) -> int:
        """The number of ``face`` of ``kind``.

        Raises:
            KeyError: ``kind`` is not in play or has no face ``face``.
        """
        return self._code[(kind, face)]

    def pair(self, code: int) -> tuple[str, str]:
        """The (kind id, face symbol) of ``code``."""
        return self._pair[code]

    def __repr__(self) -> str:
        return f"KindCodes({[k.id for k in self.kinds]})"


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2.0, y + h / 2.0


def as_dice_reading(readings: Sequence[KindReading], codes: KindCodes, shape: tuple[int, ...]
                    ) -> tuple[DiceReading, tuple[KindReading, ...]]:
    """``readings`` (of a frame of ``shape`` (H, W, ...)) as a :class:`DiceReading` for the roll
    assembly, and the dice of no kind in play (``other-kind``), left out.

    Raises:
        KeyError: a reading ``ok`` of a kind or face ``codes`` does not have (the reader was given
            other kinds than ``codes``).
    """
    dice, others = [], []
    for r in readings:
        if r.status == "other-kind":
            others.append(r)
        elif r.status == "ok":
            dice.append(DieReading(codes.code(r.kind, r.face), "ok", "", r.confidence, _centre(r.box), r.box))
        else:
            dice.append(DieReading(None, "unreadable", "its face was not told apart from another", r.confidence,
                                   _centre(r.box), r.box))
    return DiceReading(tuple(dice), int(shape[1]), int(shape[0])), tuple(others)


def read_throw(frame_bgr: np.ndarray, kinds: Sequence[DieKind], game: str | None = None) -> list[KindReading]:
    """Every die on ``frame_bgr`` as one of ``kinds``: square-faced dice by
    :func:`~arena_table.vision.kinds.read_kinds`, d4s by :func:`arena_table.vision.d4.read_d4_in`,
    d8-d20 by :func:`arena_table.vision.poly.read_polys` (each with ``game``: as it takes it; one
    reading a die both the square-faced and the d4 or d8-d20 reader read: ``poly.claim``);
    top to bottom, then left to right (rows of 40 px), as ``read_kinds`` orders them.

    Raises:
        ValueError / BadFrame: not an HxWx3 uint8 array.
    """
    square = [k for k in kinds if not k.look.style]
    readings = poly.claim(read_kinds(frame_bgr, square, game=game) if square else [],
                          poly.read_polys(frame_bgr, kinds, game=game) + d4.read_d4_in(frame_bgr, kinds, game=game))
    return sorted(readings, key=lambda r: (round((r.box[1] + r.box[3] / 2) / 40), r.box[0] + r.box[2] / 2))
