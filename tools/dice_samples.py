"""Training samples for the dice reader's CNNs (used by ``tools/train_dice.py``).

Two sources, both as ``(image, dice)`` pairs where ``dice`` is an Nx4 float32
array of ``(label, cx, cy, side)`` in image px (label 1..6 = face, 7 = a die
whose top face is not a d6 pip face: a logo or 7+ pips):

* **real photos**: the labelled sets in ``../shared/data/dice`` (their YOLO
  boxes; Matteo's boxes enclose the pips only, so the die side is estimated);
* **rendered tables** (``arena_table.vision.render``) with random die and pip
  colours, sizes, pip layouts, glare, touching pairs, cocked dice, odd faces
  and camera effects: the faults that are rare in the photos.

For the face classifier every die (and negative spots: off-centre, between
dice, background, false positives of an earlier detector) is cut once into a
``CACHE`` px crop ``CACHE_SPAN`` die sides wide, so training can augment whole
batches at once (rotation, scale, colour) in torch.

The die side of a sample is the side of its axis-aligned box, as the YOLO
boxes of the photos give it (top face plus visible side faces).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from arena_table.vision.dice import crop_die  # noqa: E402
from arena_table.vision.labels import dice_set_dir, is_held_out, load_set, read_boxes  # noqa: E402
from arena_table.vision.render import DIE_COLOURS, DieSpec, TableSpec, render_table  # noqa: E402

SETS = ("byler_d6", "matteo_d6", "rune55_d6")
"""The shared labelled sets trained on (``rune55_d6``: the Rune55 dataset, CC BY 4.0)."""
ODD = 7
"""Label of a die whose face is not a d6 pip face (logo, 7+ pips)."""
CACHE = 96
"""Side (px) of a cached crop."""
CACHE_SPAN = 2.4
"""Cached crop side in die sides (room for rotation and scale jitter of a 1.4-side crop)."""
# Matteo's YOLO boxes enclose the pips, not the die: pips of a 4/5/6 span about
# this fraction of the die side, used to estimate the die size.
PIP_SPAN = 0.62
MATTEO_DEFAULT_DIE = 52.0


def real_items(holdout_every: int, sets=SETS, held_out=None):
    """The photos of ``sets`` as (image, dice, set name), split into (train, held out).

    ``held_out``: optional ``(set name, image index) -> bool`` (index in the set sorted by name);
    default every ``holdout_every``-th image of each set (``labels.is_held_out``)."""
    train, held = [], []
    if held_out is None:
        held_out = lambda name, index: is_held_out(index, holdout_every)  # noqa: E731
    for name in sets:
        for it in load_set(dice_set_dir(name)):
            img = cv2.imread(str(it.path))
            boxes = read_boxes(it, img.shape[1], img.shape[0])
            if not boxes:
                continue
            if name == "matteo_d6":
                est = [max(b.size) / PIP_SPAN for b in boxes if b.value >= 4]
                side = float(np.clip(np.median(est), 35, 85)) if est else MATTEO_DEFAULT_DIE
                dice = [(b.value, b.center[0], b.center[1], side) for b in boxes]
            else:
                dice = [(b.value, b.center[0], b.center[1], (b.size[0] + b.size[1]) / 2) for b in boxes]
            rec = (img, np.array(dice, np.float32), name)
            (held if held_out(name, it.index) else train).append(rec)
    return train, held


def _random_colours(rng):
    """(body, pip) BGR: a stock pair or a random body with a contrasting pip colour."""
    if rng.random() < 0.35:
        return DIE_COLOURS[rng.integers(len(DIE_COLOURS))]
    if rng.random() < 0.15:  # smoky dark body, dim coloured pips: low contrast (a failure mode in the photos)
        body = rng.integers(25, 90) + rng.integers(-12, 13, 3)
        pip = np.zeros(3, np.int64)
        pip[rng.integers(3)] = rng.integers(110, 210)
        pip += rng.integers(20, 60)
        return tuple(int(v) for v in np.clip(body, 0, 255)), tuple(int(v) for v in np.clip(pip, 0, 255))
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(30, 256)]]])
    body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    lum = float(body.mean())
    r = rng.random()
    if r < 0.45:
        pip = np.full(3, rng.integers(0, 60) if lum > 110 else rng.integers(200, 256))
    elif r < 0.8:
        pip = np.full(3, rng.integers(200, 256) if lum < 150 else rng.integers(0, 60))
    else:  # coloured pips far from the body colour
        for _ in range(20):
            pip = rng.integers(0, 256, 3)
            if np.abs(pip.astype(int) - body.astype(int)).sum() > 220:
                break
    return tuple(int(v) for v in body), tuple(int(v) for v in pip)


def _odd_pips(rng):
    """Pip centres of a face that is not a d6 face: 7-9 pips, or one big central logo."""
    if rng.random() < 0.4:
        return ((float(rng.normal(0, 0.03)), float(rng.normal(0, 0.03))),), float(rng.uniform(0.18, 0.3))
    q = 0.27
    grid = [(x, y) for x in (-q, 0.0, q) for y in (-q, 0.0, q)]
    n = int(rng.integers(7, 10))
    pick = rng.choice(len(grid), n, replace=False)
    return tuple(grid[i] for i in pick), float(rng.uniform(0.07, 0.1))


def rendered_item(rng, width=320, height=320, texture_max=20.0, texture_cells=(32, 32), oblique=0.0):
    """One random rendered table: (image, dice array, "render"); the table texture's amplitude is
    uniform in 0..``texture_max`` grey levels, its blotches ``texture_cells`` (min, max) px wide
    (log-uniform). With probability ``oblique`` a table is seen obliquely: each of its dice is tilted
    10-50 degrees and shows the pips of a front face (labelled by its top face)."""
    seen_obliquely = oblique > 0 and rng.random() < oblique
    # Half the tables hold 1-3 dice: a lone die on an empty table must be sized without neighbours.
    n = int(rng.integers(1, 4)) if rng.random() < 0.5 else int(rng.integers(1, 10))
    size = float(np.exp(rng.uniform(math.log(18), math.log(70))))
    specs = []
    for _ in range(n * 40):
        if len(specs) >= n:
            break
        s = size * rng.uniform(0.85, 1.15)
        body, pip = _random_colours(rng)
        ang = float(rng.uniform(0, 360))
        c = (float(rng.uniform(-0.2 * s, width + 0.2 * s)), float(rng.uniform(-0.2 * s, height + 0.2 * s)))
        group = [c]
        if rng.random() < 0.35:  # a touching pair, edge to edge
            a = math.radians(ang + 90 * int(rng.integers(4)))
            gap = rng.uniform(1.0, 1.08)
            group.append((c[0] + s * gap * math.cos(a), c[1] - s * gap * math.sin(a)))
        if not all(math.hypot(g[0] - o.center[0], g[1] - o.center[1]) > 1.15 * max(s, o.size)
                   for g in group for o in specs):
            continue
        for g in group:
            kw = dict(body=body, pip=pip, pip_offset=float(rng.uniform(0.22, 0.31)),
                      pip_radius=float(rng.uniform(0.06, 0.11)))
            value = int(rng.integers(1, 7))
            if rng.random() < 0.08:
                pips, radius = _odd_pips(rng)
                kw.update(pips=pips, pip_radius=radius)
                value = ODD
            if rng.random() < 0.3:
                kw["glare"] = (float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35)),
                               float(rng.uniform(0.08, 0.25)))
            if seen_obliquely:
                kw["tilt"] = float(rng.uniform(10, 50))
                kw["side_value"] = int(rng.choice([f for f in range(1, 7) if f not in (value, 7 - value)]))
            elif rng.random() < 0.08:
                kw["tilt"] = float(rng.uniform(15, 50))
            if rng.random() < 0.3:  # marbled or smoky translucent plastic
                kw["marble"] = float(rng.uniform(0.1, 0.5))
            specs.append(DieSpec(value if value != ODD else 1, g, s, ang + float(rng.normal(0, 3)), **kw))
    bg = tuple(int(v) for v in rng.integers(0, 256, 3))
    spec = TableSpec(width, height, tuple(specs), background=bg, texture=float(rng.uniform(0, texture_max)),
                     texture_cell=(32 if texture_cells[0] == texture_cells[1] else
                                   int(round(math.exp(rng.uniform(*np.log(texture_cells)))))),
                     exposure=float(rng.uniform(0.55, 1.45)),
                     cast=tuple(float(v) for v in rng.uniform(0.7, 1.3, 3)),
                     motion_blur=float(rng.uniform(2, 5)) if rng.random() < 0.05 else 0.0,
                     blur_angle=float(rng.uniform(0, 180)), noise=float(rng.uniform(0, 6)),
                     shadow=bool(rng.random() < 0.8))
    img, truth = render_table(spec, rng)
    dice = []
    for d, t in zip(specs, truth):
        x, y, w, h = t.box
        if w <= 0 or h <= 0:
            continue
        label = ODD if d.pips is not None else d.value
        full = t.status != "partial"
        side = (w + h) / 2 if full else d.size * 1.1
        dice.append((label, x + w / 2 if full else d.center[0], y + h / 2 if full else d.center[1], side))
    return img, np.array(dice, np.float32).reshape(-1, 4), "render"


def crop(img, cx, cy, side):
    """``CACHE`` px crop centred on (cx, cy), ``CACHE_SPAN`` die sides wide (the reader's own crop)."""
    return crop_die(img, cx, cy, side, CACHE, CACHE_SPAN)


def face_cache(items, rng, negs_per_die=0.6, hard=None, proposals=None, interior=0.0):
    """Cut every die and some negative spots of ``items`` into crops.

    Args:
        items: (image, dice, name) records.
        rng: numpy Generator.
        negs_per_die: off-centre/background negatives per die.
        hard: optional per-item arrays of (cx, cy, side) detector false positives.
        proposals: optional per-item arrays of (label, cx, cy, side): a die cut where a detector put it.
        interior: share of dice also cut at 0.35-0.55 of their side near their centre, as
            "no die centred here": the inside of a die (one or two pips, cut edges) is what the
            reader sees when the detector puts a half-size peak on a large die.

    Returns:
        (crops NxCACHExCACHEx3 uint8, labels N int64; 0 = no die centred here).
    """
    xs, ys = [], []
    for k, (img, dice, _) in enumerate(items):
        h, w = img.shape[:2]
        for label, cx, cy, side in dice:
            if 0 <= cx < w and 0 <= cy < h:
                xs.append(crop(img, cx, cy, side))
                ys.append(int(label))
        for label, cx, cy, side in dice:
            if 0 <= cx < w and 0 <= cy < h and rng.random() < interior:
                ox, oy = rng.uniform(-0.25, 0.25, 2) * side
                xs.append(crop(img, cx + ox, cy + oy, side * rng.uniform(0.35, 0.55)))
                ys.append(0)
        if proposals is not None:
            for label, cx, cy, side in proposals[k]:
                xs.append(crop(img, cx, cy, side))
                ys.append(int(label))
        med = float(np.median(dice[:, 3])) if len(dice) else 40.0
        spots = []
        for _ in range(int(rng.poisson(negs_per_die * max(1, len(dice))))):
            if len(dice) and rng.random() < 0.6:  # half a die to a die away from a die
                _, cx, cy, side = dice[rng.integers(len(dice))]
                a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, 1.1) * side
                spots.append((cx + r * math.cos(a), cy + r * math.sin(a), side * rng.uniform(0.85, 1.15)))
            else:
                spots.append((rng.uniform(0, w), rng.uniform(0, h), med * rng.uniform(0.7, 1.4)))
        if hard is not None and len(hard[k]):
            spots += [tuple(v) for v in hard[k]]
        for cx, cy, side in spots:
            if len(dice) and (np.hypot(dice[:, 1] - cx, dice[:, 2] - cy) / dice[:, 3]).min() < 0.45:
                continue
            xs.append(crop(img, cx, cy, side))
            ys.append(0)
    return np.stack(xs), np.array(ys, np.int64)


def jpeg_copies(items, rng, share: float, quality=(20, 85)):
    """Copies of a ``share`` of ``items`` re-compressed as JPEG at a random quality.

    USB cameras send MJPEG and photos are stored as JPEG; the shipped reader lost 5 points of
    accuracy on byler's 40 px dice re-compressed at quality 50 (``arena_table/bench/dice_camera_faults.py``),
    while rendered dice, which the net sees with clean edges, were untouched. Each copy keeps
    its record's dice and set name (same positions, so the same hard negatives apply).

    Returns:
        (copies, indices of the records they copy).
    """
    out, idx = [], []
    for k, (img, dice, name) in enumerate(items):
        if rng.random() < share:
            q = int(rng.integers(quality[0], quality[1] + 1))
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
            out.append((cv2.imdecode(buf, cv2.IMREAD_COLOR), dice, name))
            idx.append(k)
    return out, idx
