"""Teach the matteo ivory pip d6 as an unknown kind with ``vision.face_model`` and read the rest.

Dice are located with the dataset's YOLO boxes (``labels_yolo``, class k -> face k+1), cut as
square crops 1.3 box sides wide; the shipped pip classifier is not used. Teaching uses the first
5 photos (by file name) showing each face, all their dice; every die of the other photos is read.
Run: ``python -m arena_table.bench.teach_matteo`` from the repo root (../shared beside it).
"""
from __future__ import annotations

import collections
import json
from pathlib import Path

import cv2
import numpy as np

from arena_table.vision.face_model import FaceModel

ROOT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice" / "matteo_d6"


def _shots(root: Path) -> list[tuple[str, str, np.ndarray]]:
    """(photo name, face, crop) for every YOLO box of the folder."""
    out = []
    for t in sorted((root / "labels_yolo").glob("*.txt")):
        img = cv2.imread(str(root / "images" / f"{t.stem}.jpg"))
        if img is None:
            continue
        h, w = img.shape[:2]
        for line in t.read_text().split("\n"):
            if not line.strip():
                continue
            k, x, y, bw, bh = line.split()
            x, y, s = float(x) * w, float(y) * h, 1.3 * max(float(bw) * w, float(bh) * h)
            crop = img[int(max(0, y - s / 2)):int(min(h, y + s / 2)), int(max(0, x - s / 2)):int(min(w, x + s / 2))]
            out.append((t.stem, str(int(k) + 1), crop))
    return out


def main() -> None:
    shots = _shots(ROOT)
    by_face = collections.defaultdict(set)
    for name, face, _ in shots:
        by_face[face].add(name)
    teach = set().union(*(sorted(names)[:5] for names in by_face.values()))
    tr = [(f, c) for n, f, c in shots if n in teach]
    te = [(f, c) for n, f, c in shots if n not in teach]
    model = FaceModel.fit([c for _, c in tr], [f for f, _ in tr])
    got = [model.predict(c)[0] for _, c in te]
    answered = [(g, f) for g, (f, _) in zip(got, te) if g is not None]
    print(json.dumps({
        "teach_photos": len(teach), "teach_dice": len(tr), "test_dice": len(te),
        "accuracy": round(float(np.mean([g == f for g, (f, _) in zip(got, te)])), 3),
        "precision": round(float(np.mean([g == f for g, f in answered])), 3) if answered else None,
        "abstention": round(1 - len(answered) / len(te), 3),
        "teach_leave_one_out_accuracy": round(model.report["accuracy"], 3),
    }))


if __name__ == "__main__":
    main()
