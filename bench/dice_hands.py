"""How much of the ring around each die is hand: the margin of ``vision/hands.py``'s threshold.

Reads every photo of ``../shared/data/dice`` (byler_d6: BSD-3-Clause, Nell Byler; matteo_d6: MIT,
Matteo Anthony Penlington; see each set's LICENSE and SOURCE.md; nothing is copied into the
repository) and ``bench dice``'s rendered stress sets with the held-die test off, and prints, per
die found, the share of its ring that is skin-coloured, and that share once the table's own colour
is left out (what the test compares with ``HandConfig.share``): the highest dice and, per set, the
largest share.

    .venv/bin/python bench/dice_hands.py [--stress-frames 20] [--top 8]
"""

from __future__ import annotations

import argparse
import sys

from arena_table.vision.any_size import read_dice_any_size
from arena_table.vision.bench import STRESS, stress_samples
from arena_table.vision.dice import DiceConfig
from arena_table.vision.dice_io import load_image
from arena_table.vision.hands import HandConfig, hand_share, table_colour
from arena_table.vision.labels import dice_set_dir, load_set

SETS = ("byler_d6", "matteo_d6")


def _frames(stress_frames: int):
    for name in SETS:
        d = dice_set_dir(name)
        if not (d / "labels.csv").is_file():
            raise SystemExit(f"error: labelled photos not found at {d} (clone the repo beside ../shared)")
        for it in load_set(d):
            yield name, it.path.name, load_image(it.path)
    for name in STRESS:
        for image, frame, _, _ in stress_samples(name, stress_frames):
            yield name, image, frame


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stress-frames", type=int, default=20)
    ap.add_argument("--top", type=int, default=8)
    a = ap.parse_args()
    cfg = HandConfig()
    off = DiceConfig(hands=HandConfig(share=0))
    rows = []
    for name, image, frame in _frames(a.stress_frames):
        reading = read_dice_any_size(off, frame)
        table = table_colour(frame)
        boxes = [d.box for d in reading.dice]
        for k, d in enumerate(reading.dice):
            side = max(d.box[2], d.box[3])
            others = boxes[:k] + boxes[k + 1:]
            hand = hand_share(cfg, frame, d.center, side, others, table)
            if hand is not None:
                rows.append((hand, hand_share(cfg, frame, d.center, side, others, None), name, image, d))
    rows.sort(key=lambda r: -r[0])
    print(f"{len(rows)} dice; held above {cfg.share} of the ring hand")
    print(f"{'hand':>5} {'skin':>5}  set / image / die")
    for hand, skin, name, image, d in rows[:a.top]:
        print(f"{hand:5.2f} {skin:5.2f}  {name} {image} at ({d.center[0]:.0f}, {d.center[1]:.0f}) "
              f"read {d.value if d.status == 'ok' else d.status}")
    for name in dict.fromkeys(r[2] for r in rows):
        mine = [r for r in rows if r[2] == name]
        print(f"{name:<16} dice {len(mine):4d}  largest hand {max(r[0] for r in mine):.2f}  "
              f"largest skin {max(r[1] for r in mine):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
