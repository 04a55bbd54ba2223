"""Hex grids: hand-computed distances, lines and rings; points on every vertex and edge midpoint
round to one touching cell, the same whichever hex they were computed from, for both orientations."""

import math

import pytest

from arena_table.rules.kernel.geometry import hexes
from arena_table.rules.kernel.geometry.hexes import HexLayout

LAYOUTS = [HexLayout(size_mm=10.0), HexLayout(size_mm=10.0, orientation="flat"),
           HexLayout(size_mm=23.5, origin_mm=(312.25, 198.5), angle_deg=1.7),
           HexLayout(size_mm=23.5, orientation="flat", origin_mm=(-40.0, 77.7), angle_deg=-13.0)]


@pytest.mark.parametrize("a, b, d", [
    ((0, 0), (0, 0), 0), ((0, 0), (1, 0), 1), ((0, 0), (1, -1), 1), ((0, 0), (2, -1), 2),
    ((0, 0), (3, 3), 6),  # q and r both +3: s -6, six steps
    ((4, -4), (0, 0), 4), ((-2, 5), (3, -1), 6), ((-3, 0), (3, 0), 6), ((1, 1), (-1, -1), 4),
])
def test_distances_by_hand(a, b, d):
    assert hexes.distance(a, b) == d == hexes.distance(b, a)


def test_line_ring_disc_direction_by_hand():
    assert hexes.line((0, 0), (0, 3)) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert hexes.line((0, 0), (-2, 2)) == [(0, 0), (-1, 1), (-2, 2)]
    assert hexes.line((0, 0), (3, -1)) == [(0, 0), (1, 0), (2, -1), (3, -1)]
    assert len(hexes.ring((1, 1), 2)) == 12 and all(hexes.distance((1, 1), c) == 2 for c in hexes.ring((1, 1), 2))
    assert len(hexes.disc((0, 0), 5)) == 91  # 3·25 + 3·5 + 1
    assert hexes.direction((2, 2), (2, -1)) == 2 and hexes.direction((0, 0), (-3, 3)) == 4
    assert hexes.direction((0, 0), (1, 1)) is None


def test_reachable_goes_around_blocked_hexes():
    """(2,0) is two steps from (0,0) through (1,0); with (1,0) blocked the way round is three
    ((1,-1)-(2,-1) or (0,1)-(1,1)); with (1,-1) and (0,1) blocked too it is five."""
    blocked = {(1, 0)}
    assert hexes.reachable((0, 0), 2)[(2, 0)] == 2
    assert hexes.reachable((0, 0), 3, passable=lambda c: c not in blocked)[(2, 0)] == 3
    assert (2, 0) not in hexes.reachable((0, 0), 2, passable=lambda c: c not in blocked)
    blocked = {(1, 0), (1, -1), (0, 1)}
    assert hexes.reachable((0, 0), 5, passable=lambda c: c not in blocked)[(2, 0)] == 5
    assert (2, 0) not in hexes.reachable((0, 0), 4, passable=lambda c: c not in blocked)
    swamp = hexes.reachable((0, 0), 2, cost=lambda c: 2 if c == (1, 0) else 1)
    assert swamp[(1, 0)] == 2 and (2, 0) not in swamp  # 2 + 1 through the swamp, 3 round it


@pytest.mark.parametrize("layout", LAYOUTS, ids=["pointy", "flat", "pointy-turned", "flat-turned"])
def test_every_centre_rounds_to_its_cell(layout):
    for cell in hexes.disc((0, 0), 6):
        assert layout.cell_at(layout.centre(cell)) == cell


@pytest.mark.parametrize("layout", LAYOUTS, ids=["pointy", "flat", "pointy-turned", "flat-turned"])
def test_vertices_and_edge_midpoints_round_consistently(layout):
    """Every corner and edge midpoint of every hex within radius 4, computed from each hex that
    touches it (so with different float error), rounds to one cell; that cell touches the point."""
    answers: dict[tuple[float, float], set] = {}
    touching: dict[tuple[float, float], set] = {}
    for cell in hexes.disc((0, 0), 4):
        cs = layout.corners(cell)
        points = cs + [((cs[i][0] + cs[(i + 1) % 6][0]) / 2, (cs[i][1] + cs[(i + 1) % 6][1]) / 2) for i in range(6)]
        for p in points:
            key = (round(p[0], 6), round(p[1], 6))
            answers.setdefault(key, set()).add(layout.cell_at(p))
            touching.setdefault(key, set()).add(cell)
    assert len(answers) > 200
    for key, got in answers.items():
        assert len(got) == 1, f"{key} rounds to {got}"
        (cell,) = got
        centre = layout.centre(cell)
        # the cell touches the point: its centre is one circumradius (vertex) or apothem (edge) away
        d = math.dist(centre, key)
        assert d <= layout.size_mm + 1e-6, f"{key} rounded to {cell}, {d:.3f} mm from its centre"
        inner = {c for c in touching[key]}
        if len(inner) == 3 or (len(inner) == 2 and d < layout.size_mm * 0.9):  # interior vertex or edge
            assert cell in inner


def test_edge_midpoint_ties_by_hand():
    lay = HexLayout(size_mm=10.0)
    # between (0,0) and (1,0): x = √3·10/2; goes to (0,0) (q rounds half up to 1, then is recomputed)
    assert lay.cell_at((10 * math.sqrt(3) / 2, 0.0)) == (0, 0)
    # the top corner of (0,0), shared with (0,-1) and (1,-1)
    assert lay.cell_at((0.0, -10.0)) == lay.cell_at(lay.corners((1, -1))[3]) == (1, -1)


def test_hysteresis_keeps_the_hex_within_its_margin():
    lay = HexLayout(size_mm=10.0)
    edge_x = 10 * math.sqrt(3) / 2
    assert lay.cell_at((edge_x + 0.5, 0.0)) == (1, 0)
    assert lay.cell_at((edge_x + 0.5, 0.0), keep=(0, 0), margin_mm=1.0) == (0, 0)
    assert lay.cell_at((edge_x + 1.5, 0.0), keep=(0, 0), margin_mm=1.0) == (1, 0)


@pytest.mark.parametrize("layout", LAYOUTS, ids=["pointy", "flat", "pointy-turned", "flat-turned"])
def test_facing_of_the_direction_to_each_neighbour(layout):
    for f in range(6):
        (x0, y0), (x1, y1) = layout.centre((0, 0)), layout.centre(hexes.step((0, 0), f))
        assert layout.facing_of(x1 - x0, y1 - y0) == f


def test_bad_layouts_are_named():
    with pytest.raises(ValueError, match="orientation"):
        HexLayout(size_mm=10.0, orientation="round")
    with pytest.raises(ValueError, match="size_mm"):
        HexLayout(size_mm=0.0)
