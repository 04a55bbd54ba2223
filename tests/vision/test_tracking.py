"""The figure tracker on hand-made marker sightings: stability, occlusion, hysteresis, facing,
markers that are not figures. Times are seconds handed in; nothing waits."""

from __future__ import annotations

import logging

import pytest

from arena_table.rules.kernel.geometry import AreaMap, HexLayout, SquareLayout
from arena_table.vision.board_calib import BoardCalibration
from arena_table.vision.errors import BadConfig
from arena_table.vision.tracking import FigureTracker, Move, TrackConfig, marker_at

PX_PER_MM = 2.0
CAL = BoardCalibration((1280, 720), ((46, (0.0, 0.0)), (47, (450.0, 0.0)), (48, (450.0, 300.0)), (49, (0.0, 300.0))),
                       ((1 / PX_PER_MM, 0.0, 0.0), (0.0, 1 / PX_PER_MM, 0.0), (0.0, 0.0, 1.0)))
"""2 px per mm, board (0, 0) at pixel (0, 0)."""
SQUARES = SquareLayout(30.0, 15, 10)
HEXES = HexLayout(20.0, origin_mm=(30.0, 30.0))
FIGURES = {3: "rochon", 4: "sylvaine"}


def seen(marker_id, at_mm, heading_deg=90.0, side_mm=12.0):
    """A marker at board ``at_mm`` whose up points ``heading_deg`` CCW from board +x (90: north)."""
    return marker_at(marker_id, (at_mm[0] * PX_PER_MM, at_mm[1] * PX_PER_MM), side_mm * PX_PER_MM,
                     angle_deg=(90.0 - heading_deg) % 360)


def tracker(grid=SQUARES, **kw):
    return FigureTracker(TrackConfig(**kw), CAL, grid, FIGURES)


def run(t, frames):
    """Feed ``frames`` as ``(time, markers)``; all moves in order."""
    out = []
    for when, markers in frames:
        out += t.update(markers, when).moves
    return out


def test_a_move_is_reported_once_the_new_cell_has_held():
    t = tracker(stable_s=0.5)
    a, b = SQUARES.centre((2, 3)), SQUARES.centre((3, 3))
    moves = run(t, [(k * 0.1, [seen(3, a)]) for k in range(6)])
    assert moves == [Move("rochon", 3, None, (2, 3), 0)]  # placed after 0.5 s, facing north
    # carried over (3, 3) for 0.3 s, then set down on (4, 3)
    moves = run(t, [(1.0 + k * 0.1, [seen(3, b)]) for k in range(3)])
    assert moves == []
    c = SQUARES.centre((4, 3))
    moves = run(t, [(1.3 + k * 0.1, [seen(3, c, heading_deg=0.0)]) for k in range(7)])
    assert moves == [Move("rochon", 3, (2, 3), (4, 3), 1)]  # facing east
    assert [(f.figure, f.cell, f.facing, f.occluded) for f in t.seen()] == [("rochon", (4, 3), 1, False)]


def test_a_turn_on_the_spot_is_a_move_with_the_new_facing():
    t = tracker(stable_s=0.2)
    a = SQUARES.centre((1, 1))
    run(t, [(0.0, [seen(3, a)]), (0.3, [seen(3, a)])])
    moves = run(t, [(1.0, [seen(3, a, 180.0)]), (1.3, [seen(3, a, 180.0)])])
    assert moves == [Move("rochon", 3, (1, 1), (1, 1), 3)]  # now facing west


def test_an_occluded_figure_keeps_its_cell_until_lost_s():
    t = tracker(stable_s=0.2, lost_s=3.0)
    a = SQUARES.centre((5, 5))
    run(t, [(0.0, [seen(3, a)]), (0.3, [seen(3, a)])])
    assert run(t, [(0.5 + k * 0.1, []) for k in range(20)]) == []  # a hand over it for 2 s
    (f,) = t.seen()
    assert f.cell == (5, 5) and f.occluded
    assert run(t, [(2.6, [seen(3, a)])]) == [] and not t.seen()[0].occluded
    moves = run(t, [(3.0, []), (5.5, []), (5.7, [])])
    assert moves == [Move("rochon", 3, (5, 5), None, None)]  # unseen for 3 s: off the board
    assert t.seen() == []


def test_hysteresis_keeps_a_figure_on_a_border():
    t = tracker(stable_s=0.2, margin_mm=3.0)
    border_x = 90.0  # between fields (2, y) and (3, y)
    run(t, [(0.0, [seen(3, (border_x - 1.0, 45.0))]), (0.3, [seen(3, (border_x - 1.0, 45.0))])])
    assert t.seen()[0].cell == (2, 1)
    wobble = [border_x + d for d in (1.5, -0.5, 2.9, 0.2, 2.0, -1.0) * 5]
    assert run(t, [(0.4 + k * 0.25, [seen(3, (x, 45.0))]) for k, x in enumerate(wobble)]) == []
    # well past the margin it moves
    assert run(t, [(10.0, [seen(3, (border_x + 4.0, 45.0))]), (10.3, [seen(3, (border_x + 4.0, 45.0))])]) == [
        Move("rochon", 3, (2, 1), (3, 1), 0)]


def test_facing_hysteresis_between_two_hex_facings():
    t = tracker(HEXES, stable_s=0.2, facing_margin_deg=12.0)
    a = HEXES.centre((4, 4))
    run(t, [(0.0, [seen(3, a, 25.0)]), (0.3, [seen(3, a, 25.0)])])
    assert t.seen()[0].facing == 0  # E is 0 degrees, NE 60: 25 is nearer E
    frames = [(0.5 + k * 0.25, [seen(3, a, h)]) for k, h in enumerate((35.0, 40.0, 29.0, 41.0) * 4)]
    assert run(t, frames) == []  # within 12 degrees past the E/NE boundary (30)
    assert run(t, [(9.0, [seen(3, a, 50.0)]), (9.3, [seen(3, a, 50.0)])]) == [Move("rochon", 3, (4, 4), (4, 4), 1)]


def test_markers_that_are_not_figures_are_ignored_each_logged_once(caplog):
    t = tracker(stable_s=0.0)
    a = SQUARES.centre((1, 1))
    frame = [seen(46, (0.0, 0.0), side_mm=20.0),          # a corner marker: expected, never logged
             seen(9, a),                                   # not in the registry
             seen(4, SQUARES.centre((6, 6))), seen(4, SQUARES.centre((7, 7))),  # sylvaine twice
             seen(3, SQUARES.centre((2, 2)), side_mm=30.0),  # rochon lifted towards the camera
             ]
    with caplog.at_level(logging.INFO, logger="arena_table.vision.tracking"):
        first = t.update(frame, 0.0)
        again = t.update(frame, 0.1)
    assert [i for i, _ in first.ignored] == [9, 4, 3]
    reasons = dict(first.ignored)
    assert reasons[9] == "unknown id (not in the marker registry)"
    assert reasons[4].startswith("seen 2 times in one frame")
    assert reasons[3].startswith("implausible size (30.0 mm on the board, markers are 12 mm)")
    assert again.ignored == () and first.moves == () and again.moves == ()
    assert len([r for r in caplog.records if "ignored" in r.getMessage()]) == 3
    off = t.update([seen(3, (470.0, 150.0))], 0.2)  # beyond the right-hand corner markers
    assert off.ignored == ((3, "off the board (at 470, 150 mm)"),) and off.moves == ()


def test_area_maps_give_areas_and_no_facing():
    areas = AreaMap.from_spec({"areas": {"hall": [[0, 0], [200, 0], [200, 300], [0, 300]],
                                         "crypt": [[200, 0], [450, 0], [450, 300], [200, 300]]}})
    t = tracker(areas, stable_s=0.2, margin_mm=5.0)
    assert run(t, [(0.0, [seen(3, (100.0, 100.0))]), (0.3, [seen(3, (100.0, 100.0))])]) == [
        Move("rochon", 3, None, "hall", None)]
    assert run(t, [(1.0 + k * 0.3, [seen(3, (203.0, 100.0))]) for k in range(4)]) == []  # 3 mm into the crypt
    assert run(t, [(3.0, [seen(3, (260.0, 100.0))]), (3.3, [seen(3, (260.0, 100.0))])]) == [
        Move("rochon", 3, "hall", "crypt", None)]


def test_config_is_checked():
    with pytest.raises(BadConfig, match="tracking stable_s -1: want a number >= 0"):
        TrackConfig(stable_s=-1)
    with pytest.raises(BadConfig, match="size_tolerance"):
        TrackConfig(size_tolerance=1.5)
