"""Classical check of one die's top face: find its pips and test their layout.

The CNN says which face a die most likely shows; this module checks the
geometry the CNN cannot be trusted with:

* pips are blobs that differ from the face colour (distance in CIE Lab from
  the face's median colour, threshold by Otsu inside the face disc, so it
  follows exposure and colour cast), all of one polarity (darker or lighter
  than the face); a glare spot on dark pips has the wrong polarity and is
  ignored, one on light pips is an outlier of the layout fit and is dropped;
* the pips are fitted to the canonical layout of the CNN's face (1..6) with
  an affine map; a bad fit of a clean set of pips (or 7+ clean pips) is an
  invalid layout, and a strongly anisotropic map (or elongated pips) means the
  top face is not square to the camera: a cocked die.

When the pips cannot be found cleanly the check abstains (status ``ok``) and
the CNN's confidence decides.

>>> canonical(5).round(2).tolist()
[[-0.27, -0.27], [0.27, -0.27], [0.27, 0.27], [-0.27, 0.27], [0.0, 0.0]]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

PIP_OFFSET = 0.27
"""Canonical pip offset from the face centre, in die sides (standard d6)."""


@dataclass(frozen=True)
class PipConfig:
    """Thresholds of the pip-layout check (sizes in die sides, contrasts in Lab units)."""

    crop: int = 64
    """Side (px) of the crop the check works on."""
    span: float = 1.25
    """Crop side in die sides."""
    face_radius: float = 0.47
    """Radius (die sides) of the disc around the centre searched for pips."""
    min_contrast: float = 14.0
    """Floor on the Lab distance that separates pip from face (Otsu picks the rest)."""
    pip_area: tuple[float, float] = (0.004, 0.05)
    """Pip blob area range as a fraction of the die's squared side."""
    max_residual: float = 0.09
    """RMS layout-fit residual (die sides) above which clean pips are not a valid face."""
    max_anisotropy: float = 1.45
    """Ratio of the layout map's singular values above which the die is cocked."""
    max_pip_elongation: float = 2.2
    """Median pip axis ratio above which a 1..3 face is cocked (pips seen as ellipses)."""
    max_area_spread: float = 0.6
    """Coefficient of variation of pip areas below which a pip set counts as clean."""
    max_drop: int = 2
    """Outlier blobs (glare, dirt) that may be dropped to fit the layout."""


@dataclass(frozen=True)
class FaceCheck:
    """Outcome of :func:`inspect_face`."""

    status: str
    """``"ok"`` (consistent or abstained), ``"cocked"``, ``"invalid"`` or ``"logo"``."""
    reason: str
    """Human explanation when not ok."""
    pips: int
    """Number of pips found (-1 when the check abstained)."""
    residual: float = math.nan
    """RMS layout-fit residual in die sides (nan when not fitted)."""
    anisotropy: float = math.nan
    """Singular-value ratio of the fitted layout map (nan when not fitted)."""
    elongation: float = math.nan
    """Median pip axis ratio of the fitted pips (nan when not fitted)."""


def canonical(n: int) -> np.ndarray:
    """Canonical pip centres of face ``n`` (1..6), nx2 in die sides, centre origin."""
    q = PIP_OFFSET
    corners = [(-q, -q), (q, -q), (q, q), (-q, q)]
    pts = {1: [(0, 0)], 2: [(-q, -q), (q, q)], 3: [(-q, -q), (0, 0), (q, q)], 4: corners,
           5: corners + [(0, 0)], 6: [(-q, -q), (0, -q), (q, -q), (q, q), (0, q), (-q, q)]}[n]
    return np.array(pts, np.float64)


def _blobs(cfg: PipConfig, crop: np.ndarray):
    """Pip-like blobs in a die crop: list of (x, y, area, elongation, polarity) in crop px."""
    n = cfg.crop
    side = n / cfg.span
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[0:n, 0:n]
    disc = np.hypot(xx - n / 2 + 0.5, yy - n / 2 + 0.5) < cfg.face_radius * side
    face = np.median(lab[disc], axis=0)
    diff = lab - face
    dist = np.sqrt((diff**2).sum(2))
    inside = dist[disc]
    d8 = np.clip(inside, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = max(float(otsu), cfg.min_contrast)
    mask = ((dist > thr) & disc).astype(np.uint8)
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    amin, amax = cfg.pip_area[0] * side**2, cfg.pip_area[1] * side**2
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        if not amin <= area <= amax:
            continue
        ys, xs = np.nonzero(labels == i)
        cov = np.cov(np.stack([xs, ys]).astype(np.float64)) if area > 2 else np.eye(2)
        ev = np.linalg.eigvalsh(cov + 0.25 * np.eye(2))
        polarity = float(np.sign(diff[ys, xs, 0].mean()))
        out.append((cents[i][0], cents[i][1], float(area), float(math.sqrt(ev[1] / ev[0])), polarity))
    return out, side, thr


def _order(pts: np.ndarray) -> np.ndarray:
    c = pts.mean(0)
    return pts[np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]


def fit_layout(pts: np.ndarray, n: int) -> tuple[float, float]:
    """Fit pip centres (nx2, die sides, centre origin) to face ``n``.

    Returns:
        (rms residual in die sides, anisotropy = ratio of the map's singular
        values; 1.0 for faces whose pips cannot show it).
    """
    ref = canonical(n)
    if n == 1:
        return float(np.hypot(*pts[0])), 1.0
    if n <= 3:  # collinear: pips on one diagonal, evenly spaced, spacing free
        c = pts.mean(0)
        _, _, vt = np.linalg.svd(pts - c)
        obs = np.sort((pts - c) @ vt[0])
        exp = np.sort((ref - ref.mean(0)) @ np.array([1.0, 1.0]) / math.sqrt(2))
        k = float(obs @ exp / (exp @ exp))
        resid = np.sqrt(((obs - k * exp) ** 2).mean() + (((pts - c) @ vt[1]) ** 2).mean())
        return float(resid), 1.0
    best = (math.inf, 1.0)
    centre_ref = ref[:4] if n == 5 else ref
    if n == 5:
        k = int(np.argmin(np.hypot(*(pts - pts.mean(0)).T)))
        ring, mid = np.delete(pts, k, 0), pts[k]
    else:
        ring, mid = pts, None
    ring = _order(ring)
    ref_ring = _order(centre_ref)
    m = len(ring)
    for shift, flip in itertools.product(range(m), (False, True)):
        obs = np.roll(ring[::-1] if flip else ring, shift, axis=0)
        src, dst = ref_ring, obs
        if mid is not None:
            src, dst = np.vstack([src, [0, 0]]), np.vstack([dst, mid])
        a = np.hstack([src, np.ones((len(src), 1))])
        sol, *_ = np.linalg.lstsq(a, dst, rcond=None)
        resid = float(np.sqrt(((a @ sol - dst) ** 2).sum(1).mean()))
        if resid < best[0]:
            sv = np.linalg.svd(sol[:2], compute_uv=False)
            best = (resid, float(sv[0] / max(sv[1], 1e-6)))
    return best


def inspect_face(cfg: PipConfig, frame: np.ndarray, cx: float, cy: float, side: float, value: int) -> FaceCheck:
    """Check the pips of the die at (cx, cy) against face ``value``.

    Args:
        cfg: thresholds.
        frame: HxWx3 uint8 BGR frame.
        cx, cy: die centre in frame px; side: die side in frame px.
        value: the face the classifier read (1..6).

    Returns:
        A :class:`FaceCheck`; ``ok`` also when the pips are too unclear to judge.
    """
    s = cfg.crop / (cfg.span * side)
    m = np.array([[s, 0, cfg.crop / 2 - s * cx], [0, s, cfg.crop / 2 - s * cy]], np.float64)
    crop = cv2.warpAffine(frame, m, (cfg.crop, cfg.crop), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    blobs, side_px, _ = _blobs(cfg, crop)
    if not blobs:
        return FaceCheck("ok", "", -1)
    # Pips share one polarity; the majority (by area) wins, glare of the other sign is dropped.
    pol = 1.0 if sum(b[2] * b[4] for b in blobs) > 0 else -1.0
    blobs = [b for b in blobs if b[4] == pol]
    areas = np.array([b[2] for b in blobs])
    clean = len(blobs) >= 2 and areas.std() / areas.mean() < cfg.max_area_spread
    pts = (np.array([[b[0], b[1]] for b in blobs]) - cfg.crop / 2 + 0.5) / side_px
    if len(blobs) >= 7 and clean:
        return FaceCheck("invalid", f"{len(blobs)} pips is not a d6 face", len(blobs))
    fits = []
    for drop in range(0, cfg.max_drop + 1):
        k = len(blobs) - drop
        if k != value:
            continue
        for keep in itertools.combinations(range(len(blobs)), k):
            resid, aniso = fit_layout(pts[list(keep)], value)
            fits.append((resid, aniso, keep, drop))
    if not fits:
        return FaceCheck("ok", "", len(blobs))
    resid, aniso, keep, drop = min(fits)
    if resid > cfg.max_residual:
        if drop == 0 and clean and value >= 2:
            return FaceCheck("invalid", f"{value} pips not in a d6 layout (fit error {resid:.2f})", len(blobs),
                             residual=resid, anisotropy=aniso)
        return FaceCheck("ok", "", len(blobs), residual=resid, anisotropy=aniso)
    elong = float(np.median([blobs[i][3] for i in keep]))
    geo = dict(residual=resid, anisotropy=aniso, elongation=elong)
    if aniso > cfg.max_anisotropy:
        return FaceCheck("cocked", f"top face not square to the camera (pip grid skew {aniso:.2f})", value, **geo)
    if value <= 3 and elong > cfg.max_pip_elongation:
        return FaceCheck("cocked", f"top face not square to the camera (pips elongated {elong:.2f})", value, **geo)
    return FaceCheck("ok", "", value, **geo)
