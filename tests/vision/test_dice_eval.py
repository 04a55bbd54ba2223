"""Scoring rules of evaluate.py, checked with a scripted reader."""

import numpy as np

from arena_table.vision.dice import DiceReading, DieReading
from arena_table.vision.evaluate import score_multiset, score_samples
from arena_table.vision.labels import LabelledBox


def _die(value, x, y, status="ok"):
    return DieReading(value if status == "ok" else None, status, "", 0.9, (x, y), (int(x) - 10, int(y) - 10, 20, 20))


def test_multiset_match_ignores_order():
    assert score_multiset((3, 3, 5), (5, 3, 1)) == 2


def test_metrics_from_a_scripted_reader():
    frame = np.zeros((100, 200, 3), np.uint8)
    script = {
        # truth 1 2 3: one wrong (3 read as 5), one refused die
        "a": DiceReading((_die(1, 20, 20), _die(5, 60, 20), _die(None, 100, 20, "cocked")), 200, 100),
        # truth 6 6: both right plus a phantom die
        "b": DiceReading((_die(6, 20, 50), _die(6, 60, 50), _die(2, 150, 80)), 200, 100),
    }
    boxes_a = (LabelledBox(1, (20, 20), (20, 20)), LabelledBox(3, (60, 20), (20, 20)),
               LabelledBox(2, (100, 20), (20, 20)))
    samples = [("a", frame, (1, 3, 2), boxes_a), ("b", frame, (6, 6), None), ("c", OSError("c: missing"), (), None)]
    calls = iter(["a", "b"])
    m = score_samples(samples, reader=lambda cfg, f: script[next(calls)])
    assert (m["images"], m["dice_true"], m["dice_read"], m["matched"]) == (2, 5, 5, 3)
    assert m["per_die_accuracy"] == 3 / 5 and m["precision"] == 3 / 5 and m["abstention_rate"] == 1 / 5
    assert m["per_face_recall"]["3"] == 0.0 and m["per_face_recall"]["6"] == 1.0
    assert m["confusion"]["3"] == {"5": 1} and m["confusion"]["2"] == {"cocked": 1}
    assert m["errors"] == ["c: missing"] and m["ms_per_image"] is not None


def test_boxes_that_are_not_the_labelled_dice_are_left_out_of_the_confusion():
    """matteo_d6's five_1.jpg: labels.csv says one 5, its YOLO file adds a "1" box on the empty table.
    The confusion rows must agree with the per-face recall (which counts labels.csv's faces)."""
    frame = np.zeros((100, 200, 3), np.uint8)
    reading = DiceReading((_die(5, 60, 50),), 200, 100)
    boxes = (LabelledBox(1, (150, 50), (20, 20)), LabelledBox(5, (60, 50), (20, 20)))
    m = score_samples([("five_1.jpg", frame, (5,), boxes)], reader=lambda cfg, f: reading)
    assert m["confusion"]["1"] == {} and m["confusion"]["5"] == {"5": 1}
    assert m["per_face_recall"]["5"] == 1.0 and m["per_face_recall"]["1"] is None
    assert m["boxes_ignored"] == ["five_1.jpg"]
    # relabelled a 3, the image's row still sums to its labelled dice: the 3 is "unpaired"
    m = score_samples([("five_1.jpg", frame, (3,), boxes)], reader=lambda cfg, f: reading)
    assert m["confusion"]["3"] == {"unpaired": 1} and m["confusion"]["5"] == {}
    # boxes that are the labelled dice still pair by position
    m = score_samples([("ok.jpg", frame, (5,), boxes[1:])], reader=lambda cfg, f: DiceReading((), 200, 100))
    assert m["confusion"]["5"] == {"missed": 1} and m["boxes_ignored"] == []


def test_the_summary_line_never_rounds_a_figure_across_its_target():
    """1468 right of 1476 read is a precision of 0.99458; printed to three decimals the usual way
    it would read "0.995", the issue-5 target it misses."""
    from arena_table.vision.evaluate import format_metrics

    m = {"images": 200, "dice_true": 1489, "per_die_accuracy": 0.98497, "precision": 1468 / 1476,
         "abstention_rate": 0.03004, "per_face_recall": {"1": 0.9699, "2": 199 / 200, "3": None},
         "ms_per_image": 9.5}
    line = format_metrics("byler_d6", m)
    assert "acc 0.984 " in line and "prec 0.994 " in line and "abst 0.031 " in line
    assert "1:0.969 2:0.995 3:-" in line


def test_calibration_counts_the_ok_dice_paired_by_box_per_confidence_bin():
    """The reliability table of ``dice eval --json``: each die read ``ok`` falls in the bin of its
    confidence and is right when paired with a box of its face; a phantom (no box) is wrong, a
    refused die is not in the table, nor an image whose dice have no boxes."""
    frame = np.zeros((100, 200, 3), np.uint8)

    def die(value, x, conf, status="ok"):
        return DieReading(value if status == "ok" else None, status, "", conf, (x, 20.0), (int(x) - 10, 10, 20, 20))

    boxes = tuple(LabelledBox(v, (x, 20), (20, 20)) for v, x in ((1, 20), (3, 60), (2, 100), (4, 140)))
    reading = DiceReading((die(1, 20, 0.999), die(5, 60, 0.93), die(None, 100, 0.4, "unreadable"),
                           die(4, 140, 0.96), die(6, 180, 0.55)), 200, 100)
    unboxed = DiceReading((die(2, 20, 0.7),), 200, 100)
    calls = iter([reading, unboxed])
    m = score_samples([("a", frame, (1, 3, 2, 4), boxes), ("b", frame, (2,), None)],
                      reader=lambda cfg, f: next(calls))
    table = {tuple(b["confidence"]): (b["read_ok"], b["right"], b["share_right"]) for b in m["calibration"]}
    assert table[(0.5, 0.6)] == (1, 0, 0.0)  # the phantom 6
    assert table[(0.93, 0.95)] == (1, 0, 0.0)  # the 3 read as 5
    assert table[(0.95, 0.97)] == (1, 1, 1.0) and table[(0.97, 1.0)] == (1, 1, 1.0)
    assert table[(0.6, 0.7)] == (0, 0, None) and table[(0.7, 0.8)] == (0, 0, None)  # b has no boxes
    assert sum(r[0] for r in table.values()) == 4
