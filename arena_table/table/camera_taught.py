"""The table's taught die kinds: loaded from the data folder at start, added by the control page's
teach card, and read by the camera with their face models.

:class:`TaughtKinds` holds the kinds (:class:`~.taught_kinds.TaughtKind`) and puts their
definitions over the shipped kinds (:func:`~arena_table.rules.kernel.mechanics.die_kinds.use_taught_kinds`)
so the rules and the camera see their faces. :func:`taught_kind_reader` wraps the camera's kind
reader: the kinds in play that were taught are left out of the shipped reader (its templates are
drawn from symbol names, not photos); each die it finds of no kind it knows, and each die the
teaching locator (:func:`~arena_table.vision.teach_shots.locate_dice`) finds where it read none,
is cut where that locator has it, as the shots were (:func:`~arena_table.vision.teach_shots.read_crops`),
and read by the taught kinds' face models, among those whose learned body colour the die has; a
die no such model reads surely stays ``other-kind`` or, when one of them abstains, ``abstain``
(a re-roll).
"""

from __future__ import annotations

import logging
import math
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind, use_taught_kinds
from arena_table.vision.dice import die_box
from arena_table.vision.kinds import KindReading
from arena_table.vision.teach_shots import SAME_DIE, crop_square, die_hsv, locate_dice, read_crops

from . import taught_kinds
from .camera_kinds import KindReader
from .taught_kinds import TaughtKind

log = logging.getLogger(__name__)


class TaughtKinds:
    """The taught kinds of the data folder ``data_dir``, as the running table knows them.

    >>> TaughtKinds("/nonexistent").ids()
    []
    """

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)
        self._lock = threading.Lock()
        self._kinds: dict[str, TaughtKind] = {}
        self.problems: list[str] = []
        """One line per stored kind that could not be read at :meth:`load` (the table runs on without it)."""

    def __repr__(self) -> str:
        return f"TaughtKinds({str(self.data_dir)!r}, {self.ids()})"

    def load(self) -> "TaughtKinds":
        """Read the folder's kinds (:func:`~.taught_kinds.load_all`; each one it cannot read logged as a
        warning) and put them over the shipped kinds."""
        kinds, self.problems = taught_kinds.load_all(self.data_dir)
        for p in self.problems:
            log.warning("taught die kind not loaded: %s", p)
        with self._lock:
            self._kinds = {k.kind.id: k for k in kinds}
            use_taught_kinds([k.kind for k in self._kinds.values()])
        return self

    def add(self, taught: TaughtKind) -> Path:
        """Store ``taught`` in the folder (replacing a kind of its id) and read dice with it from now on.

        Raises:
            OSError: it cannot be written (nothing changes then).
        """
        path = taught_kinds.save(self.data_dir, taught)
        with self._lock:
            self._kinds[taught.kind.id] = taught
            use_taught_kinds([k.kind for k in self._kinds.values()])
        return path

    def get(self, kind_id: str) -> TaughtKind | None:
        with self._lock:
            return self._kinds.get(kind_id)

    def ids(self) -> list[str]:
        with self._lock:
            return sorted(self._kinds)

    def all(self) -> list[TaughtKind]:
        with self._lock:
            return [self._kinds[k] for k in sorted(self._kinds)]


def _die_at(r: KindReading, dice: Sequence[tuple[float, float, float]]) -> tuple[float, float, float]:
    """The located die (``(cx, cy, side)``) at the reading ``r``'s box, so it is cut as the shots
    were; the box itself (its longer edge as the side) when none is there."""
    x, y, w, h = r.box
    cx, cy = x + w / 2, y + h / 2
    near = sorted((math.hypot(dx - cx, dy - cy), (dx, dy, ds)) for dx, dy, ds in dice)
    return near[0][1] if near and near[0][0] <= SAME_DIE * near[0][1][2] else (cx, cy, float(max(w, h)))


def _read_other(image: np.ndarray, r: KindReading, mine: Sequence[TaughtKind],
                dice: Sequence[tuple[float, float, float]]) -> KindReading:
    """A die ``r`` the shipped reader knew no kind of, read by the taught kinds ``mine``."""
    die = _die_at(r, dice)
    crop = crop_square(image, *die)
    if crop.size == 0:
        return r
    hsv = die_hsv(crop)
    crops = read_crops(image, *die)
    best, unsure = None, False
    for t in mine:
        if not t.kind.look.holds(hsv):
            continue
        face, margin, _ = t.model.read(crops)
        if face is None:
            unsure = True
        elif best is None or margin > best[2]:
            best = (t.kind.id, face, margin)
    if best is not None:
        return KindReading(best[0], best[1], r.box, round(min(1.0, best[2]), 3), "ok")
    return KindReading(None, None, r.box, 0.0, "abstain") if unsure else r


def taught_kind_reader(taught: TaughtKinds, base: KindReader) -> KindReader:
    """A kind reader (``(frame, kinds, game) -> [KindReading]``) that reads the kinds of ``taught``
    with their face models and the others with ``base`` (module docstring)."""

    def read(image: np.ndarray, kinds: tuple[DieKind, ...], game: str | None) -> list[KindReading]:
        mine = [t for t in (taught.get(k.id) for k in kinds) if t is not None]
        if not mine:
            return list(base(image, kinds, game))
        ids = {t.kind.id for t in mine}
        rest = tuple(k for k in kinds if k.id not in ids)
        readings = list(base(image, rest, game))
        dice = locate_dice(image)  # where the teaching shots were cut
        h, w = image.shape[:2]
        for x, y, side in dice:  # dice the base reader did not look for (it may read only some shapes)
            if not any(abs(x - (r.box[0] + r.box[2] / 2)) <= r.box[2] / 2 and abs(y - (r.box[1] + r.box[3] / 2))
                       <= r.box[3] / 2 for r in readings):
                readings.append(KindReading(None, None, die_box(x, y, side, w, h), 0.0, "other-kind"))
        readings.sort(key=lambda r: (round((r.box[1] + r.box[3] / 2) / 40), r.box[0] + r.box[2] / 2))
        return [_read_other(image, r, mine, dice) if r.status == "other-kind" else r for r in readings]

    return read
