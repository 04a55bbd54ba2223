"""Settle detection and roll segmentation: which frames to read, once per throw.

Frame-to-frame logic on a small grey working copy of each frame, driven only by
frame timestamps (never the wall clock), so recorded or simulated frames behave
exactly like live ones (the same image array handed in again, a photo held
still, is not scaled or compared again: it cannot have moved):

* **motion starts a roll** -- more than ``motion_fraction`` of the working pixels
  changed by more than ``pixel_threshold`` grey levels since the previous frame
  (after removing the median change, so a global brightness step is not motion);
* **the roll is read once everything has been still** for ``settle_s`` seconds
  (default 0.4 s): whole-frame stillness implies every die is still;
* **blurred frames are never read** -- the candidate frame's sharpness (variance
  of the Laplacian over the region that changed) must be at least ``blur_ratio``
  of the sharpest frame of the still window, and the table around the dice (the
  region that did not change) must be as sharp as at the last settle, measured
  contrast-free (Laplacian variance over intensity variance), so a camera that
  stays out of focus longer than ``settle_s`` (autofocus hunting) is waited for,
  up to ``defocus_wait_s``;
* **a hand is not dice** -- a large skin-coloured region that was not there at
  the last settle holds the read until it leaves;
* **every settle is one roll**, whatever the faces: after a read the detector is
  idle until new motion; motion that leaves the tray as it was is no roll;
* **dice that did not move are not counted again** (mode ``moved``): the result
  carries the mask of what changed since the previous settle, and
  :meth:`Settle.counts` tells whether a die's box lies in it. Mode ``whole``
  counts every die in the tray.

A :class:`~arena_table.vision.frames.Frame` with ``cut`` set (a new still
photo) starts a new scene: it is a roll of its own with every die counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from .frames import Frame

MODES = ("moved", "whole")


@dataclass(frozen=True)
class SettleConfig:
    """Settle parameters; defaults are the table's (``docs/camera.md``)."""

    settle_s: float = 0.4
    """Seconds (frame timestamps) everything must be still before a roll is read."""
    mode: str = "moved"
    """``moved``: only dice that moved since the last settle count; ``whole``: every die in the tray."""
    work_width: int = 320
    """Frames are compared at this width in pixels (aspect kept)."""
    pixel_threshold: int = 18
    """Grey levels (0..255, after a 5x5 Gaussian blur) a working pixel must change by to count as changed."""
    motion_fraction: float = 0.002
    """Share of working pixels changed since the previous frame that is motion (about 1/8 of a die at 320 px)."""
    change_fraction: float = 0.002
    """Mode ``whole``: share of working pixels changed since the last settle below which motion left
    the tray as it was (no roll). Mode ``moved`` reads any settle after which some pixel changed;
    below this share a die that lay at its place before counts only if its face changed (a die a
    hand nudged is no throw; :meth:`Settle.counts_die`)."""
    blur_ratio: float = 0.7
    """A frame is read only if its sharpness is at least this share of the sharpest frame of the still window."""
    defocus_wait_s: float = 3.0
    """Seconds of stillness after which a frame whose table is less sharp than at the last settle is
    read all the same (the focus or the light changed for good)."""
    min_texture: float = 4.0
    """Laplacian variance (working scale) the table around the dice must have at the last settle for
    its sharpness to be compared (a plain cloth shows no focus)."""
    hand_fraction: float = 0.05
    """A skin-coloured new region larger than this share of the frame is a hand: wait for it to leave."""
    moved_overlap: float = 0.15
    """Mode ``moved``: a die counts when at least this share of its box changed since the last settle."""
    turned_overlap: float = 0.06
    """Mode ``moved``: a die that :meth:`Settle.counts` leaves out still counts when at least this
    share of the middle half of its box (half its width and height) changed and the previous
    settle's reading had a die at its place showing another face (:meth:`Settle.face_changed`): a
    die thrown again onto its own spot, or turned over in place, whose new face differs from the
    old by its centre pip alone (2/3, 4/5). Measured on rendered dice (30-116 px, 320x240 to
    1280x720, 8 colours, every pair of faces, 2 angles): such a face change changes at least 8.8 %
    of the middle half (116 px dice at 1280x720), while a neighbour landing against a still die
    changed at most 7 % (its edge and shadow reach the box's rim, not its middle), and that only
    where the two dice overlapped a little."""
    read_initial: bool = False
    """Hand in the frame of the dice already lying in the tray when the camera starts as a roll
    (else it only sets the baseline; the camera loop reads it without recording anything, to know
    which face lies where, see :meth:`Settle.counts_die`)."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"settle mode {self.mode!r}: use one of {', '.join(MODES)}")
        if self.settle_s < 0:
            raise ValueError(f"settle_s must be >= 0, got {self.settle_s}")


@dataclass(frozen=True, eq=False)
class Settle:
    """A settled roll: the frame to read and what changed since the previous one."""

    frame: Frame
    """The frame to read (sharp, everything still for ``settle_s``)."""
    started: float
    """Timestamp of the first frame of the motion that began the roll."""
    still_since: float
    """Timestamp of the first still frame."""
    changed: np.ndarray | None
    """Working-scale bool mask of what differs from the previous settle; None: no previous
    settle to compare with (first roll, new photo), so every die counts."""
    scale: float
    """Working pixels per frame pixel."""
    mode: str
    """The :attr:`SettleConfig.mode` in force."""
    moved_overlap: float
    sharpness: float
    """Variance of the Laplacian of the read frame over the changed region (working scale)."""

    def __repr__(self) -> str:
        changed = "all" if self.changed is None else f"{float(self.changed.mean()):.3f}"
        return (f"Settle({self.frame!r}, started={self.started:.3f}, still_since={self.still_since:.3f}, "
                f"changed={changed}, mode={self.mode!r})")

    turned_overlap: float = 0.06
    """See :attr:`SettleConfig.turned_overlap`."""
    small_change: bool = False
    """Less than ``SettleConfig.change_fraction`` of the frame changed (mode ``moved``): a die that
    lay there before counts only when its face changed (see :meth:`counts_die`)."""

    def changed_share(self, box: tuple[float, float, float, float]) -> float:
        """Share (0..1) of the ``(x, y, w, h)`` frame-pixel box that changed since the previous settle
        (1.0 without a previous settle; 0.0 for a box outside the frame)."""
        if self.changed is None:
            return 1.0
        x, y, w, h = (int(round(v * self.scale)) for v in box)
        region = self.changed[max(0, y):max(0, y + h), max(0, x):max(0, x + w)]
        return float(region.mean()) if region.size else 0.0

    def counts(self, box: tuple[float, float, float, float]) -> bool:
        """Whether a die whose box is ``(x, y, w, h)`` frame pixels belongs to this roll (by pixels alone)."""
        return self.mode == "whole" or self.changed_share(box) >= self.moved_overlap

    def counts_die(self, box: tuple[float, float, float, float], value: int | None,
                   before: Sequence[tuple[tuple[float, float], int | None]] | None) -> bool:
        """Whether a die read ``value`` (``None``: refused) in the ``(x, y, w, h)`` frame-pixel box
        belongs to this roll, given ``before``, the dice the previous settle's read found as
        ``((cx, cy), value)`` (value ``None``: refused; ``before`` ``None``: not known).

        Mode ``whole``, or no previous settle: every die. Mode ``moved``, where at least
        ``moved_overlap`` of its box changed (:meth:`counts`) and the previous read found no die
        within half a side of it: it was thrown here. Where that die showed another face: also
        when its face changed in place (:meth:`face_changed`). Where it showed the same face, or
        its face or this one is not known: only when at least ``change_fraction`` of the frame
        changed (a die a hand nudged a few pixels is no throw).

        >>> s = Settle(None, 0.0, 0.0, np.zeros((40, 40), bool), 1.0, "moved", 0.15, 0.0, small_change=True)
        >>> s.changed[0:10, 0:4] = True  # 40 % of the first die's box: a small die lands, or one is nudged
        >>> s.counts_die((0, 0, 10, 10), 4, []), s.counts_die((0, 0, 10, 10), 4, [((5.0, 5.0), 4)])
        (True, False)
        >>> s.counts_die((0, 0, 10, 10), 4, None), s.counts_die((0, 0, 10, 10), 4, [((5.0, 5.0), 2)])
        (False, True)
        >>> s.counts_die((0, 0, 10, 10), 4, [((5.0, 5.0), None)])  # a die refused there before: not known
        False
        """
        if self.mode == "whole" or self.changed is None:
            return True
        moved = self.changed_share(box) >= self.moved_overlap
        if before is None or value is None:
            return moved and not self.small_change
        near = values_near(box, before)
        if not near:
            return moved
        if None not in near and any(v != value for v in near):
            return moved or self.face_changed(box, value, before)
        return moved and not self.small_change

    def face_changed(self, box: tuple[float, float, float, float], value: int,
                     before: Sequence[tuple[tuple[float, float], int | None]]) -> bool:
        """Whether a die read ``value`` in ``box``, which :meth:`counts` leaves out, was thrown again
        onto its own spot: at least ``turned_overlap`` of the middle half of its box changed and
        ``before`` (the previous settle's dice read ok, as ``((cx, cy), value)`` in frame pixels)
        has a die within half a side of its centre showing another face.

        >>> s = Settle(None, 0.0, 0.0, np.zeros((20, 20), bool), 1.0, "moved", 0.15, 0.0)
        >>> s.changed[8:12, 8:12] = True  # the centre pip: 4 % of the die's box, 16 % of its middle half
        >>> s.counts((0, 0, 20, 20)), s.face_changed((0, 0, 20, 20), 3, [((10.0, 10.0), 2)])
        (False, True)
        >>> s.face_changed((0, 0, 20, 20), 3, [((10.0, 10.0), 3)]), s.face_changed((0, 0, 20, 20), 3, [((21.0, 10.0), 2)])
        (False, False)
        >>> s.changed[8:12, 8:12] = False; s.changed[:, :3] = True  # a neighbour's edge on the rim: 15 %
        >>> s.counts((0, 0, 20, 20)), s.face_changed((0, 0, 20, 20), 3, [((10.0, 10.0), 2)])
        (True, False)
        """
        x, y, w, h = box
        if self.mode == "whole" or self.changed_share((x + w / 4.0, y + h / 4.0, w / 2.0, h / 2.0)) < self.turned_overlap:
            return False
        return any(v is not None and v != value for v in values_near(box, before))


def values_near(box: tuple[float, float, float, float], dice: Sequence[tuple[tuple[float, float], int | None]]) -> list:
    """The values of ``dice`` (``((cx, cy), value)`` in frame pixels) whose centre lies within half a
    side of the ``(x, y, w, h)`` box's centre: a die at that die's place (two dice are a side apart).

    >>> values_near((0, 0, 20, 20), [((12.0, 8.0), 3), ((21.0, 10.0), 5), ((10.0, 10.0), None)])
    [3, None]
    """
    x, y, w, h = box
    cx, cy, side = x + w / 2.0, y + h / 2.0, max(w, h)
    return [v for c, v in dice if math.hypot(c[0] - cx, c[1] - cy) < 0.5 * side]


def sharpness(grey: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Variance of the Laplacian of ``grey`` (over ``mask`` if given and not empty): higher is sharper.

    >>> flat = np.full((20, 20), 100, np.uint8); edge = flat.copy(); edge[:, 10:] = 200
    >>> sharpness(flat) == 0.0 < sharpness(edge)
    True
    """
    lap = cv2.Laplacian(grey, cv2.CV_32F, ksize=3)
    if mask is not None and mask.any():
        lap = lap[mask]
    return float(lap.var())


def skin_mask(bgr: np.ndarray) -> np.ndarray:
    """Bool mask of skin-coloured pixels (YCrCb box Cr 135..175, Cb 85..135, Y > 40).

    Chai & Ngan, "Face segmentation using skin-color map", IEEE TCSVT 9(4), 1999
    (Cr 133..173, Cb 77..127, widened for warm light); saturated red dice (Cr > 180) fall outside.
    """
    ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    return cv2.inRange(ycc, (40, 135, 85), (255, 175, 135)) > 0


def working_copy(image: np.ndarray, work_width: int) -> tuple[np.ndarray, np.ndarray, float]:
    """``image`` (BGR) at ``work_width`` px wide (never enlarged), its grey after a 5x5 Gaussian
    blur, and the working pixels per frame pixel.

    >>> small, grey, scale = working_copy(np.zeros((480, 640, 3), np.uint8), 320)
    >>> small.shape, grey.shape, scale
    ((240, 320, 3), (240, 320), 0.5)
    """
    h, w = image.shape[:2]
    scale = min(1.0, work_width / w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1 else image
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    return small, grey, scale


class SettleDetector:
    """Feed frames in order with :meth:`update`; it returns a :class:`Settle` once per roll.

    :attr:`state` is one of ``starting`` (no baseline yet), ``idle`` (tray at rest, read),
    ``moving``, ``settling`` (still, waiting ``settle_s``), ``hand`` (a hand in the tray)
    or ``blurred`` (still but the frame is blurred).
    """

    def __init__(self, config: SettleConfig = SettleConfig()) -> None:
        self.config = config
        self.state = "starting"
        self._prev: np.ndarray | None = None
        self._baseline: np.ndarray | None = None
        self._roll_start = 0.0
        self._still_since: float | None = None
        self._best_sharp = 0.0
        self._kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        self._worked: tuple[np.ndarray, tuple[np.ndarray, np.ndarray, float]] | None = None
        """The last image and its :func:`working_copy`: a source hands the same array again only
        for the same picture (a photo held still), which is then not scaled and compared again."""

    def __repr__(self) -> str:
        return f"SettleDetector(state={self.state!r}, mode={self.config.mode!r}, settle_s={self.config.settle_s})"

    def _work(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        if self._worked is not None and self._worked[0] is image:
            return self._worked[1]
        work = working_copy(image, self.config.work_width)
        self._worked = (image, work)
        return work

    def _diff(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Pixels that changed, after taking out a global brightness step (auto exposure, a cloud)."""
        d = a.astype(np.int16) - b.astype(np.int16)
        d -= np.int16(np.median(d[::4, ::4]))
        return np.abs(d) > self.config.pixel_threshold

    def update(self, frame: Frame) -> Settle | None:
        """Take the next frame (frames must come in time order).

        Args:
            frame: the next frame of the source.

        Returns:
            The :class:`Settle` when this frame completes a roll (at most once per roll), else None.
        """
        cfg = self.config
        small, grey, scale = self._work(frame.image)
        t = frame.t
        if frame.cut or self._prev is None or self._prev.shape != grey.shape:
            fresh_scene = frame.cut or self._prev is not None
            self._prev = grey
            self._still_since = t
            self._best_sharp = 0.0
            if fresh_scene:  # a new photo (or a new resolution): a roll with every die counted
                self._baseline = None
                self._roll_start = t
                self.state = "settling"
            else:
                self.state = "starting"
        else:
            moving = grey is not self._prev and float(self._diff(grey, self._prev).mean()) > cfg.motion_fraction
            self._prev = grey
            if moving:
                if self.state in ("idle", "starting"):
                    self._roll_start = t
                self.state = "moving"
                self._still_since = None
                self._best_sharp = 0.0
                return None
            if self._still_since is None:
                self._still_since = t
        if self.state == "idle":
            self._baseline = grey  # follow slow light drift while nothing happens
            return None
        changed = None if self._baseline is None else cv2.dilate(
            self._diff(grey, self._baseline).astype(np.uint8), self._kernel) > 0
        sharp = sharpness(grey, changed)
        self._best_sharp = max(self._best_sharp, sharp)
        if t - self._still_since < cfg.settle_s - 1e-9:
            if self.state != "starting":
                self.state = "settling"
            return None
        if self.state == "starting":  # first stillness after the camera started: the baseline
            self._baseline = grey
            self.state = "idle"
            if cfg.read_initial:
                return Settle(frame, self._still_since, self._still_since, None, scale, cfg.mode,
                              cfg.moved_overlap, sharp)
            return None
        if changed is not None and self._is_hand(small, changed):
            self.state = "hand"
            return None
        if sharp < cfg.blur_ratio * self._best_sharp or (
                changed is not None and t - self._still_since < cfg.defocus_wait_s - 1e-9
                and self._defocused(grey, ~changed)):
            self.state = "blurred"
            return None
        self.state = "idle"
        self._baseline = grey
        share = None if changed is None else float(changed.mean())
        if share is not None and (share < cfg.change_fraction if cfg.mode == "whole" else not changed.any()):
            # something passed over the tray and left it as it was; in mode "moved" each die's own
            # box decides (Settle.counts_die): a die thrown again onto its own spot with another
            # face may change less than change_fraction of the frame
            return None
        small = share is not None and share < cfg.change_fraction
        return Settle(frame, self._roll_start, self._still_since, changed, scale, cfg.mode, cfg.moved_overlap, sharp,
                      cfg.turned_overlap, small)

    def _defocused(self, grey: np.ndarray, static: np.ndarray) -> bool:
        """Whether the unchanged table (``static``) is less sharp than in the baseline frame, by more
        than ``blur_ratio``; sharpness over intensity variance, so a brightness or contrast change
        does not count. False when the table shows too little texture to tell."""
        if static.mean() < 0.3:
            return False
        base = cv2.Laplacian(self._baseline, cv2.CV_32F, ksize=3)[static]
        if float(base.var()) < self.config.min_texture:
            return False
        now = cv2.Laplacian(grey, cv2.CV_32F, ksize=3)[static]
        ref = float(base.var()) / (float(self._baseline[static].var()) + 1.0)
        return float(now.var()) / (float(grey[static].var()) + 1.0) < self.config.blur_ratio * ref

    def _is_hand(self, small: np.ndarray, changed: np.ndarray) -> bool:
        mask = (skin_mask(small) & changed).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n <= 1:
            return False
        return stats[1:, cv2.CC_STAT_AREA].max() >= self.config.hand_fraction * mask.size
