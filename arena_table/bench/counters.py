"""Benchmark of the counters reader (Demigods divine dice beside the hero cards).

On rendered 1280x720 photos (:mod:`arena_table.vision.counter_film`) of six hero cards in a row,
each with its slot (80x80 px) below it: in each slot a divine die of the hero's power (rage,
focus, mana in turn) showing a random face, or no die (one slot in seven, read as 0), lying up to
10 px off the slot's centre (never nearer than 10 px to the card's edge), turned at random, 40-56
px wide, under a random light gain and table cloth. Every photo is read as the camera loop reads a
frame (:func:`arena_table.table.counters.read_slots`: the kind reader on each slot's region only),
on one core.

Figures: per-slot accuracy (the value right), precision (right among the values given: a slot not
read keeps its last value and is no error), the slots not read, and the speed of one reading of
all six slots: median and p95 ms, ``median_ratio`` to :func:`arena_table.bench.dice.reference_ms`
measured in the same run, the share of one core that would take at the default ``interval_s`` of
0.5 s, and the reading of a second photo of the same table (the still table between changes,
where each slot's region is compared, not read). These are rendered photos read by a reader whose
face templates come from the same renderer: the accuracy is not a real-photo figure (no labelled
real photo of divine dice exists in ``../shared/data``).

``--near-cards`` puts each slot 5 px from its card and lets the dice wander 25 px, often against
a card's edge, where the kind reader finds no die: such a slot must be "not read", never 0.

    python -m arena_table.bench.counters [--photos N] [--near-cards] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import find_kind
from arena_table.table.counter_slots import CounterSlot
from arena_table.table.counters import DIVINE_KINDS, place, read_slots
from arena_table.vision.counter_film import CLOTH, SIZE, paste_die

from .dice import one_core, reference_ms

POWERS = ("rage", "focus", "mana")
SLOTS = tuple(CounterSlot(f"hero{i}", POWERS[i % 3], box_px=(75 + 210 * i, 630.0, 80.0, 80.0)) for i in range(6))
"""Six heroes' cards in a row (150x180 px, 60 px apart) and the slot of each below its card, 30 px
under the card's edge."""
NEAR_SLOTS = tuple(CounterSlot(f"hero{i}", POWERS[i % 3], box_px=(140 + 210 * i, 590.0, 80.0, 80.0))
                   for i in range(6))
"""``--near-cards``: each slot 5 px right of its card (115x140 px) and 10 px left of the next one."""
INTERVAL_S = 0.5
"""``counters.interval_s``'s default: the reader's share of a core is its time over this."""


def scene(rng: np.random.Generator, near: bool = False) -> tuple[np.ndarray, dict[str, int]]:
    """One table, before the camera (:func:`shot`), and the value each slot shows (0: no die).
    ``near``: the :data:`NEAR_SLOTS` layout, dice up to 25 px off the slot's centre (often touching a
    card)."""
    frame = np.empty((SIZE[1], SIZE[0], 3), np.uint8)
    frame[:] = np.clip(np.array(CLOTH) + rng.integers(-25, 26, 3), 0, 255)
    truth = {}
    for s in NEAR_SLOTS if near else SLOTS:
        x, y, w, h = s.box_px
        card = ((int(x) - 120, 560), (int(x) - 5, 700)) if near else ((int(x) - 35, 420), (int(x) + 115, 600))
        cv2.rectangle(frame, *card, (200, 215, 225), -1)  # the hero's card
        value = int(rng.integers(0, 7))
        truth[s.hero] = value
        if value:
            off = (25, 15) if near else (10, 10)
            centre = (x + w / 2 + rng.uniform(-off[0], off[0]), y + h / 2 + rng.uniform(-off[1], off[1]))
            paste_die(frame, DIVINE_KINDS[s.power], value, centre, side=int(rng.integers(40, 57)),
                      angle=float(rng.uniform(0, 360)))
    frame = cv2.convertScaleAbs(frame, alpha=float(rng.uniform(0.8, 1.2)), beta=float(rng.uniform(-10, 10)))
    return frame, truth


def shot(table: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A photo of ``table``: sensor noise (sigma 3 levels) and a slight blur, new each call."""
    noisy = table.astype(np.int16) + rng.normal(0, 3, table.shape).astype(np.int16)
    return cv2.GaussianBlur(noisy.clip(0, 255).astype(np.uint8), (3, 3), 0)


def run_bench(photos: int = 60, seed: int = 30, near: bool = False) -> dict:
    """Read ``photos`` rendered tables twice each; returns ``{"slots", "right", "wrong", "unread",
    "accuracy", "precision", "median_ms", "p95_ms", "still_ms", "reread", "reference_ms",
    "median_ratio", "still_ratio", "core_share", "photos"}``.

    ``median_ms``/``p95_ms``: a first reading of all six slots (every region read by the kind
    reader); ``still_ms``: the median of a second photo of the same table (new sensor noise) read
    with the first's memory (:func:`~arena_table.table.counters.read_slots`), what the camera loop
    pays while no die moves, and ``reread`` the slots that second photo still sent to the kind
    reader. ``core_share``: ``median_ms`` over :data:`INTERVAL_S` (every reading a first one).
    ``near``: the ``--near-cards`` layout (:func:`scene`).
    """
    rng = np.random.default_rng(seed)
    placed, problems = place(NEAR_SLOTS if near else SLOTS, SIZE)
    assert not problems, problems
    pairs = [(p, p.slot.power) for p in placed]
    kinds = [find_kind(k) for k in DIVINE_KINDS.values()]
    right = wrong = unread = reread = 0
    ms, still, ref = [], [], []
    with one_core():
        read_slots(shot(scene(rng, near)[0], rng), pairs, kinds)  # warm-up
        for _ in range(photos):
            table, truth = scene(rng, near)
            memory: dict = {}
            t0 = time.perf_counter()
            values, _ = read_slots(shot(table, rng), pairs, kinds, memory)
            ms.append((time.perf_counter() - t0) * 1000.0)
            first = {h: m[0] for h, m in memory.items()}
            again = shot(table, rng)
            t0 = time.perf_counter()
            same, _ = read_slots(again, pairs, kinds, memory)
            still.append((time.perf_counter() - t0) * 1000.0)
            reread += sum(memory[h][0] is not first[h] for h in first)
            assert same == values, (same, values)
            ref.append(reference_ms())
            for hero, value in values.items():
                if value is None:
                    unread += 1
                elif value == truth[hero]:
                    right += 1
                else:
                    wrong += 1
    slots = photos * len(SLOTS)
    median, refm = statistics.median(ms), statistics.median(ref)
    return {"photos": photos, "slots": slots, "right": right, "wrong": wrong, "unread": unread,
            "accuracy": round(right / slots, 4), "precision": round(right / max(1, right + wrong), 4),
            "median_ms": round(median, 2), "p95_ms": round(float(np.percentile(ms, 95)), 2),
            "still_ms": round(statistics.median(still), 3), "reread": reread,
            "reference_ms": round(refm, 2), "median_ratio": round(median / refm, 2),
            "still_ratio": round(statistics.median(still) / refm, 4),
            "core_share": round(median / (INTERVAL_S * 1000.0), 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena_table.bench.counters", description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=60, help="rendered photos to read (default 60)")
    parser.add_argument("--near-cards", action="store_true", help="slots 5 px from the cards, dice often "
                        "touching one (what the reader must not read as an empty slot)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    out = run_bench(args.photos, near=args.near_cards)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"counters: {out['slots']} slots on {out['photos']} rendered photos: accuracy {out['accuracy']}, "
              f"precision {out['precision']} ({out['wrong']} wrong, {out['unread']} not read)")
        print(f"a first reading of 6 slots: median {out['median_ms']} ms, p95 {out['p95_ms']} ms, "
              f"{out['median_ratio']}x reference_ms ({out['reference_ms']} ms); "
              f"{100 * out['core_share']:.2f} % of a core if every reading at interval_s {INTERVAL_S} were one")
        print(f"the same table again (new noise): {out['still_ms']} ms, {out['still_ratio']}x reference_ms; "
              f"{out['reread']} of {out['slots']} slots read again")
    return 0


if __name__ == "__main__":
    sys.exit(main())
