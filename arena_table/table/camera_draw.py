"""What the camera loop draws and stores of a read frame: each die's crop for the media store
(:func:`crop_box`) and the live view's boxes and values (:func:`draw_dice`)."""

from __future__ import annotations

from typing import Any, Callable

import cv2
import numpy as np

CROP_MARGIN = 0.15
"""Each stored die crop is the die's box grown by this share of its size on every side."""


def crop_box(image: np.ndarray, box: tuple[int, int, int, int], margin: float = CROP_MARGIN) -> np.ndarray:
    """The part of ``image`` around ``box`` (x, y, w, h px) grown by ``margin``, clipped to the image.

    >>> crop_box(np.zeros((100, 100, 3), np.uint8), (10, 20, 40, 20)).shape
    (26, 52, 3)
    """
    h, w = image.shape[:2]
    x, y, bw, bh = box
    mx, my = int(round(bw * margin)), int(round(bh * margin))
    x0, y0 = max(0, x - mx), max(0, y - my)
    x1, y1 = min(w, x + bw + mx), min(h, y + bh + my)
    return image[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)]


OVERLAY_COLOURS = {"ok": (60, 200, 60), "cocked": (0, 160, 255), "partial": (255, 140, 0), "unreadable": (40, 40, 230)}
"""BGR colour of each die status in :func:`draw_dice`."""


def draw_dice(image: np.ndarray, dice: Any, label: Callable[[Any], str] | None = None) -> np.ndarray:
    """A copy of ``image`` with each die's box and value (``?`` if not read; ``label(die)`` of a die
    read ``ok`` when given) drawn in its status colour.

    >>> out = draw_dice(np.zeros((40, 40, 3), np.uint8), [])
    >>> out.shape, int(out.max())
    ((40, 40, 3), 0)
    """
    out = image.copy()
    thick = max(1, round(max(image.shape[:2]) / 400))
    for d in dice:
        x, y, w, h = (int(v) for v in d.box)
        colour = OVERLAY_COLOURS.get(d.status, (40, 40, 230))
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, thick)
        text = (label(d) if label is not None else str(d.value)) if d.status == "ok" else "?"
        cv2.putText(out, text, (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick + 0.2, colour, thick,
                    cv2.LINE_AA)
    return out
