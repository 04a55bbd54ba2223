"""Teach the matteo ivory pip d6 as an unknown kind with ``vision.face_model`` and read the rest.

Dice are located with the dataset's YOLO boxes (``labels_yolo``, class k -> face k+1). The boxes
hug the pips rather than the die, so their size tells the face (a lone pip's box is small): only a
box's centre is used, and every crop is ``WINDOW`` px square around it, whatever the box; the face
model finds the die in it. The shipped pip classifier is not used. Teaching takes, for each face,
the 5 photos showing the most dice of that face (ties by file name) and only those dice of that
face: at most 5 photos per face. Every die of the photos not used for teaching is read. A photo
whose boxes disagree with the audited ``labels.csv`` is left out (five_1: a box on bare wood).
Speed: reading one die (``read_median_ratio``) and teaching (``teach_ratio``) as ratios to
``bench.dice.reference_ms`` measured in the same run.
Run: ``python -m arena_table.bench.teach_matteo [--json]`` from the repo root (../shared beside it).
"""
from __future__ import annotations

import argparse
import collections
import csv
import json
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from arena_table.bench.dice import reference_ms
from arena_table.vision.face_model import FaceModel

ROOT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice" / "matteo_d6"
WINDOW = 120
"""Crop side in px around a box centre (640x480 frames, dice of about 35-90 px)."""
PHOTOS_PER_FACE = 5


def disagreeing(root: Path) -> list[str]:
    """Photos whose YOLO boxes' faces differ from ``labels.csv`` (the audited truth)."""
    out = []
    for row in csv.DictReader((root / "labels.csv").open()):
        stem = Path(row["image"]).stem
        box = root / "labels_yolo" / f"{stem}.txt"
        faces = sorted(str(int(ln.split()[0]) + 1) for ln in box.read_text().split("\n") if ln.strip()) \
            if box.exists() else []
        if faces != sorted(row["values"].split()):
            out.append(stem)
    return out


def shots(root: Path, window: int = WINDOW) -> list[tuple[str, str, np.ndarray]]:
    """(photo name, face, crop) for every YOLO box of the folder, ``window`` px around the box
    centre; photos whose boxes disagree with ``labels.csv`` are left out."""
    out = []
    skip = set(disagreeing(root))
    for t in sorted((root / "labels_yolo").glob("*.txt")):
        img = cv2.imread(str(root / "images" / f"{t.stem}.jpg"))
        if img is None or t.stem in skip:
            continue
        h, w = img.shape[:2]
        for line in t.read_text().split("\n"):
            if not line.strip():
                continue
            k, x, y = line.split()[:3]
            x, y, r = float(x) * w, float(y) * h, window / 2
            crop = img[int(max(0, y - r)):int(min(h, y + r)), int(max(0, x - r)):int(min(w, x + r))]
            out.append((t.stem, str(int(k) + 1), crop))
    return out


def split(all_shots: list, per_face: int = PHOTOS_PER_FACE, pick: str = "most") -> tuple[dict, list, list]:
    """(teaching photos by face, taught (face, crop), held-out (face, crop)) as the module doc says;
    ``pick="first"`` takes each face's first photos by file name instead."""
    count = collections.Counter((n, f) for n, f, _ in all_shots)
    photos = collections.defaultdict(set)
    for n, f, _ in all_shots:
        photos[f].add(n)
    order = (lambda f: lambda n: n) if pick == "first" else (lambda f: lambda n: (-count[(n, f)], n))
    teach = {f: sorted(ns, key=order(f))[:per_face] for f, ns in sorted(photos.items())}
    used = set().union(*teach.values())
    taught = [(f, c) for n, f, c in all_shots if n in teach[f]]
    held = [(f, c) for n, f, c in all_shots if n not in used]
    return teach, taught, held


def run(root: Path = ROOT, pick: str = "most") -> dict:
    """Teach, read the held-out dice; the figures as a dict."""
    every = shots(root)
    teach, taught, held = split(every, pick=pick)
    t0 = time.perf_counter()
    model = FaceModel.fit([c for _, c in taught], [f for f, _ in taught])
    teach_ms = (time.perf_counter() - t0) * 1000.0
    got, ms, ref = [], [], []
    for _, c in held:
        t0 = time.perf_counter()
        got.append(model.predict(c)[0])
        ms.append((time.perf_counter() - t0) * 1000.0)
        ref.append(reference_ms())
    answered = [(g, f) for g, (f, _) in zip(got, held) if g is not None]
    wrong = collections.Counter(f"{f}->{g}" for g, (f, _) in zip(got, held) if g is not None and g != f)
    return {
        "teach_photos": {f: ns for f, ns in teach.items()},
        "left_out_photos": disagreeing(root),
        "teach_dice": len(taught), "test_photos": len({n for n, _, _ in every} - set().union(*teach.values())),
        "test_dice": len(held),
        "accuracy": round(float(np.mean([g == f for g, (f, _) in zip(got, held)])), 3),
        "precision": round(float(np.mean([g == f for g, f in answered])), 3) if answered else None,
        "abstention": round(1 - len(answered) / len(held), 3),
        "wrong": dict(wrong),
        "teach_leave_one_out_accuracy": round(model.report["accuracy"], 3),
        "threshold": round(model.threshold, 4),
        "read_median_ms": round(statistics.median(ms), 1),
        "read_median_ratio": round(statistics.median(ms) / statistics.median(ref), 2),
        "teach_ratio": round(teach_ms / statistics.median(ref), 1),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--root", type=Path, default=ROOT, help="the matteo_d6 folder")
    ap.add_argument("--pick", choices=("most", "first"), default="most",
                    help="teach each face from the photos with most dice of it, or the first by name")
    a = ap.parse_args(argv)
    r = run(a.root, a.pick)
    if a.json:
        print(json.dumps(r))
        return
    for k, v in r.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
