"""Shots for teaching a die kind: die crops cut from photos, each labelled with the face it shows.

Two folder layouts give labelled photos (``arena-table dice teach``):

* **faces**: ``DIR/<face>/*.jpg`` (``.jpeg``, ``.png`` too), a folder per face, every die of a
  photo showing that face. The dice are found by :func:`locate_dice`.
* **yolo**: photos with YOLO box files (``class cx cy w h`` per line, normalised to the image),
  either beside each photo (``a.jpg`` + ``a.txt``) or in ``labels_yolo/<stem>.txt`` next to an
  ``images/`` folder (the layout of ``../shared/data/dice``), with a class -> face map
  (:func:`parse_classes`). The boxes label the dice :func:`locate_dice` finds (:func:`at_located`).

A crop is the axis-aligned square :data:`CROP_SPAN` die sides wide around the die's centre (clipped
to the frame), the input :class:`arena_table.vision.face_model.FaceModel` squares to the die's outline.

>>> parse_classes("0=1,1=2, 5=logo")
{0: '1', 1: '2', 5: 'logo'}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import SYMBOL

from .dice_io import load_image
from .errors import UnreadableImage, VisionError

CROP_SPAN = 1.3
"""Side of a die crop in die sides (as the locator sizes the die): the die and table round it, on
every side, where the face model finds the die (``vision/face_model.py`` wants crops centred on the
die with table round it)."""
SAME_DIE = 0.6
"""A detected die whose centre is within this many outline sides of a die outline's centre is that
die (or a part of it)."""
OUTLINE_AT_MOST = 2.5
"""Largest side of an outline, in sides of the detected die in it, that is taken as that die (the
eyes of a skull are detected at about half the die's side)."""
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
"""Photo files a teaching folder is read for (case-insensitive)."""


class TeachInputError(VisionError, ValueError):
    """A teaching folder or class map that gives no usable shots; the message names what is wrong."""


@dataclass(frozen=True)
class Shot:
    """One die cut from a labelled photo."""

    face: str
    """Face symbol the die shows (a name of :data:`~arena_table.rules.kernel.mechanics.die_kinds.SYMBOL` form)."""
    crop: np.ndarray
    """HxWx3 uint8 BGR square crop around the die."""
    photo: str
    """The photo's path relative to the teaching folder (``3/a.jpg``), for splits and messages."""
    center: tuple[float, float]
    """Die centre (x, y) in the photo's px."""
    side: float
    """Die side in the photo's px."""
    reads: tuple[np.ndarray, ...] = ()
    """The crops the die is read from where the die locator finds it (:func:`read_crops`), as the
    table reads dice: teaching calibrates its refusals on them; ``()`` when the locator did not find it."""


def parse_classes(text: str) -> dict[int, str]:
    """A ``--classes`` map ``0=1,1=2,...`` as ``{class: face symbol}``.

    Raises:
        TeachInputError: a pair is not ``N=FACE``, a class is given twice, or a face is not a
            number or lower-case name.
    """
    out: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        k, sep, face = part.partition("=")
        k, face = k.strip(), face.strip().lower()
        if not sep or not k.isdigit():
            raise TeachInputError(f"--classes: {part!r} is not CLASS=FACE (e.g. 0=1,1=2)")
        if not SYMBOL.match(face):
            raise TeachInputError(f"--classes: face {face!r} is not a number or lower-case name")
        if int(k) in out:
            raise TeachInputError(f"--classes: class {k} is given twice")
        out[int(k)] = face
    if len(set(out.values())) < 2:
        raise TeachInputError(f"--classes {text!r}: map classes to at least two faces")
    return out


def parse_faces(text: str) -> tuple[str, ...]:
    """A ``labels.csv`` row's faces as symbols (numbers or lower-case names), space separated.

    >>> parse_faces("logo 3  hit+critical")
    ('logo', '3', 'hit+critical')

    Raises:
        TeachInputError: a face that is not a number or lower-case name.
    """
    out = tuple(t.lower() for t in text.split())
    bad = [t for t in out if not SYMBOL.match(t)]
    if bad:
        raise TeachInputError(f"bad die face {bad[0]!r} in labels (a number or lower-case name)")
    return out


def crop_square(frame: np.ndarray, cx: float, cy: float, side: float, span: float = CROP_SPAN) -> np.ndarray:
    """The ``span * side`` px square around (cx, cy), clipped to ``frame``.

    >>> crop_square(np.zeros((100, 200, 3), np.uint8), 190, 50, 20, 1.3).shape
    (26, 23, 3)
    """
    h, w = frame.shape[:2]
    s = span * side
    y0, y1 = int(max(0, cy - s / 2)), int(min(h, cy + s / 2))
    x0, x1 = int(max(0, cx - s / 2)), int(min(w, cx + s / 2))
    return frame[y0:y1, x0:x1].copy()


RECENTRE_NEAR = 0.3
"""Farthest the top face's centre is looked for from the located centre, in die sides."""


def top_face_centre(frame: np.ndarray, cx: float, cy: float, side: float) -> tuple[float, float]:
    """The centre (x, y) px of the top face of the die located at (cx, cy) with ``side`` px.

    A die locator's outline holds the die's lit side faces too, so its centre lies off the top
    face, while :class:`~arena_table.vision.face_model.FaceModel` reads a crop as centred on the
    face. In the :func:`crop_square` crop a pixel is the die's when its Lab colour lies nearer the
    body's (the larger non-table 3-means cluster of the crop's central disc, as the face model
    finds it) than the table's (the median of the crop's border); the shaded side faces mostly are
    not. The top face is the centre of the largest disc inside that region (its distance
    transform's peak) within :data:`RECENTRE_NEAR` die sides of (cx, cy); the centroid of the region
    inside 1.4 times that disc is returned. (cx, cy) when no region is found.
    """
    import cv2

    from .face_model import body_contours

    crop = crop_square(frame, cx, cy, side)
    h, w = crop.shape[:2]
    if min(h, w) < 8:
        return cx, cy
    x0, y0 = int(max(0, cx - CROP_SPAN * side / 2)), int(max(0, cy - CROP_SPAN * side / 2))
    contours = body_contours(crop)
    if not contours:
        return cx, cy
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, contours, -1, 255, -1)
    dist = cv2.distanceTransform(region, cv2.DIST_L2, 5)
    yy, xx = np.mgrid[:h, :w]
    lx, ly = cx - x0, cy - y0
    near = (yy - ly) ** 2 + (xx - lx) ** 2 <= (RECENTRE_NEAR * side) ** 2
    if not (near & (dist > 0)).any():
        return cx, cy
    d = np.where(near, dist, 0)
    py, px = np.unravel_index(int(np.argmax(d)), d.shape)
    half = float(d[py, px])
    if half < 2:
        return cx, cy
    face = (region > 0) & ((yy - py) ** 2 + (xx - px) ** 2 <= (1.4 * half) ** 2)
    return float(x0 + xx[face].mean()), float(y0 + yy[face].mean())


def pip_face_centre(frame: np.ndarray, cx: float, cy: float, side: float) -> tuple[float, float] | None:
    """Centre (x, y) px of the top face's marks of the die at (cx, cy): the centroid of the dark,
    round blobs (pips) of the :func:`crop_square` crop that are at least 0.6 times the largest's
    area (side faces' pips are foreshortened, so smaller); None when none is found."""
    import cv2

    crop = crop_square(frame, cx, cy, side)
    h, w = crop.shape[:2]
    if min(h, w) < 8:
        return None
    x0, y0 = int(max(0, cx - CROP_SPAN * side / 2)), int(max(0, cy - CROP_SPAN * side / 2))
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    c = grey[h // 4:3 * h // 4, w // 4:3 * w // 4]
    ink = (grey < 0.6 * float(np.percentile(c, 75))).astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(ink)
    blobs = []
    for k in range(1, n):
        bw, bh, area = stats[k, 2], stats[k, 3], stats[k, 4]
        if 0.004 * side * side <= area <= 0.06 * side * side and area >= 0.5 * bw * bh \
                and max(bw, bh) <= 2.5 * min(bw, bh) and stats[k, 0] > 0 and stats[k, 1] > 0 \
                and stats[k, 0] + bw < w and stats[k, 1] + bh < h:
            blobs.append((area, cents[k]))
    if not blobs:
        return None
    top = max(a for a, _ in blobs)
    pts = np.array([c for a, c in blobs if a >= 0.6 * top])
    x, y = pts.mean(axis=0)
    if math.hypot(x0 + x - cx, y0 + y - cy) > RECENTRE_NEAR * side:
        return None
    return float(x0 + x), float(y0 + y)


def top_face_crop(frame: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    """The :func:`crop_square` crop of the die at (cx, cy), ``side`` px, centred on its top face
    (:func:`top_face_centre`): teaching shots and the dice read are cut alike."""
    x, y = top_face_centre(frame, cx, cy, side)
    return crop_square(frame, x, y, side)


def located_shot(face: str, frame: np.ndarray, photo: str, cx: float, cy: float, side: float) -> Shot:
    """The shot of the die the locator found at (cx, cy), ``side`` px: cut round its top face
    (:func:`top_face_crop`), read from :func:`read_crops`."""
    return Shot(face, top_face_crop(frame, cx, cy, side), photo, (cx, cy), side, tuple(read_crops(frame, cx, cy, side)))


def read_crops(frame: np.ndarray, cx: float, cy: float, side: float) -> list[np.ndarray]:
    """The crops a taught die at (cx, cy), ``side`` px, is read from: centred on its top face's
    region (:func:`top_face_crop`, as teaching cuts), on the located centre, and on its pips
    (:func:`pip_face_centre`) when found; the reader keeps the read of the largest margin, as the
    face model keeps the best of its shifted windows. Each guess of the face's centre fails on some
    dice (side faces of the body colour, side faces' pips), seldom all at once."""
    out = [top_face_crop(frame, cx, cy, side), crop_square(frame, cx, cy, side)]
    pips = pip_face_centre(frame, cx, cy, side)
    if pips is not None:
        out.append(crop_square(frame, pips[0], pips[1], side))
    return out


def locate_dice(frame: np.ndarray) -> list[tuple[float, float, float]]:
    """Dice in ``frame`` (HxWx3 uint8 BGR) as ``(cx, cy, side)`` px, top to bottom.

    The dice are those the d6 detector of the pip reader finds
    (:func:`~arena_table.vision.size_search.read_dice_any_size`, every die whatever its face, less
    those cut by the border), which holds on real tables. Where a die outline of
    :func:`arena_table.vision.kinds.locate` (dice far in colour from a plain tray) holds a detected
    die's centre (:data:`SAME_DIE`) and is no more than :data:`OUTLINE_AT_MOST` times its side (a
    blob of several dice and the table is not a die), the die is that outline, once: the detector
    may take the eyes of a skull, or the halves of a large icon, for dice of their own. Outlines no
    detected die lies in are not taken (glare and the tray's shading make some), unless the
    detector finds nothing.
    """
    from .dice import DiceConfig
    from .kinds import locate
    from .size_search import read_dice_any_size

    outlines = [(float(r[0][0]), float(r[0][1]), float(max(r[1]))) for r in locate(frame)]
    found: list[tuple[float, float, float]] = []
    for d in read_dice_any_size(DiceConfig(), frame).dice:
        if d.status == "partial":
            continue
        near = [(math.hypot(d.center[0] - x, d.center[1] - y), (x, y, s)) for x, y, s in outlines]
        side = float(max(d.box[2], d.box[3]))
        near = [o for dist, o in sorted(near) if dist <= SAME_DIE * o[2] and o[2] <= OUTLINE_AT_MOST * side]
        die = near[0] if near else (d.center[0], d.center[1], side)
        if die not in found:
            found.append(die)
    return sorted(found or outlines, key=lambda c: (c[1], c[0]))


def _photos(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def face_folder_photos(root: str | Path) -> list[tuple[str, Path]]:
    """``(face, photo)`` for every photo of a ``DIR/<face>/`` layout, by face then file name.

    Raises:
        TeachInputError: ``root`` is no folder, a face folder's name is not a face symbol, or
            fewer than two face folders hold photos.
    """
    root = Path(root)
    if not root.is_dir():
        raise TeachInputError(f"{root}: no such folder (--faces DIR holds a folder per face)")
    out = []
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        face = sub.name.lower()
        if not SYMBOL.match(face):
            raise TeachInputError(f"{sub}: a face folder is named by the face, a number or lower-case name "
                                  f"(1, logo, hit+critical), not {sub.name!r}")
        out += [(face, p) for p in _photos(sub)]
    faces = sorted({f for f, _ in out})
    if len(faces) < 2:
        raise TeachInputError(f"{root}: photos for at least two faces are needed, in DIR/<face>/*.jpg; "
                              f"found {', '.join(faces) or 'none'}")
    return out


def face_folder_shots(root: str | Path, per_face: int | None = None) -> tuple[list[Shot], list[str]]:
    """Shots of a ``DIR/<face>/*.jpg`` folder (:func:`face_folder_photos`; its first ``per_face``
    photos by name of each face when given), dice found by :func:`locate_dice` (:func:`located_shot`);
    and one problem line per photo that gave none (unreadable, no die found)."""
    root = Path(root)
    shots, problems = [], []
    photos = face_folder_photos(root)
    if per_face is not None:
        keep = teaching_photos([(str(p), {f: 1}) for f, p in photos], per_face)
        photos = [(f, p) for f, p in photos if str(p) in keep]
    for face, path in photos:
        name = str(path.relative_to(root))
        try:
            frame = load_image(path)
        except UnreadableImage as exc:
            problems.append(str(exc))
            continue
        dice = locate_dice(frame)
        if not dice:
            problems.append(f"{path}: no die found")
        shots += [located_shot(face, frame, name, x, y, s) for x, y, s in dice]
    return shots, problems


def yolo_box_file(photo: Path) -> Path | None:
    """The YOLO box file of ``photo``: ``<stem>.txt`` beside it, else ``../labels_yolo/<stem>.txt``
    for a photo in an ``images/`` folder; ``None`` when there is none."""
    for cand in (photo.with_suffix(".txt"), photo.parent.parent / "labels_yolo" / f"{photo.stem}.txt"):
        if cand.is_file():
            return cand
    return None


def yolo_photos(root: str | Path) -> list[Path]:
    """The photos of a YOLO folder that have a box file (in ``root`` and ``root/images``), by name.

    Raises:
        TeachInputError: ``root`` is no folder or no photo in it has a box file.
    """
    root = Path(root)
    if not root.is_dir():
        raise TeachInputError(f"{root}: no such folder (--yolo DIR holds photos with YOLO box files)")
    photos = _photos(root) + (_photos(root / "images") if (root / "images").is_dir() else [])
    out = [p for p in photos if yolo_box_file(p) is not None]
    if not out:
        raise TeachInputError(f"{root}: no photo with a YOLO box file (a.jpg + a.txt, or images/a.jpg + "
                              "labels_yolo/a.txt)")
    return sorted(out, key=lambda p: p.name)


def yolo_boxes(photo: Path, width: int, height: int, classes: dict[int, str]) -> list[tuple[str, float, float, float]]:
    """``(face, cx, cy, side)`` px of each box of ``photo`` (side: the box's longer edge).

    Raises:
        TeachInputError: a line is not ``class cx cy w h`` or its class is not in ``classes``
            (the message names the file and line).
    """
    src = yolo_box_file(photo)
    out = []
    for n, line in enumerate(src.read_text().splitlines() if src else [], 1):
        parts = line.split()
        if not parts:
            continue
        try:
            k, x, y, bw, bh = int(parts[0]), *map(float, parts[1:])
        except ValueError:
            raise TeachInputError(f"{src}, line {n}: not 'class cx cy w h' ({line.strip()!r})") from None
        if k not in classes:
            raise TeachInputError(f"{src}, line {n}: class {k} is not in --classes "
                                  f"({', '.join(f'{c}={f}' for c, f in sorted(classes.items()))})")
        out.append((classes[k], x * width, y * height, max(bw * width, bh * height)))
    return out


def pair_located(boxes: list[tuple[str, float, float, float]], dice: list[tuple[float, float, float]]
                 ) -> list[int | None]:
    """For each labelled box ``(face, cx, cy, side)`` the index in ``dice`` of the located die it
    marks: the nearest whose centre is within :data:`SAME_DIE` of the larger side, each die once,
    nearest pairs first; ``None`` when none is.

    >>> pair_located([("1", 10, 10, 4), ("2", 50, 50, 8)], [(11, 9, 10)])
    [0, None]
    """
    pairs = sorted((math.hypot(bx - dx, by - dy), i, j) for i, (_, bx, by, bs) in enumerate(boxes)
                   for j, (dx, dy, ds) in enumerate(dice) if math.hypot(bx - dx, by - dy) <= SAME_DIE * max(bs, ds))
    out: list[int | None] = [None] * len(boxes)
    used: set[int] = set()
    for _, i, j in pairs:
        if out[i] is None and j not in used:
            used.add(j)
            out[i] = j
    return out


def at_located(boxes: list[tuple[str, float, float, float]], dice: list[tuple[float, float, float]]
               ) -> list[tuple[str, float, float, float]]:
    """Each labelled box ``(face, cx, cy, side)`` at its centre with the side of the located die it
    marks (:func:`pair_located`), so a shot is cut to the die's size as the table cuts the dice it
    reads; a box no die pairs with takes the median side of the located dice, or its own side when
    none was located. A box's own size is not used where a die is located: boxes that hug the pips
    would tell the face by their size.

    >>> at_located([("1", 10, 10, 4), ("2", 50, 50, 8)], [(11, 9, 10)])
    [('1', 10, 10, 10), ('2', 50, 50, 10.0)]
    """
    side = float(np.median([d[2] for d in dice])) if dice else None
    return [(f, x, y, dice[j][2] if j is not None else side or s)
            for j, (f, x, y, s) in zip(pair_located(boxes, dice), boxes)]


def yolo_shots(root: str | Path, classes: dict[int, str], photos: list[Path] | None = None
               ) -> tuple[list[Shot], list[str]]:
    """Shots of the YOLO folder ``root`` (of ``photos`` when given, else :func:`yolo_photos`), a
    die per box, cut round its top face at the box's centre with the size of the die
    :func:`locate_dice` finds there (:func:`at_located`), read where that die is found
    (``Shot.reads``); and one problem line per photo that could not be read."""
    root = Path(root)
    shots, problems = [], []
    for path in photos if photos is not None else yolo_photos(root):
        try:
            frame = load_image(path)
        except UnreadableImage as exc:
            problems.append(str(exc))
            continue
        h, w = frame.shape[:2]
        name = str(path.relative_to(root))
        boxes = yolo_boxes(path, w, h, classes)
        dice = locate_dice(frame) if boxes else []
        shots += [Shot(f, top_face_crop(frame, x, y, s), name, (x, y), s,
                       () if j is None else tuple(read_crops(frame, *dice[j])))
                  for (f, x, y, s), j in zip(at_located(boxes, dice), pair_located(boxes, dice))]
    return shots, problems


def yolo_faces(photo: Path, classes: dict[int, str]) -> dict[str, int]:
    """The faces the boxes of ``photo`` show, each with its number of boxes (read from its box file
    alone; see :func:`yolo_boxes`)."""
    out: dict[str, int] = {}
    for f, *_ in yolo_boxes(photo, 1, 1, classes):
        out[f] = out.get(f, 0) + 1
    return out


def teaching_photos(photos: Sequence[tuple[str, Mapping[str, int]]], per_face: int) -> set[str]:
    """The names of the ``per_face`` photos showing the most dice of each face (ties by name), of
    ``(photo name, {face: dice of it})``: a photo of several faces may count for each.

    >>> sorted(teaching_photos([("a", {"1": 1, "2": 1}), ("b", {"1": 3}), ("c", {"2": 1}), ("d", {"3": 1})], 1))
    ['a', 'b', 'd']
    """
    by_face: dict[str, list[tuple[int, str]]] = {}
    for name, faces in photos:
        for f, n in faces.items():
            by_face.setdefault(f, []).append((-n, name))
    return {name for ranked in by_face.values() for _, name in sorted(ranked)[:per_face]}


LOOK_CORE = 0.6
"""Side of the square at a crop's centre, in die sides, whose median colour is the die's body colour
(the ink of most faces is a small part of it)."""
LOOK_PAD = (8, 40, 50)
"""HSV margins added round the body colours seen in the shots (hue, saturation, value)."""
GREY_SATURATION = 50
"""A body whose saturation is under this in every shot has no hue to tell (ivory, white, black):
its look takes every hue."""


def die_hsv(crop: np.ndarray, span: float = CROP_SPAN) -> tuple[int, int, int]:
    """Median OpenCV HSV of the :data:`LOOK_CORE` die sides at the centre of a :func:`crop_square`
    crop ``span`` die sides wide."""
    import cv2

    h, w = crop.shape[:2]
    r = LOOK_CORE / span / 2
    core = crop[int(h * (0.5 - r)):int(np.ceil(h * (0.5 + r))), int(w * (0.5 - r)):int(np.ceil(w * (0.5 + r)))]
    hsv = cv2.cvtColor(core if core.size else crop, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    return tuple(int(v) for v in np.median(hsv, axis=0))


def learn_look(crops: Sequence[np.ndarray]):
    """The :class:`~arena_table.rules.kernel.mechanics.die_kinds.Look` of a die kind from crops of
    its dice: the body colours (:func:`die_hsv`) seen, padded by :data:`LOOK_PAD`; a hue range that
    wraps past 179 (red) has low H > high H; a grey body takes every hue. Its ``colour`` is the
    shots' median.

    >>> red = [np.full((20, 20, 3), c, np.uint8) for c in ((30, 30, 200), (40, 20, 180))]  # BGR: H 0 and 176
    >>> learn_look(red).body
    ((168, 177, 130), (8, 255, 250))
    """
    from arena_table.rules.kernel.mechanics.die_kinds import Look

    if not crops:
        raise TeachInputError("no crops to learn a die's look from")
    hsv = np.array([die_hsv(c) for c in crops])
    colour = tuple(int(v) for v in np.median(hsv, axis=0))
    (_, s0, v0), (_, s1, v1) = hsv.min(axis=0), hsv.max(axis=0)
    ph, ps, pv = LOOK_PAD
    lo_s, hi_s, lo_v, hi_v = max(0, s0 - ps), min(255, s1 + ps), max(0, v0 - pv), min(255, v1 + pv)
    if s1 < GREY_SATURATION:
        return Look(body=((0, int(lo_s), int(lo_v)), (179, int(hi_s), int(hi_v))), colour=colour)
    hues = np.sort(hsv[:, 0] % 180)
    gaps = np.diff(np.concatenate([hues, hues[:1] + 180]))  # the widest gap between hues is outside the range
    k = int(np.argmax(gaps))
    start, end = int(hues[(k + 1) % len(hues)]), int(hues[k])
    if (end - start) % 180 + 2 * ph >= 180:
        return Look(body=((0, int(lo_s), int(lo_v)), (179, int(hi_s), int(hi_v))), colour=colour)
    return Look(body=(((start - ph) % 180, int(lo_s), int(lo_v)), ((end + ph) % 180, int(hi_s), int(hi_v))),
                colour=colour)
