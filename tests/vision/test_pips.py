"""The classical pip check (``pips.inspect_face``, ``inspect_faces``) on small rendered dice: layout, rim
blobs, shape, and a frame's dice checked in one batch."""

import numpy as np
import pytest

from arena_table.vision.pips import PipConfig, _blobs, inspect_face, inspect_faces, skew
from arena_table.vision.render import DieSpec, TableSpec, render_table

SIDE = 34.0
FELT = (70, 110, 60)


def one_die(angle=0.0, **kw):
    spec = TableSpec(160, 160, dice=(DieSpec(kw.pop("value", 5), (80.0, 80.0), SIDE, angle, **kw),), background=FELT)
    return render_table(spec, np.random.default_rng(0))[0]


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0])
@pytest.mark.parametrize("value", [4, 5, 6])
def test_flat_die_fits_its_layout_and_is_square(value, angle):
    # The detector reports the side of the die's axis-aligned box (x1.0..1.41 the die's own side):
    # the searched disc then reaches past the face onto the table; those blobs must not count.
    box_side = SIDE * (abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle))))
    check = inspect_face(PipConfig(), one_die(angle, value=value), 80.0, 80.0, box_side, value)
    assert (check.status, check.pips, check.grid) == ("ok", value, True)
    assert skew(check.shape) < 1.15


def test_wrong_value_does_not_fit():
    # Four clean pips in a square are no 3 (the classifier's guess is checked, not trusted).
    check = inspect_face(PipConfig(), one_die(value=4), 80.0, 80.0, SIDE, 3)
    assert check.status != "ok" or check.shape is None


def test_seven_clean_pips_are_not_a_face():
    q = 0.27
    seven = ((-q, -q), (q, -q), (-q, 0.0), (0.0, 0.0), (q, 0.0), (-q, q), (q, q))
    check = inspect_face(PipConfig(), one_die(value=6, pips=seven), 80.0, 80.0, SIDE, 6)
    assert check.status == "invalid" and check.pips == 7


def test_tilted_face_has_a_skewed_shape():
    # A face tilted 55 degrees away from the camera is foreshortened by cos(55) = 0.57.
    check = inspect_face(PipConfig(), one_die(value=5, tilt=55.0), 80.0, 80.0 - 0.0, SIDE, 5)
    assert check.shape is not None and skew(check.shape) > 1.45


@pytest.mark.parametrize("value", range(1, 7))
def test_batched_layout_fit_equals_one_at_a_time(value):
    # fit_layouts (every choice of kept blobs in one batch) against fit_layout per set: a face
    # stretched 1.3x along x and turned 30 degrees fits with residual 0 and gives that map back.
    from arena_table.vision.pips import canonical, fit_layout, fit_layouts

    t = np.deg2rad(30.0)
    lin = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ np.diag([1.3, 1.0])
    exact = canonical(value) @ lin.T
    rng = np.random.default_rng(value)
    sets = np.stack([exact] + [exact + rng.normal(0, 0.04, exact.shape) for _ in range(5)])
    resid, maps = fit_layouts(sets, value)
    assert resid[0] == pytest.approx(0.0, abs=1e-9)
    for k, pts in enumerate(sets):
        r1, m1 = fit_layout(pts, value)
        assert resid[k] == pytest.approx(r1, abs=1e-12)
        assert (m1 is None) == (maps is None) == (value <= 3)
        if m1 is not None:
            assert np.allclose(maps[k], m1)
    if value >= 4:  # the map is the one the face was made with, up to the face's own symmetry
        assert np.allclose(maps[0] @ maps[0].T, lin @ lin.T)


def test_layout_fit_drops_a_glare_blob():
    # A 5 with one extra blob (glare) beside it: the fit keeps the five pips and drops the glare.
    from arena_table.vision.pips import _fit_pool, canonical

    side, c = 40.0, 23.5
    pips = [(c + x * side, c + y * side, 20.0, None, 1.0, False) for x, y in canonical(5)]
    glare = (c + 0.1 * side, c - 0.4 * side, 20.0, None, 1.0, False)
    blobs = pips[:2] + [glare] + pips[2:]
    resid, drop, keep, _ = _fit_pool(PipConfig(), blobs, 5, c, side)
    assert (round(resid, 9), drop, keep) == (0.0, 1, (0, 1, 3, 4, 5))
    assert _fit_pool(PipConfig(), blobs + [glare] * 2, 5, c, side) is None  # 3 extra: more than max_drop


def test_a_frames_dice_checked_together_read_as_each_alone():
    # One batch stacks the crops: no blob may join two dice, and each die keeps its own face colour
    # and threshold (a white die with black pips beside a red die with white pips, touching).
    q = 0.27
    seven = ((-q, -q), (q, -q), (-q, 0.0), (0.0, 0.0), (q, 0.0), (-q, q), (q, q))
    dice = (DieSpec(5, (40.0, 40.0), SIDE, 20.0), DieSpec(4, (40.0 + SIDE, 40.0), SIDE, 0.0,
                                                          body=(40, 40, 200), pip=(250, 250, 250)),
            DieSpec(6, (130.0, 120.0), SIDE, 0.0, pips=seven), DieSpec(5, (40.0, 130.0), SIDE, 0.0, tilt=55.0))
    frame = render_table(TableSpec(180, 180, dice=dice, background=FELT), np.random.default_rng(1))[0]
    asked = [(d.center[0], d.center[1], SIDE * 1.2, v) for d, v in zip(dice, (5, 4, 6, 5))] + [(150.0, 30.0, SIDE, 3)]
    together = inspect_faces(PipConfig(), frame, asked)
    alone = [inspect_face(PipConfig(), frame, *a) for a in asked]
    assert together == alone
    assert [c.status for c in together[:3]] == ["ok", "ok", "invalid"] and together[1].pips == 4
    assert together[4].pips == -1  # the empty felt beside them: nothing found, not the neighbours' pips
    assert inspect_faces(PipConfig(), frame, []) == []



def _plain(blobs):
    """A crop's blobs (``pips._blobs``) as comparable tuples (the covariance as a tuple or None)."""
    pips, large, side = blobs
    return ([(x, y, a, None if c is None else tuple(c.ravel()), pol, rim) for x, y, a, c, pol, rim in pips],
            large, side)



def test_a_face_disc_reaching_the_crop_edge_joins_no_two_dice_in_a_batch():
    # face_radius 0.7 of a side reaches the 48 px crop's first and last rows. A dark spot on the
    # last rows of one crop and the first rows of the next would be one blob if the crops were
    # stacked edge to edge; each crop alone has its own pip-sized blob.
    cfg = PipConfig(face_radius=0.7)
    crops = np.full((2, cfg.crop, cfg.crop, 3), 235, np.uint8)
    crops[0, -4:, 22:26] = 20
    crops[1, :4, 22:26] = 20
    together = [_plain(b) for b in _blobs(cfg, crops)]
    assert together == [_plain(_blobs(cfg, c[None])[0]) for c in crops]
    assert [len(pips) for pips, _, _ in together] == [1, 1]
    assert [(round(x, 1), round(y, 1)) for pips, _, _ in together for x, y, *_ in pips] == [(23.5, 45.5), (23.5, 1.5)]


def test_blobs_of_a_later_crop_in_a_batch_come_in_the_order_they_do_alone():
    # Two blobs whose top rows are neighbours: OpenCV labels in 2x2 blocks, so a crop stacked to
    # start on an odd row would list them the other way round (and the layout fit's sums differ).
    cfg = PipConfig()
    crops = np.full((3, cfg.crop, cfg.crop, 3), 235, np.uint8)
    for k in range(3):
        crops[k, 20:24, 28:32] = 20
        crops[k, 21:25, 14:18] = 20
    alone = _plain(_blobs(cfg, crops[:1])[0])
    assert [round(x) for x, *_ in alone[0]] == [16, 30]
    assert [_plain(b) for b in _blobs(cfg, crops)] == [alone] * 3
