"""Measure how large the camera sees a die, for a calibration file (``arena-table dice calibrate``).

Without a calibration the reader looks for dice whose side is ``DiceConfig.auto_size_fraction``
(3-20 %) of the frame's long side: 38-256 px at 1280x720. A camera that sees the dice smaller
(the whole of a large table at 1280x720: 16 mm dice at about 2 px/mm are about 30 px) misses
some or all of them, and one that sees them much larger reads them in a second detector pass
it need not run. :func:`measure_die_side` searches every scale once (slow: about 0.1 s per
1280x720 frame on one x86 core) and :func:`sized_config` then makes the reader look only
around the measured side (one detector pass).

The die side here is the reader's own measure (``DieReading.box``): the die's top face plus
the visible sides and shadow, about 1.3 times the edge length seen from straight above.

>>> import numpy as np
>>> from arena_table.vision.render import DieSpec, TableSpec, render_table
>>> spec = TableSpec(1280, 720, dice=tuple(DieSpec(v, (150.0 + 160 * v, 300.0), 16.0) for v in range(1, 7)))
>>> frame = render_table(spec, np.random.default_rng(0))[0]
>>> len(read_dice(DiceConfig(), frame).values)   # 16 px dice: below the automatic range
4
>>> size = measure_die_side(frame)
>>> size.dice, round(size.side_px)
(6, 24)
>>> sorted(read_dice(sized_config(size.side_px), frame).values)
[1, 2, 3, 4, 5, 6]
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass

import numpy as np

from .dice import MIN_DIE_SIDE_PX, DiceConfig, DiceReading, read_dice
from .errors import DiceNotFound
from .frames import Calibration

SEARCH_FRACTION = (0.008, 0.35)
"""Die sides searched by :func:`measure_die_side`, as fractions of the frame's long side
(10-448 px at 1280x720)."""
HINT_SPREAD = 1.6
""":func:`sized_config` reads dice from side/1.6 to side*1.6: one detector pass (a range up to
``DiceConfig.pass_ratio``, 3, wide), room for dice of mixed sizes (12 and 16 mm dice differ by
1.33) and for the detector's size error (over 15 % on a third of the dice)."""
SURE = 0.8
"""Least confidence of a die whose side counts in the measurement."""


@dataclass(frozen=True)
class DieSize:
    """Outcome of :func:`measure_die_side`."""

    side_px: float
    """Median die side (px) of the sure dice."""
    dice: int
    """Number of sure dice measured."""
    smallest_px: float
    """Smallest sure die side (px)."""
    largest_px: float
    """Largest sure die side (px)."""


def sized_config(side_px: float, base: DiceConfig | None = None, spread: float = HINT_SPREAD) -> DiceConfig:
    """``base`` (default :class:`DiceConfig`) reading dice of about ``side_px`` (from side/spread to side*spread).

    Raises:
        ValueError: ``side_px`` is not a positive number, is below ``MIN_DIE_SIDE_PX * spread``
            (8 px), or ``spread`` is below 1.
    """
    if isinstance(side_px, bool) or not (isinstance(side_px, (int, float)) and np.isfinite(side_px) and side_px > 0):
        raise ValueError(f"die side must be a positive number of pixels, got {side_px!r}")
    if spread < 1:
        raise ValueError(f"spread must be at least 1, got {spread}")
    if side_px / spread < MIN_DIE_SIDE_PX:
        raise ValueError(f"die side {side_px:g} px is too small to read (at least {MIN_DIE_SIDE_PX * spread:g} px)")
    base = base or DiceConfig()
    return dataclasses.replace(base, die_size_px=(side_px / spread, side_px * spread))


def measure_die_side(frame: np.ndarray, base: DiceConfig | None = None) -> DieSize:
    """The side in pixels at which the camera sees the dice in ``frame``.

    Args:
        frame: HxWx3 uint8 BGR image showing a few dice lying flat (any faces).
        base: reader thresholds (its die-size range is replaced by the full search range).

    Returns:
        A :class:`DieSize` from the dice read with confidence >= ``SURE``.

    Raises:
        DiceNotFound: no die was read surely (the message says what to do).
        BadFrame: ``frame`` is not an HxWx3 uint8 array.
    """
    return search_die_side(frame, base or DiceConfig())[0]


def search_die_side(frame: np.ndarray, base: DiceConfig) -> tuple[DieSize, DiceReading]:
    """:func:`measure_die_side`, and the frame read at the measured side (``sized_config``).

    Raises:
        DiceNotFound, BadFrame: as :func:`measure_die_side`.
    """
    long_side = max(frame.shape[:2]) if getattr(frame, "ndim", 0) >= 2 else 0
    lo, hi = max(MIN_DIE_SIDE_PX, SEARCH_FRACTION[0] * long_side), SEARCH_FRACTION[1] * long_side
    if hi < 2 * lo:
        raise DiceNotFound(f"the {frame.shape[1]}x{frame.shape[0]} frame is too small to hold a die")
    reading = read_dice(dataclasses.replace(base, die_size_px=(lo, hi)), frame)
    sides = sure_sides(reading)
    if not len(sides):
        raise DiceNotFound(f"no die read surely in the {frame.shape[1]}x{frame.shape[0]} frame "
                           f"({len(reading.dice)} candidates); lay a few dice flat in view, apart, and try again")
    # The search's many passes size each die in whichever pass found it (biased small, about 15 %
    # on rendered 1280x720 tables); read again at that size, in one pass, and measure there.
    sized = read_dice(sized_config(float(np.median(sides)), base), frame)
    again = sure_sides(sized)
    if len(again) >= len(sides) / 2:
        sides = again
    return DieSize(float(np.median(sides)), int(len(sides)), float(sides.min()), float(sides.max())), sized


def die_side(die) -> float:
    """A read die's side in px: the mean of its box's width and height."""
    return (die.box[2] + die.box[3]) / 2.0


def sure_sides(reading: DiceReading) -> np.ndarray:
    """Sides (:func:`die_side`) of the dice read ``ok`` at confidence ``SURE`` or more."""
    return np.array([die_side(d) for d in reading.dice if d.status == "ok" and d.confidence >= SURE], np.float64)


def calibrate(frame: np.ndarray, tray: tuple[int, int, int, int] | None = None,
              made: str | None = None) -> tuple[Calibration, DieSize]:
    """A :class:`~arena_table.vision.frames.Calibration` for the camera that took ``frame``, and
    the :class:`DieSize` it records.

    Args:
        frame: a full camera frame (HxWx3 uint8 BGR) with a few dice in the tray.
        tray: (x, y, w, h) px of the tray within the frame, or ``None`` for the whole frame;
            dice are measured inside it only.
        made: ISO 8601 time stamp to record (default: now, UTC).

    Raises:
        ValueError: ``tray`` is empty or leaves the frame.
        DiceNotFound: no die was read surely in the tray.
    """
    h, w = frame.shape[:2]
    view = frame
    if tray is not None:
        x, y, tw, th = (int(v) for v in tray)
        if tw <= 0 or th <= 0 or x < 0 or y < 0 or x + tw > w or y + th > h:
            raise ValueError(f"tray {x},{y},{tw},{th} (x,y,w,h) is empty or leaves the {w}x{h} frame")
        view = frame[y:y + th, x:x + tw]
        tray = (x, y, tw, th)
    try:
        size = measure_die_side(view)
    except DiceNotFound as exc:
        if tray is None:
            raise
        raise DiceNotFound(str(exc).replace(f"the {view.shape[1]}x{view.shape[0]} frame",
                                            f"the tray {x},{y},{tw},{th} (x,y,w,h)")) from None
    stamp = made or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    return Calibration(resolution=(w, h), tray=tray, die_size_px=round(size.side_px, 1), made=stamp), size
