"""The simulated table: deterministic, moving then still, touching dice, glare and hands."""

from __future__ import annotations

import math

import numpy as np

from arena_table.vision.render import TableSpec, render_table
from arena_table.vision.sim import FELT, SimTable
from arena_table.vision.settle import skin_mask


def test_same_seed_same_frames_any_order():
    a, b = SimTable(seed=5, size=(320, 240)), SimTable(seed=5, size=(320, 240))
    late = b.render(12.3)  # b is asked out of order
    assert np.array_equal(a.render(3.1), b.render(3.1))
    assert np.array_equal(a.render(12.3), late)
    assert [th.values for th in a.throws_until(30)] == [th.values for th in b.throws_until(30)]
    assert [th.values for th in SimTable(seed=6).throws_until(30)] != [th.values for th in a.throws_until(30)]


def test_throw_timeline_moving_then_still():
    sim = SimTable(seed=2, size=(320, 240))
    th = sim.throws_until(10)[0]
    dice, hand = sim.state_at((th.start + th.settled) / 2)
    assert dice and all(u < 1 for _, u in dice) and hand is None
    dice, _ = sim.state_at(th.settled + 0.01)
    assert [d.value for d, u in dice] == list(th.values) and all(u == 1.0 for _, u in dice)
    # at rest: frames differ only by sensor noise; in flight: the dice move between frames
    r1, r2 = sim.render(th.settled + 0.5).astype(int), sim.render(th.settled + 0.6).astype(int)
    assert np.abs(r1 - r2).max() < 20
    m1, m2 = sim.render(th.start + 0.3).astype(int), sim.render(th.start + 0.4).astype(int)
    assert (np.abs(m1 - m2) > 40).sum() > 200


def test_rest_dice_are_where_the_truth_says():
    sim = SimTable(seed=4, size=(640, 480), noise=0.0, p_glare=0.0)
    th = sim.throws_until(10)[0]
    img = sim.render(th.settled + 1.0)
    for d in th.thrown:  # the die's centre pixel is the die body colour, not felt
        x, y = (int(round(v)) for v in d.center)
        felt = np.array([60, 95, 45])
        patch = img[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).astype(int)
        assert np.abs(patch - felt).sum(1).max() > 60


def test_script_exercises_touching_glare_hands_and_kept_dice():
    sim = SimTable(seed=0, size=(320, 240))
    throws = sim.throws_until(120)
    assert len(throws) >= 20
    assert sum(th.touching(sim.die_side) for th in throws) >= 5
    assert sum(d.glare is not None for th in throws for d in th.thrown) >= 5
    assert sum(th.hand is not None for th in throws) >= 3
    assert sum(bool(th.kept) for th in throws) >= 2
    for th in throws:
        ds = th.thrown + th.kept
        for i, a in enumerate(ds):  # dice never overlap (touching means about one side apart)
            for b in ds[i + 1:]:
                assert math.dist(a.center, b.center) >= 0.98 * sim.die_side
        assert all(1 <= d.value <= 6 for d in th.thrown)


def test_hand_is_skin_coloured_and_takes_the_dice():
    sim = SimTable(seed=0, size=(320, 240))
    th = next(t for t in sim.throws_until(200) if t.hand)
    enter, leave = th.hand
    img = sim.render(enter + 0.5 * (leave - enter) - 0.05)
    assert skin_mask(img).mean() > 0.05
    before, _ = sim.state_at(enter - 0.01)
    after, hand = sim.state_at(leave - 0.01)
    assert before and after == [] and hand is not None
    assert skin_mask(sim.render(leave + 0.1)).mean() < 0.005


def whole_frame_render(sim: SimTable, t: float, exposure_s: float = 1 / 30) -> np.ndarray:
    """The frame at ``t`` drawn the plain way: every die of every sub-exposure into a whole frame."""
    dice, hand = sim.state_at(t)
    still = tuple(sim._pose(d, 1.0, 0.0) for d, u in dice if u >= 1.0)
    moving = [d for d, u in dice if u < 1.0]

    def scene(flying=()):
        spec = TableSpec(sim.size[0], sim.size[1], still + flying, background=FELT, texture=0.0, noise=0.0)
        return render_table(spec, np.random.default_rng(0))[0].astype(np.float32) + sim._background

    if moving:
        cur = sim.throws_until(t)[-1]
        span = cur.settled - cur.start
        layers = []
        for k in range(4):
            tk = t - exposure_s * k / 3
            layers.append(scene(tuple(sim._pose(d, min(1.0, max(0.0, (tk - cur.start) / span)), tk) for d in moving)))
        img = np.mean(layers, axis=0)
    else:
        img = scene()
    if hand is not None:
        sim._draw_hand(img, hand)
    img += sim._noise[int(round(t * 1000)) % len(sim._noise)][..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def test_frames_drawn_where_dice_move_equal_whole_frames():
    """Only the regions flying dice and the hand reach are drawn again: pixel for pixel the same frames."""
    sim = SimTable(seed=1, size=(320, 240), p_hand=0.4, p_keep=0.4, p_glare=0.6)
    throws = sim.throws_until(40)
    assert any(th.kept for th in throws) and any(th.hand for th in throws)
    assert any(th.touching(sim.die_side) for th in throws)
    times = [th.start + f * (th.settled - th.start) for th in throws for f in (0.02, 0.3, 0.7, 0.97)]
    times += [th.settled + 0.5 for th in throws]
    times += [th.hand[0] + f * (th.hand[1] - th.hand[0]) for th in throws if th.hand for f in (0.1, 0.5, 0.9)]
    for t in sorted(times):
        assert np.array_equal(sim.render(t), whole_frame_render(sim, t)), f"frame at {t:.3f} s"


def test_cached_still_frames_are_handed_out_as_copies():
    sim = SimTable(seed=2, size=(320, 240))
    th = sim.throws_until(10)[0]
    t = th.settled + 1.0
    first = sim.render(t)
    expected = first.copy()
    first[:] = 0  # a caller drawing on its frame does not change the next one
    assert np.array_equal(sim.render(t), expected)


def test_kept_script_is_capped_and_draws_the_same_frames():
    """The service's endless sim keeps only its latest throws: the cap holds however long it runs,
    and every frame it draws is the one the whole script draws."""
    import pytest

    from arena_table.vision.replay import SIM_KEEP_THROWS, SimSource

    whole, kept = SimTable(seed=7, size=(160, 120)), SimTable(seed=7, size=(160, 120), keep_throws=16)
    for t in [0.0, 3.3, 50.0, 200.0] + [400 + 0.25 * k for k in range(40)] + [2000.0, 2000.4]:
        assert np.array_equal(kept.render(t), whole.render(t)), t
        assert len(kept.throws) <= 16
        assert kept.throws == whole.throws[-len(kept.throws):]
        assert kept.throws_until(t)[-1:] == whole.throws_until(t)[-1:]
    assert len(whole.throws) > 400  # the cap was really needed
    with pytest.raises(ValueError, match="before the 16 throws kept"):
        kept.render(100.0)
    with pytest.raises(ValueError, match="at least 16"):
        SimTable(keep_throws=3)
    src = SimSource(seed=1, realtime=False)
    assert src.table.keep_throws == SIM_KEEP_THROWS
    src.table.throws_until(3600 * 24)  # a day of the service's sim
    assert len(src.table.throws) == SIM_KEEP_THROWS
