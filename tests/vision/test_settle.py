"""Settle detection and roll segmentation, on rendered frames with hand-set timelines (frame time only)."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from arena_table.vision.capture import FolderSource
from arena_table.vision.frames import Frame
from arena_table.vision.render import DieSpec, TableSpec, render_table
from arena_table.vision import settle
from arena_table.vision.settle import SettleConfig, SettleDetector, sharpness, skin_mask
from arena_table.vision.sim import SKIN, SimTable

W, H, SIDE = 320, 240, 30.0
FPS = 10.0


def scene(*dice: tuple[int, float, float], k: int = 0, hand: tuple[int, int] | None = None,
          blur: float = 0.0) -> np.ndarray:
    """A 320x240 frame with dice (value, x, y), fresh sensor noise per frame ``k``, optional hand/blur."""
    spec = TableSpec(W, H, tuple(DieSpec(v, (x, y), SIDE, 20.0) for v, x, y in dice), texture=0.0, noise=0.0)
    img = render_table(spec, np.random.default_rng(0))[0]
    if hand is not None:
        cv2.ellipse(img, hand, (45, 55), 0, 0, 360, SKIN, -1)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    noise = np.random.default_rng(k).normal(0, 2.0, img.shape[:2])[..., None]
    return np.clip(img + noise, 0, 255).astype(np.uint8)


class Run:
    """Feeds frames at FPS and records what settled."""

    def __init__(self, config: SettleConfig = SettleConfig()) -> None:
        self.det = SettleDetector(config)
        self.k = 0
        self.settles = []
        self.states = []

    def feed(self, image: np.ndarray, n: int = 1, cut: bool = False) -> list:
        got = []
        for i in range(n):
            frame = Frame(image, self.k / FPS, self.k, "test", cut=cut and i == 0)
            s = self.det.update(frame)
            self.states.append(self.det.state)
            if s is not None:
                got.append(s)
            self.k += 1
        self.settles += got
        return got

    def throw(self, value: int, start: tuple[float, float], end: tuple[float, float], steps: int = 8,
              others: tuple = ()) -> None:
        """The die slides from ``start`` to ``end`` over ``steps`` frames (motion)."""
        for i in range(steps + 1):
            x = start[0] + (end[0] - start[0]) * i / steps
            y = start[1] + (end[1] - start[1]) * i / steps
            self.feed(scene(*others, (1 + (i % 6), x, y), k=self.k))


def test_empty_tray_at_start_sets_the_baseline_and_reads_nothing():
    run = Run()
    assert run.feed(scene(k=0), 10) == []
    assert run.det.state == "idle"


def test_moving_die_is_never_read_and_the_read_comes_settle_s_after_it_stops():
    run = Run()
    run.feed(scene(), 6)
    for i in range(40):  # 4 s of a die sliding 5 px a frame: never read
        assert run.feed(scene((3, 40 + 5 * i, 120), k=run.k)) == []
        assert run.det.state == "moving"
    settled = run.feed(scene((4, 240, 120), k=run.k))  # its last step (5 px): still motion
    still_k = run.k  # the first frame equal to the one before
    for _ in range(10):
        settled += run.feed(scene((4, 240, 120), k=run.k))
    assert len(settled) == 1
    s = settled[0]
    assert s.frame.t == pytest.approx(still_k / FPS + 0.4)  # exactly settle_s of frame time
    assert s.still_since == pytest.approx(still_k / FPS)
    assert s.started == pytest.approx(6 / FPS)
    assert s.counts((225, 105, 30, 30))


def test_settle_time_is_configurable():
    run = Run(SettleConfig(settle_s=1.0))
    run.feed(scene(), 6)
    run.throw(2, (20, 20), (160, 120))
    still_from = run.k
    got = []
    for _ in range(15):
        got += run.feed(scene((2, 160, 120), k=run.k))
    assert len(got) == 1 and got[0].frame.t == pytest.approx(still_from / FPS + 1.0)


def test_same_value_thrown_twice_gives_two_rolls():
    run = Run()
    run.feed(scene(), 6)
    run.throw(5, (10, 10), (100, 120))
    assert len(run.feed(scene((5, 100, 120), k=run.k), 8)) == 1
    run.throw(5, (100, 120), (220, 100))
    assert len(run.feed(scene((5, 220, 100), k=run.k), 8)) == 1
    assert len(run.settles) == 2


def test_nothing_more_is_read_while_the_tray_stays_still():
    run = Run()
    run.feed(scene(), 6)
    run.throw(1, (10, 10), (100, 120))
    assert len(run.feed(scene((1, 100, 120), k=run.k), 60)) == 1  # 6 s at rest: one roll


def test_hand_resting_in_the_tray_is_not_read_until_it_leaves():
    run = Run()
    run.feed(scene(), 6)
    run.throw(6, (10, 10), (80, 120))
    for i in range(6):  # the hand comes in, then rests 1.5 s over the tray
        run.feed(scene((6, 80, 120), k=run.k, hand=(320 - 20 * i, 150)))
    assert run.feed(scene((6, 80, 120), k=run.k, hand=(200, 150)), 15) == []
    assert run.det.state == "hand"
    for i in range(4):  # it leaves
        run.feed(scene((6, 80, 120), k=run.k, hand=(240 + 30 * i, 150)))
    got = run.feed(scene((6, 80, 120), k=run.k), 8)
    assert len(got) == 1 and got[0].frame.t >= (run.k - 8) / FPS + 0.4 - 1e-9
    assert "hand" in run.states


def test_skin_mask_takes_the_hand_not_red_or_white_dice():
    img = np.zeros((60, 90, 3), np.uint8)
    img[:, :30] = SKIN
    img[:, 30:60] = (40, 40, 200)   # red die body
    img[:, 60:] = (235, 240, 240)   # white die body
    m = skin_mask(img)
    assert m[:, :30].all() and not m[:, 30:].any()


def test_hand_passing_over_without_moving_dice_is_no_roll():
    run = Run(SettleConfig(mode="whole"))
    run.feed(scene(), 6)
    run.throw(2, (10, 10), (80, 120))
    assert len(run.feed(scene((2, 80, 120), k=run.k), 8)) == 1
    for i in range(10):  # a hand sweeps across the tray and out, touching nothing
        run.feed(scene((2, 80, 120), k=run.k, hand=(-40 + 45 * i, 60)))
    assert run.feed(scene((2, 80, 120), k=run.k), 10) == []
    assert len(run.settles) == 1


def test_blurred_frames_are_not_read():
    run = Run()
    run.feed(scene(), 6)
    run.throw(3, (10, 10), (160, 120))
    sharp_k = run.k
    run.feed(scene((3, 160, 120), k=run.k), 3)
    blurred = [scene((3, 160, 120), k=run.k + i, blur=1.2) for i in range(6)]
    got = []
    for img in blurred:  # the camera shook/defocused: little frame-to-frame change, much less sharp
        got += run.feed(img)
    assert got == [] and run.det.state == "blurred"
    assert sharpness(cv2.cvtColor(blurred[0], cv2.COLOR_BGR2GRAY)) < 0.7 * sharpness(
        cv2.cvtColor(scene((3, 160, 120), k=sharp_k), cv2.COLOR_BGR2GRAY))
    got = run.feed(scene((3, 160, 120), k=run.k))
    assert len(got) == 1 and got[0].sharpness >= 0.7 * run.det._best_sharp


def test_moved_mode_counts_only_dice_that_moved():
    run = Run(SettleConfig(mode="moved"))
    run.feed(scene(), 6)
    run.throw(4, (10, 10), (70, 70))
    first = run.feed(scene((4, 70, 70), k=run.k), 8)[0]
    kept = (4, 70, 70)
    run.throw(2, (320, 240), (230, 170), others=(kept,))
    second = run.feed(scene(kept, (2, 230, 170), k=run.k), 8)[0]
    box = lambda x, y: (x - 17, y - 17, 34, 34)  # noqa: E731
    assert first.counts(box(70, 70)) and first.changed is not None
    assert second.counts(box(230, 170))
    assert not second.counts(box(70, 70)), "a die that lay still was counted again"


def test_whole_mode_counts_every_die():
    run = Run(SettleConfig(mode="whole"))
    run.feed(scene(), 6)
    run.throw(4, (10, 10), (70, 70))
    run.feed(scene((4, 70, 70), k=run.k), 8)
    run.throw(2, (320, 240), (230, 170), others=((4, 70, 70),))
    second = run.feed(scene((4, 70, 70), (2, 230, 170), k=run.k), 8)[0]
    assert second.counts((53, 53, 34, 34)) and second.counts((213, 153, 34, 34))


def test_dice_lying_at_start_are_read_only_when_asked():
    lying = scene((6, 100, 100), (1, 200, 150))
    assert Run().feed(lying, 10) == []
    got = Run(SettleConfig(read_initial=True)).feed(lying, 10)
    assert len(got) == 1 and got[0].changed is None


def test_each_cut_is_a_roll_with_every_die_even_if_the_photo_repeats():
    run = Run()
    img = scene((2, 100, 100))
    first = run.feed(img, 6, cut=True)
    second = run.feed(img, 6, cut=True)  # the same photo again: still its own roll
    assert len(first) == 1 and len(second) == 1
    assert second[0].changed is None and second[0].counts((0, 0, 5, 5))


def test_global_brightness_change_is_not_motion():
    run = Run()
    run.feed(scene(), 6)
    run.throw(3, (10, 10), (150, 120))
    assert len(run.feed(scene((3, 150, 120), k=run.k), 8)) == 1
    for i in range(20):  # auto exposure drifting, then a sudden step: the dice did not move
        gain = 1.0 + 0.01 * i + (0.15 if i >= 10 else 0.0)
        img = np.clip(scene((3, 150, 120), k=run.k).astype(np.float32) * gain, 0, 255).astype(np.uint8)
        assert run.feed(img) == []
        assert run.det.state == "idle"


def test_bad_settle_settings_are_refused():
    with pytest.raises(ValueError, match="sideways"):
        SettleConfig(mode="sideways")
    with pytest.raises(ValueError):
        SettleConfig(settle_s=-1)


def test_simulated_table_one_settle_per_throw_never_while_moving():
    sim = SimTable(seed=1, size=(320, 240), p_hand=0.4, p_keep=0.4)
    det = SettleDetector(SettleConfig())
    fps, end = 12.0, 30.0
    settles = []
    for k in range(int(end * fps)):
        t = k / fps
        s = det.update(Frame(sim.render(t), t, k, "sim"))
        if s is not None:
            settles.append(s)
    throws = [th for th in sim.throws_until(end) if th.settled + 0.6 < end]
    assert len(throws) >= 6 and any(th.hand for th in throws) and any(th.kept for th in throws)
    assert len(settles) == len(throws)
    for s, th in zip(settles, throws):
        dice, hand = sim.state_at(s.frame.t)
        assert hand is None and all(u >= 1.0 for _, u in dice), "read a moving die or a hand"
        assert th.settled + 0.4 <= s.frame.t < th.settled + 0.4 + 3 / fps
        side = sim.die_side
        for d in th.thrown:
            assert s.counts((d.center[0] - side / 2, d.center[1] - side / 2, side, side))
        for d in th.kept:
            assert not s.counts((d.center[0] - side / 2, d.center[1] - side / 2, side, side))


@pytest.mark.shared
def test_each_real_photo_settles_exactly_once(tmp_path):
    from arena_table.vision.labels import dice_set_dir

    photos = sorted((dice_set_dir("matteo_d6") / "images").glob("*.jpg"))[:6]
    for p in photos:
        shutil.copy(p, tmp_path / p.name)
    source = FolderSource(tmp_path, still_frames=10, fps=10.0)
    det = SettleDetector(SettleConfig())
    names = []
    for _ in range(len(photos) * 11):
        s = det.update(source.read())
        if s is not None:
            names.append(s.frame.name)
    assert names == [p.name for p in sorted(photos, key=lambda p: int(p.stem.split("_")[1]))]


def textured(*dice, k: int = 0, blur: float = 0.0, gain: float = 1.0) -> np.ndarray:
    """``scene`` on a table with fine grain (a real table shows focus; a plain cloth does not)."""
    spec = TableSpec(W, H, tuple(DieSpec(v, (x, y), SIDE, 20.0) for v, x, y in dice), texture=0.0, noise=0.0)
    img = render_table(spec, np.random.default_rng(0))[0].astype(np.float32)
    grain = cv2.GaussianBlur(np.random.default_rng(99).normal(0, 40.0, (H, W)).astype(np.float32), (0, 0), 1.0)
    img += grain[..., None]
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    noise = np.random.default_rng(k).normal(0, 2.0, img.shape[:2])[..., None]
    return np.clip(img * gain + noise, 0, 255).astype(np.uint8)


def test_a_camera_out_of_focus_longer_than_settle_s_is_waited_for():
    """A new user's audit: a throw, then 0.8 s of still but defocused frames (autofocus hunting), then
    sharp: the blurred frame was read (one die lost) and the refocus counted as a second roll."""
    run = Run()
    run.feed(textured(k=0), 6)
    for i in range(9):  # the throw
        run.feed(textured((1 + i % 6, 10 + 18 * i, 10 + 13 * i), k=run.k))
    got = []
    for _ in range(8):  # still, but out of focus: 0.8 s > settle_s
        got += run.feed(textured((5, 160, 120), k=run.k, blur=2.0))
    assert got == [] and run.det.state == "blurred"
    got = run.feed(textured((5, 160, 120), k=run.k), 8)
    assert len(got) == 1 and got[0].frame.index >= run.k - 8
    assert run.feed(textured((5, 160, 120), k=run.k), 10) == []


def test_a_darker_exposure_after_the_throw_is_not_defocus():
    """Sharpness is compared over intensity spread: the 40 % darker frame is read at settle_s."""
    run = Run()
    run.feed(textured(k=0), 6)
    for i in range(9):
        run.feed(textured((1 + i % 6, 10 + 18 * i, 10 + 13 * i), k=run.k, gain=0.6))
    got = run.feed(textured((5, 160, 120), k=run.k, gain=0.6), 6)
    assert len(got) == 1


def test_a_lasting_loss_of_focus_is_read_after_defocus_wait_s():
    run = Run(SettleConfig(defocus_wait_s=1.0))
    run.feed(textured(k=0), 6)
    for i in range(9):
        run.feed(textured((1 + i % 6, 10 + 18 * i, 10 + 13 * i), k=run.k))
    got = run.feed(textured((5, 160, 120), k=run.k, blur=2.0), 15)
    assert len(got) == 1 and got[0].still_since + 1.0 <= got[0].frame.t + 1e-9


def test_an_array_handed_in_again_is_not_worked_again_and_settles_the_same(monkeypatch):
    """A held photo (the same array again) is scaled and compared once; fresh copies of it give the same settles."""
    worked = []
    real = settle.working_copy
    monkeypatch.setattr(settle, "working_copy", lambda image, width: worked.append(1) or real(image, width))
    photos = [scene(k=0), scene((5, 160, 120), k=1), scene((5, 160, 120), (2, 80, 60), k=2)]
    held, copied = Run(), Run()
    for img in photos:
        held.feed(img, 10, cut=True)
    assert len(worked) == 3
    for img in photos:
        copied.feed(img, cut=True)
        for _ in range(9):
            copied.feed(img.copy())
    assert len(worked) == 3 + 30
    assert held.states == copied.states
    assert [(s.frame.t, s.still_since, s.started) for s in held.settles] == \
        [(s.frame.t, s.still_since, s.started) for s in copied.settles]
    assert len(held.settles) == 3


def test_a_die_a_hand_nudges_is_no_throw_but_a_small_die_thrown_in_is():
    # 1280x720, 40 px dice: after a hand passes (not skin: a grey card), one die lies 2 px further
    # on, same face. Its box changed (counts() says moved) but under change_fraction of the frame
    # changed: with the previous read's dice, counts_die() leaves it out. A die that lands where
    # none lay counts, whatever the share.
    dice = [DieSpec(v, (300.0 + 200 * i, 300.0), 40.0, 15.0) for i, v in enumerate((2, 5, 6))]

    def frame(ds, k, card=None):
        img = render_table(TableSpec(1280, 720, tuple(ds), texture=0.0, noise=0.0), np.random.default_rng(0))[0]
        if card is not None:
            cv2.rectangle(img, card, (card[0] + 120, card[1] + 120), (128, 128, 128), -1)
        noise = np.random.default_rng(k).normal(0, 2.0, img.shape[:2])[..., None]
        return np.clip(img + noise, 0, 255).astype(np.uint8)

    run = Run(SettleConfig(mode="moved"))
    run.feed(frame(dice, 0), 8)
    for i in range(6):  # the card passes over the middle die and leaves
        run.feed(frame(dice, run.k, card=(440 + 20 * i, 240)))
    nudged = dice[:1] + [DieSpec(5, (502.0, 300.0), 40.0, 15.0)] + dice[2:]
    got = run.feed(frame(nudged, run.k), 8)
    assert len(got) == 1 and got[0].small_change
    box = (482, 280, 40, 40)
    before = [((300.0 + 200 * i, 300.0), v) for i, v in enumerate((2, 5, 6))]
    assert got[0].counts(box) and not got[0].counts_die(box, 5, before)
    assert got[0].counts_die(box, 5, []), "where no die lay, the same change is a die thrown there"
