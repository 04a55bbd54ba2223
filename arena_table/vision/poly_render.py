"""Draw the polyhedral dice (d8, d10, d12, d20) as a camera over the table sees them: true 3D
solids resting on a face, numerals on every face, projected from above.

Solids (:func:`solid`): the octahedron (d8), the pentagonal trapezohedron (d10: ten kites, two
poles, length 1.2 times its width), the dodecahedron (d12) and the icosahedron (d20), centred on
the origin, scaled so the longest distance between two vertices is 1: a kind's ``Look.size_mm``
is that length (the d10's pole to pole), drawn at the scene's px a mm
(:data:`arena_table.vision.kind_render.PX_PER_MM`).

Every one of these solids has each face's opposite face parallel to it, so a die at rest lies on
a face and shows its result on the opposite face, flat on top. The d10 too: its kites come in
parallel pairs, and the result is the kite lying flat on top (a real d10 is read that way; the
trapezohedron is centrally symmetric, Wikipedia "Pentagonal trapezohedron").

Numbering (:func:`numbering`): opposite faces sum to n + 1 (d8 9, d12 13, d20 21); the d10 has
the five even numerals round one pole and the five odd round the other, in the zigzag 0, 7, 4, 1,
6, 9, 2, 5, 8, 3 round the equator (Wikipedia, "Pentagonal trapezohedron", the standard
configuration), so opposite faces sum to 9. Each numeral stands with its foot along an edge and its
top toward the face's opposite vertex (d10: toward the face's pole, so one pole's numerals read
upright with that pole up, as on a real d10); ``6`` and ``9`` are underlined. A numeral is
:data:`NUMERAL_SHARE` of the face's inscribed circle tall, smaller when the die's widest numeral
("18", "20") would not fit :data:`NUMERAL_FIT` of that circle's width: common opaque dice print
their numerals about half the face's inner height, leaving a rim round them.

Drawing (:func:`draw_poly`) follows :mod:`arena_table.vision.d4_render`: an orthographic camera
tilted up to :data:`MAX_TILT`, faces turned away from the camera culled and the rest painted far
to near, flat Lambert shading from a random light, brighter ridges, a soft shadow and a specular
spot (d4_render's helpers), supersampled three times and shrunk (antialiased outlines).

>>> n = numbering(20)
>>> sorted({int(n[i]) + int(n[j]) for i, j in enumerate(opposite(20))}), sorted(numbering(10), key=int)[:3]
([21], ['0', '1', '2'])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import DieKind, face_index
from arena_table.vision import d4_render, kind_render

SIDES = (8, 10, 12, 20)
"""The face counts of the solids drawn here."""
MAX_TILT = 12.0
"""Largest tilt of the camera from straight down drawn, degrees (as ``d4_render.MAX_TILT``)."""
NUMERAL_SHARE = 0.5
"""A numeral's height as a share of its face's inscribed-circle diameter."""
NUMERAL_FIT = 0.8
"""Widest share of the inscribed-circle diameter a numeral may span (two-digit numerals)."""
D10_LENGTH = 1.2
"""A d10's pole-to-pole length over the diameter of its ring of ten side vertices."""
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)
"""The Hershey fonts the numerals are drawn in (those of ``d4_render.FONTS``)."""
_FLIP = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0]])   # world (x, y, z up) to image (x, y down)


class PolyDieError(ValueError):
    """A die that is not one of the polyhedra drawn here, or a face it does not have."""


def _hull_faces(verts: np.ndarray) -> list[tuple[int, ...]]:
    """The faces of the convex hull of ``verts`` (each polygon's vertices counter-clockwise seen
    from outside), for solids whose faces are regular polygons or kites."""
    faces, seen = [], set()
    n = len(verts)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                normal = np.cross(verts[j] - verts[i], verts[k] - verts[i])
                if np.linalg.norm(normal) < 1e-9:
                    continue
                normal /= np.linalg.norm(normal)
                d = verts @ normal - verts[i] @ normal
                if d.max() > 1e-6:
                    normal, d = -normal, -d
                if d.max() > 1e-6:
                    continue
                on = tuple(sorted(np.flatnonzero(np.abs(d) < 1e-6)))
                if on in seen:
                    continue
                seen.add(on)
                c = verts[list(on)].mean(axis=0)
                u = verts[on[0]] - c
                u /= np.linalg.norm(u)
                w = np.cross(normal, u)
                ang = [math.atan2((verts[v] - c) @ w, (verts[v] - c) @ u) for v in on]
                faces.append(tuple(v for _, v in sorted(zip(ang, on))))
    return faces


@lru_cache(maxsize=None)
def solid(sides: int) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """Vertices (V x 3) and faces (vertex indices counter-clockwise seen from outside, first the
    vertex the numeral's top points to) of the die with ``sides`` faces, centred on the origin,
    longest vertex-to-vertex distance 1.

    >>> [(len(solid(n)[0]), len(solid(n)[1])) for n in SIDES]
    [(6, 8), (12, 10), (20, 12), (12, 20)]

    Raises:
        PolyDieError: ``sides`` not one of :data:`SIDES`.
    """
    phi = (1 + math.sqrt(5)) / 2
    if sides == 8:
        verts = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
    elif sides == 20:
        verts = np.array([p for a in (-1, 1) for b in (-phi, phi)
                          for p in ([0, a, b], [a, b, 0], [b, 0, a])], float)
    elif sides == 12:
        verts = np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)]
                         + [p for a in (-1, 1) for b in (-phi, phi)
                            for p in ([0, a / phi, b], [a / phi, b, 0], [b, 0, a / phi])], float)
    elif sides == 10:
        c36 = math.cos(math.radians(36))
        h = D10_LENGTH                      # ring radius 1; the ring's height makes each kite flat
        z0 = h * (1 - c36) / (1 + c36)
        ring = [[math.cos(math.radians(36 * k)), math.sin(math.radians(36 * k)), z0 if k % 2 == 0 else -z0]
                for k in range(10)]
        verts = np.array([[0, 0, h], [0, 0, -h]] + ring, float)
    else:
        raise PolyDieError(f"no polyhedral die has {sides} faces here; drawn: {', '.join(map(str, SIDES))}")
    verts = verts / max(np.linalg.norm(a - b) for a in verts for b in verts)
    faces = []
    for f in _hull_faces(verts):
        if sides == 10:   # a kite's pole first: the vertex its numeral's top points to
            k = next(i for i, v in enumerate(f) if v < 2)
        else:             # the vertex farthest along a fixed direction: one fixed labelling
            k = int(np.argmax([verts[v] @ (0.31, 0.52, 0.79) for v in f]))
        faces.append(f[k:] + f[:k])
    return verts, tuple(faces)


def normals(sides: int) -> np.ndarray:
    """Outward unit normals (F x 3) of :func:`solid`'s faces, in its face order."""
    verts, faces = solid(sides)
    out = np.array([np.cross(verts[f[1]] - verts[f[0]], verts[f[2]] - verts[f[0]]) for f in faces])
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def opposite(sides: int) -> tuple[int, ...]:
    """For each face of :func:`solid`, the index of the face parallel to it on the other side."""
    n = normals(sides)
    return tuple(int(np.argmin(n @ v)) for v in n)


@lru_cache(maxsize=None)
def numbering(sides: int) -> tuple[str, ...]:
    """The numeral on each face of :func:`solid` (its face order): opposite faces sum to
    ``sides`` + 1, the d10's to 9 (0-9, even round one pole in the standard zigzag)."""
    verts, faces = solid(sides)
    n = normals(sides)
    if sides == 10:
        zig = (0, 7, 4, 1, 6, 9, 2, 5, 8, 3)   # round the equator, counter-clockwise seen from the 0's pole
        order = sorted(range(10), key=lambda i: math.atan2(n[i][1], n[i][0]) % (2 * math.pi))
        start = next(p for p, i in enumerate(order) if faces[i][0] == 0)
        labels = [""] * 10
        for p, i in enumerate(order[start:] + order[:start]):
            labels[i] = str(zig[p])
        return tuple(labels)
    opp = opposite(sides)
    labels, k = [""] * sides, 1
    # number down from the top pole: faces by height of their normal, then round the vertical axis
    for i in sorted(range(sides), key=lambda i: (-round(n[i][2], 6), math.atan2(n[i][1], n[i][0]))):
        if not labels[i]:
            labels[i], labels[opp[i]] = str(k), str(sides + 1 - k)
            k += 1
    return tuple(labels)


def is_poly(kind: DieKind) -> bool:
    """Whether ``kind`` is a die drawn here: 8, 10, 12 or 20 faces showing the numerals of
    :func:`numbering` (1 to n, the d10's 0 to 9), no d4 style, no pips."""
    return (kind.sides in SIDES and not kind.look.style and kind.look.marks != "pips"
            and set(kind.symbols) == set(numbering(kind.sides)))


@dataclass(frozen=True)
class RenderedPoly:
    """Truth for one drawn polyhedral die, all points (x, y) in frame px."""

    sides: int
    face: str
    """The numeral on the face up (the result)."""
    centre: tuple[float, float]
    """The image of the die's centre (straight down: the top face's centre)."""
    size: float
    """The die's longest vertex-to-vertex length, px (``Look.size_mm`` times the scale)."""
    outline: tuple[tuple[float, float], ...]
    """The die's silhouette, a convex polygon (its hull's corners)."""
    top: tuple[tuple[float, float], ...]
    """The result face's corners, the first the one its numeral's top points to."""
    faces: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]
    """Every face turned to the camera: (numeral, corners), far to near."""
    box: tuple[int, int, int, int]
    """Bounding box (x, y, w, h) of :attr:`outline`."""


def _pose(sides: int, face: str, angle: float, tilt: float, azim: float) -> np.ndarray:
    """The rotation (3 x 3) that puts face ``face``'s normal straight up, turns the die by
    ``angle`` degrees about the vertical and tilts the camera ``tilt`` degrees toward ``azim``."""
    labels = numbering(sides)
    if face not in labels:
        raise PolyDieError(f"a d{sides} has no face {face!r}; its faces: {', '.join(sorted(labels, key=int))}")
    up = normals(sides)[labels.index(face)]
    z = np.array([0.0, 0.0, 1.0])
    axis, c = np.cross(up, z), float(up @ z)
    if np.linalg.norm(axis) < 1e-9:
        rest = np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    else:
        k = _skew(axis / np.linalg.norm(axis))
        s = float(np.linalg.norm(axis))
        rest = np.eye(3) + s * k + (1 - c) * k @ k
    a = math.radians(angle)
    spin = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    t = math.radians(tilt)
    k = _skew(np.array([math.cos(azim), math.sin(azim), 0.0]))
    return (np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * k @ k) @ spin @ rest


def _skew(v: np.ndarray) -> np.ndarray:
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def _inradius(poly: np.ndarray) -> float:
    """Inscribed-circle radius of a tangential polygon (regular polygons, kites): 2 area / perimeter."""
    x, y = poly[:, 0], poly[:, 1]
    area = 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))
    return 2 * area / float(np.linalg.norm(poly - np.roll(poly, -1, axis=0), axis=1).sum())


def _numeral_layer(text: str, font: int, height: float, weight: float, tex: int) -> np.ndarray:
    """A ``tex`` x ``tex`` float mask (0-1) of ``text`` centred, ``height`` px tall, upright;
    ``6`` and ``9`` underlined."""
    layer = np.zeros((tex, tex), np.uint8)
    (_, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = height / th
    thick = max(2, int(round(weight * height / 7)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int(tex / 2 - tw / 2), int(tex / 2 + th / 2))
    cv2.putText(layer, text, org, font, scale, 255, thick, cv2.LINE_AA)
    if text in ("6", "9"):
        y = int(org[1] + 0.2 * th)
        cv2.line(layer, (org[0], y), (org[0] + tw, y), 255, thick, cv2.LINE_AA)
    return layer.astype(np.float32) / 255


def numeral_height(sides: int, font: int = FONTS[0]) -> float:
    """The numeral height on a face of the d``sides`` of size 1 (:func:`solid`): :data:`NUMERAL_SHARE`
    of the face's inscribed-circle diameter, less when the widest numeral would pass
    :data:`NUMERAL_FIT` of that diameter (the underline below a 6 or 9 not counted)."""
    verts, faces = solid(sides)
    f = verts[list(faces[0])]
    c = f.mean(axis=0)
    u = (f[0] - c) / np.linalg.norm(f[0] - c)
    w = np.cross(normals(sides)[0], u)
    diam = 2 * _inradius(np.stack([(f - c) @ w, (f - c) @ u], axis=1))
    aspect = max(cv2.getTextSize(t, font, 1.0, 2)[0][0] / cv2.getTextSize(t, font, 1.0, 2)[0][1]
                 for t in numbering(sides))
    return min(NUMERAL_SHARE * diam, NUMERAL_FIT * diam / aspect)


def draw_poly(frame: np.ndarray, sides: int, face: str, centre: tuple[float, float], size_px: float,
              rng: np.random.Generator, *, body: tuple[int, int, int] = (200, 225, 235),
              ink: tuple[int, int, int] = (25, 25, 25), angle: float | None = None,
              tilt: float | None = None) -> RenderedPoly:
    """Draw one d``sides`` resting with ``face`` (its numeral, ``"0"``-``"20"``) up into ``frame``
    (HxWx3 BGR uint8, changed in place), its centre at ``centre`` px, its longest vertex-to-vertex
    length ``size_px``.

    The die is turned ``angle`` degrees, the camera tilted ``tilt`` degrees from straight down
    toward a random side (random when ``None``: 0-360°, 0-:data:`MAX_TILT`°); light, font and
    ink weight come from ``rng``.

    Returns:
        :class:`RenderedPoly`: the face, outline, top face and every visible face in frame px.

    Raises:
        PolyDieError: ``sides`` not in :data:`SIDES`, or no such face. ValueError: the die (with
        its shadow) does not fit inside the frame.
    """
    angle = float(rng.uniform(0, 360)) if angle is None else angle
    tilt = float(rng.uniform(0, MAX_TILT)) if tilt is None else tilt
    azim = float(rng.uniform(0, 2 * math.pi))
    font = FONTS[int(rng.integers(len(FONTS)))]
    weight = float(rng.uniform(0.8, 1.25))
    verts, faces = solid(sides)
    rot = _pose(sides, str(face), angle, tilt, azim)
    pts = verts @ rot.T                     # x right, y up the screen, z toward the camera
    proj = _FLIP @ rot                      # a vector's image per unit (image y points down)
    img = verts @ proj.T * size_px + np.asarray(centre, float)
    ss = d4_render.SUPERSAMPLE
    x0, y0, x1, y1 = d4_render.die_window(frame, img, 0.12 * size_px + 4, f"a d{sides} of {size_px:.0f} px at {centre}")
    patch = cv2.resize(frame[y0:y1, x0:x1], ((x1 - x0) * ss, (y1 - y0) * ss), interpolation=cv2.INTER_LINEAR)
    loc = (img - (x0, y0)) * ss
    hull = cv2.convexHull(np.float32(loc)).reshape(-1, 2)
    light = d4_render.random_light(rng)
    patch = d4_render.drop_shadow(patch, hull, light, 0.6 * size_px * ss, rng)
    norm = normals(sides) @ rot.T
    labels = numbering(sides)
    height = numeral_height(sides, font) * size_px * ss
    tex = int(math.ceil(3 * height)) | 1
    ridge = d4_render.ridge_colour(body, rng)
    shown = sorted((i for i in range(len(faces)) if norm[i][2] > 1e-6),   # turned to the camera, far to near
                   key=lambda i: pts[list(faces[i])].mean(axis=0)[2])
    for i in shown:
        poly = loc[list(faces[i])]
        shade = 0.55 + 0.6 * max(0.0, float(norm[i] @ light))
        mask = np.zeros(patch.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.int32(np.round(poly * 16)), 255, cv2.LINE_AA, 4)
        # the numeral: upright in its own square, carried onto the face by the face plane's affine image
        c3 = verts[list(faces[i])].mean(axis=0)
        up = verts[faces[i][0]] - c3
        up /= np.linalg.norm(up)
        right = np.cross(up, normals(sides)[i])
        r_img, u_img = proj @ right, proj @ up   # a texture px is a patch px on a face seen square on
        cen = loc[list(faces[i])].mean(axis=0)
        m = np.float32(np.column_stack([r_img, -u_img, cen - tex / 2 * r_img + tex / 2 * u_img]))
        numeral = cv2.warpAffine(_numeral_layer(labels[i], font, height, weight, tex), m,
                                 (patch.shape[1], patch.shape[0]), flags=cv2.INTER_LINEAR)
        a_ = (mask.astype(np.float32) / 255)[..., None]
        colour = np.float32(body) * (1 - numeral[..., None]) + np.float32(ink) * numeral[..., None]
        patch = np.clip(patch * (1 - a_) + colour * shade * a_, 0, 255).astype(np.uint8)
        cv2.polylines(patch, [np.int32(np.round(poly * 16))], True, ridge, max(1, ss // 2), cv2.LINE_AA, 4)
    top = labels.index(str(face))
    patch = d4_render.gloss_spot(patch, hull, loc[list(faces[top])].mean(axis=0), 0.6 * size_px, ss, rng)
    frame[y0:y1, x0:x1] = cv2.resize(patch, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    out = hull / ss + (x0, y0)
    bx, by = out.min(axis=0)
    bw, bh = out.max(axis=0) - (bx, by)
    pts2 = lambda idx: tuple((float(img[v, 0]), float(img[v, 1])) for v in idx)  # noqa: E731
    return RenderedPoly(sides, str(face), (float(centre[0]), float(centre[1])), float(size_px),
                        tuple((float(x), float(y)) for x, y in out), pts2(faces[top]),
                        tuple((labels[i], pts2(faces[i])) for i in shown),
                        (int(bx), int(by), int(math.ceil(bw)), int(math.ceil(bh))))


def kind_sides(kind: DieKind) -> int:
    """The face count of the polyhedral ``kind``.

    Raises:
        PolyDieError: ``kind`` is not one of the dice :func:`is_poly` names.
    """
    if not is_poly(kind):
        raise PolyDieError(f"die kind {kind.id} is not a polyhedral numeral die ({kind.sides} faces, "
                           f"style {kind.look.style!r}, marks {kind.look.marks!r}); drawn: d8, d10, d12, d20")
    return kind.sides


def draw_poly_kind(frame: np.ndarray, kind: DieKind, face: int | str, centre: tuple[float, float],
                   size_px: float, rng: np.random.Generator, **pose) -> RenderedPoly:
    """:func:`draw_poly` for a die of ``kind`` showing ``face`` (symbol or number; the d10's 10
    is its ``0``) in its kind's colours (``pose``: ``body``, ``ink``, ``angle``, ``tilt``).

    Raises:
        PolyDieError: ``kind`` not polyhedral. DieKindError: no such face. ValueError: does not fit.
    """
    symbol = kind.faces[face_index(kind, face) - 1].symbol
    pose.setdefault("body", kind_render.body_bgr(kind))
    pose.setdefault("ink", kind_render.ink_bgr(kind))
    return draw_poly(frame, kind_sides(kind), symbol, centre, size_px, rng, **pose)


def render_poly(kind: DieKind, face: int | str, rng: np.random.Generator, *, size: tuple[int, int] = (240, 320),
                scale: tuple[float, float] | None = None, body: tuple[int, int, int] | None = None,
                ink: tuple[int, int, int] | None = None) -> tuple[np.ndarray, RenderedPoly]:
    """One BGR frame (``size`` = (H, W)) with one die of the polyhedral ``kind`` showing ``face``
    on a random tray (:func:`arena_table.vision.kind_render.tray`, its colour far from the die's),
    drawn at ``Look.size_mm`` times a px a mm from ``scale`` (low, high; default
    :data:`arena_table.vision.kind_render.PX_PER_MM`), placed, turned, tilted and lit at random,
    then the camera's light, blur, noise and JPEG (:func:`arena_table.vision.kind_render.finish`).
    ``body``/``ink`` BGR: the kind's colours unless given (training sets draw dice in any colour).

    >>> from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    >>> frame, truth = render_poly(find_kind("d20"), 17, np.random.default_rng(0))
    >>> frame.shape, truth.face, len(truth.outline)
    ((240, 320, 3), '17', 6)

    Raises:
        PolyDieError, DieKindError: as :func:`draw_poly_kind`. ValueError: ``size`` too small.
    """
    hgt, wid = size
    px = float(rng.uniform(*(scale or kind_render.PX_PER_MM))) * (kind.look.size_mm or 18.0)
    margin = 0.62 * px + 6
    if min(hgt, wid) < 2 * margin + 2:
        raise ValueError(f"a {wid}x{hgt} frame is too small for a {kind.id} of {px:.0f} px")
    body = body or kind_render.body_bgr(kind)
    frame = np.clip(kind_render.tray(rng, size, [body]), 0, 255).astype(np.uint8)
    centre = (float(rng.uniform(margin, wid - margin)), float(rng.uniform(margin, hgt - margin)))
    truth = draw_poly_kind(frame, kind, face, centre, px, rng, body=body, ink=ink or kind_render.ink_bgr(kind))
    return kind_render.finish(frame.astype(np.float32), rng), truth


def crop_die(frame: np.ndarray, outline, px: int = 64, fill: float = 0.9,
             angle: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A ``px`` x ``px`` crop of ``frame`` (HxW or HxWx3 uint8) round a die's ``outline`` (N x 2
    frame px, e.g. :attr:`RenderedPoly.outline` or a locator's), its enclosing circle scaled to
    ``fill`` of the crop's side and turned ``angle`` degrees counter-clockwise; outside the frame
    its border repeats. A die shrunk more than 1.2 times is smoothed first (sigma a third of the
    shrink), so its numerals are not aliased.

    Returns:
        (crop, m): the crop and the 2 x 3 affine map m from frame px to crop px
        (``cv2.transform(outline[None], m)`` puts the outline in the crop).

    >>> crop, m = crop_die(np.zeros((100, 100, 3), np.uint8), [(40, 40), (60, 40), (60, 60), (40, 60)], px=32)
    >>> crop.shape, np.round(cv2.transform(np.float32([[[50, 50]]]), m)[0, 0], 3).tolist()
    ((32, 32, 3), [16.0, 16.0])
    """
    (cx, cy), radius = cv2.minEnclosingCircle(np.float32(outline).reshape(-1, 1, 2))
    zoom = fill * px / max(2.0 * radius, 1e-6)
    m = cv2.getRotationMatrix2D((cx, cy), angle, zoom)
    m[:, 2] += (px / 2 - cx, px / 2 - cy)
    src, at = frame, m
    if zoom < 1 / 1.2:   # smooth only the window the crop reads
        reach = 0.75 * px / zoom
        x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
        x1, y1 = min(frame.shape[1], int(cx + reach) + 1), min(frame.shape[0], int(cy + reach) + 1)
        src = cv2.GaussianBlur(frame[y0:y1, x0:x1], (0, 0), 1 / zoom / 3)
        at = m.copy()
        at[:, 2] += m[:, :2] @ np.array([x0, y0], float)
    crop = cv2.warpAffine(src, at, (px, px), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return crop, m
