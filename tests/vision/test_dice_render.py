"""The stress renderer: pixels where the dice are, and truthful labels."""

import numpy as np
import pytest

from arena_table.vision.render import DieSpec, TableSpec, pip_layout, random_table, render_table


@pytest.mark.parametrize("value", range(1, 7))
def test_pip_layout_has_value_pips(value):
    pts = pip_layout(value)
    assert len(pts) == value and len(set(pts)) == value


def test_die_pixels_and_truth():
    spec = TableSpec(200, 160, dice=(DieSpec(4, (100.0, 80.0), 50.0, body=(250, 250, 250), pip=(0, 0, 0)),),
                     background=(0, 120, 0), texture=0, noise=0)
    frame, truth = render_table(spec, np.random.default_rng(0))
    assert truth[0].status == "ok" and truth[0].value == 4
    assert truth[0].box == (75, 55, 50, 50)
    assert frame[80, 100].min() > 230  # face centre of a 4 is bare die
    q = int(round(0.27 * 50))
    assert frame[80 - q, 100 - q].max() < 40  # a corner pip
    assert tuple(frame[5, 5]) == (0, 120, 0)  # table


def test_border_and_tilt_statuses():
    spec = TableSpec(200, 160, dice=(DieSpec(2, (195.0, 80.0), 40.0), DieSpec(3, (60.0, 80.0), 40.0, tilt=35)))
    _, truth = render_table(spec, np.random.default_rng(0))
    assert [t.status for t in truth] == ["partial", "cocked"]
    assert truth[0].box[0] + truth[0].box[2] == 200  # clipped to the frame


@pytest.mark.parametrize("side_value", [None, 1, 4, 6])
def test_tilted_die_shows_its_side_face_pips(side_value):
    # A white die tilted 45 degrees (side face strip 0.71 die sides tall below the top face, drawn
    # at 0.62 of the body's brightness): the strip holds side_value dark pips, or none.
    import cv2

    spec = TableSpec(200, 200, dice=(DieSpec(2, (100.0, 80.0), 60.0, body=(250, 250, 250), pip=(0, 0, 0),
                                             tilt=45.0, side_value=side_value),),
                     background=(0, 120, 0), texture=0, noise=0, shadow=False)
    frame, _ = render_table(spec, np.random.default_rng(0))
    top_bottom = 80 + 30 * np.cos(np.radians(45))
    strip = frame[int(top_bottom) + 3:int(top_bottom + 60 * np.sin(np.radians(45))) - 3, 75:126]
    assert np.median(strip) == pytest.approx(250 * 0.62, abs=2)
    n, _ = cv2.connectedComponents((strip.max(2) < 80).astype(np.uint8))
    assert n - 1 == (side_value or 0)


def test_exposure_scales_the_frame():
    spec = TableSpec(64, 48, background=(100, 100, 100), texture=0, noise=0)
    dark, _ = render_table(TableSpec(**{**spec.__dict__, "exposure": 0.6}), np.random.default_rng(0))
    assert int(dark[10, 10, 0]) == 60


def test_random_table_places_dice_apart_and_inside():
    spec = random_table(np.random.default_rng(5), 640, 480, n_dice=8, size=40.0, touching_pairs=2)
    _, truth = render_table(spec, np.random.default_rng(5))
    assert len(truth) == 8 and all(t.status == "ok" for t in truth)
    gaps = sorted(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1])
                  for i, a in enumerate(truth) for b in truth[i + 1:])
    assert gaps[0] < 1.2 * 44 and gaps[0] > 0.9 * 36  # a touching pair, edge to edge
