"""Contact sheet of the label errata, to check each row by eye.

    python tools/errata_sheet.py [docs/label-errata.csv] --out /tmp/errata.png

Each tile is the photo around the erratum's die (3 die sides wide, upscaled), captioned with the
image, the set's label and what the row says the die shows. Reads the photos from
``../shared/data/dice/<set>`` (or ``$ARENA_SHARED``); nothing is copied into the repository.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import cv2
import numpy as np

from arena_table.vision.dice import crop_die
from arena_table.vision.dice_io import load_image
from arena_table.vision.errata import load_errata
from arena_table.vision.errors import VisionError
from arena_table.vision.labels import dice_set_dir, load_set, read_boxes

TILE = 320


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("errata", nargs="?", default=str(Path(__file__).resolve().parents[1] / "docs" / "label-errata.csv"))
    ap.add_argument("--out", required=True, help="PNG file to write")
    args = ap.parse_args(argv)
    try:
        errata = load_errata(args.errata)
    except FileNotFoundError:
        print(f"error: {args.errata}: errata file not found", file=sys.stderr)
        return 1
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    tiles = []
    for fix in errata:
        item = next((it for it in load_set(dice_set_dir(fix.set)) if it.path.name == fix.image), None)
        if item is None:
            print(f"error: {fix.where()}: no such image in the set", file=sys.stderr)
            return 1
        frame = load_image(item.path)
        boxes = read_boxes(item, frame.shape[1], frame.shape[0]) or ()
        side = statistics.median(max(b.size) for b in boxes) if boxes else frame.shape[1] / 15
        tile = crop_die(frame, fix.center[0], fix.center[1], side, TILE, 3.0)
        label = "none" if fix.label is None else str(fix.label)
        for i, text in enumerate((f"{fix.set}/{fix.image}", f"label {label} -> shows {fix.truth}")):
            cv2.putText(tile, text, (6, 20 + 22 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3)
            cv2.putText(tile, text, (6, 20 + 22 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 0), 1)
        tiles.append(tile)
    if not tiles:
        print("no errata rows", file=sys.stderr)
        return 1
    rows = len(tiles)
    cols = min(4, rows)
    tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % cols)
    sheet = np.vstack([np.hstack(tiles[i:i + cols]) for i in range(0, len(tiles), cols)])
    if not cv2.imwrite(args.out, sheet):
        print(f"error: {args.out}: could not write the PNG", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: {rows} errata")
    return 0


if __name__ == "__main__":
    sys.exit(main())
