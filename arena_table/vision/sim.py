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

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .render import DIE_COLOURS, DieSpec, TableSpec, render_table

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
    ROLL_S = (0.8, 1.3)
    """Seconds a throw lasts, from entering the frame to the last die stopping."""
    REST_S = (2.0, 3.5)
    """Seconds the dice lie still before the next event."""
    HAND_S = 1.6
    """Seconds a hand spends in the frame (0.4 s in, 0.8 s still, 0.4 s out)."""

    def __post_init__(self) -> None:
        self.die_side = self.die_side or 58.0 * self.size[0] / 640
        self._rng = np.random.default_rng(self.seed)
        self._background = self._make_background()
        """Static light falloff and felt grain added to every frame (float32, HxWx1)."""
        self._cache: tuple[tuple[SimDie, ...] | None, np.ndarray | None] = (None, None)
        noise_rng = np.random.default_rng(self.seed + 104729)
        self._noise = [noise_rng.normal(0, self.noise, self.size[::-1]).astype(np.float32) for _ in range(7)]
        """Sensor noise frames, picked by the frame's time."""
        self._horizon = 0.0

    # -- the script ---------------------------------------------------------------------------------
    def throws_until(self, t: float) -> list[SimThrow]:
        """Throws that start at or before ``t`` seconds (extending the script as needed)."""
        while self._horizon <= t + 10.0:
            self._add_throw()
        return [th for th in self.throws if th.start <= t]

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
        self.throws_until(t)
        i = next(k for k, th in enumerate(self.throws) if th.start > t)  # the next throw
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

        Dice are drawn by :func:`arena_table.vision.render.render_table` (the renderer the
        reader's stress tests use); the tray's light falloff, the hand and sensor noise here.
        """
        dice, hand = self.state_at(t)
        still = tuple(d for d, u in dice if u >= 1.0)
        moving = [(d, u) for d, u in dice if u < 1.0]
        if not moving:
            img = self._scene(still).copy()
        else:
            cur = self.throws_until(t)[-1]
            span = cur.settled - cur.start
            layers = []
            for k in range(4):  # average sub-exposures: motion blur
                tk = t - exposure_s * k / 3
                flying = tuple(self._pose(d, min(1.0, max(0.0, (tk - cur.start) / span)), tk) for d, _ in moving)
                layers.append(self._scene(still, flying))
            img = np.mean(layers, axis=0)
        if hand is not None:
            self._draw_hand(img, hand)
        img += self._noise[int(round(t * 1000)) % len(self._noise)][..., None]
        return np.clip(img, 0, 255).astype(np.uint8)

    def _scene(self, still: tuple[SimDie, ...], flying: tuple[DieSpec, ...] = ()) -> np.ndarray:
        """Dice on the tray without noise, float32; scenes of resting dice only are cached."""
        key = still if not flying else None
        if key is not None and self._cache[0] == key:
            return self._cache[1]
        spec = TableSpec(self.size[0], self.size[1], tuple(self._pose(d, 1.0, 0.0) for d in still) + flying,
                         background=FELT, texture=0.0, noise=0.0)
        img = render_table(spec, np.random.default_rng(0))[0].astype(np.float32) + self._background
        if key is not None:
            self._cache = (key, img)
        return img

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

    def _draw_hand(self, img: np.ndarray, phase: float) -> None:
        w, h = self.size
        # in for the first quarter, still in the middle half, out in the last quarter
        reach = min(1.0, phase / 0.25, (1 - phase) / 0.25)
        palm_y = h + 0.25 * h - reach * 0.75 * h
        palm = (int(0.5 * w), int(palm_y))
        cv2.ellipse(img, palm, (int(0.16 * w), int(0.2 * h)), 0, 0, 360, SKIN, -1, cv2.LINE_AA)
        for k, dx in enumerate((-0.12, -0.04, 0.04, 0.12)):
            top = palm_y - 0.2 * h - (0.18 + 0.03 * (k in (1, 2))) * h
            x = 0.5 * w + dx * w
            cv2.rectangle(img, (int(x - 0.03 * w), int(top)), (int(x + 0.03 * w), int(palm_y)), SKIN, -1)

