"""Real dice photos through another camera: the shared sets read after camera-like changes.

The reader will be judged on photos of other dice, cameras and tables. The rendered stress sets
of ``bench dice`` change rendered dice; this changes the *real* photos of
``../shared/data/dice`` (byler_d6: BSD-3-Clause, Nell Byler; matteo_d6: MIT, Matteo Anthony
Penlington; see each set's LICENSE and SOURCE.md; nothing is copied into the repository) the way
another camera or its settings would, and scores each variant against the photos' labels with
the line of ``dice eval`` (accuracy / precision / abstention, per-face recall) and the median ms per
image of ``read_dice_any_size`` (what ``dice read`` and ``dice eval`` run):

* ``as_is``: the photos unchanged (the ``dice eval`` figures);
* ``scale_0.6``, ``scale_1.5``: a lower- or higher-resolution camera (INTER_AREA / cubic);
* ``jpeg_75``, ``jpeg_50``, ``jpeg_25``: JPEG re-compression at that quality (a webcam's MJPEG
  stream; phone photos are about 90);
* ``noise_8``: Gaussian sensor noise, sigma 8 grey levels;
* ``gamma_0.6``, ``gamma_1.6``: another tone curve;
* ``low_contrast``: half the contrast around grey 128 (haze, a flat profile);
* ``blur_1.5``: Gaussian defocus, sigma 1.5 px;
* ``turned_90``: the camera turned a quarter (the reader should not care);
* ``in_720p``: each photo scaled to 720 px high and centred on a grey 1280x720 frame (a 720p
  camera over a tray: the dice sit near the low end of the automatic size range, so the size
  search runs on every frame; the photos that are not square are scaled to fit).

    taskset -c 0 python -m arena_table.bench.dice_camera_faults [--sets byler_d6 matteo_d6] [--only jpeg_50 ...] [--models DIR]
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np

from arena_table.vision.evaluate import format_metrics
from arena_table.vision.dice import DiceConfig
from arena_table.vision.dice_io import load_image
from arena_table.vision.errors import ModelMissing
from arena_table.vision.evaluate import score_samples
from arena_table.vision.labels import dice_set_dir, load_set
from arena_table.vision.nets import use_models


def _jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _gamma(frame: np.ndarray, g: float) -> np.ndarray:
    lut = (255.0 * (np.arange(256) / 255.0) ** g).round().astype(np.uint8)
    return cv2.LUT(frame, lut)


def _in_720p(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    s = min(720 / h, 1280 / w)
    small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    out = np.full((720, 1280, 3), 170, np.uint8)
    y, x = (720 - small.shape[0]) // 2, (1280 - small.shape[1]) // 2
    out[y:y + small.shape[0], x:x + small.shape[1]] = small
    return out


def _noise(frame: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(frame + rng.normal(0.0, sigma, frame.shape), 0, 255).astype(np.uint8)


CHANGES = {
    "as_is": lambda f, i: f,
    "scale_0.6": lambda f, i: cv2.resize(f, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA),
    "scale_1.5": lambda f, i: cv2.resize(f, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_CUBIC),
    "jpeg_75": lambda f, i: _jpeg(f, 75),
    "jpeg_50": lambda f, i: _jpeg(f, 50),
    "jpeg_25": lambda f, i: _jpeg(f, 25),
    "noise_8": lambda f, i: _noise(f, 8.0, i),
    "gamma_0.6": lambda f, i: _gamma(f, 0.6),
    "gamma_1.6": lambda f, i: _gamma(f, 1.6),
    "low_contrast": lambda f, i: cv2.convertScaleAbs(f, alpha=0.5, beta=64),
    "blur_1.5": lambda f, i: cv2.GaussianBlur(f, (0, 0), 1.5),
    "turned_90": lambda f, i: np.ascontiguousarray(np.rot90(f)),
    "in_720p": lambda f, i: _in_720p(f),
}
"""Change name -> function of (BGR uint8 frame, image index) returning the changed frame."""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", default=["byler_d6", "matteo_d6"])
    ap.add_argument("--only", nargs="+", choices=sorted(CHANGES), help="these changes only")
    ap.add_argument("--models", metavar="DIR", help="read with the models in DIR (a tools/train_dice.py --out folder)")
    a = ap.parse_args()
    if a.models:
        try:
            use_models(a.models)
        except ModelMissing as exc:
            print(f"error: --models: {exc}", file=sys.stderr)
            return 1
    cv2.setNumThreads(1)
    cfg = DiceConfig()
    for name in a.sets:
        d = dice_set_dir(name)
        if not (d / "labels.csv").is_file():
            print(f"error: labelled photos not found at {d} (clone the repo beside ../shared)", file=sys.stderr)
            return 1
        photos = [(it.path.name, load_image(it.path), it.values) for it in load_set(d)]
        for change in a.only or CHANGES:
            fn = CHANGES[change]
            m = score_samples(((n, fn(f, i), v, None) for i, (n, f, v) in enumerate(photos)), cfg)
            print(format_metrics(f"{name} {change:<12}", m), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
