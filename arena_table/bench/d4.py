"""Rendered d4s of both styles read by :mod:`arena_table.vision.d4`: per style and die size, the
dice read right, read wrong and abstained, and the reading time as a ratio to ``reference_ms``.

Each die is its own 240x320 frame (:func:`arena_table.vision.d4_render.render_d4`: random tray,
pose, tilt up to 12°, light, specular spot, blur, noise), its result ``seed % 4 + 1``; seeds start
at 40000, apart from the trained reader's training seeds (50 000-76 499), its threshold's
(700 000-799 999) and the tests' (20000-22029). Rendered figures: the numerals are the renderer's
own fonts, so they say nothing of printed dice.

    taskset -c 0 python -m arena_table.bench.d4 [--dice 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np

from arena_table.bench.dice import one_core, reference_ms
from arena_table.vision import d4
from arena_table.vision.errors import DiceNotFound

SIZES = {"90-130 px": (90.0, 130.0), "60-96 px": (60.0, 96.0)}
"""Die edge ranges (px): about 5-7 and 3.3-5.3 px a mm of an 18 mm d4."""
SEED = 40000


def run_bench(dice: int = 200) -> dict:
    """Per ``"<style> <size>"``: dice, right, wrong, abstained, accuracy, precision, median ms a die
    and ``median_ratio`` (to the median ``reference_ms`` of the run)."""
    out: dict = {}
    with one_core():
        for style in d4.STYLES:
            for name, edges in SIZES.items():
                right = wrong = abstained = 0
                ms, ref = [], []
                for seed in range(SEED, SEED + dice):
                    value = seed % 4 + 1
                    frame, _ = d4.render_d4(style, value, np.random.default_rng(seed), edge_px=edges)
                    t0 = time.perf_counter()
                    try:
                        got = d4.read_d4(frame, style).value
                    except DiceNotFound:
                        got = None
                    ms.append((time.perf_counter() - t0) * 1000.0)
                    ref.append(reference_ms())
                    right += got == value
                    wrong += got is not None and got != value
                    abstained += got is None
                median, refm = statistics.median(ms), statistics.median(ref)
                out[f"{style} {name}"] = {
                    "dice": dice, "right": right, "wrong": wrong, "abstained": abstained,
                    "accuracy": round(right / dice, 4), "precision": round(right / max(1, right + wrong), 4),
                    "median_ms": round(median, 1), "reference_ms": round(refm, 2),
                    "median_ratio": round(median / refm, 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena_table.bench.d4", description=__doc__.split("\n")[0])
    parser.add_argument("--dice", type=int, default=200, help="dice per style and size (default 200)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    out = run_bench(args.dice)
    if args.json:
        print(json.dumps(out))
        return 0
    for name, r in out.items():
        print(f"{name}: {r['right']} right, {r['wrong']} wrong, {r['abstained']} abstained of {r['dice']} "
              f"(accuracy {r['accuracy']}, precision {r['precision']}); median {r['median_ms']} ms a die, "
              f"{r['median_ratio']}x reference_ms ({r['reference_ms']} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
