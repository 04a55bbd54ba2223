"""The camera's dice reader, configured by the ``[dice]`` settings (:class:`~.config.DiceSettings`)."""

from __future__ import annotations

from typing import Any, Callable

import cv2
import numpy as np

from .config import DiceSettings

Reader = Callable[[np.ndarray], Any]
"""``BGR frame -> DiceReading`` (see :func:`default_reader`); a reader with a ``peek`` method (no size
search) is peeked at for the control page's live view."""


def default_reader(die_side_px: float | None = None, dice: DiceSettings = DiceSettings()) -> Reader:
    """The shipped dice reader with the thresholds of ``dice`` (:meth:`DiceSettings.reader_config`):
    with ``die_side_px`` (a calibration) it reads dice of that size; without, it is a
    ``size_search.LearningReader``, which
    reads as ``size_search.read_dice_any_size`` does but lets the side its last size search found
    stand in for a search when a frame confirms it."""
    from arena_table.vision.size_search import LearningReader, read_dice_any_size

    cfg = dice.reader_config(die_side_px)
    # The reader's images are small (crops of ~48 px, frames scaled to ~420x240): OpenCV's thread
    # pool only adds hand-off cost there and competes with the camera, web and token threads.
    cv2.setNumThreads(1)
    if die_side_px is None:
        return LearningReader(cfg)
    return lambda image: read_dice_any_size(cfg, image)  # a configured size is never searched
