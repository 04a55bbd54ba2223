"""Face model for a taught die kind: tell a die's faces apart from a few labelled crops.

Method (OpenCV and numpy only), for any square-faced kind (pips, numerals, logos):

1. *Normalise* (:func:`normalise`): the crop is taken as centred on the face to read (a die
   locator's box, or a YOLO box of the face), with table round it. A pixel belongs to the die when
   its Lab colour lies nearer the body's (the larger non-table cluster at the crop's centre) than
   the table's (the median of the crop's border); the region nearest the centre is cut to a disc
   of ``TRIM`` face sides (touching dice of the same colour fall away) and ``cv2.minAreaRect`` of
   it gives the face's turn and side. The grey crop is turned square about its centre and cut to
   ``QUERY`` die sides at ``SIDE`` px per die side; a large blur is subtracted so that light
   falling across the die does not count.
2. *Templates*: each taught square (a shot, and each crop its die is read from as reading cuts
   it, when given) is turned through all turns at ``STEP_DEG`` degree steps (only
   ``UPRIGHT_DEG`` when the kind's orientation matters, as for 6 and 9 numerals) and scaled by
   ``SCALES``; its central disc of ``TEMPLATE`` die sides is one template.
3. *Reading*: every disc of the query square (shifts of up to (QUERY - TEMPLATE) / 2 die sides,
   since the face is seldom exactly at the crop's centre) is compared with every template by
   normalised cross-correlation (zero mean, unit norm over the disc). A face's score is its best
   template's; the read face is the best face, its confidence the margin to the next face's score.
4. *Reading a die* (:meth:`FaceModel.read`) takes several crops of it (each a guess of where its
   face is) and keeps the read of the largest margin. It is refused when that margin is under the
   abstention threshold (two faces fit about as well), or when no crop's best correlation reaches
   the floor (the crop is like none of the taught faces: a side face, something that is not a die
   of this kind, a blurred die).
5. *Teaching* holds each shot back in turn (leave-one-out) to build the confusion matrix and refuse
   two faces that are read as each other. The threshold and the floor are set on held-back reads
   made as reading makes them: each teaching die's reading crops (cut where the die locator found
   it; its own shot's crop when none are given), read with the shots of its photo held back
   (:func:`_calibrate`).

Rotation-searched normalised correlation is template matching as in Brunelli, *Template Matching
Techniques in Computer Vision* (Wiley 2009), ch. 3 and 5.
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

SIDE = 48
"""px of one die side in the normalised square."""
QUERY = 0.9
"""Side of the normalised square (the query window), in die sides."""
TEMPLATE = 0.7
"""Diameter of a template's disc, in die sides."""
STEP_DEG = 10
"""Turn step of the templates when orientation does not matter."""
UPRIGHT_DEG = (-15, -10, -5, 0, 5, 10, 15)
"""Template turns when orientation matters (the die is read as it lies in the frame)."""
SCALES = (0.9, 1.0, 1.1)
"""Template scales: the apparent face size varies with the view angle."""
TRIM = 0.7
"""Radius, in face sides, of the disc the face's region is cut to (a square's corner lies at 0.71)."""
WRONG_COST = 10
"""A wrong read costs as much as this many refused dice (a refused die is a re-roll asked for): the
abstention threshold keeps the fewest refused right reads plus ``WRONG_COST`` times the wrong reads
kept, over the held-back reads."""
UNLIKE = 1.25
"""The floor refuses a die this many times as unlike (1 - correlation) every taught face as the
held-back right read least like one (:func:`_calibrate`)."""
FORMAT = 4
"""Version of the ``to_bytes`` format."""

_Q = int(round(QUERY * SIDE))
_T = int(round(TEMPLATE * SIDE))
_yy, _xx = np.mgrid[:_T, :_T]
_DISC = (((_yy - (_T - 1) / 2) ** 2 + (_xx - (_T - 1) / 2) ** 2) <= (_T / 2) ** 2).ravel()


class FaceModelError(ValueError):
    """Teaching input that cannot make a face model (too few shots, unknown shapes)."""


class IndistinguishableFaces(FaceModelError):
    """Two faces the held-back shots could not tell apart; ``faces`` names them."""

    def __init__(self, a: str, b: str, rate: float):
        self.faces = (a, b)
        super().__init__(f"faces {a!r} and {b!r} cannot be told apart "
                         f"({rate:.0%} of their held-back shots were read as the other)")


def _body_colour(lab: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Lab body colour of the die at the centre of ``lab`` (HxWx3 float32): the larger of the two
    clusters that are not the table's in a 3-means clustering of a central disc (table, body, ink);
    the disc spans 0.3 of the crop's side, so that ink at the centre does not make the body."""
    h, w = lab.shape[:2]
    r = max(2.0, 0.3 * min(h, w))
    yy, xx = np.mgrid[:h, :w]
    px = lab[(yy - h / 2) ** 2 + (xx - w / 2) ** 2 <= r * r]
    light = np.argsort(px[:, 0])
    centres = np.stack([table, px[light[len(px) // 10]], px[light[9 * len(px) // 10]]])
    for _ in range(8):
        near = np.argmin(((px[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
        centres = np.stack([px[near == k].mean(axis=0) if (near == k).any() else centres[k] for k in range(3)])
    return centres[1] if (near == 1).sum() >= (near == 2).sum() else centres[2]


def body_contours(crop: np.ndarray) -> list[np.ndarray]:
    """The outer contours of the pixels of ``crop`` (BGR) nearer the die's body colour
    (:func:`_body_colour`) than the table's (the median of the crop's border), after a 3x3 opening;
    ``[]`` if none."""
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]), axis=0)
    body = _body_colour(lab, table)
    mask = (np.linalg.norm(lab - body, axis=2) < np.linalg.norm(lab - table, axis=2)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(contours)


def _outline(crop: np.ndarray) -> tuple[float, float] | None:
    """(turn in degrees, side in px) of the die face around the crop's centre, None if none fits.

    The face's body colour comes from :func:`_body_colour`, the table's is the median of the
    crop's border; a pixel is the die's when it lies nearer the body colour than the table's
    (shaded side faces mostly do not). The outer contour nearest the centre, filled, may hold
    neighbouring dice of the same colour that touch it: its distance transform's peak near the
    centre is half the face's side (the largest disc inside a square), and the region is cut to a
    disc of ``TRIM`` face sides round the centre before ``cv2.minAreaRect`` gives turn and side.
    """
    h, w = crop.shape[:2]
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    contours = body_contours(crop)
    if not contours:
        return None
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [max(contours, key=lambda c: cv2.pointPolygonTest(c, (w / 2, h / 2), True))], 0, 255, -1)
    yy, xx = np.mgrid[:h, :w]
    near = (yy - h / 2) ** 2 + (xx - w / 2) ** 2
    half = float(cv2.distanceTransform(region, cv2.DIST_L2, 5)[near <= (0.25 * min(h, w)) ** 2].max())
    if half < 2:
        return None
    region[near > (TRIM * 2 * half) ** 2] = 0
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    _, (rw, rh), ang = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    if rw * rh < 0.02 * h * w or max(rw, rh) > 1.6 * min(rw, rh):
        return None
    return float(ang), float(max(rw, rh))


def normalise(crop: np.ndarray) -> np.ndarray:
    """HxWx3 uint8 BGR (or HxW grey) die crop centred on the face -> Q x Q uint8 grey square.

    Turned square to the die's outline about the crop's centre, ``QUERY`` die sides wide at ``SIDE``
    px per die side (Q = round(QUERY * SIDE)), contrast stretched; the whole crop, resized, when no
    outline is found. Raises FaceModelError for other shapes.
    """
    if crop.ndim != 2 and (crop.ndim != 3 or crop.shape[2] != 3) or min(crop.shape[:2]) < 4:
        raise FaceModelError(f"a crop must be HxWx3 BGR or HxW grey of 4 px or more, got shape {crop.shape}")
    h, w = crop.shape[:2]
    grey = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    found = _outline(crop)
    if found is None:
        sq = cv2.resize(grey, (_Q, _Q), interpolation=cv2.INTER_AREA)
    else:
        ang, side = found
        ang = (ang + 45.0) % 90.0 - 45.0       # the smallest turn that squares it: upright stays upright
        cx, cy = w / 2, h / 2
        n = max(4, int(round(QUERY * side)))
        m = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
        m[:, 2] += (n / 2 - cx, n / 2 - cy)
        sq = cv2.warpAffine(grey, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        sq = cv2.resize(sq, (_Q, _Q), interpolation=cv2.INTER_AREA if n > _Q else cv2.INTER_LINEAR)
    return cv2.normalize(sq, None, 0, 255, cv2.NORM_MINMAX)


def _flat(sq: np.ndarray) -> np.ndarray:
    """The square less its large-scale light (a blur of SIDE/6 px sigma), float32."""
    f = sq.astype(np.float32)
    return f - cv2.GaussianBlur(f, (0, 0), SIDE / 6)


def _unit(v: np.ndarray) -> np.ndarray:
    v = v - v.mean(axis=-1, keepdims=True)
    return (v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-6)).astype(np.float32)


def _angles(orientation_matters: bool) -> list[float]:
    return list(UPRIGHT_DEG) if orientation_matters else list(range(0, 360, STEP_DEG))


def _templates(sq: np.ndarray, angles: Sequence[float]) -> np.ndarray:
    """(len(angles) * len(SCALES)) x disc-pixels unit templates of one normalised square."""
    f, c, o = _flat(sq), (_Q - 1) / 2, (_Q - _T) // 2
    out = []
    for a in angles:
        for s in SCALES:
            r = cv2.warpAffine(f, cv2.getRotationMatrix2D((c, c), a, s), (_Q, _Q), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
            out.append(r[o:o + _T, o:o + _T].ravel()[_DISC])
    return _unit(np.stack(out))


def _windows(sq: np.ndarray) -> np.ndarray:
    """Every shifted disc of the query window of one normalised square, unit rows."""
    win = _flat(sq)
    return _unit(np.lib.stride_tricks.sliding_window_view(win, (_T, _T)).reshape(-1, _T * _T)[:, _DISC])


@dataclass
class FaceModel:
    """Taught faces of one die kind: the taught squares, their faces, the abstention threshold (a
    margin) and the floor (a correlation).

    ``refs`` is N x Q x Q uint8 (the normalised taught shots and reading crops), ``labels`` N ints
    indexing ``faces``. ``report`` is teaching's leave-one-out summary (see :meth:`fit`).
    """

    faces: list[str]
    refs: np.ndarray
    labels: np.ndarray
    threshold: float = 0.0
    orientation_matters: bool = False
    report: dict = field(default_factory=dict)
    floor: float = -1.0
    """Least best correlation (-1..1) a read must reach; under it the die is like none of the faces."""

    def __post_init__(self):
        angles = _angles(self.orientation_matters)
        self._per_shot = len(angles) * len(SCALES)
        self._temps = np.concatenate([_templates(s, angles) for s in self.refs])

    @classmethod
    def fit(cls, crops: Sequence[np.ndarray], faces: Sequence[str], *, orientation_matters: bool = False,
            confusable: float = 0.2, reads: Sequence[Sequence[np.ndarray]] | None = None,
            groups: Sequence[str] | None = None) -> "FaceModel":
        """Teach from ``crops`` (HxWx3 uint8 BGR die crops, centred on the face) labelled ``faces``.

        ``reads[i]`` are the crops :meth:`read` is given for shot i's die, as reading cuts them
        (none when ``reads`` is None or ``reads[i]`` is empty); they are taught as templates of its
        face too. Each shot is held back in turn (leave-one-out: read against the other dice's
        templates only) to measure per-face accuracy and the confusion matrix (``report``: rows =
        true face, columns = read face, in ``report["faces"]`` order). The abstention threshold and
        the floor are calibrated on held-back reads (:func:`_calibrate`): shot i's ``reads[i]`` (its
        crop when none), read with every die of its group (``groups[i]``, the photo; each shot its
        own group when None) held back. The returned model holds every template. Each face needs
        two shots or more.
        ``orientation_matters`` reads a die only near upright in the frame (6 vs 9).

        Raises:
            FaceModelError: fewer than two faces, too few shots, or mismatched lengths.
            IndistinguishableFaces: held-back shots of two faces are read as each other
                (``confusable`` or more of the pair's held-back shots).
        """
        if len(crops) != len(faces) or any(x is not None and len(x) != len(crops) for x in (reads, groups)):
            raise FaceModelError(f"{len(crops)} crops but {len(faces)} face labels"
                                 + (f", {len(reads)} reads" if reads is not None else "")
                                 + (f", {len(groups)} groups" if groups is not None else ""))
        names = sorted(set(faces))
        if len(names) < 2:
            raise FaceModelError(f"teaching needs at least two faces, got {names}")
        few = [n for n in names if list(faces).count(n) < 2]
        if few:
            raise FaceModelError(f"each face needs at least two shots; too few for {few}")
        y = np.array([names.index(f) for f in faces])
        everyone = np.arange(len(crops))
        group = np.array(list(groups) if groups is not None else [str(i) for i in everyone])
        sqs = [normalise(c) for c in crops]
        read_sqs = [[normalise(c) for c in (reads[i] if reads is not None else ())] for i in everyone]
        # the reading crops are templates too, so that a die cut as reading cuts it meets its like;
        # one equal to its shot's square adds nothing
        extra = [(i, r) for i in everyone for r in read_sqs[i] if not np.array_equal(r, sqs[i])]
        die = np.concatenate([everyone, [i for i, _ in extra]]).astype(int)
        model = cls(list(names), np.stack(sqs + [r for _, r in extra]), y[die], 0.0, orientation_matters)
        reads_ = [model._read_sqs([sq], die == i) for i, sq in enumerate(sqs)]
        conf = np.zeros((len(names), len(names)), int)
        for t, (p, _, _) in zip(y, reads_):
            conf[t, p] += 1
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                n = conf[a].sum() + conf[b].sum()
                if (conf[a, b] + conf[b, a]) / n >= confusable:
                    raise IndistinguishableFaces(names[a], names[b], (conf[a, b] + conf[b, a]) / n)
        held = [model._read_sqs(read_sqs[i] or [sqs[i]], group[die] == group[i]) for i in everyone]
        margins = np.array([m for _, m, _ in held])
        best = np.array([b for _, _, b in held])
        right = np.array([p == t for t, (p, _, _) in zip(y, held)])
        model.threshold, model.floor = _calibrate(margins, best, right)
        kept = (margins >= model.threshold) & (best >= model.floor)
        model.report = {
            "faces": names,
            "held_back": len(sqs),
            "templates": len(die),
            "accuracy": float(np.trace(conf) / len(sqs)),
            "per_face_accuracy": {names[k]: float(conf[k, k] / conf[k].sum()) for k in range(len(names))},
            "confusion": conf.tolist(),
            "read_accuracy": float((right & kept).mean()),
            "read_precision": float(right[kept].mean()) if kept.any() else None,
            "threshold": model.threshold,
            "floor": model.floor,
            "abstention": float((~kept).mean()),
        }
        return model

    def _read_sqs(self, sqs: Sequence[np.ndarray], held_back: np.ndarray | None = None) -> tuple[int, float, float]:
        """(face index, margin, best correlation) of one die from its normalised squares: the read of
        the largest margin, and the best correlation of any square; the shots where ``held_back``
        (a bool per shot) is true left out."""
        got = [self._scores(sq, held_back) for sq in sqs]
        k, margin = max((_best(s) for s in got), key=lambda r: r[1])
        return k, margin, float(max(s.max() for s in got))

    def _scores(self, sq: np.ndarray, held_back: np.ndarray | None = None) -> np.ndarray:
        """Best correlation per face of one normalised square (the shots where ``held_back`` is true
        left out)."""
        per_shot = (_windows(sq) @ self._temps.T).max(axis=0).reshape(-1, self._per_shot).max(axis=1)
        if held_back is not None:
            per_shot[held_back] = -2.0
        best = np.full(len(self.faces), -2.0)
        np.maximum.at(best, self.labels, per_shot)
        return best

    def scores(self, crop: np.ndarray) -> dict[str, float]:
        """Best normalised correlation (-1..1) of one crop with each face's templates."""
        return dict(zip(self.faces, self._scores(normalise(crop)).tolist()))

    def read(self, crops: Sequence[np.ndarray]) -> tuple[str | None, float, float]:
        """Read one die from ``crops`` (HxWx3 uint8 BGR, one or more guesses of where its face is).

        Returns:
            (face name, margin, best correlation): the read of the crop with the largest margin (the
            best face's correlation less the next face's, 0-2), and the best correlation (-1..1) of
            any crop with any face; the face is None (refused) when the margin is under
            ``threshold`` or the correlation under ``floor``.

        Raises:
            FaceModelError: no crop, or a crop of another shape.
        """
        if not len(crops):
            raise FaceModelError("no crop to read")
        k, margin, best = self._read_sqs([normalise(c) for c in crops])
        return (self.faces[k] if margin >= self.threshold and best >= self.floor else None), margin, best

    def predict(self, crop: np.ndarray) -> tuple[str | None, float]:
        """Read one HxWx3 uint8 BGR die crop: (face name, margin confidence), face None when refused
        (:meth:`read` of that crop alone)."""
        return self.read([crop])[:2]

    def to_bytes(self) -> bytes:
        """Serialise (numpy .npz with a JSON header); read back with ``from_bytes``."""
        meta = json.dumps({"faces": self.faces, "threshold": self.threshold, "floor": self.floor,
                           "orientation_matters": self.orientation_matters, "report": self.report,
                           "side": SIDE, "query": QUERY, "template": TEMPLATE, "version": FORMAT})
        buf = io.BytesIO()
        np.savez_compressed(buf, refs=self.refs, labels=self.labels, meta=np.frombuffer(meta.encode(), np.uint8))
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, b: bytes) -> "FaceModel":
        """Inverse of ``to_bytes``; raises FaceModelError for bytes that are not a face model of this format."""
        try:
            z = np.load(io.BytesIO(b))
            meta = json.loads(z["meta"].tobytes().decode())
            refs, labels = z["refs"], z["labels"]
        except Exception as e:  # noqa: BLE001 - any unreadable input is the same error to the caller
            raise FaceModelError(f"not a face model: {e}") from e
        made = (meta.get("version"), meta.get("side"), meta.get("query"), meta.get("template"))
        if made != (FORMAT, SIDE, QUERY, TEMPLATE):
            raise FaceModelError(f"face model of format {meta.get('version')} (side {meta.get('side')}); "
                                 f"this reader uses format {FORMAT} (side {SIDE}): teach the kind again")
        return cls(meta["faces"], refs, labels, meta["threshold"], meta["orientation_matters"], meta["report"],
                   meta["floor"])


def _best(scores: np.ndarray) -> tuple[int, float]:
    """(best face index, margin to the next face's score)."""
    order = np.argsort(scores)[::-1]
    return int(order[0]), float(scores[order[0]] - scores[order[1]])


def _calibrate(margins: np.ndarray, best: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    """(threshold, floor) from held-back reads: their margins, best correlations and whether each was
    read right.

    The floor refuses a die :data:`UNLIKE` times as unlike every taught face (1 - correlation) as the
    held-back right read least like one (-1 when none was right): the least-like right read of n
    held-back ones marks about the 1/(n+1) tail of new right dice, so the floor stands a little
    below it, and far below it for a kind taught from clean shots. Over the reads at or above the
    floor, the threshold is the smallest margin that minimises the right reads it refuses plus
    :data:`WRONG_COST` times the wrong reads it keeps; a wrong read with a wide margin (a die cut
    badly or labelled wrong) costs what it costs and does not raise it further.

    >>> t, floor = _calibrate(np.array([0.3, 0.02, 0.25, 0.01]), np.array([0.9, 0.92, 0.95, 0.5]),
    ...                       np.array([True, False, True, False]))
    >>> round(t, 3), round(floor, 3)
    (0.25, 0.875)
    """
    floor = float(1 - UNLIKE * (1 - best[right].min())) if right.any() else -1.0
    m, ok = margins[best >= floor], right[best >= floor]
    costs = [(int((ok & (m < t)).sum() + WRONG_COST * (~ok & (m >= t)).sum()), t)
             for t in sorted(set([0.0, *m.tolist()]))]
    return float(min(costs)[1]), floor
