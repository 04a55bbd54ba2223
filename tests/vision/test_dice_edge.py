"""The reader at the edges of what a user's camera hands it: close-ups, glare, huge and
transparent images (issue 26, item 3).

Close-ups are cropped around one die of a labelled photo and upscaled, so the die fills 30 %, 50 %
or 70 % of the frame; they need the matteo photos of ../shared/data/dice (CC BY 4.0, Matteo
Mortari; see that set's LICENSE and SOURCE.md) and are skipped without them.
"""

from __future__ import annotations

import math
import tracemalloc

import cv2
import numpy as np
import pytest

from arena_table.vision.dice import MAX_WORK_SIDE, DiceConfig, read_dice
from arena_table.vision.dice_io import load_image
from arena_table.vision.errors import BadFrame, UnreadableImage
from arena_table.vision.labels import dice_set_dir, load_set, read_boxes
from arena_table.vision.size_search import read_dice_any_size

CLOSE_UP_PX = 470
"""Side of the close-up frames: the issue's close-ups were 470 px photos."""


def _single_dice() -> list:
    """(image, label box) of the first photo of each face 1..6 in matteo_d6 that shows one die."""
    d = dice_set_dir("matteo_d6")
    if not (d / "labels.csv").is_file():
        pytest.skip(f"labelled photos not found at {d} (clone the repo beside ../shared)")
    out = {}
    for item in load_set(d):
        if len(item.values) != 1 or item.values[0] in out:
            continue
        image = load_image(item.path)
        boxes = read_boxes(item, image.shape[1], image.shape[0])
        if boxes and len(boxes) == 1 and boxes[0].value == item.values[0]:
            out[item.values[0]] = (image, boxes[0])
    return [out[v] for v in sorted(out)]


def close_up(image: np.ndarray, box, share: float, side: int = CLOSE_UP_PX) -> np.ndarray:
    """A ``side`` x ``side`` frame centred on the labelled ``box`` in which the die's box side is
    ``share`` of the frame (cropped, then upscaled with bicubic interpolation)."""
    s = side * share / max(box.size)
    cx, cy = box.center
    m = np.array([[s, 0, side / 2 - s * cx], [0, s, side / 2 - s * cy]])
    return cv2.warpAffine(image, m, (side, side), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)


@pytest.mark.shared
@pytest.mark.parametrize("share", [0.3, 0.5, 0.7])
def test_a_close_up_die_is_found_and_read_without_calibration(share):
    """One die filling 30 %, 50 % or 70 % of a 470 px frame, for each face: read right, alone. The
    automatic range ends at 20 % of the long side; the close-up pass reads on (``read_close_up``)."""
    dice = _single_dice()
    assert len(dice) == 6
    for image, box in dice:
        frame = close_up(image, box, share)
        reading = read_dice_any_size(DiceConfig(), frame)
        assert [(d.value, d.status) for d in reading.dice] == [(box.value, "ok")], f"a {box.value} at {share:.0%}"
        (x, y, w, h), centre = reading.dice[0].box, reading.dice[0].center
        assert math.dist(centre, (CLOSE_UP_PX / 2, CLOSE_UP_PX / 2)) < 0.25 * share * CLOSE_UP_PX
        assert 0.6 * share * CLOSE_UP_PX < max(w, h) <= CLOSE_UP_PX


def glare_streak(image: np.ndarray, centre, length: float, width: float, angle: float) -> np.ndarray:
    """``image`` with a specular streak: a blurred white ellipse ``length`` x ``width`` px at
    ``angle`` degrees through ``centre``, blended 90 % towards white at its core."""
    layer = np.zeros(image.shape[:2], np.float32)
    cv2.ellipse(layer, (int(centre[0]), int(centre[1])), (int(length / 2), max(1, int(width / 2))), angle, 0, 360,
                1.0, -1)
    layer = cv2.GaussianBlur(layer, (0, 0), max(1.0, width / 4))[..., None]
    out = image.astype(np.float32)
    return np.clip(out + 0.9 * layer * (255.0 - out), 0, 255).astype(np.uint8)


@pytest.mark.shared
@pytest.mark.parametrize("angle", [20.0, 70.0, 120.0])
def test_a_glare_streak_across_a_four_or_a_two_adds_no_pip(angle):
    """A streak across the face of a 2 or a 4 (a tenth of the die wide, a little longer than it):
    the die is read as its face or refused, never as a face with more pips."""
    for image, box in _single_dice():
        if box.value not in (2, 4):
            continue
        side = max(box.size)
        frame = glare_streak(image, box.center, 1.2 * side, 0.1 * side, angle)
        near = [d for d in read_dice_any_size(DiceConfig(), frame).dice if math.dist(d.center, box.center) < side / 2]
        assert [d.value for d in near if d.status == "ok"] in ([], [box.value]), f"a {box.value} under glare"


@pytest.mark.shared
@pytest.mark.xfail(strict=True, reason="known limitation of the current models: on coloured dice with white pips "
                   "(byler) a streak through a 2's pips reads as a 3's centre pip (8 of 90 streaked 2s and 4s "
                   "of photos 0-11 gain a pip); a brightness test on the face either missed them or refused "
                   "real dice, and a classical test of the centre mark (long and thin: 1 of the 8; larger than "
                   "a pip: 6 of the 8, but 43 of byler's 193 right 3s refused) does too, so it waits for "
                   "training with specular streaks")
def test_a_glare_streak_across_a_coloured_two_or_four_adds_no_pip():
    """The streak of :func:`test_a_glare_streak_across_a_four_or_a_two_adds_no_pip` across the 2s and
    4s of byler's first three photos (BSD-3-Clause, Nell Byler), at three angles."""
    d = dice_set_dir("byler_d6")
    if not (d / "labels.csv").is_file():
        pytest.skip(f"labelled photos not found at {d} (clone the repo beside ../shared)")
    gained = []
    for item in load_set(d)[:3]:
        image = load_image(item.path)
        for box in read_boxes(item, image.shape[1], image.shape[0]) or ():
            side = max(box.size)
            if box.value not in (2, 4) or side > 1.4 * min(box.size):
                continue
            for angle in (20.0, 70.0, 120.0):
                frame = glare_streak(image, box.center, 1.2 * side, 0.1 * side, angle)
                gained += [(item.path.name, box.value, d.value) for d in read_dice_any_size(DiceConfig(), frame).dice
                           if math.dist(d.center, box.center) < side / 2 and d.status == "ok" and d.value > box.value]
    assert gained == []


@pytest.mark.shared
def test_a_photo_stretched_to_10000_px_is_read_shrunk_within_bounded_memory():
    """A 640x480 photo stretched to 10000x10000: read at ``MAX_WORK_SIDE`` (the numpy memory the
    read allocates stays under 100 MB beside the 300 MB frame) and reads no more dice than the
    photo stretched to that working size itself."""
    dice = _single_dice()
    image, box = dice[3]  # a single 4
    huge = cv2.resize(image, (10000, 10000), interpolation=cv2.INTER_LINEAR)
    working = cv2.resize(image, (MAX_WORK_SIDE, MAX_WORK_SIDE), interpolation=cv2.INTER_LINEAR)
    tracemalloc.start()
    try:
        reading = read_dice_any_size(DiceConfig(), huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del huge
    assert peak < 100 * 2**20
    assert (reading.width, reading.height) == (10000, 10000)
    assert [d.value for d in reading.dice if d.status == "ok"] == [box.value]
    assert len(reading.dice) <= len(read_dice_any_size(DiceConfig(), working).dice)
    sx, sy = 10000 / image.shape[1], 10000 / image.shape[0]
    assert math.dist(reading.dice[0].center, (box.center[0] * sx, box.center[1] * sy)) < 0.3 * max(box.size) * sx


def test_a_large_frame_reads_as_its_shrunk_copy():
    """A frame longer than ``MAX_WORK_SIDE`` is read as its area-shrunk copy, boxes in its own pixels."""
    rng = np.random.default_rng(5)
    from arena_table.vision.render import random_table, render_table
    frame = render_table(random_table(rng, 1280, 720, n_dice=6), rng)[0]
    big = cv2.resize(frame, (3840, 2160), interpolation=cv2.INTER_CUBIC)
    small = cv2.resize(big, (1920, 1080), interpolation=cv2.INTER_AREA)
    a, b = read_dice(DiceConfig(), big), read_dice(DiceConfig(), small)
    assert (a.width, a.height) == (3840, 2160)
    assert [(d.value, d.status) for d in a.dice] == [(d.value, d.status) for d in b.dice]
    for da, db in zip(a.dice, b.dice):
        assert math.dist(da.center, (2 * db.center[0], 2 * db.center[1])) < 1e-6


def test_a_frame_with_an_alpha_channel_is_refused_by_name():
    with pytest.raises(BadFrame, match="alpha channel"):
        read_dice(DiceConfig(), np.zeros((50, 60, 4), np.uint8))


def test_an_image_file_with_transparent_pixels_is_refused_and_an_opaque_one_read(tmp_path):
    rgba = np.full((40, 50, 4), 200, np.uint8)
    rgba[..., 3] = 255
    cv2.imwrite(str(tmp_path / "opaque.png"), rgba)
    assert load_image(tmp_path / "opaque.png").shape == (40, 50, 3)
    rgba[:10, :10, 3] = 0
    cv2.imwrite(str(tmp_path / "cutout.png"), rgba)
    with pytest.raises(UnreadableImage, match="transparent"):
        load_image(tmp_path / "cutout.png")


@pytest.mark.shared
def test_the_camera_reader_reads_a_close_up_too():
    """The live camera's reader without a calibration (``LearningReader``) reads a die filling half
    of the frame, which its size search (0.8-35 % of the long side) never reaches."""
    from arena_table.vision.size_search import LearningReader

    image, box = _single_dice()[4]  # a single 5
    reader = LearningReader(DiceConfig(), clock=lambda: 0.0)
    assert [(d.value, d.status) for d in reader(close_up(image, box, 0.5)).dice] == [(5, "ok")]
