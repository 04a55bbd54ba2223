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

import datetime as _dt

import numpy as np

from .dice import DiceConfig, read_dice
from .errors import DiceNotFound
from .frames import Calibration
from .size_search import DieSize, search_die_side, sized_config

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
