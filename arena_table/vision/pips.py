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
  invalid layout;
* round pips seen on a tilted face are ellipses, and a 4/5/6 pip grid becomes
  a rectangle: both give a 2x2 *shape tensor* (unit determinant). A die whose
  tensor differs from the other dice's consensus (the table's own
  foreshortening under an oblique camera), or from a circle when too few dice
  are in view, has a top face not square to the camera: it is cocked.

When the pips cannot be found cleanly the check abstains (status ``ok``) and
the CNN's confidence decides.

>>> canonical(5).round(2).tolist()
[[-0.27, -0.27], [0.27, -0.27], [0.27, 0.27], [-0.27, 0.27], [0.0, 0.0]]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

PIP_OFFSET = 0.27
"""Canonical pip offset from the face centre, in die sides (standard d6)."""


@dataclass(frozen=True)
class PipConfig:
    """Thresholds of the pip-layout check (sizes in die sides, contrasts in Lab units)."""

    crop: int = 48
    """Side (px) of the crop the check works on."""
    span: float = 1.25
    """Crop side in die sides."""
    face_radius: float = 0.47
    """Radius (die sides) of the disc around the centre searched for pips. A blob cut by the disc's
    rim (the die's edge or the table: the detector's die side includes visible side faces) is
    used only when the face's layout needs it."""
    min_contrast: float = 14.0
    """Floor on the Lab distance that separates pip from face (Otsu picks the rest)."""
    pip_area: tuple[float, float] = (0.004, 0.08)
    """Pip blob area range as a fraction of the die's squared side."""
    max_residual: float = 0.09
    """RMS layout-fit residual (die sides) above which clean pips are not a valid face."""
    max_area_spread: float = 0.45
    """Coefficient of variation of pip areas below which a pip set counts as clean."""
    max_drop: int = 2
    """Outlier blobs (glare, dirt) that may be dropped to fit the layout."""
    logo_area: tuple[float, float] = (0.12, 0.35)
    """Area range (fraction of side squared) of a single central mark read as a logo face."""
    logo_offset: float = 0.15
    """Largest distance (die sides) of a logo mark's centre from the face centre."""
    tight_residual: float = 0.05
    """Layout-fit residual (die sides) below which the pips are trusted to measure the face's shape."""
    min_shape_pixels: int = 10
    """Smallest pip blob (crop px) whose outline is trusted for the shape tensor."""
    cocked_skew: float = 1.45
    """Axis ratio of a die's shape relative to the other dice's consensus above which it is cocked."""
    cocked_skew_alone: float = 2.1
    """Axis ratio (relative to a circle) above which a die is cocked when no consensus exists."""
    consensus_dice: int = 2
    """Other dice with a shape needed to form the table's consensus shape."""
    cocked_skew_blobs: float = 3.5
    """Axis ratio above which a 1/2/3 face, whose shape comes from pip outlines alone (no pip grid),
    is cocked: outlines of small pips are noisy (on the byler photos 1.9 flagged 11 flat dice,
    3.5 flags 2), so only a very steep lean (about 73 degrees) counts."""


@dataclass(frozen=True)
class FaceCheck:
    """Outcome of :func:`inspect_face`."""

    status: str
    """``"ok"`` (consistent or abstained), ``"invalid"`` or ``"logo"``."""
    reason: str
    """Human explanation when not ok."""
    pips: int
    """Number of pips found (-1 when the check abstained)."""
    residual: float = math.nan
    """RMS layout-fit residual in die sides (nan when not fitted)."""
    shape: tuple[float, float, float] | None = None
    """Unit-determinant shape tensor (sxx, sxy, syy) of the top face, or ``None``."""
    grid: bool = False
    """``shape`` includes the fitted pip grid of a 4/5/6 (not only pip outlines)."""


def canonical(n: int) -> np.ndarray:
    """Canonical pip centres of face ``n`` (1..6), nx2 in die sides, centre origin."""
    q = PIP_OFFSET
    corners = [(-q, -q), (q, -q), (q, q), (-q, q)]
    pts = {1: [(0, 0)], 2: [(-q, -q), (q, q)], 3: [(-q, -q), (0, 0), (q, q)], 4: corners,
           5: corners + [(0, 0)], 6: [(-q, -q), (0, -q), (q, -q), (q, q), (0, q), (-q, q)]}[n]
    return np.array(pts, np.float64)


def _unit(m: np.ndarray) -> np.ndarray:
    """``m`` (2x2) scaled to unit determinant."""
    return m / math.sqrt(max(float(m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]), 1e-12))


@lru_cache(maxsize=4)
def _disc(n: int, radius_px: float) -> np.ndarray:
    yy, xx = np.mgrid[0:n, 0:n]
    return np.hypot(xx - n / 2 + 0.5, yy - n / 2 + 0.5) < radius_px


@lru_cache(maxsize=4)
def _rim(n: int, radius_px: float) -> np.ndarray:
    """Outermost pixel ring of ``_disc``: a blob reaching it is not a whole pip inside the face."""
    disc = _disc(n, radius_px)
    return disc & ~cv2.erode(disc.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)


@lru_cache(maxsize=4)
def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float64)
    return xx.ravel(), yy.ravel()


def _blobs(cfg: PipConfig, crops: np.ndarray) -> list:
    """Blobs of each die crop (N x crop x crop x 3): per crop (pips [(x, y, area, unit covariance or
    None, polarity, touches the disc's rim)], large [(x, y)], side px).

    The crops are stacked into one tall image, so colour conversion, distances, thresholds and the
    connected components run once for all dice of a frame; each die keeps its own face colour and
    Otsu threshold, and blank rows between two crops' masks keep their blobs apart. Per-blob
    centroid, second moments and polarity come from one pass of ``np.bincount`` over the label
    image, in each crop's own coordinates (sums of whole pixel coordinates, so a die reads exactly
    as it would alone).
    """
    n = cfg.crop
    side = n / cfg.span
    count_dice = len(crops)
    lab = cv2.cvtColor(crops.reshape(count_dice * n, n, 3), cv2.COLOR_BGR2LAB).reshape(count_dice, n, n, 3)
    disc = _disc(n, cfg.face_radius * side)
    inside = lab[:, ::2, ::2][:, disc[::2, ::2]]
    half = inside.shape[1] // 2
    face = np.partition(inside, (half - 1, half), axis=1)[:, half - 1:half + 1].mean(1, dtype=np.float32)  # medians
    diff = lab.astype(np.float32) - face[:, None, None, :]
    sq = diff * diff
    d8 = np.minimum(cv2.sqrt((sq[..., 0] + sq[..., 1] + sq[..., 2]).reshape(count_dice * n, n)), 255)
    d8 = d8.astype(np.uint8).reshape(count_dice, n, n)
    limit = np.array([max(float(cv2.threshold(d8[k][disc], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]),
                          cfg.min_contrast) for k in range(count_dice)])
    # Blank rows after each crop keep blobs of two dice apart; an even stride starts every crop on an
    # even row, as a crop alone does: OpenCV labels in 2x2 blocks, so an odd start could number a
    # crop's blobs in another order (and the layout fit's sums would then differ in the last bit).
    stride = n + (2 if n % 2 == 0 else 1)
    mask = np.zeros((count_dice, stride, n), np.uint8)
    mask[:, :n] = (d8 > limit[:, None, None]) & disc
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.reshape(count_dice * stride, n), connectivity=8)
    out = [([], [], side) for _ in range(count_dice)]
    if count <= 1:
        return out
    amin, amax = cfg.pip_area[0] * side**2, cfg.pip_area[1] * side**2
    lmin, lmax = cfg.logo_area[0] * side**2, cfg.logo_area[1] * side**2
    areas = stats[:, cv2.CC_STAT_AREA]
    owner = stats[:, cv2.CC_STAT_TOP] // stride  # the die a blob lies in (label 0, the background: ignored)
    labels = labels.reshape(count_dice, stride, n)[:, :n]  # the blank rows hold no blob
    flat = labels.ravel()
    sel = np.flatnonzero(flat)  # blob pixels only
    lbl = flat[sel]
    xx, yy = _grid(n)
    xx, yy = np.tile(xx, count_dice)[sel], np.tile(yy, count_dice)[sel]  # each crop's own coordinates
    m0 = np.maximum(areas, 1).astype(np.float64)
    cx = np.bincount(lbl, xx, minlength=count) / m0  # as cv2's centroids: whole-pixel sums over the area
    cy = np.bincount(lbl, yy, minlength=count) / m0
    large = np.nonzero((areas >= lmin) & (areas <= lmax))[0]
    for i in large[large > 0]:
        out[owner[i]][1].append((cx[i], cy[i]))
    rim = np.bincount(labels[:, _rim(n, cfg.face_radius * side)].ravel(), minlength=count) > 0
    wanted = np.nonzero((areas >= amin) & (areas <= amax))[0]  # cut by the disc's rim: die edge, table?
    wanted = wanted[wanted > 0]
    if not len(wanted):
        return out
    sl = np.bincount(lbl, diff[..., 0].ravel()[sel], minlength=count)[wanted]
    m0, cx, cy = m0[wanted], cx[wanted], cy[wanted]
    vxx = np.bincount(lbl, xx * xx, minlength=count)[wanted] / m0 - cx * cx + 1 / 12
    vyy = np.bincount(lbl, yy * yy, minlength=count)[wanted] / m0 - cy * cy + 1 / 12
    vxy = np.bincount(lbl, xx * yy, minlength=count)[wanted] / m0 - cx * cy
    norm = np.sqrt(np.maximum(vxx * vyy - vxy * vxy, 1e-12))  # unit determinant, as _unit
    covs = np.stack([vxx, vxy, vxy, vyy], 1).reshape(-1, 2, 2) / norm[:, None, None]
    for j, i in enumerate(wanted):
        area = float(areas[i])
        cov = covs[j] if area >= cfg.min_shape_pixels else None
        out[owner[i]][0].append((cx[j], cy[j], area, cov, 1.0 if sl[j] > 0 else -1.0, bool(rim[i])))
    return out


def _order(pts: np.ndarray) -> np.ndarray:
    """Points of each set in ``pts`` (..., m, 2) sorted by angle around the set's mean."""
    c = pts.mean(-2, keepdims=True)
    idx = np.argsort(np.arctan2(pts[..., 1] - c[..., 1], pts[..., 0] - c[..., 0]), axis=-1)
    if pts.ndim == 3:  # (K, m, 2), the batch of fit_layouts: plain fancy indexing is faster
        return pts[np.arange(len(pts))[:, None], idx]
    return np.take_along_axis(pts, idx[..., None], axis=-2)


def fit_layout(pts: np.ndarray, n: int) -> tuple[float, np.ndarray | None]:
    """Fit pip centres (nx2, die sides, centre origin) to face ``n``.

    Returns:
        (rms residual in die sides, 2x2 linear part of the affine map from the
        canonical layout, or ``None`` for faces 1..3 whose pips cannot give it).
    """
    resid, lin = fit_layouts(np.asarray(pts, np.float64)[None], n)
    return float(resid[0]), None if lin is None else lin[0]


def fit_layouts(pts: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`fit_layout` for K candidate pip sets at once.

    Args:
        pts: (K, n, 2) pip centres in die sides, centre origin.
        n: face value 1..6.

    Returns:
        (K,) rms residuals in die sides and (K, 2, 2) linear maps (``None`` for faces 1..3).
    """
    if n == 1:
        return np.hypot(pts[:, 0, 0], pts[:, 0, 1]), None
    if n <= 3:  # collinear: pips on one diagonal, evenly spaced, spacing free
        ref = canonical(n)
        d = pts - pts.mean(1, keepdims=True)
        _, _, vt = np.linalg.svd(d)
        obs = np.sort(np.einsum("kmj,kj->km", d, vt[:, 0]), axis=1)
        exp = np.sort((ref - ref.mean(0)) @ np.array([1.0, 1.0]) / math.sqrt(2))
        k = (obs @ exp) / (exp @ exp)
        across = np.einsum("kmj,kj->km", d, vt[:, 1])
        return np.sqrt(((obs - k[:, None] * exp) ** 2).mean(1) + (across**2).mean(1)), None
    if n == 5:  # the pip nearest the mean is the centre pip, the other four the ring
        k = np.argmin(np.hypot(*(pts - pts.mean(1, keepdims=True)).transpose(2, 0, 1)), axis=1)
        mid = pts[np.arange(len(pts)), k]
        ring = pts[np.arange(5)[None, :] != k[:, None]].reshape(len(pts), 4, 2)
    else:
        ring, mid = pts, None
    ring = _order(ring)
    a, pinv = _design(n)
    dst = ring[:, _cyclic_orders(ring.shape[1])]  # (K, c, m, 2): every cyclic correspondence, both orientations
    if mid is not None:
        dst = np.concatenate([dst, np.broadcast_to(mid[:, None, None], (len(dst), dst.shape[1], 1, 2))], axis=2)
    sol = pinv @ dst  # (K, c, 3, 2): least-squares affine map of each correspondence
    r = a @ sol - dst
    resid = np.sqrt(np.einsum("kcml,kcml->kc", r, r) / r.shape[2])
    best = np.argmin(resid, axis=1)
    rows = np.arange(len(pts))
    return resid[rows, best], sol[rows, best, :2].transpose(0, 2, 1)


@lru_cache(maxsize=8)
def _cyclic_orders(m: int) -> np.ndarray:
    """Index arrays of every cyclic shift of 0..m-1 in both directions, (2m, m)."""
    return np.array([np.roll(np.arange(m)[::-1] if flip else np.arange(m), shift)
                     for shift, flip in itertools.product(range(m), (False, True))])


@lru_cache(maxsize=8)
def _design(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Affine design matrix of face n's canonical ring (+ centre for 5) and its pseudo-inverse."""
    ref = canonical(n)
    src = _order(ref[:4]) if n == 5 else _order(ref)
    if n == 5:
        src = np.vstack([src, [0, 0]])
    a = np.hstack([src, np.ones((len(src), 1))])
    return a, np.linalg.pinv(a)


def _spread(values: list[float]) -> float:
    """Coefficient of variation (population std / mean) of a few positive numbers."""
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) / mean


def _fit_pool(cfg: PipConfig, blobs: list, value: int, c: float, side_px: float):
    """Best layout fit of ``value`` pips among ``blobs``: (residual, dropped, kept indices, linear map) or ``None``.

    Every choice of ``value`` blobs is fitted (one batch, :func:`fit_layouts`) when at most
    ``cfg.max_drop`` blobs are left over (glare, dirt); the smallest residual wins. ``None``: no
    blobs, fewer than ``value``, or more than ``max_drop`` extra.
    """
    if not blobs:
        return None
    drop = int(len(blobs) - value)
    if not 0 <= drop <= cfg.max_drop:
        return None
    pts = (np.array([[b[0], b[1]] for b in blobs]) - c) / side_px
    keeps = list(itertools.combinations(range(len(blobs)), value))
    resid, lin = fit_layouts(pts[np.array(keeps)], value)  # every choice of kept blobs in one batch
    k = int(np.argmin(resid))
    return float(resid[k]), drop, keeps[k], None if lin is None else lin[k]


def inspect_face(cfg: PipConfig, frame: np.ndarray, cx: float, cy: float, side: float, value: int) -> FaceCheck:
    """Check the pips of the die at (cx, cy) against face ``value``.

    Args:
        cfg: thresholds.
        frame: HxWx3 uint8 BGR frame.
        cx, cy: die centre in frame px; side: die side in frame px.
        value: the face the classifier read (1..6).

    Returns:
        A :class:`FaceCheck`; ``ok`` also when the pips are too unclear to
        judge. Whether the die is cocked is decided across dice by :func:`cocked`.
    """
    return inspect_faces(cfg, frame, [(cx, cy, side, value)])[0]


def inspect_faces(cfg: PipConfig, frame: np.ndarray, dice: list[tuple[float, float, float, int]]) -> list[FaceCheck]:
    """:func:`inspect_face` for several dice of one frame at once (their blobs found in one batch).

    Args:
        cfg: thresholds.
        frame: HxWx3 uint8 BGR frame.
        dice: (cx, cy, side, value) per die, as :func:`inspect_face` takes them.

    Returns:
        One :class:`FaceCheck` per die, each what :func:`inspect_face` gives for it alone.
    """
    if not dice:
        return []
    crops = np.stack([_face_crop(cfg, frame, cx, cy, side) for cx, cy, side, _ in dice])
    return [_check(cfg, blobs, large, side_px, value)
            for (blobs, large, side_px), (_, _, _, value) in zip(_blobs(cfg, crops), dice)]


def _face_crop(cfg: PipConfig, frame: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    """The ``cfg.crop`` px square around a die that the check works on, ``cfg.span`` die sides wide."""
    s = cfg.crop / (cfg.span * side)
    m = np.array([[s, 0, cfg.crop / 2 - s * cx], [0, s, cfg.crop / 2 - s * cy]], np.float64)
    return cv2.warpAffine(frame, m, (cfg.crop, cfg.crop), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _check(cfg: PipConfig, blobs: list, large: list, side_px: float, value: int) -> FaceCheck:
    """One die's :class:`FaceCheck` from its blobs (:func:`_blobs`) against face ``value``."""
    c = cfg.crop / 2 - 0.5
    if len(large) == 1 and all(b[5] for b in blobs) \
            and math.hypot(large[0][0] - c, large[0][1] - c) < cfg.logo_offset * side_px:
        return FaceCheck("logo", "logo face", 0)  # one central mark; blobs on the disc's rim are the die's edge
    if not blobs:
        return FaceCheck("ok", "", -1)
    # Pips share one polarity; the majority (by area) wins, glare of the other sign is dropped.
    pol = 1.0 if sum(b[2] * b[4] for b in blobs) > 0 else -1.0
    blobs = [b for b in blobs if b[4] == pol]
    # Blobs cut by the searched disc are most often the die's edge or the table (the die side the
    # detector reports includes visible side faces); they are used only when the pips need them.
    inner = [b for b in blobs if not b[5]]
    fit = None
    for pool in ([inner, blobs] if len(inner) < len(blobs) else [blobs]):
        if len(pool) < value and pool is not blobs:
            continue
        found = _fit_pool(cfg, pool, value, c, side_px)
        if fit is None or (found is not None and found[0] <= cfg.max_residual < fit[0]):
            blobs, fit = pool, found
        if fit is not None and fit[0] <= cfg.max_residual:
            break
    if not blobs:
        return FaceCheck("ok", "", -1)
    whole = [b[2] for b in blobs if not b[5]]  # a pip cut by the disc shows only part of its area
    areas = whole if len(whole) >= 2 else [b[2] for b in blobs]
    clean = len(areas) >= 2 and _spread(areas) < cfg.max_area_spread
    if len(blobs) >= 7 and clean:
        return FaceCheck("invalid", f"{len(blobs)} pips is not a d6 face", len(blobs))
    if fit is None:
        return FaceCheck("ok", "", len(blobs))
    resid, drop, keep, lin = fit
    if resid > cfg.max_residual:
        if len(blobs) == value and clean and value >= 2:
            return FaceCheck("invalid", f"{value} pips not in a d6 layout (fit error {resid:.2f})", len(blobs),
                             residual=resid)
        return FaceCheck("ok", "", len(blobs), residual=resid)
    if drop or resid > cfg.tight_residual or not (clean or value == 1):
        return FaceCheck("ok", "", value, residual=resid)  # pips found, but too loosely for their shape
    covs = [blobs[i][3] for i in keep if blobs[i][3] is not None and not blobs[i][5]]
    tensors = ([_unit(lin @ lin.T)] if lin is not None else []) + ([_unit(np.mean(covs, 0))] if covs else [])
    shape = None
    if tensors:
        t = _unit(np.mean(tensors, 0))
        shape = (float(t[0, 0]), float(t[0, 1]), float(t[1, 1]))
    return FaceCheck("ok", "", value, residual=resid, shape=shape, grid=lin is not None)


def skew(shape: tuple[float, float, float], reference: np.ndarray | None = None) -> float:
    """Axis ratio of a shape tensor, relative to ``reference`` (2x2, unit det) or to a circle.

    >>> round(skew((2.0, 0.0, 0.5)), 2)
    2.0
    """
    t = np.array([[shape[0], shape[1]], [shape[1], shape[2]]])
    if reference is not None:
        w, v = np.linalg.eigh(reference)
        inv_sqrt = v @ np.diag(w ** -0.5) @ v.T
        t = inv_sqrt @ t @ inv_sqrt
    ev = np.linalg.eigvalsh(t)
    return float(math.sqrt(max(ev[1], 1e-12) / max(ev[0], 1e-12)))


def cocked(cfg: PipConfig, shapes: list[tuple[float, float, float] | None],
           grids: list[bool] | None = None) -> list[float | None]:
    """Per die, the skew that makes it cocked, or ``None`` when it is square to the camera.

    Args:
        cfg: thresholds.
        shapes: each die's :attr:`FaceCheck.shape` (``None`` when unknown).
        grids: each die's :attr:`FaceCheck.grid` (default all ``True``); a shape from pip
            outlines alone must exceed ``cocked_skew_blobs`` too.

    Returns:
        One entry per die: the skew (axis ratio) when above the threshold, else ``None``.
    """
    out: list[float | None] = []
    mats = {i: np.array([[o[0], o[1]], [o[1], o[2]]]) for i, o in enumerate(shapes) if o is not None}
    total = sum(mats.values()) if mats else None
    for i, sh in enumerate(shapes):
        if sh is None:
            out.append(None)
            continue
        n_others = len(mats) - 1
        if n_others >= cfg.consensus_dice:
            k = skew(sh, _unit((total - mats[i]) / n_others))  # mean shape of the other dice
            limit = cfg.cocked_skew
        else:
            k = skew(sh)
            limit = cfg.cocked_skew_alone
        if grids is not None and not grids[i]:
            limit = max(limit, cfg.cocked_skew_blobs)
        out.append(k if k > limit else None)
    return out
