"""Acceptance on the labelled real photos in ../shared/data/dice.

The reader is held to what the current models measure, with a margin (a regression guard), and to
the issue-5 targets (accuracy >= 0.985, precision >= 0.995, abstention <= 0.03, every face recall
>= 0.97). The classifier was trained on every photo of these sets (arena_table/vision/models/README.md),
so these are training-set figures, not a measure of unseen setups.
"""

from functools import lru_cache
from pathlib import Path

import pytest

from arena_table.vision.dice import DiceConfig, read_dice
from arena_table.vision.dice_io import load_image
from arena_table.vision.evaluate import evaluate_set, score_multiset, wrong_among_ok
from arena_table.vision.labels import dice_set_dir, load_set

SETS = ("byler_d6", "matteo_d6")
TARGET = {"per_die_accuracy": 0.975, "precision": 0.985, "abstention_rate": 0.03, "face_recall": 0.96}
"""Measured figures with a margin (a regression guard)."""
ISSUE5 = {"per_die_accuracy": 0.985, "precision": 0.995, "abstention_rate": 0.03, "face_recall": 0.97}
"""The targets of issue 5."""

pytestmark = [pytest.mark.shared, pytest.mark.slow]


def _set_dir(name):
    d = dice_set_dir(name)
    if not (d / "labels.csv").is_file():
        pytest.skip(f"labelled photos not found at {d} (clone the repo beside ../shared)")
    return d


@lru_cache(maxsize=None)
def _evaluated(name):
    return name, evaluate_set(_set_dir(name))


@pytest.fixture(params=SETS)
def metrics(request):
    return _evaluated(request.param)


def _check(metrics, target):
    name, m = metrics
    assert m["errors"] == []
    assert m["per_die_accuracy"] >= target["per_die_accuracy"], (name, m["misreads"][:10])
    assert m["precision"] >= target["precision"], (name, m["misreads"][:10])
    assert m["abstention_rate"] <= target["abstention_rate"], name
    low = {f: r for f, r in m["per_face_recall"].items() if r < target["face_recall"]}
    assert not low, (name, low)


def test_meets_measured_figures(metrics):
    _check(metrics, TARGET)


def test_reliability_table_holds_the_dice_read_ok(metrics):
    """``calibration`` (``dice eval --json``): every die read ok in an image paired by box is in one
    bin, none below ``min_confidence`` (0.5), its right ones are matched faces, and its wrong share
    agrees with the precision guard. Images whose YOLO boxes are not the labelled dice (matteo's
    five_1.jpg, byler's relabelled photos) are left out, at most 25 dice each."""
    name, m = metrics
    table = m["calibration"]
    read, right = sum(b["read_ok"] for b in table), sum(b["right"] for b in table)
    assert m["dice_read"] - 25 * len(m["boxes_ignored"]) <= read <= m["dice_read"], name
    assert right <= m["matched"], name
    assert all(b["read_ok"] == 0 for b in table if b["confidence"][1] <= DiceConfig().min_confidence), name
    assert wrong_among_ok(table) <= 1 - TARGET["precision"], (name, table)


@pytest.mark.parametrize("name", SETS)
def test_issue5_targets(name):
    _check(_evaluated(name), ISSUE5)


def test_a_die_whose_face_changes_when_turned_is_refused():
    """A pink 2 whose glare streak looks like a third pip: its four turned readings say 2, 3, 2, 3
    (second_look.py), so it is refused, not read as a 3 at 0.51 (the photo's other 2 dice stay read)."""
    item = next(it for it in load_set(_set_dir("byler_d6")) if it.path.name == "IMG_20191208_111919.jpg")
    reading = read_dice(DiceConfig(), load_image(item.path))
    pink = min(reading.dice, key=lambda d: abs(d.center[0] - 209) + abs(d.center[1] - 301))
    assert (pink.status, pink.value) == ("unreadable", None)
    assert pink.reason.startswith("reads 2/3/2/3 when turned (best guess 3 at 0.5")
    assert read_dice(DiceConfig(second_look_votes=0), load_image(item.path)).values.count(3) \
        == reading.values.count(3) + 1  # without the vote it is the wrong 3


def test_a_blurred_marbled_die_read_unsurely_gets_the_second_look_and_is_refused():
    """A motion-blurred smoky 6 with red pips (byler IMG_20191209_095854, labelled 2 2 3 3 4 5 6): the
    classifier says 4 at 0.82. Turned, its readings say 4 and 6 by turns (0.47 for 4 averaged), so with
    ``second_look`` 0.85 it is refused; at the old 0.75 it was read as a wrong 4. The photo's other six
    dice stay read."""
    item = next(it for it in load_set(_set_dir("byler_d6")) if it.path.name == "IMG_20191209_095854.jpg")
    frame = load_image(item.path)
    reading = read_dice(DiceConfig(), frame)
    smoky = min(reading.dice, key=lambda d: abs(d.center[0] - 183) + abs(d.center[1] - 245))
    assert (smoky.status, smoky.value) == ("unreadable", None)
    assert smoky.reason.startswith("face unclear (best guess 4 at 0.4")
    assert sorted(reading.values) == [2, 2, 3, 3, 4, 5]
    assert sorted(read_dice(DiceConfig(second_look=0.75), frame).values) == [2, 2, 3, 3, 4, 4, 5]


@pytest.mark.parametrize("name, image, values, at_least", [
    ("matteo_d6", "six_53.jpg", [1, 2, 3, 4, 5], 5),
    ("byler_d6", "IMG_20191208_111228.jpg", [1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6], 19),
])
def test_known_photo(name, image, values, at_least):
    d = _set_dir(name)
    item = next(it for it in load_set(d) if it.path.name == image)
    assert sorted(item.values) == values  # the label itself, so a changed label set is noticed
    reading = read_dice(DiceConfig(), load_image(item.path))
    assert score_multiset(values, reading.values) >= at_least
    assert len(reading.values) - score_multiset(values, reading.values) <= 1  # at most one wrong read


def test_side_face_of_an_oblique_die_is_not_a_die():
    # matteo three_6.jpg: one die showing 3, seen obliquely; the 3 pips of its front side face
    # were found as a 25 px die of their own (box at (315, 343)) and read 6 at 0.57, until the
    # size check (DiceConfig.size_check_ratio) read that spot again at the sure die's side (59 px):
    # no die there, so it is refused.
    item = next(it for it in load_set(_set_dir("matteo_d6")) if it.path.name == "three_6.jpg")
    assert item.values == (3,)
    reading = read_dice(DiceConfig(), load_image(item.path))
    assert reading.values == (3,)
    assert [(d.status, d.box[2]) for d in reading.dice] == [("ok", 59), ("unreadable", 25)]  # refused, own size
    assert read_dice(DiceConfig(size_check_ratio=0), load_image(item.path)).values == (3, 6)


def test_die_at_the_seam_of_two_size_passes_is_found():
    # IMG_20191208_112340: a lone dark die with four red pips (labelled box 34x36 px at
    # (311, 246)). The session-3 detector sized it at 55 px in the small-dice pass and 44.5 px in
    # the large-dice pass, each outside its own range (seam at 49.6 px), so it was lost until
    # DiceConfig.seam_ratio (the mechanism itself: tests/vision/test_dice_faults.py).
    item = next(it for it in load_set(_set_dir("byler_d6")) if it.path.name == "IMG_20191208_112340.jpg")
    near = [d for d in read_dice(DiceConfig(), load_image(item.path)).dice
            if abs(d.center[0] - 311) < 12 and abs(d.center[1] - 246) < 12]
    assert [(d.status, d.value) for d in near] == [("ok", 4)]
