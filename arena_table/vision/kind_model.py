"""The die-kind face classifier: a small CNN on one die's face, run with ONNX Runtime.

Input: the *ink map* of a deskewed face crop (:func:`ink_map`): each pixel's Lab distance from the
die's body colour, so the net sees where ink lies whatever the body and ink colours are (a kind's
colours may be entered or taught later without retraining). Output: one logit per glyph
(:mod:`arena_table.vision.kind_icons`: ``num-6``, ``pips-3``, ``sword``...); the glyph list is in
the model file's metadata (``glyphs``) and in ``models/train_kinds.json``.

Reading does not depend on how the die lies: the crop is squared to the die's outline (the face
turned by a multiple of 90 degrees), the net was trained on all four turns, and :func:`classify`
averages its probabilities over the four. The underline of 6 and 9 keeps those two apart.

The shipped ``kind_face.onnx`` was trained by ``tools/train_kinds.py`` on rendered faces only
(``kind_render``, seeds below 100 000): its figures hold for rendered dice; real dice are taught.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .labelled_net import LabelledNet

CROP = 48
"""Side in px of the deskewed face crop the net reads."""
INK_SCALE = 80.0
"""Lab distance that maps to 1.0 in the ink map (clipped at :data:`INK_CLIP`)."""
INK_CLIP = 2.0
"""Largest ink map value (glare on a dark body is far from the body colour too)."""
MODEL = Path(__file__).resolve().parent / "models" / "kind_face.onnx"
"""The shipped classifier."""


def ring(crop: np.ndarray) -> np.ndarray:
    """The pixels (N x C) of ``crop`` in a band just inside its outline (6-14 % of the side in
    from each edge), where a face has no ink."""
    n = crop.shape[0]
    a, b = max(1, round(n * 0.06)), max(2, round(n * 0.14))
    parts = [crop[a:b, a:n - a], crop[n - b:n - a, a:n - a], crop[b:n - b, a:b], crop[b:n - b, n - b:n - a]]
    return np.concatenate([p.reshape(-1, crop.shape[2]) for p in parts])


def ink_map(crop_bgr: np.ndarray) -> np.ndarray:
    """CROP x CROP float32: Lab distance of each pixel of a BGR face crop from the median of its
    :func:`ring`, over :data:`INK_SCALE`, clipped to :data:`INK_CLIP`."""
    lab = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    body = np.median(ring(lab), axis=0)
    dist = np.sqrt(((lab - body) ** 2).sum(axis=2)) / INK_SCALE
    return np.minimum(dist, INK_CLIP).astype(np.float32)


@lru_cache(maxsize=2)
def load(path: Path = MODEL) -> LabelledNet:
    """The classifier at ``path`` (loaded once).

    Raises:
        ModelMissing: no file, not loadable, or without its glyph list.
    """
    return LabelledNet(Path(path), "glyphs", "the kind face model")


def glyphs(path: Path = MODEL) -> tuple[str, ...]:
    """The glyphs the classifier at ``path`` tells apart, in output order."""
    return load(path).labels


def classify(maps: np.ndarray, path: Path = MODEL) -> np.ndarray:
    """Glyph probabilities (N x len(glyphs)) of N ink maps (N x CROP x CROP), each the mean over
    the map's four quarter turns.

    Raises:
        ValueError: maps of another shape.
        ModelMissing: see :func:`load`.
    """
    if maps.ndim != 3 or maps.shape[1:] != (CROP, CROP):
        raise ValueError(f"ink maps must be N x {CROP} x {CROP}, got {maps.shape}")
    net = load(path)
    if len(maps) == 0:
        return np.zeros((0, len(net.labels)), np.float32)
    x = np.concatenate([np.rot90(maps, k, axes=(1, 2)) for k in range(4)])[:, None].astype(np.float32)
    return net.probabilities(x).reshape(4, len(maps), -1).mean(axis=0)
