"""Square fields with facing (Demigods pp.21-23), area maps with walls, and the calibration fit."""

import math

import pytest

from arena_table.rules.kernel.geometry import areas, squares
from arena_table.rules.kernel.geometry.areas import AreaMap
from arena_table.rules.kernel.geometry.hexes import HexLayout
from arena_table.rules.kernel.geometry.measure import measure
from arena_table.rules.kernel.geometry.squares import SquareLayout


@pytest.mark.parametrize("facing, front, back", [
    (0, [(4, 4), (5, 4), (6, 4)], [(4, 6), (5, 6), (6, 6)]),
    (1, [(6, 4), (6, 5), (6, 6)], [(4, 4), (4, 5), (4, 6)]),
    (2, [(6, 6), (5, 6), (4, 6)], [(6, 4), (5, 4), (4, 4)]),
])
def test_front_three_sides_two_back_three(facing, front, back):
    """p.23: the weak spot is the exact opposite of the melee range."""
    here = (5, 5)
    assert squares.front_fields(here, facing) == front
    assert squares.fields(here, facing, squares.BACK) == back
    sides = squares.fields(here, facing, squares.SIDES)
    assert len(sides) == 2 and set(front) | set(back) | set(sides) == set(squares.neighbours(here))
    for f in back:
        assert squares.relative_side(here, facing, f) == "back"
    for f in sides:
        assert squares.relative_side(here, facing, f) == "side"


def test_distances_and_turns_by_hand():
    assert squares.distance((0, 0), (3, 1)) == 3 and squares.distance((2, 2), (2, 2)) == 0
    assert squares.turns(3, 0) == 1 and squares.turns(0, 2) == 2


def test_square_layout_borders_are_half_open_and_hysteresis_keeps_the_field():
    lay = SquareLayout(size_mm=30.0, cols=8, rows=8, origin_mm=(10.0, 20.0))
    assert lay.cell_at((40.0, 50.0)) == (1, 1)  # the corner shared by four fields: the south-east one
    assert lay.cell_at((40.0, 50.0), keep=(0, 0)) == (0, 0)
    assert lay.cell_at((41.0, 49.0), keep=(0, 0), margin_mm=2.0) == (0, 0)
    assert lay.cell_at((43.0, 49.0), keep=(0, 0), margin_mm=2.0) == (1, 0)
    assert lay.cell_at((9.9, 30.0)) is None and lay.cell_at((250.0, 30.0)) is None
    for f in range(4):
        dx, dy = squares.FORWARD[f]
        assert lay.facing_of(dx * 5.0, dy * 5.0) == f


def _rooms():
    sq = lambda x, y: [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10]]
    return {"areas": {"a": sq(0, 0), "b": sq(10, 0), "c": sq(20, 0), "d": sq(10, 10), "e": sq(20, 10)},
            "walls": [[[20, 0], [20, 10]], [[10, 10], [15, 10]]]}


def test_areas_share_edges_walls_block_corners_do_not_touch():
    m = AreaMap.from_spec(_rooms())
    adj = m.adjacency()
    assert adj["a"] == ("b",)          # a and d touch only at a corner
    assert adj["b"] == ("a", "d")      # b|c is walled; b-d half walled, the open half is a passage
    assert adj["c"] == ("e",)
    assert adj["e"] == ("c", "d")
    assert areas.graph_distance(adj, "a", "c") == 4  # a-b-d-e-c
    assert m.area_at((15.0, 15.0)) == "d" and m.area_at((50.0, 5.0)) is None
    assert m.area_at((10.0, 5.0)) == "a" and m.area_at((10.0, 5.0), keep="b") == "b"
    assert m.wall_between((15.0, 5.0), (25.0, 5.0)) and not m.wall_between((5.0, 5.0), (15.0, 5.0))


def test_a_fully_walled_edge_and_links():
    spec = _rooms()
    spec["walls"].append([[15, 10], [20, 10]])
    spec["links"] = [["a", "c"]]
    adj = AreaMap.from_spec(spec).adjacency()
    assert adj["b"] == ("a",) and adj["a"] == ("b", "c")
    with pytest.raises(ValueError, match="'z' is not an area"):
        AreaMap.from_spec({**spec, "links": [["a", "z"]]})
    with pytest.raises(ValueError, match="three corners"):
        AreaMap.from_spec({"areas": {"x": [[0, 0], [1, 1]]}})


def test_measure_recovers_a_square_grid_from_noisy_marks():
    true = SquareLayout(size_mm=31.0, cols=12, rows=12, origin_mm=(55.0, 40.0), angle_deg=-1.5)
    noise = [(0.3, -0.2), (-0.25, 0.1), (0.1, 0.3), (-0.2, -0.3), (0.05, 0.0)]
    cells = [(0, 0), (11, 0), (0, 11), (11, 11), (5, 6)]
    marks = [(c, (true.centre(c)[0] + n[0], true.centre(c)[1] + n[1])) for c, n in zip(cells, noise)]
    fit = measure(SquareLayout(size_mm=25.0, cols=12, rows=12), marks)
    assert abs(fit.layout.size_mm - 31.0) < 0.05 and abs(fit.layout.angle_deg + 1.5) < 0.1
    assert math.dist(fit.layout.origin_mm, (55.0, 40.0)) < 0.5
    assert fit.worst_mm < 0.5 and fit.rms_mm <= fit.worst_mm
    for c in cells:
        assert fit.layout.cell_at(true.centre(c)) == c


def test_measure_without_turn_and_its_errors():
    true = HexLayout(size_mm=20.0, orientation="flat", origin_mm=(100.0, 100.0))
    fit = measure(HexLayout(size_mm=1.0, orientation="flat"), [(c, true.centre(c)) for c in [(0, 0), (2, 1)]], turn=False)
    assert round(fit.layout.size_mm, 9) == 20.0 and fit.layout.angle_deg == 0.0
    with pytest.raises(ValueError, match="two distinct cells"):
        measure(HexLayout(size_mm=1.0), [((0, 0), (1.0, 2.0)), ((0, 0), (1.0, 2.0))])
    with pytest.raises(ValueError, match="is not"):
        measure(HexLayout(size_mm=1.0), [((0, 0), (1.0, float("nan"))), ((1, 0), (1.0, 2.0))])
