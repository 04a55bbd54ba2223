"""Read standard pip d6 dice from one camera frame: a pure function on arrays.

Pipeline (all thresholds are fields of :class:`DiceConfig`):

1. **Scale** the frame so dice become about ``nets.WORK_DIE`` px, once per size pass
   (``DiceConfig.die_size_px`` or ``auto_size_fraction`` of the long side, split into passes no
   wider than ``pass_ratio``).
2. **Detect** die centres with a small CenterNet-style CNN (``nets.detect_map``):
   a heat-map peak per die, so touching or clustered dice give separate peaks
   (``candidates.py``: size passes, peaks, split halves, duplicates).
3. **Classify** a crop around each centre with a small CNN (``nets.classify``):
   no die centred here, face 1..6, or a die face that is not a d6 pip face. Both
   nets see per-channel standardised pixels, so exposure and colour cast do not
   shift any threshold.
4. **Size check**: a die far off the frame's typical side (the median side of its sure dice) that
   the classifier is unsure of is classified again at the typical side (``size_check_ratio``);
   a side face or pip group of an oblique die, found as a small die of its own, is refused.
5. **Check** each die: cut by the frame border -> ``partial``; top face not
   square to the camera compared with the other dice -> ``cocked``
   (``pips.cocked``); not a pip face -> ``unreadable`` (or a configured logo
   face); pips not a valid 1..6 layout while the classifier is unsure ->
   ``unreadable`` (``pips.inspect_faces``); low confidence -> ``unreadable``.
   The pip check is skipped for a sure 1, 2 or 3: it could not veto it, and
   pips on one diagonal do not measure the face's shape well enough for the
   cocked test (``PipConfig.cocked_skew_blobs``).

>>> import numpy as np
>>> reading = read_dice(DiceConfig(), np.full((240, 320, 3), 128, np.uint8))
>>> reading.dice, reading.values
((), ())
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

import cv2
import numpy as np

from . import nets
from .errors import BadConfig, BadFrame
from .candidates import find_candidates, inside_larger, split_halves, suppress
from .nets import face_probs
from .pip_groups import PipGroupConfig
from .pips import FaceCheck, PipConfig, cocked, inspect_faces
from .second_look import second_look, unstable

STATUSES = ("ok", "unreadable", "cocked", "partial")


@dataclass(frozen=True)
class DiceConfig:
    """Documented thresholds of the dice reader (defaults measured on the shared sets)."""

    min_confidence: float = 0.5
    """Classifier probability of the best face below which a die is ``unreadable``."""
    detect_threshold: float = 0.3
    """Detector heat-map peak (0..1) above which a spot is a die candidate (the classifier then
    drops the candidates that are no die)."""
    second_look: float = 0.85
    """Best-face probability below which a die is classified again from its crop turned 90, 180
    and 270 degrees and the four readings averaged (``0``: never; ``second_look.py``)."""
    second_look_votes: int = 3
    """Of those four readings, how many must give the averaged best face; a die whose face
    changes with the turn of its crop is ``unreadable`` (``0``: never)."""
    trust_confidence: float = 0.6
    """Classifier probability above which the pip check may not call the layout invalid
    (on small or marbled dice the classical pip finder errs more often than the CNN)."""
    size_check_sure: float = 0.9
    """Best-face probability of the dice whose median side is the frame's typical die side (see
    ``size_check_ratio``)."""
    size_check_ratio: float = 1.6
    """A die whose side is more than this factor off the frame's typical die side, and whose best
    face is below ``size_check_sure``, is classified again from a crop at the typical side and the two
    readings averaged (``0``: never). A small "die" that is a side face or a pip group of a larger die
    (oblique close-ups) then reads as no die and is refused (``unreadable``), as is an unsure die of
    another size in a mixed dice set (set ``0`` for a set whose dice differ in size by this factor)."""
    not_a_die: float = 0.5
    """Classifier probability of "no die centred here" above which a candidate is dropped."""
    die_size_px: tuple[float, float] | None = None
    """(min, max) die side in frame pixels; ``None`` = ``auto_size_fraction`` of the long side."""
    auto_size_fraction: tuple[float, float] = (0.03, 0.2)
    """Automatic die side range as fractions of the frame's long side."""
    pass_ratio: float = 3.0
    """Widest die-side range (max/min) one detector pass covers; a wider range is split into
    passes at different scales (the detector was trained on dice of 10..32 working px)."""
    pass_overlap: float = 1.1
    """Factor by which neighbouring passes' accepted die sides overlap."""
    seam_ratio: float = 1.4
    """A peak up to this factor beyond its pass's overlapped range is kept when no other candidate
    is at its place: a die at the seam of two passes that each sized it into the other's range."""
    same_size_ratio: float = 1.5
    """Two passes' peaks at one place whose sides differ by less than this factor are one die: only
    the stronger peak is classified."""
    size_scale: float = 1.0
    """Factor on the detector's die side before cropping (the detector learned boxes that include
    visible side faces and shadow)."""
    split_spread: float = 0.3
    """A heat blob whose spread (std dev along its long axis) exceeds this many die sides, and
    ``split_ratio`` times its width, may cover two touching dice: a candidate is added on each half."""
    split_ratio: float = 2.0
    """See ``split_spread``."""
    split_level: float = 0.3
    """Fraction of a peak's heat above which the blob around it is measured for splitting."""
    inside_ratio: float = 1.6
    """A candidate inside another at least this many times its side, which the classifier reads as
    a clear die face, is part of that die (not a smaller die of its own)."""
    inside_confidence: float = 0.95
    """Least best-face probability of the larger die in ``inside_ratio``."""
    duplicate_distance: float = 0.55
    """Two candidates closer than this many die sides are one die (the stronger is kept)."""
    border_tolerance: float = -0.05
    """A die whose box, grown by this fraction of its side, leaves the frame is ``partial``. The
    default -0.05 reads a die whose box passes the border by under 5 % of its side: no pip lies that
    close to a die's edge (pips sit 0.17 side or more inside it), and the detector's centre is
    itself off by about that much (0.06 side median)."""
    logo_faces: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Logo face name -> value it stands for, e.g. ``{"logo": 1}`` for dice whose 1 is a
    maker's logo. Empty: a logo face is ``unreadable``."""
    pips: PipConfig = field(default_factory=PipConfig)
    """Thresholds of the pip-layout and squareness check."""
    pip_groups: PipGroupConfig | None = field(default_factory=PipGroupConfig)
    """Thresholds of the check for dice read 1 that are the pips of one larger die
    (``pip_groups.pips_of_one_face``; ``None``: not checked). Such a frame is read again above the
    automatic range (``size_search.read_pip_groups``)."""


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame."""

    value: int | None
    """Face 1..6 when ``status == "ok"``, else ``None``."""
    status: str
    """``"ok"``, ``"unreadable"``, ``"cocked"`` or ``"partial"``."""
    reason: str
    """Short human explanation (empty when ok)."""
    confidence: float
    """0..1: classifier probability of the face read (or of the best face)."""
    center: tuple[float, float]
    """Top-face centre (x, y) in frame pixels."""
    box: tuple[int, int, int, int]
    """(x, y, w, h) of the die in frame pixels, clipped to the frame."""


@dataclass(frozen=True)
class DiceReading:
    """All dice found in one frame, sorted top-to-bottom then left-to-right."""

    dice: tuple[DieReading, ...]
    """Every die found, including refused ones."""
    width: int
    """Frame width in px."""
    height: int
    """Frame height in px."""

    @property
    def values(self) -> tuple[int, ...]:
        """Values of the dice read ``ok``, in ``dice`` order."""
        return tuple(d.value for d in self.dice if d.status == "ok")


MIN_DIE_SIDE_PX = 5.0
"""Smallest die side (px) the reader may be asked for: a smaller ``die_size_px`` would scale the frame
up past ``nets.WORK_DIE / MIN_DIE_SIDE_PX`` (about 4x) with nothing more to see and gigabytes of memory."""


def size_range(cfg: DiceConfig, height: int, width: int) -> tuple[float, float]:
    """(min, max) die side in px the reader looks for: ``cfg.die_size_px``, else
    ``cfg.auto_size_fraction`` of the long side. Raises :class:`BadConfig` on a bad ``die_size_px``."""
    if cfg.die_size_px is not None:
        try:
            lo, hi = (float(v) for v in cfg.die_size_px)
        except (TypeError, ValueError):
            raise BadConfig(f"die_size_px must be (min, max) pixels, got {cfg.die_size_px!r:.60}") from None
        if not (math.isfinite(lo) and math.isfinite(hi) and MIN_DIE_SIDE_PX <= lo < hi):
            raise BadConfig(f"die_size_px must be (min, max) pixels with {MIN_DIE_SIDE_PX:g} <= min < max, "
                            f"got {cfg.die_size_px!r:.60}")
        return lo, hi
    long_side = max(height, width)
    return cfg.auto_size_fraction[0] * long_side, cfg.auto_size_fraction[1] * long_side


MAX_WORK_SIDE = 1920
"""Longest side (px) of the frame the reader works on: a larger frame is first shrunk (area
average) to it, or only as far as keeps the smallest die looked for at ``MIN_CROP_DIE_PX``, and the
reading mapped back to the frame's pixels. A 10000x10000 photo would otherwise be scaled, blurred and
cropped at full size (hundreds of MB), with nothing more to see than at a fifth of it: the classifier
reads 40 px crops and the detector dice of ``nets.WORK_DIE`` px."""
MIN_CROP_DIE_PX = nets.CROP / nets.CROP_SPAN
"""Die side (px) at which the classifier's crop (``nets.CROP`` px, ``nets.CROP_SPAN`` sides wide)
takes the frame's pixels one for one: shrinking a frame further would lose detail the crop uses."""


def work_scale(lo: float, height: int, width: int) -> float:
    """Factor (<= 1) by which :func:`read_dice` shrinks a ``width`` x ``height`` frame whose smallest
    die looked for is ``lo`` px: ``MAX_WORK_SIDE`` over the long side, but never below what keeps that
    die at ``MIN_CROP_DIE_PX``.

    >>> work_scale(300.0, 10000, 10000), work_scale(38.4, 720, 1280)
    (0.192, 1.0)
    >>> round(work_scale(40.0, 8000, 8000), 3)  # a calibrated camera's small dice keep their pixels
    0.714
    """
    long_side = max(height, width)
    if long_side <= MAX_WORK_SIDE:
        return 1.0
    return min(1.0, max(MAX_WORK_SIDE / long_side, MIN_CROP_DIE_PX / lo))


def crop_die(frame: np.ndarray, cx: float, cy: float, side: float, size: int, span: float) -> np.ndarray:
    """Axis-aligned ``size``x``size`` crop centred on (cx, cy), ``span`` die sides wide.

    Bilinear, also when shrinking: ``cv2.warpAffine`` has no area filter (it treats ``INTER_AREA``
    as ``INTER_LINEAR``), and the classifier learned crops made this way. Crops low-passed first (a Gaussian of sigma 0.35 or
    0.5 x (1/scale - 1), against aliasing) read byler a little worse (0.985 and 0.985 against
    0.986 accuracy) and JPEG-damaged photos no better (``arena_table/bench/dice_camera_faults.py``).
    """
    s = size / (span * side)
    m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float64)
    return cv2.warpAffine(frame, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _crops(frame: np.ndarray, cands: list) -> np.ndarray:
    crops = [crop_die(frame, c[1], c[2], c[3], nets.CROP, nets.CROP_SPAN) for c in cands]
    return np.stack(crops) if crops else np.zeros((0, nets.CROP, nets.CROP, 3), np.uint8)


def _size_check(cfg: DiceConfig, frame: np.ndarray, kept: list) -> tuple[list, set[int]]:
    """``kept`` ((score, cx, cy, side), probs) pairs after the size check (``size_check_ratio``),
    and the indices of the dice it refuses.

    The typical side is the median side of the dice read at ``size_check_sure`` or more with "no
    die" at most 0.3; without such dice nothing changes. A die read again at the typical side
    keeps its own side (box, border and pip checks) and takes the average of its two readings; one
    whose average is "no die centred here" (above ``not_a_die``) is refused, never dropped: it may
    be a side face of an oblique die, or a real die of another size (a mixed dice set).
    """
    if not cfg.size_check_ratio:
        return kept, set()
    sure = [c[3] for c, p in kept if p[0] <= 0.3 and face_probs(p)[1] >= cfg.size_check_sure]
    if not sure:
        return kept, set()
    typical = float(np.median(sure))
    odd = [k for k, (c, p) in enumerate(kept) if face_probs(p)[1] < cfg.size_check_sure
           and max(c[3] / typical, typical / c[3]) > cfg.size_check_ratio]
    if not odd:
        return kept, set()
    again = nets.classify(_crops(frame, [(0.0, kept[k][0][1], kept[k][0][2], typical) for k in odd]))
    out, refused = list(kept), set()
    for k, q in zip(odd, again):
        mean = (kept[k][1] + q) / 2.0
        out[k] = (kept[k][0], mean)
        if mean[0] > cfg.not_a_die:
            refused.add(k)
    return out, refused


def is_partial(cfg: DiceConfig, cx: float, cy: float, side: float, w: int, h: int) -> bool:
    """Whether a die of ``side`` px centred at (cx, cy) is cut by the border of a ``w`` x ``h`` frame
    (``DiceConfig.border_tolerance``)."""
    half = side * (0.5 + cfg.border_tolerance)
    return cx - half < 0 or cy - half < 0 or cx + half > w or cy + half > h


def die_box(cx: float, cy: float, side: float, w: int, h: int) -> tuple[int, int, int, int]:
    """The (x, y, w, h) px box of a die of ``side`` px centred at (cx, cy), clipped to the frame."""
    x0, y0 = max(0, int(round(cx - side / 2))), max(0, int(round(cy - side / 2)))
    x1, y1 = min(w, int(round(cx + side / 2))), min(h, int(round(cy + side / 2)))
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)


def _decide(cfg: DiceConfig, p: np.ndarray, face: FaceCheck | None, skew: float | None, where: dict) -> DieReading:
    """One die's reading from its class probabilities, pip check (``None``: partial) and skew."""
    best, conf, odd = face_probs(p)
    common = dict(confidence=conf, **where)
    if face is None:
        return DieReading(None, "partial", "die cut by the frame border", **common)
    if skew is not None:
        return DieReading(None, "cocked", f"top face not square to the camera (skew {skew:.2f})", **common)
    if odd > conf:  # the classifier sees a die whose face is not a d6 pip face
        if face.status == "logo" or face.pips == 1:  # one central mark: a maker's logo
            value = cfg.logo_faces.get("logo")
            if value is None:
                return DieReading(None, "unreadable", "logo face (no value set in logo_faces)", **common)
            return DieReading(value, "ok", "logo face", **common)
        return DieReading(None, "unreadable", "not a d6 pip face (extra pips or a logo)", **common)
    if face.status == "invalid" and conf < cfg.trust_confidence:
        return DieReading(None, "unreadable", face.reason, **common)
    if conf < cfg.min_confidence:
        return DieReading(None, "unreadable", f"face unclear (best guess {best} at {conf:.2f})", **common)
    return DieReading(best, "ok", "", **common)


def _scaled(die: DieReading, sx: float, sy: float, w: int, h: int) -> DieReading:
    """``die`` read in a frame shrunk by (sx, sy), in the pixels of the ``w`` x ``h`` frame."""
    x, y, bw, bh = die.box
    x0, y0 = max(0, int(round(x / sx))), max(0, int(round(y / sy)))
    x1, y1 = min(w, int(round((x + bw) / sx))), min(h, int(round((y + bh) / sy)))
    return replace(die, center=(die.center[0] / sx, die.center[1] / sy), box=(x0, y0, x1 - x0, y1 - y0))


def read_dice(cfg: DiceConfig, frame: np.ndarray) -> DiceReading:
    """Read every d6 in a camera frame.

    Args:
        cfg: thresholds, see :class:`DiceConfig`.
        frame: HxWx3 uint8 BGR image (any size; dice seen roughly top-down). A frame longer than
            ``MAX_WORK_SIDE`` is read shrunk (:func:`work_scale`), the reading in its own pixels.

    Returns:
        A :class:`DiceReading`; refused dice carry ``value=None`` and a reason.

    Raises:
        BadFrame: ``frame`` is not an HxWx3 uint8 array (one with an alpha channel is named as such).
        BadConfig: ``cfg.die_size_px`` is not (min, max) px with ``MIN_DIE_SIDE_PX`` <= min < max.
        ModelMissing: the shipped CNN weights are missing.
    """
    if isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 4:
        raise BadFrame(f"frame has an alpha channel ({frame.shape}): composite it over its background, or "
                       "drop the channel if it is opaque, before reading (the reader cannot see through it)")
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise BadFrame(f"frame must be an HxWx3 uint8 BGR array, got {getattr(frame, 'shape', type(frame))}")
    h, w = frame.shape[:2]
    lo, hi = size_range(cfg, h, w)
    scale = work_scale(lo, h, w)
    if scale < 1.0:
        small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        sx, sy = small.shape[1] / w, small.shape[0] / h
        reading = read_dice(replace(cfg, die_size_px=(lo * sx, hi * sx)), small)
        return DiceReading(tuple(_scaled(d, sx, sy, w, h) for d in reading.dice), w, h)
    found = find_candidates(cfg, frame, lo, hi)
    cands = [c for c in found if c is not None]
    crops = _crops(frame, cands)
    plist = list(nets.classify(crops))
    # Split halves are only worth a look when the peak itself is not a clear, centred die.
    halves = [h for i, (c, p) in enumerate(zip(cands, plist))
              if not (p[0] <= cfg.not_a_die and p[1:].max() >= cfg.min_confidence) for h in split_halves(cfg, c, i)]
    if halves:
        half_crops = _crops(frame, halves)
        cands, crops = cands + halves, np.concatenate([crops, half_crops])
        plist += list(nets.classify(half_crops))
    # Duplicates (and the two halves of a split blob) are resolved by the classifier's belief
    # that a die is centred there, times the detector's; an "odd face" counts half, so a single
    # pip seen at too small a scale (it looks like a logo die) loses to the die around it.
    strength = [c[0] * (1.0 - p[0] - 0.5 * p[nets.ODD]) for c, p in zip(cands, plist)]
    for i in inside_larger(cfg, cands, plist):
        strength[i] = 0.0
    keep = suppress(cfg, cands, strength)
    keep = [i for i in keep if plist[i][0] <= cfg.not_a_die]
    looked, votes = second_look(cfg.second_look, crops[keep], [plist[i] for i in keep])
    kept = list(zip([cands[i][:4] for i in keep], looked))
    kept, odd_size = _size_check(cfg, frame, kept)
    checks: list[FaceCheck | None] = []
    to_check: dict[int, tuple[float, float, float, int]] = {}  # die index -> what its pip check is asked
    for (_, cx, cy, side), p in kept:
        best, conf, odd = face_probs(p)
        if is_partial(cfg, cx, cy, side, w, h):
            checks.append(None)
            continue
        if best >= 4 or conf < cfg.trust_confidence or odd > conf:
            # an odd face is checked for the logo hypothesis (one central mark), not for its best pip face
            to_check[len(checks)] = (cx, cy, side, 1 if odd > conf else best)
        # else a sure 1, 2 or 3: its few pips can neither veto it nor measure the face's shape well
        checks.append(FaceCheck("ok", "", -1))
    for k, check in zip(to_check, inspect_faces(cfg.pips, frame, list(to_check.values()))):
        checks[k] = check
    skews = cocked(cfg.pips, [c.shape if c is not None and c.status == "ok" else None for c in checks],
                   [c is not None and c.grid for c in checks])
    dice = [_decide(cfg, p, face, sk, dict(center=(cx, cy), box=die_box(cx, cy, side, w, h)))
            for ((_, cx, cy, side), p), face, sk in zip(kept, checks, skews)]
    for k, turned in unstable(votes, looked, cfg.second_look_votes).items():
        if dice[k].status == "ok":
            best = face_probs(looked[k])[0]
            dice[k] = replace(dice[k], value=None, status="unreadable",
                              reason=f"reads {'/'.join(map(str, turned))} when turned (best guess {best} at "
                                     f"{dice[k].confidence:.2f})")
    for k in odd_size:  # size unlike the sure dice and no die at their size: refused, not dropped
        if dice[k].status in ("ok", "unreadable"):
            dice[k] = replace(dice[k], value=None, status="unreadable",
                              reason="size unlike the other dice (a side face, or a die of another size?)")
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    return DiceReading(tuple(dice), w, h)
