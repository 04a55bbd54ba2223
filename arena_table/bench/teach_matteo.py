"""Teach the matteo ivory pip d6 as an unknown kind, as the commands do, and read the other photos.

The same functions as ``arena-table dice teach matteo-ivory --yolo DIR --classes
0=1,1=2,2=3,3=4,4=5,5=6 --photos-per-face 5`` then ``arena-table dice eval DIR --kind matteo-ivory``
(``vision/teach_shots.py``, ``table/taught_kinds.py``, ``cli/dice_teach.evaluate_taught``): for
each face the 5 photos showing the most dice of it are taught from (every box of them, YOLO class
k -> face k+1), the dice cut where the die locator finds them; every other photo is read, its dice
found by the locator, the boxes only pairing them with their labels. The shipped pip classifier is
not used. Speed: reading a photo (``read_median_ratio``) and teaching (``teach_ratio``) as ratios to
``bench.dice.reference_ms`` measured in the same run.
Run: ``python -m arena_table.bench.teach_matteo [--json]`` from the repo root (../shared beside it).
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from arena_table.bench.dice import reference_ms
from arena_table.cli.dice_teach import evaluate_taught
from arena_table.table.taught_kinds import teach
from arena_table.vision.labels import dice_set_dir
from arena_table.vision.teach_shots import teaching_photos, yolo_faces, yolo_photos, yolo_shots

CLASSES = {k: str(k + 1) for k in range(6)}
"""matteo_d6's YOLO classes (its SOURCE.md: class k is face k+1)."""
PHOTOS_PER_FACE = 5


def run(root: Path | None = None, per_face: int = PHOTOS_PER_FACE) -> dict:
    """Teach, read the other photos; the figures as a dict (``dice eval``'s keys among them)."""
    root = Path(root) if root is not None else dice_set_dir("matteo_d6")
    photos = yolo_photos(root)
    keep = teaching_photos([(str(p), yolo_faces(p, CLASSES)) for p in photos], per_face)
    ref = [reference_ms() for _ in range(5)]
    t0 = time.perf_counter()
    shots, problems = yolo_shots(root, CLASSES, [p for p in photos if str(p) in keep])
    taught = teach("matteo-ivory", shots, f"--yolo {root}", root)
    teach_ms = (time.perf_counter() - t0) * 1000.0
    m = evaluate_taught(taught, root)
    ref += [reference_ms() for _ in range(5)]
    rep = taught.report
    return {
        "teach_photos": sorted(Path(p).stem for p in keep), "teach_dice": len(shots), "problems": problems,
        "test_photos": m["images"], "test_dice": m["dice_true"], "left_out_taught": m["left_out_taught"],
        "accuracy": round(m["per_die_accuracy"], 3), "precision": round(m["precision"], 3),
        "abstention": round(m["abstention_rate"], 3), "misreads": m["misreads"],
        "teach_leave_one_out_accuracy": round(rep["accuracy"], 3),
        "teach_held_back_read_accuracy": round(rep["read_accuracy"], 3),
        "threshold": round(rep["threshold"], 4), "floor": round(rep["floor"], 4),
        "read_median_ms": round(m["ms_per_image"], 1),
        "read_median_ratio": round(m["ms_per_image"] / statistics.median(ref), 2),
        "teach_ratio": round(teach_ms / statistics.median(ref), 1),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--root", type=Path, default=None, help="the matteo_d6 folder (default: ../shared's)")
    a = ap.parse_args(argv)
    r = run(a.root)
    if a.json:
        print(json.dumps(r))
        return
    for k, v in r.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
