"""Wide views of real dice: mosaics of the byler photos read with and without the size search.

A camera that sees a whole table shows the dice small. To measure that on real photos, k x k
byler photos (640x640 each; ../shared/data/dice/byler_d6, BSD-3-Clause, Nell Byler; see its LICENSE and
SOURCE.md) are laid side by side into one image (1280x1280 for k=2, 1920x1920 for k=3), so the
dice are 2-3.8 % (k=2) or 1.4-2.6 % (k=3) of the long side, below the reader's automatic range
(3-20 %). For each k prints accuracy / precision / abstention (the keys of ``dice eval``, scored
against the photos' labels) and the median ms per image for ``read_dice`` (the automatic range
alone) and ``read_dice_any_size`` (with the size search, what ``dice read``/``dice eval`` run).

    taskset -c 0 python -m arena_table.bench.dice_wide_view [--mosaics 40]
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np

from arena_table.vision.size_search import read_dice_any_size
from arena_table.vision.dice import DiceConfig, read_dice
from arena_table.vision.dice_io import load_image
from arena_table.vision.evaluate import score_samples
from arena_table.vision.labels import dice_set_dir, load_set


def mosaics(k: int, count: int):
    """``(name, image, values, None)`` samples of k x k consecutive byler photos."""
    items = load_set(dice_set_dir("byler_d6"))
    for t in range(count):
        group = items[t * k * k:(t + 1) * k * k]
        if len(group) < k * k:
            return
        tiles = [load_image(it.path) for it in group]
        image = np.vstack([np.hstack(tiles[r * k:(r + 1) * k]) for r in range(k)])
        yield f"mosaic{k}_{t}", image, tuple(v for it in group for v in it.values), None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mosaics", type=int, default=40, help="mosaics per k (default 40)")
    a = ap.parse_args()
    d = dice_set_dir("byler_d6")
    if not (d / "labels.csv").is_file():
        print(f"error: labelled photos not found at {d} (clone the repo beside ../shared)", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    for k in (2, 3):
        for name, reader in (("automatic range", read_dice), ("with size search", read_dice_any_size)):
            m = score_samples(mosaics(k, a.mosaics), DiceConfig(), reader=reader)
            print(f"{k}x{k} mosaics ({m['images']}, {m['dice_true']} dice)  {name:<16}  "
                  f"acc {m['per_die_accuracy']:.3f}  prec {m['precision']:.3f}  "
                  f"abst {m['abstention_rate']:.3f}  {m['ms_per_image']:.0f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
