"""Read the dice of a frame with a taught face model (a kind taught by ``arena-table dice teach``).

The dice are found by :func:`~arena_table.vision.teach_shots.locate_dice` (or given), each cut round
its top face, its located centre and its pips (:func:`~arena_table.vision.teach_shots.read_crops`)
and read by :meth:`~arena_table.vision.face_model.FaceModel.read`, the read of the largest
margin kept. A die whose margin is under the model's abstention threshold, or that is like none of
the taught faces (under its floor), is ``unreadable``, never guessed. The reading has the pip reader's shape
(:class:`~arena_table.vision.dice.DiceReading`) with face symbols as the values, so
``dice eval`` scores both alike.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .dice import DiceReading, DieReading, die_box, is_partial, DiceConfig
from .errors import BadFrame
from .face_model import FaceModel
from .teach_shots import locate_dice, read_crops


def read_taught(model: FaceModel, frame: np.ndarray,
                dice: Sequence[tuple[float, float, float]] | None = None) -> DiceReading:
    """Read every die of ``frame`` (HxWx3 uint8 BGR) with ``model``.

    Args:
        model: the taught kind's face model.
        frame: the photo.
        dice: ``(cx, cy, side)`` px of the dice to read; default :func:`locate_dice`.

    Returns:
        A :class:`DiceReading` whose dice have ``value`` = the face symbol (``str``) when
        ``status == "ok"``; ``unreadable`` when the model abstains; ``partial`` when the die is cut
        by the frame border. ``confidence`` is the model's margin (normalised correlation of the best
        face less the next face's, 0-2).

    Raises:
        BadFrame: ``frame`` is not HxWx3 uint8.
    """
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise BadFrame(f"frame must be an HxWx3 uint8 array, got {getattr(frame, 'shape', type(frame))}")
    h, w = frame.shape[:2]
    cfg = DiceConfig()
    out = []
    for cx, cy, side in (locate_dice(frame) if dice is None else dice):
        box = die_box(cx, cy, side, w, h)
        if is_partial(cfg, cx, cy, side, w, h):
            out.append(DieReading(None, "partial", "cut by the frame border", 0.0, (cx, cy), box))
            continue
        face, margin, best = model.read(read_crops(frame, cx, cy, side))
        if face is None:
            why = (f"like none of the taught faces (correlation {best:.3f} under the floor {model.floor:.3f})"
                   if best < model.floor else
                   f"margin {margin:.3f} under the taught threshold {model.threshold:.3f}")
            out.append(DieReading(None, "unreadable", why, round(margin, 4), (cx, cy), box))
        else:
            out.append(DieReading(face, "ok", "", round(margin, 4), (cx, cy), box))
    return DiceReading(tuple(out), w, h)
