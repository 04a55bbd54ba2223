"""The simulated table: top-down frames of d6 dice being thrown, tumbling and settling.

A :class:`SimTable` is a deterministic script drawn from a seed: idle time, now
and then a hand that reaches into the tray, pauses and takes the dice away, then
a throw -- dice slide in from an edge, tumbling (the face changes) and
decelerating, drawn with motion blur -- and rest. Some throws leave one die of
the previous roll lying where it was (exercises "moved dice only"); dice often
land touching; some faces carry a glare spot. ``render(t)`` is a pure function of
the seed and the time ``t`` in seconds, so a test can ask for any frame in any
order and a run is repeatable; :attr:`SimTable.throws` is the ground truth.

>>> sim = SimTable(seed=3)
>>> sim.render(0.0).shape
(480, 640, 3)
>>> throw = sim.throws_until(20.0)[0]
>>> throw.settled > throw.start and all(1 <= v <= 6 for v in throw.values)
True
"""

from __future__ import annotations

import bisect
import dataclasses
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .render import DIE_COLOURS, DieSpec, draw_die

FELT = (60, 95, 45)
"""Tray felt colour (BGR)."""
SKIN = (130, 165, 215)
"""Hand colour (BGR), inside the settle detector's skin range."""


@dataclass(frozen=True)
class SimDie:
    """A die at rest after a throw."""

    value: int
    center: tuple[float, float]
    angle: float
    """Rotation in degrees."""
    colour: int
    """Index into :data:`arena_table.vision.render.DIE_COLOURS`."""
    glare: tuple[float, float] | None = None
    """Glare spot offset from the centre in die sides, or None."""
    start: tuple[float, float] = (0.0, 0.0)
    """Where it entered the frame (thrown dice)."""
    spin: float = 0.0
    """Degrees turned during the throw."""


@dataclass(frozen=True)
class SimThrow:
    """One throw of the script (ground truth for tests)."""

    start: float
    """Seconds: the dice enter the frame."""
    settled: float
    """Seconds: the last die stops."""
    thrown: tuple[SimDie, ...]
    """Dice thrown (they count in the roll)."""
    kept: tuple[SimDie, ...] = ()
    """Dice of the previous roll still lying untouched (not part of this roll)."""
    hand: tuple[float, float] | None = None
    """(enter, leave) seconds of a hand that took the previous dice away before this throw."""

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.thrown)

    def touching(self, die_side: float) -> bool:
        """Whether two thrown dice touch or nearly touch (centres within 1.1 sides)."""
        return any(math.dist(a.center, b.center) < 1.1 * die_side
                   for i, a in enumerate(self.thrown) for b in self.thrown[i + 1:])


@dataclass
class SimTable:
    """A seeded script of throws and its renderer (see the module docstring).

    Args:
        seed: everything random is drawn from it.
        size: (width, height) of the frames in pixels.
        dice: (fewest, most) dice in a throw.
        p_hand: chance a hand takes the dice away before a throw.
        p_keep: chance one die of the previous roll stays lying (when no hand came).
        p_touch: chance each further die lands against the previous one.
        p_glare: chance a die shows a glare spot.
        noise: sensor noise (standard deviation in grey levels) added to every frame.
        keep_throws: at most this many throws are kept in :attr:`throws` (the oldest are dropped
            as the script grows), for a sim that runs for days and is only asked for later
            frames (the service's ``--camera sim``); frames before the kept script cannot be
            drawn again. ``None`` (default) keeps the whole script, the ground truth tests read.
    """

    seed: int = 0
    size: tuple[int, int] = (640, 480)
    dice: tuple[int, int] = (1, 4)
    p_hand: float = 0.25
    p_keep: float = 0.25
    p_touch: float = 0.5
    p_glare: float = 0.35
    noise: float = 2.0
    die_side: float = 0.0
    """Die side in pixels; 0: 58 px per 640 px of frame width."""
    throws: list[SimThrow] = field(default_factory=list)
    """The script so far, oldest first (the ground truth); may be given to start from a fixed script."""
    keep_throws: int | None = None
    KEEP_MIN = 16
    """Least ``keep_throws``: a frame needs its throw and the one before, and the script runs 10 s
    ahead of the latest frame asked for (a few throws)."""
    ROLL_S = (0.8, 1.3)
    """Seconds a throw lasts, from entering the frame to the last die stopping."""
    REST_S = (2.0, 3.5)
    """Seconds the dice lie still before the next event."""
    HAND_S = 1.6
    """Seconds a hand spends in the frame (0.4 s in, 0.8 s still, 0.4 s out)."""

    def __post_init__(self) -> None:
        if self.keep_throws is not None and self.keep_throws < self.KEEP_MIN:
            raise ValueError(f"keep_throws must be at least {self.KEEP_MIN}, not {self.keep_throws}")
        self._dropped = False
        self.die_side = self.die_side or 58.0 * self.size[0] / 640
        self._rng = np.random.default_rng(self.seed)
        self._background = self._make_background()
        """Static light falloff and felt grain added to every frame (float32, HxWx1)."""
        self._cache: tuple[tuple[SimDie, ...] | None, np.ndarray | None, np.ndarray | None] = (None, None, None)
        """(resting dice, their uint8 dice layer, that layer on the tray as float32): the last scene drawn."""
        noise_rng = np.random.default_rng(self.seed + 104729)
        self._noise = [noise_rng.normal(0, self.noise, self.size[::-1]).astype(np.float32) for _ in range(7)]
        """Sensor noise frames, picked by the frame's time."""
        self._still_frames: tuple[tuple[SimDie, ...] | None, dict[int, np.ndarray]] = (None, {})
        """Finished frames of the resting dice, one per noise frame (the idle table is a few arrays)."""
        self._horizon = 0.0

    # -- the script ---------------------------------------------------------------------------------
    def throws_until(self, t: float) -> list[SimThrow]:
        """Throws that start at or before ``t`` seconds (extending the script as needed)."""
        return self.throws[:self._next_throw(t)]

    def _next_throw(self, t: float) -> int:
        """Index in :attr:`throws` of the first throw that starts after ``t`` (extending the script
        as needed; a binary search, so a sim that ran for days costs no more per frame).

        Raises:
            ValueError: ``t`` is before the script kept (``keep_throws``).
        """
        while self._horizon <= t + 10.0:
            self._add_throw()
        if self._dropped and t < self.throws[0].start:
            raise ValueError(f"the frame at {t:.2f} s is before the {self.keep_throws} throws kept "
                             f"(from {self.throws[0].start:.2f} s)")
        return bisect.bisect_right(self.throws, t, key=lambda th: th.start)

    def _add_throw(self) -> None:
        rng = self._rng
        prev = self.throws[-1] if self.throws else None
        t = prev.settled + float(rng.uniform(*self.REST_S)) if prev else 1.0
        hand = None
        kept: tuple[SimDie, ...] = ()
        if prev is not None and rng.random() < self.p_hand:
            hand = (t, t + self.HAND_S)
            t += self.HAND_S + 0.3
        elif prev is not None and rng.random() < self.p_keep:
            lying = prev.thrown + prev.kept
            kept = (lying[int(rng.integers(len(lying)))],)
        n = int(rng.integers(self.dice[0], self.dice[1] + 1))
        thrown = self._place(n, kept)
        settled = t + float(rng.uniform(*self.ROLL_S))
        self.throws.append(SimThrow(t, settled, thrown, kept, hand))
        self._horizon = settled
        if self.keep_throws is not None and len(self.throws) > self.keep_throws:
            del self.throws[:len(self.throws) - self.keep_throws]
            self._dropped = True

    def _place(self, n: int, kept: tuple[SimDie, ...]) -> tuple[SimDie, ...]:
        rng = self._rng
        w, h = self.size
        s = self.die_side
        taken = [d.center for d in kept]
        out: list[SimDie] = []
        entry = (float(rng.uniform(0.2, 0.8) * w), float(h + s)) if rng.random() < 0.5 else (float(-s), float(rng.uniform(0.2, 0.8) * h))
        for _ in range(n):
            for _attempt in range(200):
                angle = float(rng.uniform(0, 90))
                partner = None
                if out and rng.random() < self.p_touch:  # land against the previous die, side to side
                    partner = out[-1].center
                    a = math.radians(out[-1].angle + 90 * int(rng.integers(4)))
                    gap = s * float(rng.uniform(1.0, 1.06))
                    c = (partner[0] + gap * math.cos(a), partner[1] + gap * math.sin(a))
                    angle = out[-1].angle + float(rng.uniform(-3, 3))
                else:
                    c = (float(rng.uniform(1.2 * s, w - 1.2 * s)), float(rng.uniform(1.2 * s, h - 1.2 * s)))
                inside = 1.0 * s <= c[0] <= w - 1.0 * s and 1.0 * s <= c[1] <= h - 1.0 * s
                if inside and all(math.dist(c, o) >= (0.99 if o == partner else 1.45) * s for o in taken):
                    break
            glare = (float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25))) if rng.random() < self.p_glare else None
            die = SimDie(int(rng.integers(1, 7)), c, angle % 90, int(rng.integers(len(DIE_COLOURS))), glare,
                         (entry[0] + float(rng.uniform(-s, s)), entry[1] + float(rng.uniform(-s, s))),
                         float(rng.uniform(360, 900)))
            out.append(die)
            taken.append(c)
        return tuple(out)

    # -- rendering ------------------------------------------------------------------------------------
    def _make_background(self) -> np.ndarray:
        w, h = self.size
        rng = np.random.default_rng(self.seed + 7919)
        grain = cv2.GaussianBlur(rng.normal(0, 6, (h, w)).astype(np.float32), (0, 0), 3)
        shade = np.linspace(-10, 10, w, dtype=np.float32)[None, :]  # uneven light across the tray
        return (grain + shade)[..., None]

    def state_at(self, t: float) -> tuple[list[tuple[SimDie, float]], float | None]:
        """Dice visible at ``t`` as (die, progress 0..1 of its throw; 1 = at rest) and the
        hand's phase (0..1 while a hand is in the frame, else None)."""
        i = self._next_throw(t)  # the next throw
        nxt, cur = self.throws[i], (self.throws[i - 1] if i else None)
        hand_phase = None
        gone = False  # the hand has taken the lying dice away
        if nxt.hand and t >= nxt.hand[0]:
            if t < nxt.hand[1]:
                hand_phase = (t - nxt.hand[0]) / (nxt.hand[1] - nxt.hand[0])
            gone = t >= nxt.hand[0] + 0.5 * self.HAND_S
        if cur is None or gone:
            return [], hand_phase
        u = min(1.0, (t - cur.start) / (cur.settled - cur.start))
        return [(d, 1.0) for d in cur.kept] + [(d, u) for d in cur.thrown], hand_phase

    def render(self, t: float, exposure_s: float = 1 / 30) -> np.ndarray:
        """The frame at ``t`` seconds: BGR ``HxWx3`` uint8 (moving dice blurred over ``exposure_s``).

        Dice are drawn by :mod:`arena_table.vision.render` (the renderer the reader's stress tests
        use); the tray's light falloff, the hand and sensor noise here. A frame of resting dice is
        one of a few cached arrays (copied out); a flying die is drawn, four times over the exposure
        (motion blur), only where it can change pixels, over the cached resting dice, so a frame
        costs about what its flying dice cover, not a whole frame per die and sub-exposure.
        """
        dice, hand = self.state_at(t)
        still = tuple(d for d, u in dice if u >= 1.0)
        moving = [d for d, u in dice if u < 1.0]
        patches = self._flying(t, still, moving, exposure_s) if moving else []
        k = int(round(t * 1000)) % len(self._noise)
        img = self._still_frame(still, k).copy()
        noise = self._noise[k]
        for (x0, y0, x1, y1), patch in patches:
            img[y0:y1, x0:x1] = np.clip(patch + noise[y0:y1, x0:x1, None], 0, 255).astype(np.uint8)
        if hand is not None:  # drawn over the dice in its box, which then gets its noise again
            hx0, hy0, hx1, hy1 = self._hand_box(hand)
            part = self._scene(still)[hy0:hy1, hx0:hx1].copy()
            for (x0, y0, x1, y1), patch in patches:
                ix0, iy0, ix1, iy1 = max(x0, hx0), max(y0, hy0), min(x1, hx1), min(y1, hy1)
                if ix0 < ix1 and iy0 < iy1:
                    part[iy0 - hy0:iy1 - hy0, ix0 - hx0:ix1 - hx0] = patch[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0]
            self._draw_hand(part, hand, (hx0, hy0))
            img[hy0:hy1, hx0:hx1] = np.clip(part + noise[hy0:hy1, hx0:hx1, None], 0, 255).astype(np.uint8)
        return img

    def _flying(self, t: float, still: tuple[SimDie, ...], moving: list[SimDie],
                exposure_s: float) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
        """The regions the ``moving`` dice change at ``t``: (box, the tray there without noise,
        float32), the mean of four sub-exposures over ``exposure_s`` (motion blur)."""
        cur = self.throws[self._next_throw(t) - 1]
        span = cur.settled - cur.start
        poses = [tuple(self._pose(d, min(1.0, max(0.0, (tk - cur.start) / span)), tk) for d in moving)
                 for tk in (t - exposure_s * j / 3 for j in range(4))]
        layer = self._dice_layer(still)
        patches = []
        for (x0, y0, x1, y1), group in self._regions(poses):
            shots = []
            for pose in poses:
                shot = layer[y0:y1, x0:x1].copy()
                for i in group:
                    self._draw(shot, pose[i], (x0, y0))
                shots.append(shot.astype(np.float32) + self._background[y0:y1, x0:x1])
            patches.append(((x0, y0, x1, y1), np.mean(shots, axis=0)))
        return patches

    def _still_frame(self, still: tuple[SimDie, ...], k: int) -> np.ndarray:
        """The finished frame of ``still`` dice with noise frame ``k`` (cached: do not modify)."""
        if self._still_frames[0] != still:
            self._still_frames = (still, {})
        frames = self._still_frames[1]
        if k not in frames:
            frames[k] = np.clip(self._scene(still) + self._noise[k][..., None], 0, 255).astype(np.uint8)
        return frames[k]

    def _dice_layer(self, still: tuple[SimDie, ...]) -> np.ndarray:
        """Resting dice drawn on the plain felt, uint8 (cached with :meth:`_scene`: do not modify)."""
        if self._cache[0] != still:
            layer = np.empty((self.size[1], self.size[0], 3), np.uint8)
            layer[:] = FELT
            for d in still:
                self._draw(layer, self._pose(d, 1.0, 0.0), (0, 0))
            self._cache = (still, layer, layer.astype(np.float32) + self._background)
        return self._cache[1]

    def _scene(self, still: tuple[SimDie, ...]) -> np.ndarray:
        """Resting dice on the tray without noise, float32 (cached: do not modify)."""
        self._dice_layer(still)
        return self._cache[2]

    @staticmethod
    def _reach(die: DieSpec) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) px a flat die can change when drawn: body, shadow (offset 0.1 side,
        blurred over 4 sigma of 0.08 side) and glare, with room to spare."""
        r = 1.3 * die.size + 4
        return die.center[0] - r, die.center[1] - r, die.center[0] + r, die.center[1] + r

    def _regions(self, poses: list[tuple[DieSpec, ...]]) -> list[tuple[tuple[int, int, int, int], list[int]]]:
        """Disjoint boxes (x0, y0, x1, y1 px, inside the frame) that the flying dice can change in
        ``poses`` (one tuple of dice per sub-exposure), each with the indices of its dice: dice whose
        reach overlaps are drawn together, in their order, as the whole frame would have them."""
        regions: list[tuple[list[float], list[int]]] = []
        for i in range(len(poses[0])):
            reach = [self._reach(p[i]) for p in poses]
            regions.append(([min(r[0] for r in reach), min(r[1] for r in reach),
                             max(r[2] for r in reach), max(r[3] for r in reach)], [i]))
        merged = True
        while merged:
            merged = False
            for a, b in ((a, b) for a in range(len(regions)) for b in range(a + 1, len(regions))):
                (ba, ia), (bb, ib) = regions[a], regions[b]
                if ba[0] < bb[2] and bb[0] < ba[2] and ba[1] < bb[3] and bb[1] < ba[3]:
                    regions[a] = ([min(ba[0], bb[0]), min(ba[1], bb[1]), max(ba[2], bb[2]), max(ba[3], bb[3])],
                                  sorted(ia + ib))
                    del regions[b]
                    merged = True
                    break
        boxes = [(self._clip_box(box), group) for box, group in regions]
        return [(box, group) for box, group in boxes if box[0] < box[2] and box[1] < box[3]]

    def _clip_box(self, box: tuple[float, float, float, float] | list[float]) -> tuple[int, int, int, int]:
        w, h = self.size
        return (max(0, math.floor(box[0])), max(0, math.floor(box[1])),
                min(w, math.ceil(box[2])), min(h, math.ceil(box[3])))

    def _draw(self, crop: np.ndarray, die: DieSpec, origin: tuple[int, int]) -> None:
        """Draw ``die`` (frame px) into ``crop``, whose top-left pixel is ``origin`` in the frame,
        working only on the pixels the die can reach (its shadow blur is then exactly the whole
        frame's: the shadow is zero at the window's edge, or the edge is the frame's)."""
        x0, y0, x1, y1 = self._clip_box(self._reach(die))
        ox, oy = origin
        x0, y0, x1, y1 = max(x0 - ox, 0), max(y0 - oy, 0), min(x1 - ox, crop.shape[1]), min(y1 - oy, crop.shape[0])
        if x0 < x1 and y0 < y1:
            window = crop[y0:y1, x0:x1]  # a view: the die is drawn into the crop
            draw_die(window, dataclasses.replace(die, center=(die.center[0] - ox - x0, die.center[1] - oy - y0)),
                      shadow=True)

    def _pose(self, die: SimDie, u: float, t: float) -> DieSpec:
        """The die ``u`` (0..1) of the way through its throw, as the renderer's :class:`DieSpec`."""
        ease = 1 - (1 - u) ** 2  # decelerating slide
        cx = die.start[0] + (die.center[0] - die.start[0]) * ease
        cy = die.start[1] + (die.center[1] - die.start[1]) * ease
        angle = die.angle - die.spin * (1 - ease)
        # tumbling: the top face changes until the die slides flat for the last stretch
        value = die.value if u >= 0.85 else 1 + int(abs(hash((die.center, int(t * 12))))) % 6
        body, pip = DIE_COLOURS[die.colour]
        glare = (*die.glare, 0.26) if die.glare is not None and u >= 1.0 else None
        return DieSpec(value, (cx, cy), float(self.die_side), angle, body, pip, glare=glare)

    def _hand_geometry(self, phase: float) -> tuple[tuple[int, int], tuple[int, int], list[tuple[int, ...]]]:
        """The hand at ``phase``: palm centre and half-axes, finger rectangles (x0, y0, x1, y1), frame px."""
        w, h = self.size
        # in for the first quarter, still in the middle half, out in the last quarter
        reach = min(1.0, phase / 0.25, (1 - phase) / 0.25)
        palm_y = h + 0.25 * h - reach * 0.75 * h
        fingers = []
        for k, dx in enumerate((-0.12, -0.04, 0.04, 0.12)):
            top = palm_y - 0.2 * h - (0.18 + 0.03 * (k in (1, 2))) * h
            x = 0.5 * w + dx * w
            fingers.append((int(x - 0.03 * w), int(top), int(x + 0.03 * w), int(palm_y)))
        return (int(0.5 * w), int(palm_y)), (int(0.16 * w), int(0.2 * h)), fingers

    def _hand_box(self, phase: float) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) px inside the frame that the hand at ``phase`` covers (anti-aliased edge included)."""
        (cx, cy), (ax, ay), fingers = self._hand_geometry(phase)
        boxes = [(cx - ax, cy - ay, cx + ax, cy + ay), *fingers]
        return self._clip_box((min(b[0] for b in boxes) - 2, min(b[1] for b in boxes) - 2,
                               max(b[2] for b in boxes) + 3, max(b[3] for b in boxes) + 3))

    def _draw_hand(self, img: np.ndarray, phase: float, origin: tuple[int, int] = (0, 0)) -> None:
        """Draw the hand at ``phase`` into ``img``, whose top-left pixel is ``origin`` in the frame."""
        ox, oy = origin
        (cx, cy), axes, fingers = self._hand_geometry(phase)
        cv2.ellipse(img, (cx - ox, cy - oy), axes, 0, 0, 360, SKIN, -1, cv2.LINE_AA)
        for x0, y0, x1, y1 in fingers:
            cv2.rectangle(img, (x0 - ox, y0 - oy), (x1 - ox, y1 - oy), SKIN, -1)
