"""Score the dice reader on a labelled set of photos (``arena-table dice eval``).

Scoring is per image by multiset match: the faces read ``ok`` are matched
against the labelled faces regardless of position, so a die read as the
wrong face costs one true die and one read die. Dice the reader refuses
(``unreadable``/``cocked``/``partial``) are abstentions, not reads.

>>> score_multiset((1, 2, 2, 6), (2, 6, 6))
2
"""

from __future__ import annotations

import math
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from .size_search import read_dice_any_size
from .dice import DiceConfig, DiceReading
from .dice_io import load_image
from .errors import UnreadableImage
from .labels import LabelledImage, is_held_out, load_set, read_boxes

FACES = range(1, 7)
PAIR_DISTANCE = 0.75
"""A read die pairs with a labelled box when its centre is within this many box sides."""
CALIBRATION_EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 1.0)
"""Confidence bin edges of the reliability table (:func:`calibration`); the last bin holds 1.0. The
top bins are narrow: the classifier, trained with label smoothing 0.05, gives a face about 0.96 at
most (``DieReading.confidence`` is the face's probability given a die is there)."""


def score_multiset(truth, read) -> int:
    """Number of read faces that match a labelled face (multiset intersection size)."""
    return sum((Counter(truth) & Counter(read)).values())


def _pair(item_boxes, reading: DiceReading, ok_dice: list | None = None):
    """Greedy nearest pairing of labelled boxes with read dice: list of (true, read-label).

    ``ok_dice``: when given, gets one ``(confidence, right)`` per die read ``ok``: right when it is
    paired with a box of its face; an ``ok`` die paired with no box (a phantom) is wrong."""
    pairs = []
    cand = []
    for i, b in enumerate(item_boxes):
        limit = PAIR_DISTANCE * max(b.size)
        for j, d in enumerate(reading.dice):
            dist = math.hypot(b.center[0] - d.center[0], b.center[1] - d.center[1])
            if dist <= max(limit, PAIR_DISTANCE * max(d.box[2], d.box[3])):
                cand.append((dist, i, j))
    used_b, used_d = set(), set()
    for _, i, j in sorted(cand):
        if i in used_b or j in used_d:
            continue
        used_b.add(i)
        used_d.add(j)
        d = reading.dice[j]
        pairs.append((item_boxes[i].value, str(d.value) if d.status == "ok" else d.status))
        if ok_dice is not None and d.status == "ok":
            ok_dice.append((d.confidence, d.value == item_boxes[i].value))
    pairs += [(b.value, "missed") for i, b in enumerate(item_boxes) if i not in used_b]
    if ok_dice is not None:
        ok_dice += [(d.confidence, False) for j, d in enumerate(reading.dice) if d.status == "ok" and j not in used_d]
    return pairs


def calibration(ok_dice, edges=CALIBRATION_EDGES) -> list[dict]:
    """Reliability table of the dice read ``ok``: per confidence bin, how many were read and the
    share of them that are right.

    Args:
        ok_dice: ``(confidence, right)`` pairs, one per die read ``ok`` (``DieReading.confidence``).
        edges: increasing bin edges; a bin is ``[lo, hi)``, the last ``[lo, hi]``.

    Returns:
        One dict per bin: ``confidence`` ``[lo, hi]``, ``read_ok``, ``right``, ``share_right``
        (``None`` for an empty bin).

    >>> table = calibration([(0.55, True), (0.57, False), (1.0, True)], (0.5, 0.6, 1.0))
    >>> [(b["confidence"], b["read_ok"], b["share_right"]) for b in table]
    [([0.5, 0.6], 2, 0.5), ([0.6, 1.0], 1, 1.0)]
    """
    rows = []
    for k, (lo, hi) in enumerate(zip(edges, edges[1:])):
        last = k == len(edges) - 2
        inside = [right for c, right in ok_dice if lo <= c < hi or (last and c == hi)]
        rows.append({"confidence": [lo, hi], "read_ok": len(inside), "right": sum(inside),
                     "share_right": sum(inside) / len(inside) if inside else None})
    return rows


def pool_metrics(parts: list[dict]) -> dict:
    """Pool the metrics of several scorings of disjoint images (the folds of a k-fold split).

    Args:
        parts: :func:`score_samples` results, each with ``images``, ``dice_true``, ``dice_read``,
            ``matched``, ``abstention_rate`` and ``calibration`` (the same bins).

    Returns:
        Those keys with the counts summed, the rates recomputed from them (``per_die_accuracy``,
        ``precision``, ``abstention_rate``) and the reliability bins summed.

    Raises:
        ValueError: ``parts`` is empty or its reliability tables have different bins.

    >>> a = {"images": 1, "dice_true": 4, "dice_read": 3, "matched": 3, "abstention_rate": 0.25,
    ...      "calibration": calibration([(0.9, True)] * 3, (0.5, 1.0))}
    >>> b = dict(a, dice_true=2, dice_read=2, matched=1, abstention_rate=0.0,
    ...          calibration=calibration([(0.9, True), (0.7, False)], (0.5, 1.0)))
    >>> m = pool_metrics([a, b])
    >>> (m["dice_true"], m["per_die_accuracy"], m["precision"], m["abstention_rate"], m["calibration"][0]["right"])
    (6, 0.6666666666666666, 0.8, 0.16666666666666666, 4)
    """
    if not parts:
        raise ValueError("no metrics to pool")
    if len({tuple(tuple(b["confidence"]) for b in p["calibration"]) for p in parts}) != 1:
        raise ValueError("the reliability tables to pool have different confidence bins")
    true, read, matched = (sum(p[k] for p in parts) for k in ("dice_true", "dice_read", "matched"))
    refused = sum(round(p["abstention_rate"] * p["dice_true"]) for p in parts)
    bins = []
    for column in zip(*(p["calibration"] for p in parts)):
        n, right = sum(b["read_ok"] for b in column), sum(b["right"] for b in column)
        bins.append({"confidence": list(column[0]["confidence"]), "read_ok": n, "right": right,
                     "share_right": right / n if n else None})
    return {"images": sum(p["images"] for p in parts), "dice_true": true, "dice_read": read, "matched": matched,
            "per_die_accuracy": matched / true if true else 0.0, "precision": matched / read if read else 0.0,
            "abstention_rate": refused / true if true else 0.0, "calibration": bins}


def wrong_among_ok(table: list[dict]) -> float | None:
    """Share of the dice read ``ok`` in a :func:`calibration` table that are wrong (``None``: none read).

    >>> wrong_among_ok(calibration([(0.9, True)] * 199 + [(0.6, False)]))
    0.005
    """
    n = sum(b["read_ok"] for b in table)
    return (n - sum(b["right"] for b in table)) / n if n else None


def format_calibration(table: list[dict]) -> str:
    """One line of a :func:`calibration` table: each non-empty bin as ``lo-hi: right/read``.

    >>> format_calibration(calibration([(0.55, True), (0.57, False), (1.0, True)], (0.5, 0.6, 1.0)))
    'calibration (confidence: right/read ok) 0.5-0.6: 1/2  0.6-1: 1/1'
    """
    bins = [f"{b['confidence'][0]:g}-{b['confidence'][1]:g}: {b['right']}/{b['read_ok']}" for b in table if b["read_ok"]]
    return "calibration (confidence: right/read ok) " + ("  ".join(bins) or "no die read ok by a box")


def _disk_samples(items: list[LabelledImage]):
    for item in items:
        try:
            frame = load_image(item.path)
        except UnreadableImage as exc:
            yield item.path.name, exc, item.values, None
            continue
        yield item.path.name, frame, item.values, read_boxes(item, frame.shape[1], frame.shape[0])


def score_samples(samples: Iterable, cfg: DiceConfig | None = None,
                  reader: Callable[[DiceConfig, np.ndarray], DiceReading] = read_dice_any_size,
                  faces: Sequence = FACES) -> dict:
    """Score ``reader`` on labelled frames; see :func:`evaluate_set` for the keys.

    Args:
        samples: iterable of ``(name, frame, values, boxes)``: frame is an HxWx3
            uint8 array (or an exception, counted in ``errors``), values the true
            faces, boxes a sequence of ``labels.LabelledBox`` or ``None``.
        cfg: reader thresholds.
        reader: the function under test.
        faces: the faces of the dice (the rows of ``confusion`` and keys of ``per_face_recall``):
            1-6 for pip dice, face symbols (``str``, as the values, box values and the reader's
            die values are then) for a taught kind.
    """
    cfg = cfg or DiceConfig()
    images = dice_true = dice_read = matched = abstained = 0
    true_f, match_f = Counter(), Counter()
    confusion: dict[str, Counter] = {str(f): Counter() for f in faces}
    times, errors, misreads, boxes_ignored, ok_dice = [], [], [], [], []
    for name, frame, values, boxes in samples:
        if isinstance(frame, Exception):
            errors.append(str(frame))
            continue
        images += 1
        t0 = time.perf_counter()
        reading = reader(cfg, frame)
        times.append((time.perf_counter() - t0) * 1000.0)
        read = reading.values
        hit = Counter(values) & Counter(read)
        m = sum(hit.values())
        dice_true += len(values)
        dice_read += len(read)
        matched += m
        abstained += sum(1 for d in reading.dice if d.status != "ok")
        true_f.update(values)
        match_f.update(hit)
        if m != len(values) or m != len(read):
            misreads.append({"image": name, "true": sorted(values), "read": sorted(read),
                             "refused": sorted(d.status for d in reading.dice if d.status != "ok")})
        if boxes is not None and Counter(b.value for b in boxes) != Counter(values):
            boxes_ignored.append(name)  # the boxes are not the image's labelled dice: faces only
            boxes = None
        if boxes is not None:
            for t, r in _pair(boxes, reading, ok_dice):
                confusion[str(t)][r] += 1
        else:  # faces only: a labelled die not read as its face cannot be told missed or misread
            for f, n in hit.items():
                confusion[str(f)][str(f)] += n
            for f, n in (Counter(values) - hit).items():
                confusion[str(f)]["unpaired"] += n
    return {
        "images": images,
        "dice_true": dice_true,
        "dice_read": dice_read,
        "matched": matched,
        "per_die_accuracy": matched / dice_true if dice_true else 0.0,
        "precision": matched / dice_read if dice_read else 0.0,
        "abstention_rate": abstained / dice_true if dice_true else 0.0,
        "per_face_recall": {str(f): (match_f[f] / true_f[f] if true_f[f] else None) for f in faces},
        "confusion": {t: dict(sorted(c.items())) for t, c in confusion.items()},
        "ms_per_image": float(np.median(times)) if times else None,
        "errors": errors,
        "misreads": misreads,
        "boxes_ignored": boxes_ignored,
        "calibration": calibration(ok_dice),
    }


def score_items(items: list[LabelledImage], cfg: DiceConfig | None = None,
                reader: Callable[[DiceConfig, np.ndarray], DiceReading] = read_dice_any_size) -> dict:
    """Score ``reader`` on labelled images of a set (``labels.load_set``), loaded from disk; see
    :func:`evaluate_set` for the keys."""
    return score_samples(_disk_samples(items), cfg, reader)


def evaluate_set(directory: str | Path, labels_csv: str | Path | None = None, cfg: DiceConfig | None = None,
                 holdout_every: int = 0) -> dict:
    """Run the reader (:func:`~arena_table.vision.size_search.read_dice_any_size`) over a labelled set and score it.

    Args:
        directory: set folder with images and ``labels.csv`` (see ``labels.py``).
        labels_csv: CSV path (default ``directory/labels.csv``).
        cfg: reader thresholds (default ``DiceConfig()``).
        holdout_every: score only the hold-out split used by
            ``tools/train_dice.py`` (every n-th image by name); 0 = all images.

    Returns:
        A dict with ``images`` (scored; unreadable files are in ``errors``), ``dice_true``, ``dice_read`` (dice read
        ok), ``matched``, ``per_die_accuracy`` (matched/true), ``precision``
        (matched/read), ``abstention_rate`` (refused dice/true),
        ``per_face_recall`` (face -> matched/true), ``confusion`` (true face ->
        read face or status or ``missed`` -> count, paired by position with the
        YOLO boxes; an image whose boxes' faces differ from its ``labels.csv`` values, such as
        matteo's ``five_1.jpg`` with a box on the empty table, counts only its matched faces and
        is named in ``boxes_ignored``; in an image without usable boxes a labelled die that is not
        read as its face counts as ``unpaired``), ``ms_per_image`` (median reader wall time), ``errors``
        (one line per image that could not be loaded), ``misreads``, and ``calibration``: the
        reliability table of the dice read ``ok`` in the images paired by box (:func:`calibration`:
        confidence bin -> dice read, share right; a die read ``ok`` where no box is counts as wrong).

    Raises:
        FileNotFoundError: the labels CSV does not exist.
    """
    items = load_set(directory, labels_csv)
    if holdout_every:
        items = [it for it in items if is_held_out(it.index, holdout_every)]
    return score_items(items, cfg)


def _down(x: float) -> str:
    """``x`` to 3 decimals rounded down, so a figure under a target never prints as meeting it.

    >>> _down(1468 / 1476), _down(199 / 200), _down(1.0)
    ('0.994', '0.995', '1.000')
    """
    return f"{math.floor(x * 1000 + 1e-9) / 1000:.3f}"


def _up(x: float) -> str:
    """``x`` to 3 decimals rounded up (a figure whose target is a ceiling, as abstention's).

    >>> _up(0.0301), _up(0.03), _up(0.0)
    ('0.031', '0.030', '0.000')
    """
    return f"{math.ceil(x * 1000 - 1e-9) / 1000:.3f}"


def format_metrics(name: str, m: dict) -> str:
    """One summary line of eval metrics.

    Accuracy, precision and recalls are rounded down, abstention up, at 3 decimals: a precision of
    0.9946 prints 0.994, not 0.995 (the targets are floors and a ceiling at 3 decimals). A figure
    with nothing to count (no die labelled, none read) prints as "-".

    >>> format_metrics("empty", {"images": 1, "dice_true": 0, "dice_read": 0, "per_die_accuracy": 0.0,
    ...     "precision": 0.0, "abstention_rate": 0.0, "per_face_recall": {"1": None}, "ms_per_image": 3.0})
    'empty        images    1  dice     0  acc -  prec -  abst -  recall 1:-  3.0 ms'
    """
    labelled, read = m["dice_true"] > 0, m.get("dice_read", 1) > 0
    recall = " ".join(f"{f}:{_down(r)}" if r is not None else f"{f}:-" for f, r in m["per_face_recall"].items())
    ms = m["ms_per_image"]
    return (f"{name:<12} images {m['images']:>4}  dice {m['dice_true']:>5}  "
            f"acc {_down(m['per_die_accuracy']) if labelled else '-'}  prec {_down(m['precision']) if read else '-'}  "
            f"abst {_up(m['abstention_rate']) if labelled else '-'}  recall {recall}  "
            f"{'-' if ms is None or math.isnan(ms) else f'{ms:.1f}'} ms")
