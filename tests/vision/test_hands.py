"""A die held in a hand is refused, not read (arena_table/vision/hands.py).

Rendered frames (a skin-coloured hand drawn around a die) and, marked ``shared``, the one die held
in fingers in ../shared/data/dice/byler_d6 (BSD-3-Clause, Nell Byler; see its LICENSE and SOURCE.md).
"""

import cv2
import numpy as np
import pytest

from arena_table.vision.dice import DiceConfig, read_dice
from arena_table.vision.dice_io import load_image
from arena_table.vision.hands import HandConfig, hand_share, held_dice, table_colour
from arena_table.vision.labels import dice_set_dir
from arena_table.vision.render import DieSpec, TableSpec, render_table
from arena_table.vision.settle import skin_mask
from arena_table.vision.sim import SKIN

W, H, SIDE = 640, 480, 40.0
FELT = (70, 110, 60)
WHITE, BLACK = (235, 240, 240), (25, 25, 25)
ORANGE = (90, 150, 225)
"""A die body colour inside the skin-colour box (checked in the test that uses it)."""


def frame_of(*dice, background=FELT, seed=0):
    spec = TableSpec(W, H, dice=tuple(dice), background=background)
    return render_table(spec, np.random.default_rng(seed))[0]


def die(value, x=320.0, y=240.0, **kw):
    return DieSpec(value, (x, y), SIDE, 12.0, **kw)


def with_hand(frame, x=320, y=240):
    """A thumb and a finger pinching the die at (x, y) from both sides and the hand below it, as in
    byler's photo; the die itself is drawn again on top, so its face stays clear."""
    out = frame.copy()
    for dx in (-1, 1):  # thumb and finger: 1.2 die sides wide, from above the die down to the palm
        cv2.ellipse(out, (int(x + dx * 1.25 * SIDE), int(y + 0.3 * SIDE)), (int(0.6 * SIDE), int(1.6 * SIDE)),
                    0, 0, 360, SKIN, -1)
    cv2.ellipse(out, (x, int(y + 2.0 * SIDE)), (int(2.2 * SIDE), int(1.3 * SIDE)), 0, 0, 360, SKIN, -1)
    r = int(0.75 * SIDE)
    out[y - r:y + r, x - r:x + r] = frame[y - r:y + r, x - r:x + r]
    return out


def test_the_hand_is_skin_coloured_and_leaves_the_die_visible():
    f = with_hand(frame_of(die(4, body=WHITE, pip=BLACK)))
    assert skin_mask(np.array([[SKIN]], np.uint8))[0, 0]
    d = read_dice(DiceConfig(hands=HandConfig(share=0)), f).dice
    assert [(x.status, x.value) for x in d] == [("ok", 4)]  # without the test the die is read


def test_a_die_held_in_a_hand_is_refused():
    d = read_dice(DiceConfig(), with_hand(frame_of(die(4, body=WHITE, pip=BLACK)))).dice
    assert len(d) == 1
    assert d[0].status == "unreadable" and d[0].value is None
    assert d[0].reason.startswith("held in a hand")


def test_a_die_beside_the_held_one_is_still_read():
    f = with_hand(frame_of(die(4, body=WHITE, pip=BLACK), die(2, x=520.0, y=120.0, body=WHITE, pip=BLACK)))
    at = {(round(d.center[0], -2), round(d.center[1], -2)): d for d in read_dice(DiceConfig(), f).dice}
    assert (at[500, 100].status, at[500, 100].value) == ("ok", 2)
    assert at[300, 200].reason.startswith("held in a hand")


def test_a_die_on_a_skin_coloured_table_is_read():
    # a beige or wooden table is skin-coloured, but it is the frame's median colour: not a hand
    beige = SKIN
    f = frame_of(die(5, body=WHITE, pip=BLACK), die(3, x=150.0, y=360.0, body=BLACK, pip=WHITE), background=beige)
    assert skin_mask(f).mean() > 0.8
    got = sorted((d.status, d.value) for d in read_dice(DiceConfig(), f).dice)
    assert got == [("ok", 3), ("ok", 5)]


def test_skin_coloured_dice_touching_a_die_are_not_a_hand():
    assert skin_mask(np.array([[ORANGE]], np.uint8))[0, 0]
    ring = [die(v, x=320 + dx * 1.02 * SIDE, y=240 + dy * 1.02 * SIDE, body=ORANGE, pip=BLACK)
            for v, (dx, dy) in zip((1, 2, 3, 5, 6, 1), ((-1, 0), (1, 0), (0, 1), (-1, 1), (1, 1), (0, -1)))]
    f = frame_of(die(4, body=WHITE, pip=BLACK), *ring)
    d = read_dice(DiceConfig(), f).dice
    assert not any(x.reason.startswith("held in a hand") for x in d), d


def test_hand_share_measures_the_ring_less_the_other_dice():
    f = frame_of()
    table = table_colour(f)
    cfg = HandConfig()
    assert hand_share(cfg, f, (320.0, 240.0), SIDE, [], table) == 0.0
    half = f.copy()
    half[:, :320] = SKIN  # the left half of the ring is hand
    assert hand_share(cfg, half, (320.0, 240.0), SIDE, [], table_colour(f)) == pytest.approx(0.5, abs=0.03)
    # the hand's half hidden under another die's box: nothing of the ring left is hand
    assert hand_share(cfg, half, (320.0, 240.0), SIDE, [(0, 0, 320, 480)], table_colour(f)) == 0.0
    assert hand_share(cfg, f, (-500.0, -500.0), SIDE, [], table) is None  # no ring in the frame


def test_the_test_can_be_switched_off():
    f = with_hand(frame_of(die(4, body=WHITE, pip=BLACK)))
    assert held_dice(HandConfig(), f, [((320.0, 240.0), SIDE)], [(300, 220, 40, 40)])
    assert held_dice(HandConfig(share=0), f, [((320.0, 240.0), SIDE)], [(300, 220, 40, 40)]) == {}


@pytest.mark.shared
def test_the_die_held_in_fingers_in_byler_is_refused_and_the_others_read():
    path = dice_set_dir("byler_d6") / "images" / "IMG_20191208_112623.jpg"
    if not path.is_file():
        pytest.skip(f"labelled photos not found at {path.parent} (clone the repo beside ../shared)")
    d = read_dice(DiceConfig(), load_image(path)).dice
    held = [x for x in d if x.reason.startswith("held in a hand")]
    assert len(held) == 1 and held[0].center[1] > 500  # the die in the fingers at the photo's bottom edge
    assert [x.value for x in d if x.status == "ok"] == [5]  # the labelled die: a red 5 in the tray
