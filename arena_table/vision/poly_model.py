"""The polyhedral die classifier (d4, d8, d10, d12, d20): a small CNN on normalised crops of a die, run with ONNX Runtime.

A d4 shows no upper face: its result stands on the three side faces the camera sees (at the top
vertex or along the bottom edge, :mod:`arena_table.vision.d4_render`). The crop (:func:`d4_crop`)
maps the outline's three corners (``d4.find_d4s``) onto a fixed upright triangle of
:data:`TRI_SIDE` px by one affine map, so the die's turn, size and the tilt's skew are gone and the
net sees the numerals at one scale; which corner goes on top is one of three turns, and
:func:`classify` averages the net's probabilities over all three (a d4's three visible faces show
the same result, so the three turns are the same die).

Input: :data:`CROP` x :data:`CROP` grey, standardised inside the triangle (:func:`standardise`:
median 0, spread 1, light or dark ink alike to the net, which was trained on both). A d8, d10, d12 or d20 shows its result on its top face, in the middle of its silhouette:
:func:`poly_crops` cuts the grey frame round the silhouette's enclosing circle at three turns (the
numeral may lie any way round; 6 and 9 are underlined).

Output: one logit per class: a d4's ``"<style>-<value>"`` (``top-vertex-3``), a d8-d20's
``"d<sides>-<face>"`` (``d20-17``), and :data:`OTHER` for a blob that is no d8-d20 (a six-sided
die); the class list is the model file's metadata entry ``classes`` and ``models/train_poly.json``.

The shipped ``poly_face.onnx`` was trained by ``tools/train_poly.py`` on rendered dice only
(seeds below 100 000): its figures hold for rendered dice, not printed ones.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from . import poly_render
from .labelled_net import LabelledNet

CROP = 64
"""Side in px of the square crop the net reads."""
TRI_SIDE = 52.0
"""Side in px of the upright triangle a d4's outline is mapped onto in the crop."""
_TRI_H = TRI_SIDE * math.sqrt(3) / 2
_TOP = (CROP - _TRI_H) / 2
CANON = np.float32([[CROP / 2, _TOP], [CROP / 2 - TRI_SIDE / 2, _TOP + _TRI_H], [CROP / 2 + TRI_SIDE / 2, _TOP + _TRI_H]])
"""The upright triangle (apex, base-left, base-right) px in the crop: counter-clockwise on screen,
as ``find_d4s`` orders a d4's corners."""
TURNS = 3
"""Crops cut per d4, one per corner put on top."""
MIN_SPREAD = 6.0
"""Least grey-level spread :func:`standardise` divides by (a blank, even face is not blown up)."""
MODEL = Path(__file__).resolve().parent / "models" / "poly_face.onnx"
"""The shipped classifier."""
_INSIDE = np.zeros((CROP, CROP), np.uint8)
cv2.fillConvexPoly(_INSIDE, np.int32(np.round(CANON)), 1)
_INSIDE = _INSIDE.astype(bool)


def d4_crop(gray: np.ndarray, corners: np.ndarray, turn: int = 0) -> np.ndarray:
    """CROP x CROP uint8: the d4 with outline ``corners`` ((3, 2) px, counter-clockwise on screen)
    of the grey frame ``gray`` mapped by one affine map onto :data:`CANON`, corner ``turn`` (0-2)
    on top. A die larger than the crop's triangle is smoothed first (sigma: a third of the
    shrink), so its numerals are not aliased."""
    corners = np.asarray(corners, np.float32).reshape(3, 2)
    src = np.float32([corners[(turn + i) % 3] for i in range(3)])
    edge = float(np.mean([np.linalg.norm(src[i] - src[(i + 1) % 3]) for i in range(3)]))
    shrink = edge / TRI_SIDE
    m = cv2.getAffineTransform(src, CANON)
    if shrink > 1.2:
        x0, y0 = np.floor(corners.min(axis=0) - 0.3 * edge).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0) + 0.3 * edge).astype(int)
        x0, y0 = max(0, x0), max(0, y0)
        roi = cv2.GaussianBlur(gray[y0:y1, x0:x1], (0, 0), shrink / 3)
        m[:, 2] += m[:, :2] @ np.float32([x0, y0])
        gray = roi
    return cv2.warpAffine(gray, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


POLY_FILL = 0.9
"""Share of the crop's side a d8-d20's enclosing circle spans in its crop (:func:`poly_crops`)."""
POLY_TURNS = (0.0, 120.0, 240.0)
"""Turns in degrees of a d8-d20's crops: its top face's numeral lies any way round, the net was
trained on every turn and :func:`classify` averages over these."""
OTHER = "other"
"""The class of a blob that is no d8-d20 (a six-sided die, a d4)."""


def poly_crops(frame_bgr: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """(:data:`TURNS`, CROP, CROP) uint8: the grey ``frame_bgr`` round a die's ``outline`` (N x 2
    px, its silhouette's hull), centred on its enclosing circle scaled to :data:`POLY_FILL` of the
    side (``poly_render.crop_die``), at each of :data:`POLY_TURNS`."""
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    return np.stack([poly_render.crop_die(gray, outline, CROP, POLY_FILL, a)[0] for a in POLY_TURNS])


def d4_crops(frame_bgr: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """(:data:`TURNS`, CROP, CROP) uint8: :func:`d4_crop` of ``frame_bgr`` (HxWx3 BGR) with each
    corner on top."""
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    return np.stack([d4_crop(gray, corners, t) for t in range(TURNS)])


def standardise(crops: np.ndarray) -> np.ndarray:
    """(..., CROP, CROP) float32 of uint8 crops: each minus the median inside the triangle of
    :data:`CANON` (a d4's faces; a d8-d20's middle), over the spread there (the 90th minus the 10th percentile over 2, at least :data:`MIN_SPREAD`), clipped
    to +-4."""
    x = crops.astype(np.float32)
    flat = x.reshape(-1, CROP, CROP)
    out = np.empty_like(flat)
    for i, c in enumerate(flat):
        inside = c[_INSIDE]
        lo, mid, hi = np.percentile(inside, (10, 50, 90))
        out[i] = np.clip((c - mid) / max(MIN_SPREAD, (hi - lo) / 2), -4, 4)
    return out.reshape(x.shape)


@lru_cache(maxsize=2)
def load(path: Path = MODEL) -> LabelledNet:
    """The classifier at ``path`` (loaded once).

    Raises:
        ModelMissing: no file, not loadable, or without its class list.
    """
    return LabelledNet(Path(path), "classes", "the polyhedral die model")


def classes(path: Path = MODEL) -> tuple[str, ...]:
    """The classes the classifier at ``path`` tells apart, in output order (``top-vertex-3``...)."""
    return load(path).labels


def classify(crops: np.ndarray, path: Path = MODEL) -> np.ndarray:
    """Class probabilities (N x len(classes)) of N dice, each given as its :data:`TURNS` uint8
    crops (N x TURNS x CROP x CROP, :func:`d4_crops`): the mean of the net's softmax over the turns.

    Raises:
        ValueError: crops of another shape.
        ModelMissing: see :func:`load`.
    """
    if crops.ndim != 4 or crops.shape[2:] != (CROP, CROP):
        raise ValueError(f"crops must be N x turns x {CROP} x {CROP}, got {crops.shape}")
    net = load(path)
    n, turns = crops.shape[:2]
    if n == 0:
        return np.zeros((0, len(net.labels)), np.float32)
    x = standardise(crops).reshape(n * turns, 1, CROP, CROP)
    return net.probabilities(x).reshape(n, turns, -1).mean(axis=1)
