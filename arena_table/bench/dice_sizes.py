"""Dice of every size on a 1280x720 frame: the automatic die-size range, the reader with its size
search, and a calibrated size.

For each die size (the renderer's edge length in px) renders 8 tables of 10 dice and prints, for
the automatic range alone (``read_dice``, 3-20 % of the long side), for the reader the table and
the CLI run without a calibration (``size_search.read_dice_any_size``: the automatic range, then a
search over every size when it reads no die surely or only dice at its ends) and for the side
measured by ``arena_table.vision.calibrate.measure_die_side`` on the first frame, the dice read
right, the dice read wrong and the median milliseconds per frame (wall, one thread); then the
live camera's reader without a calibration (``size_search.LearningReader``, one for the 8 frames in
order: it keeps the side its first search found), with its first frame's and median milliseconds.

    taskset -c 0 python -m arena_table.bench.dice_sizes
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

import cv2
import numpy as np

from arena_table.vision.calibrate import measure_die_side
from arena_table.vision.size_search import LearningReader, read_dice_any_size, sized_config
from arena_table.vision.dice import DiceConfig, read_dice
from arena_table.vision.render import random_table, render_table

SIZES = (16, 20, 24, 28, 32, 48, 64, 120)


def score(cfg: DiceConfig, scenes, reader=read_dice, first: bool = False) -> str:
    right = wrong = total = 0
    times = []
    for frame, truth in scenes:
        t0 = time.perf_counter()
        read = reader(cfg, frame).values
        times.append((time.perf_counter() - t0) * 1000)
        values = [t.value for t in truth]
        hit = sum((Counter(values) & Counter(read)).values())
        right, wrong, total = right + hit, wrong + len(read) - hit, total + len(values)
    ms = f"{statistics.median(times):5.1f} ms"
    return f"{right:3d}/{total} right, {wrong} wrong, " + (f"first {times[0]:.0f} ms, then {ms}" if first else ms)


def main() -> int:
    cv2.setNumThreads(1)
    read_dice(DiceConfig(), np.zeros((720, 1280, 3), np.uint8))  # load the models
    print(f"{'die px':>6}  {'automatic range':<34}  {'with the size search':<34}  {'calibrated':<48}  camera, learning")
    for size in SIZES:
        rng = np.random.default_rng(5)
        scenes = [render_table(random_table(rng, 1280, 720, n_dice=10, size=float(size)), rng) for _ in range(8)]
        side = measure_die_side(scenes[0][0]).side_px
        camera = LearningReader(DiceConfig())
        calibrated = f"{score(sized_config(side), scenes)} (side {side:.0f} px)"
        print(f"{size:6d}  {score(DiceConfig(), scenes):<34}  {score(DiceConfig(), scenes, read_dice_any_size):<34}  "
              f"{calibrated:<48}  {score(DiceConfig(), scenes, lambda _cfg, frame: camera(frame), first=True)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
