"""Die candidates from the detector's heat maps: the first steps of :func:`dice.read_dice`.

:func:`find_candidates` runs the detector (``nets.detect_map``) once per size pass (the die-side
range split into passes no wider than ``DiceConfig.pass_ratio``, each at the scale that makes its
dice about ``nets.WORK_DIE`` px) and turns each heat-map peak into a candidate (score, centre, die
side in frame px); a die two neighbouring passes both found is kept once, and a die at the seam of
two passes that each sized it just outside their own range is kept from the stronger
(``seam_ratio``). :func:`split_halves` adds candidates on both halves of a heat blob stretched
over two touching dice; :func:`inside_larger` and :func:`suppress` resolve candidates that are
part of, or the same as, another once the classifier has read them. Every threshold is a field of
:class:`dice.DiceConfig`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from . import nets
from .nets import face_probs

if TYPE_CHECKING:
    from .dice import DiceConfig


def _elongation(cfg: DiceConfig, heat: np.ndarray, iy: int, ix: int, side_cells: float):
    """Unit axis (x, y) of a heat blob stretched over about two dice, else ``None``.

    The blob is the heat above ``split_level`` of the peak within one die side of it; its
    second moments (``cv2.moments``) give the long axis.
    """
    r = max(1, int(math.ceil(side_cells)))
    y0, x0 = max(0, iy - r), max(0, ix - r)
    win = heat[y0:iy + r + 1, x0:ix + r + 1]
    mo = cv2.moments(np.where(win > cfg.split_level * heat[iy, ix], win, 0.0).astype(np.float32))
    m = mo["m00"]
    cxx, cyy, cxy = mo["mu20"] / m, mo["mu02"] / m, mo["mu11"] / m
    ev, vec = np.linalg.eigh(np.array([[cxx, cxy], [cxy, cyy]]))
    major, minor = math.sqrt(max(ev[1], 0.0)), math.sqrt(max(ev[0], 1e-6))
    if major < cfg.split_spread * side_cells or major < cfg.split_ratio * minor:
        return None
    return float(vec[0, 1]), float(vec[1, 1])


def _passes(cfg: DiceConfig, lo: float, hi: float) -> list[tuple[float, float]]:
    """Split the die-side range into detector passes no wider than ``pass_ratio`` each."""
    n = max(1, math.ceil(math.log(hi / lo) / math.log(cfg.pass_ratio) - 1e-9))
    step = (hi / lo) ** (1.0 / n)
    return [(lo * step**k, lo * step ** (k + 1)) for k in range(n)]


def find_candidates(cfg: DiceConfig, frame: np.ndarray, lo: float, hi: float):
    """Detector peaks: (score, cx, cy, side, -1, heat blob) in frame px (see :func:`split_halves`).

    The detector runs once per size pass (:func:`_passes`), each at the scale that makes that
    pass's dice about ``nets.WORK_DIE`` px. Peaks outside the frame are dropped; a die found again
    by a neighbouring pass (:func:`_merge_passes`) is ``None``; dice at a seam between two passes
    are added by :func:`seam_peaks`.
    """
    found: list = []
    pass_of: list[int] = []
    seam: list = []
    h, w = frame.shape[:2]
    passes = _passes(cfg, lo, hi)
    pyramid = [frame]  # shared by the passes: each halving is done once
    for k, (plo, phi) in enumerate(passes):
        # neighbouring passes overlap a little so a die at the seam is not lost
        keep_lo = plo / cfg.pass_overlap if k else lo
        keep_hi = phi * cfg.pass_overlap if k < len(passes) - 1 else hi
        reach_lo = keep_lo / cfg.seam_ratio if k else lo
        reach_hi = keep_hi * cfg.seam_ratio if k < len(passes) - 1 else hi
        new = _pass_candidates(cfg, pyramid, nets.WORK_DIE / math.sqrt(plo * phi), reach_lo, reach_hi)
        for c in new:
            if not 0 <= c[1] < w or not 0 <= c[2] < h:
                continue
            if keep_lo <= c[3] <= keep_hi:
                found.append(c)
                pass_of.append(k)
            else:
                seam.append(c)
    found = _merge_passes(cfg, found, pass_of) if len(passes) > 1 else found
    return found + seam_peaks(cfg, [c for c in found if c is not None], seam)


def seam_peaks(cfg: DiceConfig, kept: list, seam: list) -> list:
    """Peaks just outside their pass's size range that no kept peak explains.

    Each pass sizes a die at the seam of two passes a little towards its own range, so such a die
    can fall out of both (one pass calls it 55 px, the next 44 px, the seam at 50 px). A peak
    within ``seam_ratio`` beyond its pass's range is kept only when no other candidate lies within
    ``duplicate_distance`` of it; of two such peaks at one place the stronger is kept.
    """
    first = [math.inf] * len(kept)  # the kept peaks win over any seam peak
    chosen = suppress(cfg, kept + seam, first + [c[0] for c in seam])
    return [seam[i - len(kept)] for i in sorted(chosen) if i >= len(kept)]


def _merge_passes(cfg: DiceConfig, found: list, pass_of: list[int]) -> list:
    """Drop a peak that another pass found stronger at the same place and size.

    A die near the seam of two passes is seen by both; the classifier need not read it twice.
    Peaks of very different size at one place (a pip seen as a small die inside a large die) are
    both kept: the classifier tells them apart (see ``read_dice``).
    """
    peaks = [i for i, c in enumerate(found) if c is not None]
    dropped = set()
    ratio, near = cfg.same_size_ratio, cfg.duplicate_distance
    for a in sorted(peaks, key=lambda i: -found[i][0]):
        if a in dropped:
            continue
        _, xa, ya, sa = found[a][:4]
        for b in peaks:
            if pass_of[b] == pass_of[a] or b in dropped:  # (a itself is of its own pass)
                continue
            _, xb, yb, sb = found[b][:4]
            big, small = (sa, sb) if sa >= sb else (sb, sa)
            if big < ratio * small and math.hypot(xa - xb, ya - yb) < near * big:
                dropped.add(b)
    return [None if i in dropped else c for i, c in enumerate(found)]


def _halve(img: np.ndarray) -> np.ndarray:
    """Half-size image, each pixel the mean of a 2x2 block (``INTER_AREA``: 3x faster than
    ``cv2.pyrDown`` and the same averaging the detector's training crops were made with)."""
    return cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)


def _pass_candidates(cfg: DiceConfig, pyramid: list, scale: float, lo: float, hi: float):
    h, w = pyramid[0].shape[:2]
    ww, wh = max(8, round(w * scale)), max(8, round(h * scale))
    level = 0
    while pyramid[level].shape[1] >= 2 * ww and pyramid[level].shape[0] >= 2 * wh:
        if level + 1 == len(pyramid):  # a 2x2-mean halving, once per frame
            pyramid.append(_halve(pyramid[level]))
        level += 1
    work = pyramid[level]
    ratio = ww / work.shape[1]
    if ratio < 0.9:  # 0.5..1 after the pyramid: a light blur against aliasing (INTER_AREA is 4x slower)
        work = cv2.GaussianBlur(work, (3, 3), 0.35 * math.sqrt(1.0 / ratio**2 - 1.0))
    work = cv2.resize(work, (ww, wh), interpolation=cv2.INTER_LINEAR)
    pad_w, pad_h = -ww % 8, -wh % 8
    if pad_w or pad_h:
        work = cv2.copyMakeBorder(work, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
    out = nets.detect_map(work)
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > cfg.detect_threshold)
    sx, sy = ww / w, wh / h
    iys, ixs = np.nonzero(peaks)
    # One array operation per quantity, the same float64 arithmetic as per peak (numpy scalars
    # were a third of this function's own time); math.exp stays per peak, as np.exp may differ
    # from it in the last bit.
    cxs = ((ixs + 0.5 + out[2][iys, ixs]) * nets.STRIDE / sx).tolist()
    cys = ((iys + 0.5 + out[3][iys, ixs]) * nets.STRIDE / sy).tolist()
    logs = np.clip(out[1][iys, ixs], 0.0, 6.0).tolist()
    scores = heat[iys, ixs].tolist()
    found = []
    for iy, ix, cx, cy, log_side, score in zip(iys.tolist(), ixs.tolist(), cxs, cys, logs, scores):
        side = cfg.size_scale * math.exp(log_side) / scale
        if not lo <= side <= hi:
            continue
        # the heat blob is kept for split_halves: only a peak the classifier is unsure of is split
        found.append((score, cx, cy, side, -1, (heat, iy, ix, side / cfg.size_scale * scale / nets.STRIDE)))
    return found


def split_halves(cfg: DiceConfig, peak: tuple, parent: int) -> list:
    """Candidates on both halves of a peak's heat blob when it is stretched over two touching dice."""
    score, cx, cy, side = peak[:4]
    axis = _elongation(cfg, *peak[5])
    if axis is None:
        return []
    return [(score * 0.99, cx + sgn * axis[0] * side / 2, cy + sgn * axis[1] * side / 2, side, parent)
            for sgn in (-1, 1)]


def inside_larger(cfg: DiceConfig, cands: list, probs: list[np.ndarray]) -> set[int]:
    """Candidates lying inside a much larger candidate (``inside_ratio``) that reads as a clear die.

    A crop of part of a large die (a pip, or one half of its face seen at a smaller scale) can
    look like a whole smaller die showing fewer pips; the larger reading is the whole face.
    """
    clear = [j for j, p in enumerate(probs) if p[0] <= cfg.not_a_die and face_probs(p)[1] >= cfg.inside_confidence]
    return {i for i, c in enumerate(cands)
            if any(cands[j][3] >= cfg.inside_ratio * c[3]
                   and math.hypot(c[1] - cands[j][1], c[2] - cands[j][2]) < cfg.duplicate_distance * cands[j][3]
                   for j in clear)}


def suppress(cfg: DiceConfig, cands: list, strength: list[float]) -> list[int]:
    """Indices of ``cands`` kept after dropping weaker ones within ``duplicate_distance`` sides."""
    kept: list[int] = []
    places: list[tuple[float, float, float]] = []  # (x, y, side) of the kept ones
    near = cfg.duplicate_distance
    for i in sorted(range(len(cands)), key=lambda i: -strength[i]):
        _, x, y, side = cands[i][:4]
        for kx, ky, ks in places:
            if math.hypot(x - kx, y - ky) < near * (side if side >= ks else ks):
                break
        else:
            kept.append(i)
            places.append((x, y, side))
    return kept
