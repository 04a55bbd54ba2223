"""Face model for a taught die kind: tell a die's faces apart from a few labelled crops.

Method (OpenCV and numpy only): each crop's die outline is found (colour distance to the
border, Otsu threshold, largest contour, ``cv2.minAreaRect``) and rotated square to the axes, then cut to the
outline and resized to ``SIDE`` x ``SIDE``. Unless ``orientation_matters``, the four right-angle
rotations are added as training shots; brightness, scale and blur variants are added too. The
features are HOG (numpy; cells of CELL pixels, BINS bins), L2-normalised; a face is read by cosine nearest
neighbours. The confidence is the margin between the best face's similarity and the next face's;
the abstention threshold is the smallest margin that keeps precision on held-back shots at
``PRECISION`` or above (source: Dalal & Triggs 2005 for HOG).
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

SIDE = 48
PRECISION = 0.995
CELL = 8
BINS = 9


class FaceModelError(ValueError):
    """Teaching input that cannot make a face model (too few shots, unknown shapes)."""


class IndistinguishableFaces(FaceModelError):
    """Two faces the held-back shots could not tell apart; ``faces`` names them."""

    def __init__(self, a: str, b: str, rate: float):
        self.faces = (a, b)
        super().__init__(f"faces {a!r} and {b!r} cannot be told apart "
                         f"({rate:.0%} of their held-back shots were read as the other)")


def _outline_square(crop: np.ndarray) -> np.ndarray:
    """Rotate the die's outline square to the axes and cut to it (grey); the whole crop if none is found.

    The die is what differs from the table: the colour distance of each pixel to the median of the
    crop's border, Otsu-thresholded; its largest outer contour gives ``cv2.minAreaRect``.
    """
    h, w = crop.shape[:2]
    col = crop.reshape(h, w, -1).astype(np.float32)
    border = np.concatenate([col[0], col[-1], col[:, 0], col[:, -1]])
    dist = np.linalg.norm(col - np.median(border, axis=0), axis=2)
    dist = cv2.GaussianBlur(cv2.normalize(dist, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8), (5, 5), 0)
    _, mask = cv2.threshold(dist, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    grey = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return grey
    c = max(contours, key=cv2.contourArea)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
    if rw * rh < 0.08 * h * w or max(rw, rh) > 1.6 * min(rw, rh):
        return grey
    side = max(rw, rh)
    m = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
    m[:, 2] += (side / 2 - cx, side / 2 - cy)
    return cv2.warpAffine(grey, m, (int(round(side)), int(round(side))), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def normalise(crop: np.ndarray) -> np.ndarray:
    """HxWx3 uint8 BGR (or HxW grey) die crop -> SIDE x SIDE uint8 grey, outline squared, contrast stretched."""
    if crop.ndim != 2 and (crop.ndim != 3 or crop.shape[2] != 3):
        raise FaceModelError(f"a crop must be HxWx3 BGR or HxW grey, got shape {crop.shape}")
    sq = _outline_square(crop)
    sq = cv2.resize(sq, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    return cv2.normalize(sq, None, 0, 255, cv2.NORM_MINMAX)


def _feature(sq: np.ndarray) -> np.ndarray:
    """HOG of a SIDE x SIDE grey square: unsigned gradients, BINS bins per CELL x CELL cell, 2x2-cell
    blocks L2-normalised (Dalal & Triggs 2005; written with numpy as this OpenCV build has no
    ``cv2.HOGDescriptor``)."""
    g = sq.astype(np.float32)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy)
    b = (np.mod(ang, np.pi) / np.pi * BINS).astype(int) % BINS
    n = SIDE // CELL
    hist = np.zeros((n, n, BINS), np.float32)
    cy, cx = np.indices(sq.shape) // CELL
    np.add.at(hist, (cy.ravel(), cx.ravel(), b.ravel()), mag.ravel())
    blocks = np.stack([hist[i:i + 2, j:j + 2].ravel() for i in range(n - 1) for j in range(n - 1)])
    blocks /= np.linalg.norm(blocks, axis=1, keepdims=True) + 1e-6
    f = blocks.ravel()
    return f / (np.linalg.norm(f) + 1e-6)


def _variants(sq: np.ndarray, rotate: bool) -> list[np.ndarray]:
    out = []
    for k in (range(4) if rotate else [0]):
        r = np.rot90(sq, k).copy()
        out.append(r)
        out.append(cv2.convertScaleAbs(r, alpha=0.8, beta=10))
        out.append(cv2.GaussianBlur(r, (5, 5), 1.2))
        out.append(cv2.resize(r[3:-3, 3:-3], (SIDE, SIDE)))
    return out


@dataclass
class FaceModel:
    """Taught faces of one die kind: reference features, face labels and the abstention threshold."""

    faces: list[str]
    refs: np.ndarray                   # N x D float32, L2-normalised features
    labels: np.ndarray                 # N int, index into ``faces``
    threshold: float = 0.0
    orientation_matters: bool = False
    report: dict = field(default_factory=dict)

    @classmethod
    def fit(cls, crops: Sequence[np.ndarray], faces: Sequence[str], *, orientation_matters: bool = False,
            confusable: float = 0.2) -> "FaceModel":
        """Teach from ``crops`` (HxWx3 uint8 BGR die crops) labelled with ``faces`` (face names).

        Each shot is held back in turn (leave-one-out: read against the other shots and their
        augmented variants) to measure per-face accuracy and the confusion matrix (``report``,
        rows = true face, columns = read face, in ``report["faces"]`` order) and to calibrate the
        abstention threshold; the returned model holds all shots. Each face needs two shots or more.
        Raises FaceModelError for fewer than two faces or mismatched lengths, and
        IndistinguishableFaces when held-back shots of two faces are read as each other
        (``confusable`` or more of the pair's held-back shots).
        """
        if len(crops) != len(faces):
            raise FaceModelError(f"{len(crops)} crops but {len(faces)} face labels")
        names = sorted(set(faces))
        if len(names) < 2:
            raise FaceModelError(f"teaching needs at least two faces, got {names}")
        few = [n for n in names if list(faces).count(n) < 2]
        if few:
            raise FaceModelError(f"each face needs at least two shots; too few for {few}")
        sqs = [normalise(c) for c in crops]
        y = np.array([names.index(f) for f in faces])
        model, source = cls._build(names, sqs, y, orientation_matters)
        # each shot held back in turn: read it against the other shots' references only
        got = []
        for i, sq in enumerate(sqs):
            keep = source != i
            got.append(_nearest(model.refs[keep], model.labels[keep], len(names), _feature(sq)))
        conf = np.zeros((len(names), len(names)), int)
        for t, (p, _) in zip(y, got):
            conf[t, p] += 1
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                n = conf[a].sum() + conf[b].sum()
                if (conf[a, b] + conf[b, a]) / n >= confusable:
                    raise IndistinguishableFaces(names[a], names[b], (conf[a, b] + conf[b, a]) / n)
        margins = np.array([m for _, m in got])
        right = np.array([p == t for t, (p, _) in zip(y, got)])
        threshold = _calibrate(margins, right)
        report = {
            "faces": names,
            "held_back": len(sqs),
            "accuracy": float(right.mean()),
            "per_face_accuracy": {names[k]: float(conf[k, k] / conf[k].sum()) for k in range(len(names))},
            "confusion": conf.tolist(),
            "threshold": threshold,
            "abstention": float((margins < threshold).mean()),
        }
        model.threshold = threshold
        model.report = report
        return model

    @classmethod
    def _build(cls, names, sqs, y, orientation_matters) -> tuple["FaceModel", np.ndarray]:
        feats, labels, source = [], [], []
        for i, (s, k) in enumerate(zip(sqs, y)):
            for v in _variants(s, not orientation_matters):
                feats.append(_feature(v))
                labels.append(k)
                source.append(i)
        return cls(list(names), np.stack(feats), np.array(labels), 0.0, orientation_matters), np.array(source)

    def _read(self, sq: np.ndarray) -> tuple[int, float]:
        return _nearest(self.refs, self.labels, len(self.faces), _feature(sq))

    def predict(self, crop: np.ndarray) -> tuple[str | None, float]:
        """Read one HxWx3 uint8 BGR die crop: (face name, margin confidence), face None when abstaining."""
        k, margin = self._read(normalise(crop))
        return (self.faces[k] if margin >= self.threshold else None), margin

    def to_bytes(self) -> bytes:
        """Serialise (numpy .npz with a JSON header); read back with ``from_bytes``."""
        meta = json.dumps({"faces": self.faces, "threshold": self.threshold,
                           "orientation_matters": self.orientation_matters, "report": self.report,
                           "side": SIDE, "version": 1})
        buf = io.BytesIO()
        np.savez_compressed(buf, refs=self.refs, labels=self.labels, meta=np.frombuffer(meta.encode(), np.uint8))
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, b: bytes) -> "FaceModel":
        """Inverse of ``to_bytes``; raises FaceModelError for bytes that are not a face model."""
        try:
            z = np.load(io.BytesIO(b))
            meta = json.loads(z["meta"].tobytes().decode())
            refs, labels = z["refs"], z["labels"]
        except Exception as e:  # noqa: BLE001 - any unreadable input is the same error to the caller
            raise FaceModelError(f"not a face model: {e}") from e
        if meta.get("side") != SIDE:
            raise FaceModelError(f"face model made for side {meta.get('side')}, this reader uses {SIDE}")
        return cls(meta["faces"], refs, labels, meta["threshold"], meta["orientation_matters"], meta["report"])


def _nearest(refs: np.ndarray, labels: np.ndarray, n_faces: int, f: np.ndarray) -> tuple[int, float]:
    """(best face index, cosine margin to the next face) of feature ``f`` against ``refs``."""
    best = np.full(n_faces, -2.0)
    np.maximum.at(best, labels, refs @ f)
    order = np.argsort(best)[::-1]
    return int(order[0]), float(best[order[0]] - best[order[1]])


def _calibrate(margins: np.ndarray, right: np.ndarray) -> float:
    """Smallest margin threshold whose kept held-back reads have precision >= PRECISION."""
    for t in sorted(set([0.0, *margins.tolist()])):
        kept = margins >= t
        if not kept.any() or right[kept].mean() >= PRECISION:
            return float(t)
    return float(margins.max() + 1e-6)
