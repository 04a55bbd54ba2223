"""The die-size search: read dice whatever size the camera sees them at, without a calibration.

One module for every size search of the reader: :func:`search_die_side` (every scale once, then
the frame read at the side found; ``arena-table dice calibrate`` records that side, see
``calibrate.py``), :func:`sized_config` (a reader looking only around one side),
:func:`read_dice_any_size` and the live camera's :class:`LearningReader`.

:func:`~arena_table.vision.dice.read_dice` looks for dice in ``DiceConfig.die_size_px`` or, when
that is not set, in ``auto_size_fraction`` (3-20 %) of the frame's long side: 38-256 px at
1280x720, the size range of a camera over a dice tray, read in two detector passes. A wider view
(a whole table, or a phone photo of dice a metre away) shows the dice smaller; read in that range
they are missed: 2x2 and 3x3 mosaics of the byler photos (dice 1.4-3.8 % of the long side) read
0.725 and 0.216 of their dice.

:func:`read_dice_any_size` reads in the automatic range first. When no die is read surely there,
or the sure dice's median side lies within ``EDGE_FACTOR`` of either end of the range (so dice
a little smaller or larger are likely to be out of it), it searches every size as ``arena-table
dice calibrate`` does (:func:`search_die_side`, 0.8-35 % of the
long side) and reads again at the size found, keeping the dice the first reading read surely
where the second reads none (dice of two sizes in one frame). The search costs about 0.2-0.7 s
a frame on one core (an empty 1280x720 frame about 0.2 s), so it runs only in those two cases;
a configured ``die_size_px`` (a calibrated camera) is trusted and never searched. On the
mosaics above it reads 0.988 and 0.962 of the dice (precision 0.994 and 0.992); byler, matteo,
the benchmark's stress sets and its timed frames never start a search. A live camera without a
calibration reads with :class:`LearningReader`, which keeps the side a search found for the
frames after it, so it searches about once, not at every roll.

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

import dataclasses
import logging
import math
import time
from dataclasses import dataclass, replace
from typing import Callable

import cv2
import numpy as np

from .dice import MIN_DIE_SIDE_PX, DiceConfig, DiceReading, die_box, is_partial, read_dice, size_range
from .errors import DiceNotFound
from .pip_groups import pips_of_one_face

log = logging.getLogger(__name__)

EDGE_FACTOR = 1.3
"""A median sure die side within this factor of an end of the automatic size range starts the
search (rendered 1280x720 tables of 64 px dice measure about 80 px: 2.1 times the lower end)."""

SEARCH_FRACTION = (0.008, 0.35)
"""Die sides searched by :func:`search_die_side`, as fractions of the frame's long side
(10-448 px at 1280x720)."""
HINT_SPREAD = 1.6
""":func:`sized_config` reads dice from side/1.6 to side*1.6: one detector pass (a range up to
``DiceConfig.pass_ratio``, 3, wide), room for dice of mixed sizes (12 and 16 mm dice differ by
1.33) and for the detector's size error (over 15 % on a third of the dice)."""
SURE = 0.8
"""Least confidence of a die whose side counts in the measurement."""


@dataclass(frozen=True)
class DieSize:
    """The die side a search measured (:func:`search_die_side`)."""

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


def search_die_side(frame: np.ndarray, base: DiceConfig) -> tuple[DieSize, DiceReading]:
    """The side at which the camera sees the dice in ``frame``, and the frame read at that side.

    Every side in ``SEARCH_FRACTION`` of the long side is searched once; the frame is then read
    again in one pass at the median side of the sure dice (``sized_config``) and measured there.

    Args:
        frame: HxWx3 uint8 BGR image showing dice lying flat (any faces).
        base: reader thresholds (its die-size range is replaced by the search range).

    Returns:
        (:class:`DieSize` of the dice read with confidence >= ``SURE``, the sized reading).

    Raises:
        DiceNotFound: no die was read surely (the message says what to do).
        BadFrame: ``frame`` is not an HxWx3 uint8 array.
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


def needs_search(cfg: DiceConfig, reading: DiceReading) -> bool:
    """Whether ``reading`` (made with ``cfg``) may have missed dice of another size.

    ``False`` when ``cfg.die_size_px`` is set; else ``True`` when no die was read surely
    (``size_search.SURE``) or their median side is within :data:`EDGE_FACTOR` of an end of
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


CLOSE_UP_FRACTION = 1.0
"""Largest die side read without a calibration, as a fraction of the frame's long side: a close-up,
one die filling most of the photo (the reader's side counts the visible sides and shadow, so a die
whose top face fills 70 % of the frame measures 0.8-0.9; with 0.75 the top pass missed half of them)."""
CLOSE_UP_SIDE = 256
"""Long side (px) the frame is scaled to for :func:`read_close_up`: its dice are then at least
``CLOSE_UP_SIDE * hi / EDGE_FACTOR`` (about 39) px, more than the classifier's crop needs."""
CLOSE_UP_PAD = 2.0
"""Plain border added on each side by :func:`read_close_up`, in frame sides: the detector learned dice
with a table around them, and a die filling the frame has none."""


def read_close_up(cfg: DiceConfig, frame: np.ndarray) -> DiceReading:
    """Read dice larger than the automatic range: from its top end (over ``EDGE_FACTOR``) to
    ``CLOSE_UP_FRACTION`` of the long side.

    The frame is scaled to ``CLOSE_UP_SIDE`` px and set in a plain border of its own edge colour
    (median) ``CLOSE_UP_PAD`` frame sides wide, so a close-up die looks like a die on a table; the
    reading is mapped back to the frame's pixels, and a die whose box leaves the frame is
    ``partial`` (``DiceConfig.border_tolerance``), whatever the border made it look like.

    Args:
        cfg: thresholds (its ``die_size_px`` is not used).
        frame: HxWx3 uint8 BGR image.

    Returns:
        A :class:`~arena_table.vision.dice.DiceReading` in the frame's pixels.

    Raises:
        BadFrame, ModelMissing: as :func:`~arena_table.vision.dice.read_dice`.
    """
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or min(frame.shape[:2]) < 1:
        return read_dice(cfg, frame)  # raises BadFrame, naming what is wrong
    h, w = frame.shape[:2]
    auto = replace(cfg, die_size_px=None)
    lo, hi = size_range(auto, h, w)[1] / EDGE_FACTOR, CLOSE_UP_FRACTION * max(h, w)
    scale = CLOSE_UP_SIDE / max(h, w)
    small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sx, sy = small.shape[1] / w, small.shape[0] / h
    edge = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
    pad = int(round(CLOSE_UP_PAD * CLOSE_UP_SIDE))
    framed = cv2.copyMakeBorder(small, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                value=tuple(float(c) for c in np.median(edge, axis=0)))
    reading = read_dice(replace(cfg, die_size_px=(lo * sx, hi * sx)), framed)
    dice = []
    for d in reading.dice:
        cx, cy = (d.center[0] - pad) / sx, (d.center[1] - pad) / sy
        if not (0 <= cx < w and 0 <= cy < h):
            continue  # a "die" in the border
        side = die_side(d) / sx
        d = replace(d, center=(cx, cy), box=die_box(cx, cy, side, w, h))
        if d.status != "partial" and is_partial(cfg, cx, cy, side, w, h):
            d = replace(d, value=None, status="partial", reason="die cut by the frame border")
        dice.append(d)
    return DiceReading(tuple(dice), w, h)


def read_beside_range(cfg: DiceConfig, frame: np.ndarray, first: DiceReading) -> DiceReading | None:
    """``first`` (the automatic range's reading, ``needs_search`` true) merged with the readings of
    the size bands just beside the automatic range that its sure dice point to, or ``None`` when
    those bands read no die surely either.

    Above the range: :func:`read_close_up`, always (it is cheap: the frame at ``CLOSE_UP_SIDE`` px).
    Below it, when the close-up reads no die surely: with sure dice within ``EDGE_FACTOR`` of the
    range's lower end (the largest of dice that the range cuts), one pass around their median side
    over ``EDGE_FACTOR`` (``sized_config``); with no sure die, one detector pass from
    ``lo * EDGE_FACTOR / pass_ratio`` to ``lo * EDGE_FACTOR`` (17-50 px at 1280x720), and, when a sure
    die it reads lies at its top (the seam with the automatic range, which both cut), a second pass
    around their median side. The close-up goes first: in the small band the pips of a large die
    are the size of small dice.
    Each costs about one automatic read, against a size search's three to six
    (:func:`search_die_side`), so dice of 16-28 px at 1280x720, and close-ups, are read at camera
    speed.
    """
    h, w = frame.shape[:2]
    lo, hi = size_range(cfg, h, w)
    sides = sure_sides(first)
    mid = float(np.median(sides)) if len(sides) else None
    close = read_close_up(cfg, frame)
    if len(sure_sides(close)):
        return merge_readings(cfg, close, first)
    edge = lo * EDGE_FACTOR
    if mid is not None and mid < edge and mid / EDGE_FACTOR / HINT_SPREAD >= MIN_DIE_SIDE_PX:
        # sure dice at the lower end: they are the largest of dice that the range cuts
        small = read_dice(sized_config(mid / EDGE_FACTOR, cfg), frame)
    elif mid is None and edge / cfg.pass_ratio >= MIN_DIE_SIDE_PX:
        small = read_dice(replace(cfg, die_size_px=(edge / cfg.pass_ratio, edge)), frame)
        sides = sure_sides(small)
        if len(sides) and float(sides.max()) > edge / EDGE_FACTOR:
            # dice at the seam of the band and the automatic range, which each cut: read
            # again in one pass around their side, as a size search ends
            small = read_dice(sized_config(float(np.median(sides)), cfg), frame)
    else:
        return None
    return merge_readings(cfg, small, first) if len(sure_sides(small)) else None


def read_pip_groups(cfg: DiceConfig, frame: np.ndarray, first: DiceReading) -> DiceReading | None:
    """``first`` with the dice read 1 that are pips of larger dice replaced by those dice, or ``None``.

    When dice read 1 lie on one face (``pip_groups.pips_of_one_face``), the frame is read above the
    automatic range (:func:`read_close_up`). A die read there ``ok`` at ``SURE`` or more is taken
    for such a larger die, and stands for the dice of ``first`` whose centres lie in its box (its
    pips), when two or more of those are dice on one face, and they are at most as many as its value
    and all read 1 or refused: a die over dice read 2-6 is a pile of dice read as one, not a die.
    ``None`` when no dice read 1 lie on one face, ``cfg.pip_groups`` is ``None``, a ``die_size_px``
    is configured, or no larger die is found: then nothing is known to be wrong and ``first`` stands.
    """
    if cfg.pip_groups is None or cfg.die_size_px is not None:
        return None
    group = set(pips_of_one_face(cfg.pip_groups, frame, first))
    if not group:
        return None

    def covered(box) -> list[int]:
        x, y, w, h = box
        return [k for k, d in enumerate(first.dice) if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]

    large, replaced = [], set()
    for big in read_close_up(cfg, frame).dice:
        inner = covered(big.box)
        if big.status != "ok" or big.confidence < SURE:
            continue  # a refused "die" over the dice is no evidence (a pile, or the frame's whole view)
        if len(group.intersection(inner)) >= 2 and len(inner) <= big.value \
                and all(first.dice[k].status != "ok" or first.dice[k].value == 1 for k in inner):
            large.append(big)
            replaced.update(inner)
    if not large:
        return None
    rest = [d for k, d in enumerate(first.dice) if k not in replaced]
    return replace(first, dice=tuple(sorted(rest + large, key=lambda d: (d.center[1], d.center[0]))))


def read_dice_any_size(cfg: DiceConfig, frame: np.ndarray) -> DiceReading:
    """Read every d6 in ``frame``, searching every die size when the automatic range may miss them.

    Args:
        cfg: thresholds, see :class:`~arena_table.vision.dice.DiceConfig`.
        frame: HxWx3 uint8 BGR image.

    Returns:
        A :class:`~arena_table.vision.dice.DiceReading`: that of ``read_dice(cfg, frame)``, or,
        after a search (see the module docstring), the frame read at the side found plus the
        dice the first reading read surely where the second reads no die (dice of another size
        in the same frame); dice read 1 that are the pips of a larger die are then replaced by
        it (:func:`read_pip_groups`).

    Raises:
        BadFrame, BadConfig, ModelMissing: as :func:`~arena_table.vision.dice.read_dice`.
    """
    reading = _read_any_size(cfg, frame)
    return read_pip_groups(cfg, frame, reading) or reading


def _read_any_size(cfg: DiceConfig, frame: np.ndarray) -> DiceReading:
    """:func:`read_dice_any_size` before its check for pips read as dice (:func:`read_pip_groups`)."""
    first = read_dice(cfg, frame)
    if not needs_search(cfg, first):
        return first
    beside = read_beside_range(cfg, frame, first)
    if beside is not None:
        return beside
    try:
        _size, sized = search_die_side(frame, cfg)
    except DiceNotFound:
        return first
    return merge_readings(cfg, sized, first)


def _overlap(cfg: DiceConfig, a, b) -> bool:
    return math.dist(a.center, b.center) < cfg.duplicate_distance * max(die_side(a), die_side(b))


def merge_readings(cfg: DiceConfig, sized: DiceReading, first: DiceReading) -> DiceReading:
    """``sized``'s dice plus ``first``'s surely read dice (``size_search.SURE``) that lie on no die
    ``sized`` read ``ok`` (``duplicate_distance``); a die ``sized`` refused on such a sure die is
    dropped. Sorted top to bottom, then left to right, as ``read_dice`` sorts them."""
    sized_ok = [d for d in sized.dice if d.status == "ok"]
    kept = [d for d in first.dice if d.status == "ok" and d.confidence >= SURE
            and not any(_overlap(cfg, d, s) for s in sized_ok)]
    own = [d for d in sized.dice if d.status == "ok" or not any(_overlap(cfg, d, k) for k in kept)]
    dice = sorted(own + kept, key=lambda d: (d.center[1], d.center[0]))
    return replace(sized, dice=tuple(dice))


class LearningReader:
    """A live camera's dice reader without a calibration: :func:`read_dice_any_size` that keeps the
    die side its last size search found and tries that side first when the automatic range may
    miss dice, so a camera that sees the dice small is searched about once, not at every roll.

    A camera that watches a whole table sees dice smaller than the automatic range (3-20 % of the
    long side), and a size search costs 0.2-0.7 s a frame (seconds on a strongly textured table).
    Each frame is read in the automatic range first, as :func:`read_dice_any_size` does:

    - sure dice in the middle of that range are the reading (the learned side is dropped);
    - otherwise, with a learned side, the frame is read at that side
      (``size_search.sized_config``); when that reads at least as many dice surely as the automatic
      range, at a median side within ``SIDE_DRIFT`` of the learned one, its reading merged with
      the automatic one's sure dice (:func:`merge_readings`) is the reading;
    - otherwise, when the close-up pass (:func:`read_close_up`) reads dice surely, that is the
      reading (merged with the automatic one's sure dice);
    - otherwise the frame is searched as :func:`read_dice_any_size` searches it, and a search
      that reads dice sets the learned side. A frame in which no die is read surely at all (an
      empty tray, hands over it) is not searched within a back-off after a search that found
      nothing: ``backoff_s``, doubled after each such search up to ``max_backoff_s``.

    So the learned side only stands in for a search, and only when the frame confirms it; what
    the stateless reader reads in the automatic range is always read.

    Args:
        cfg: thresholds; ``cfg.die_size_px`` must be ``None`` (a calibrated camera uses it as is).
        backoff_s, max_backoff_s: first and longest wait (s) after a search that found no die.
        clock: seconds, monotonic (default ``time.monotonic``).

    Raises:
        ValueError: ``cfg.die_size_px`` is set.
    """

    SIDE_DRIFT = 1.25
    """Largest factor between the learned side and the median side of the dice read at it surely
    for that reading to stand (the sized pass reads from side/1.6 to side*1.6)."""

    def __init__(self, cfg: DiceConfig, backoff_s: float = 30.0, max_backoff_s: float = 600.0,
                 clock: Callable[[], float] = time.monotonic):
        if cfg.die_size_px is not None:
            raise ValueError("a LearningReader learns the die size: cfg.die_size_px must be None")
        self.cfg = cfg
        self.backoff_s, self.max_backoff_s = float(backoff_s), float(max_backoff_s)
        self._backoff = self.backoff_s
        self.side: float | None = None
        """The die side (px) found by the last search that read dice, or ``None``."""
        self._clock = clock
        self._quiet_until = -math.inf

    def __call__(self, frame: np.ndarray) -> DiceReading:
        """Read ``frame`` (HxWx3 uint8 BGR); raises as :func:`~arena_table.vision.dice.read_dice`.
        Dice read 1 that are the pips of a larger die are replaced by it, as by
        :func:`read_dice_any_size` (:func:`read_pip_groups`)."""
        reading = self._read(frame)
        return read_pip_groups(self.cfg, frame, reading) or reading

    def _read(self, frame: np.ndarray) -> DiceReading:
        first = read_dice(self.cfg, frame)
        if not needs_search(self.cfg, first):  # sure dice well inside the automatic range
            self._learn(None)
            return first
        confirmed, sized = self._at_side(frame, first)
        if confirmed is not None:
            return confirmed
        close = read_close_up(self.cfg, frame)  # a die larger than any the search looks for
        if len(sure_sides(close)):
            return merge_readings(self.cfg, close, first)
        none_sure = not len(sure_sides(first))
        fallback = sized if sized is not None and none_sure else first  # keep the learned side's refusals
        if none_sure and self._clock() < self._quiet_until:
            return fallback  # within the back-off after a search that found nothing
        try:
            size, found = search_die_side(frame, self.cfg)
        except DiceNotFound:
            log.debug("dice reader: a size search found no die (%s)", "none read surely" if none_sure else "dice at a range end")
            if none_sure:
                self._quiet_until = self._clock() + self._backoff
                self._backoff = min(2 * self._backoff, self.max_backoff_s)
            return fallback
        self._backoff, self._quiet_until = self.backoff_s, -math.inf
        self._learn(size.side_px)
        return merge_readings(self.cfg, found, first)

    def peek(self, frame: np.ndarray) -> DiceReading:
        """Read ``frame`` as :meth:`__call__` does but without a search and without learning:
        for a live view drawn every second."""
        first = read_dice(self.cfg, frame)
        if not needs_search(self.cfg, first):
            return first
        return self._at_side(frame, first)[0] or first

    def _at_side(self, frame: np.ndarray, first: DiceReading) -> tuple[DiceReading | None, DiceReading | None]:
        """(the reading at the learned side merged with ``first`` when the frame confirms that side,
        else ``None``; the reading at the learned side, or ``None`` without one)."""
        if self.side is None:
            return None, None
        sized = read_dice(sized_config(self.side, self.cfg), frame)
        sides = sure_sides(sized)
        if len(sides) and len(sides) >= len(sure_sides(first)) \
                and 1 / self.SIDE_DRIFT <= float(np.median(sides)) / self.side <= self.SIDE_DRIFT:
            return merge_readings(self.cfg, sized, first), sized
        return None, sized

    def _learn(self, side: float | None) -> None:
        if side is not None:
            try:
                sized_config(side, self.cfg)
            except ValueError:  # too small to read in one sized pass: keep searching instead
                side = None
        if side != self.side:
            log.info("dice reader: die side %s", "forgotten (dice read in the automatic range)" if side is None
                     else f"{side:.1f} px learned from a size search")
        self.side = side
