"""The polyhedral dice renderer (arena_table/vision/poly_render.py): solids, numbering, pose,
numerals, outlines and sizes, and the tray scenes that draw them."""

import math

import cv2
import numpy as np
import pytest

import arena_table.rules  # noqa: F401 - loads the games' kinds
from arena_table.rules.kernel.mechanics.die_kinds import find_kind
from arena_table.vision import poly_render as pr
from arena_table.vision.kind_render import PX_PER_MM, render_frame
from arena_table.vision.kind_sets import face_glyph, scene_frames, scene_plan, twins


def _area(poly) -> float:
    p = np.asarray(poly, float)
    return 0.5 * abs(float(p[:, 0] @ np.roll(p[:, 1], -1) - p[:, 1] @ np.roll(p[:, 0], -1)))


def _diameter(poly) -> float:
    p = np.asarray(poly, float)
    return float(np.linalg.norm(p[:, None] - p[None], axis=2).max())


@pytest.mark.parametrize("sides,total", [(8, 9), (10, 9), (12, 13), (20, 21)])
def test_opposite_faces_are_parallel_and_sum_as_on_real_dice(sides, total):
    labels, opp, n = pr.numbering(sides), pr.opposite(sides), pr.normals(sides)
    assert sorted(labels, key=int) == [str(v) for v in (range(10) if sides == 10 else range(1, sides + 1))]
    for i, j in enumerate(opp):
        assert np.allclose(n[i], -n[j], atol=1e-9)
        assert int(labels[i]) + int(labels[j]) == total


@pytest.mark.parametrize("sides,corners,edges", [(8, 3, 1), (12, 5, 1), (20, 3, 1), (10, 4, 2)])
def test_solids_have_their_faces_and_edge_lengths(sides, corners, edges):
    verts, faces = pr.solid(sides)
    assert len(faces) == sides and all(len(f) == corners for f in faces)
    assert math.isclose(max(np.linalg.norm(a - b) for a in verts for b in verts), 1.0)
    lengths = {round(float(np.linalg.norm(verts[f[k]] - verts[f[k - 1]])), 9) for f in faces for k in range(len(f))}
    assert len(lengths) == edges  # regular faces; the d10's kites: two long edges and two short
    # V - E + F = 2
    assert len(verts) - sum(len(f) for f in faces) // 2 + len(faces) == 2


def test_the_d10_has_the_even_numerals_round_one_pole_in_the_standard_zigzag():
    verts, faces = pr.solid(10)
    labels, n = pr.numbering(10), pr.normals(10)
    by_pole = {pole: {int(labels[i]) for i, f in enumerate(faces) if f[0] == pole} for pole in (0, 1)}
    assert by_pole == {0: {0, 2, 4, 6, 8}, 1: {1, 3, 5, 7, 9}}
    order = sorted(range(10), key=lambda i: math.atan2(n[i][1], n[i][0]) % (2 * math.pi))
    seq = [int(labels[i]) for i in order]
    k = seq.index(0)
    assert seq[k:] + seq[:k] == [0, 7, 4, 1, 6, 9, 2, 5, 8, 3]  # Wikipedia's reading, even pole up


def test_numeral_height_of_a_d8_is_half_its_faces_inscribed_circle():
    edge = 1 / math.sqrt(2)                   # octahedron of vertex-to-vertex length 1
    assert math.isclose(pr.numeral_height(8), 0.5 * edge / math.sqrt(3), rel_tol=1e-9)
    assert pr.numeral_height(20) < 0.5 * (1 / 1.902113) / math.sqrt(3)   # "20" is narrowed to fit


def _upright_ink(frame, top, side=96):
    """The dark ink on the top face alone, mapped so its numeral's top vertex points up."""
    top = np.float32(top)
    c = top.mean(axis=0)
    up = (top[0] - c) / np.linalg.norm(top[0] - c)
    right = np.float32([-up[1], up[0]])
    src = np.float32([c, c + up * 20, c + right * 20])
    dst = np.float32([[side / 2, side / 2], [side / 2, side / 2 - 20], [side / 2 + 20, side / 2]])
    m = cv2.getAffineTransform(src, dst)
    crop = cv2.warpAffine(frame, m, (side, side), borderValue=(90, 90, 90))
    face = np.zeros((side, side), np.uint8)
    cv2.fillConvexPoly(face, np.int32(np.round(cv2.transform(top[None], m)[0])), 1)
    face = cv2.erode(face, np.ones((5, 5), np.uint8))   # not the ridges' antialiased edge
    return (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) < 70) & (face > 0)


def _ink_shape(mask):
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    return cv2.resize(crop, (24, 24), interpolation=cv2.INTER_AREA)


def _template(text, font):
    img = np.zeros((80, 160), np.uint8)
    (tw, th), _ = cv2.getTextSize(text, font, 1.5, 4)
    cv2.putText(img, text, (80 - tw // 2, 40 + th // 2), font, 1.5, 255, 4, cv2.LINE_AA)
    if text in ("6", "9"):
        cv2.line(img, (80 - tw // 2, 40 + th // 2 + 8), (80 + tw // 2, 40 + th // 2 + 8), 255, 4)
    return _ink_shape(img > 127)


@pytest.mark.parametrize("kind,face", [("d8", "3"), ("d10", "6"), ("d10", "9"), ("d12", "11"), ("d20", "17"),
                                       ("d20", "9")])
def test_the_numeral_facing_the_camera_is_the_rendered_face_upright_at_its_top_vertex(kind, face):
    die = find_kind(kind)
    for seed in range(3):
        frame = np.full((240, 240, 3), 90, np.uint8)
        truth = pr.draw_poly_kind(frame, die, face, (120, 120), 180, np.random.default_rng(seed),
                                  tilt=0.0, angle=37.0 * seed)
        assert truth.face == face
        # straight down, the result face is the largest face seen, as large as the solid's face
        assert max(truth.faces, key=lambda f: _area(f[1]))[0] == face
        shape = _ink_shape(_upright_ink(frame, truth.top))
        scores = {t: max(float(np.corrcoef(shape.ravel(), _template(t, f).ravel())[0, 1]) for f in pr.FONTS)
                  for t in die.symbols}
        assert max(scores, key=scores.get) == face, scores


def test_a_face_up_die_seen_straight_down_has_its_silhouette_and_top_face_area():
    counts = {}
    for sides in (8, 12, 20):
        frame = np.full((240, 240, 3), 90, np.uint8)
        truth = pr.draw_poly(frame, sides, "1", (120, 120), 150, np.random.default_rng(1), tilt=0.0)
        counts[sides] = len(truth.outline)
        if sides == 8:
            edge = 150 / math.sqrt(2)
            assert _area(truth.top) == pytest.approx(math.sqrt(3) / 4 * edge ** 2, rel=1e-6)
            # the hexagon's corners lie an edge / sqrt(3) from the centre
            assert _diameter(truth.outline) == pytest.approx(2 * edge / math.sqrt(3), abs=1.0)
    assert counts == {8: 6, 12: 10, 20: 6}  # hexagon, decagon (the 5-fold axis), hexagon (3-fold)


def test_a_tilted_die_still_shows_its_result_on_the_most_frontal_face():
    frame = np.full((240, 320, 3), 90, np.uint8)
    truth = pr.draw_poly(frame, 20, "20", (160, 120), 150, np.random.default_rng(5), tilt=pr.MAX_TILT)
    assert max(truth.faces, key=lambda f: _area(f[1]))[0] == "20"
    assert len(truth.faces) < 20  # back faces culled


def test_draw_poly_refuses_a_face_the_die_lacks_and_a_die_off_the_frame():
    frame = np.zeros((100, 100, 3), np.uint8)
    with pytest.raises(pr.PolyDieError, match="no face '21'"):
        pr.draw_poly(frame, 20, "21", (50, 50), 40, np.random.default_rng(0))
    with pytest.raises(ValueError, match="does not fit"):
        pr.draw_poly(frame, 12, "1", (10, 50), 60, np.random.default_rng(0))
    with pytest.raises(pr.PolyDieError):
        pr.kind_sides(find_kind("d6"))


def test_the_tray_scene_draws_d8_to_d20_at_their_size_without_overlap():
    plan = scene_plan(None)
    assert {"d8", "d10", "d12", "d20"} <= {k.id for k in plan.kinds} and plan.not_drawn == ()
    assert not twins(find_kind("d8"), find_kind("d20"))
    assert face_glyph(find_kind("d8"), "3") == "d8-3" != face_glyph(find_kind("d20"), "3")
    seen = set()
    for frame, truth in scene_frames(None, 6):
        reach = []
        for d in truth:
            kind = find_kind(d.kind)
            if pr.is_poly(kind):
                seen.add(d.kind)
                lo, hi = (kind.look.size_mm * s for s in PX_PER_MM)
                assert lo - 1 <= d.side <= hi
                assert 0.75 * d.side <= _diameter(d.outline) <= d.side + 1
                reach.append(max(math.dist(d.centre, p) for p in d.outline))
            elif d.outline:                                    # a d4: its base corners
                reach.append(max(math.dist(d.centre, p) for p in d.outline))
            else:                                              # a square die turned anyhow
                reach.append(d.side / math.sqrt(2))
        for i, a in enumerate(truth):
            for j in range(i):
                assert math.dist(a.centre, truth[j].centre) > reach[i] + reach[j]
    assert seen == {"d8", "d10", "d12", "d20"}


def test_render_frame_gives_a_poly_die_its_kind_face_centre_and_outline():
    frame, truth = render_frame([find_kind("d10")], seed=11, n=3)
    assert frame.shape == (480, 640, 3) and [d.kind for d in truth] == ["d10"] * 3
    for d in truth:
        x, y, = d.centre
        assert d.face in find_kind("d10").symbols
        assert cv2.pointPolygonTest(np.float32(d.outline), (float(x), float(y)), False) > 0


def test_render_poly_draws_a_die_in_given_colours_and_crop_die_centres_its_outline():
    frame, truth = pr.render_poly(find_kind("d12"), 7, np.random.default_rng(3), body=(40, 40, 160), ink=(240, 240, 240))
    assert truth.face == "7" and truth.sides == 12
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.int32(truth.outline), 1)
    b, g, r = np.median(frame[inside > 0], axis=0)
    assert r > 80 and r > 1.5 * b and r > 1.5 * g  # the red body, under light and shade
    crop, m = pr.crop_die(frame, truth.outline, px=64, fill=0.9, angle=30.0)
    assert crop.shape == (64, 64, 3)
    inner = cv2.transform(np.float32(truth.outline)[None], m)[0]
    (cx, cy), radius = cv2.minEnclosingCircle(inner)
    assert (cx, cy) == pytest.approx((32, 32), abs=0.01) and 2 * radius == pytest.approx(0.9 * 64, abs=0.01)
    assert np.median(crop[28:36, 28:36, 2]) > 80  # the die's body at the crop's middle
