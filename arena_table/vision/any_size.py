"""Read dice whatever size the camera sees them at, without a calibration.

:func:`~arena_table.vision.dice.read_dice` looks for dice in ``DiceConfig.die_size_px`` or, when
that is not set, in ``auto_size_fraction`` (3-20 %) of the frame's long side: 38-256 px at
1280x720, the size range of a camera over a dice tray, read in two detector passes. A wider view
(a whole table, or a phone photo of dice a metre away) shows the dice smaller; read in that range
they are missed: 2x2 and 3x3 mosaics of the byler photos (dice 1.4-3.8 % of the long side) read
0.725 and 0.216 of their dice.

:func:`read_dice_any_size` reads in the automatic range first. When no die is read surely there,
or the sure dice's median side lies within ``EDGE_FACTOR`` of either end of the range (so dice
a little smaller or larger are likely to be out of it), it searches every size as ``arena-table
dice calibrate`` does (:func:`~arena_table.vision.calibrate.search_die_side`, 0.8-35 % of the
long side) and reads again at the size found, keeping the dice the first reading read surely
where the second reads none (dice of two sizes in one frame). The search costs about 0.2-0.7 s
a frame on one core (an empty 1280x720 frame about 0.2 s), so it runs only in those two cases;
a configured ``die_size_px`` (a calibrated camera) is trusted and never searched. On the
mosaics above it reads 0.988 and 0.962 of the dice (precision 0.994 and 0.992); byler, matteo,
the benchmark's stress sets and its timed frames never start a search.

>>> import numpy as np
>>> from arena_table.vision.render import DieSpec, TableSpec, render_table
>>> spec = TableSpec(1280, 720, dice=tuple(DieSpec(v, (150.0 + 160 * v, 300.0), 16.0) for v in range(1, 7)))
>>> frame = render_table(spec, np.random.default_rng(0))[0]
>>> len(read_dice(DiceConfig(), frame).values)   # 16 px dice: below the automatic range
4
>>> sorted(read_dice_any_size(DiceConfig(), frame).values)
[1, 2, 3, 4, 5, 6]
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .calibrate import SURE, die_side, search_die_side, sure_sides
from .dice import DiceConfig, DiceReading, read_dice, size_range
from .errors import DiceNotFound

EDGE_FACTOR = 1.3
"""A median sure die side within this factor of an end of the automatic size range starts the
search (rendered 1280x720 tables of 64 px dice measure about 80 px: 2.1 times the lower end)."""


def needs_search(cfg: DiceConfig, reading: DiceReading) -> bool:
    """Whether ``reading`` (made with ``cfg``) may have missed dice of another size.

    ``False`` when ``cfg.die_size_px`` is set; else ``True`` when no die was read surely
    (``calibrate.SURE``) or their median side is within :data:`EDGE_FACTOR` of an end of
    ``cfg.auto_size_fraction`` of the frame's long side.
    """
    if cfg.die_size_px is not None:
        return False
    sides = sure_sides(reading)
    if not len(sides):
        return True
    lo, hi = size_range(cfg, reading.height, reading.width)
    mid = float(np.median(sides))
    return not lo * EDGE_FACTOR <= mid <= hi / EDGE_FACTOR


def read_dice_any_size(cfg: DiceConfig, frame: np.ndarray, search_when_none_sure: bool = True) -> DiceReading:
    """Read every d6 in ``frame``, searching every die size when the automatic range may miss them.

    Args:
        cfg: thresholds, see :class:`~arena_table.vision.dice.DiceConfig`.
        frame: HxWx3 uint8 BGR image.
        search_when_none_sure: also search when no die is read surely (photos); ``False`` for a
            live camera, whose empty tray would otherwise be searched at every settled frame
            (seconds on a strongly textured table).

    Returns:
        A :class:`~arena_table.vision.dice.DiceReading`: that of ``read_dice(cfg, frame)``, or,
        after a search (see the module docstring), the frame read at the side found plus the
        dice the first reading read surely where the second reads no die (dice of another size
        in the same frame).

    Raises:
        BadFrame, BadConfig, ModelMissing: as :func:`~arena_table.vision.dice.read_dice`.
    """
    first = read_dice(cfg, frame)
    if not needs_search(cfg, first) or (not search_when_none_sure and not len(sure_sides(first))):
        return first
    try:
        _size, sized = search_die_side(frame, cfg)
    except DiceNotFound:
        return first
    return merge_readings(cfg, sized, first)


def _overlap(cfg: DiceConfig, a, b) -> bool:
    return math.dist(a.center, b.center) < cfg.duplicate_distance * max(die_side(a), die_side(b))


def merge_readings(cfg: DiceConfig, sized: DiceReading, first: DiceReading) -> DiceReading:
    """``sized``'s dice plus ``first``'s surely read dice (``calibrate.SURE``) that lie on no die
    ``sized`` read ``ok`` (``duplicate_distance``); a die ``sized`` refused on such a sure die is
    dropped. Sorted top to bottom, then left to right, as ``read_dice`` sorts them."""
    sized_ok = [d for d in sized.dice if d.status == "ok"]
    kept = [d for d in first.dice if d.status == "ok" and d.confidence >= SURE
            and not any(_overlap(cfg, d, s) for s in sized_ok)]
    own = [d for d in sized.dice if d.status == "ok" or not any(_overlap(cfg, d, k) for k in kept)]
    dice = sorted(own + kept, key=lambda d: (d.center[1], d.center[0]))
    return replace(sized, dice=tuple(dice))
