"""Board calibration from four corner markers: rendered boards under perspective, refusals named."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arena_table.rules.kernel.geometry import HexLayout, SquareLayout
from arena_table.vision.board_calib import BoardCalibration, CalibrationRefused, calibrate_board
from arena_table.vision.board_scenes import CORNER_IDS, FigureSpec, SceneSpec, render_scene
from arena_table.vision.frames import CalibrationMismatch
from arena_table.vision.markers import MarkerConfig, locate_markers
from arena_table.vision.tracking import marker_at

BOARD = (450.0, 300.0)
CORNERS = dict(zip(CORNER_IDS, ((0.0, 0.0), (BOARD[0], 0.0), BOARD, (0.0, BOARD[1]))))
HEX = HexLayout(20.0, origin_mm=(30.0, 30.0))


def _frame(seed: int, figures=(), **kw):
    spec = SceneSpec(board_mm=BOARD, grid=HEX, figures=tuple(figures), **kw)
    return render_scene(spec, np.random.default_rng(seed))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rendered_board_maps_figures_to_their_board_mm(seed):
    figures = [FigureSpec(i, HEX.centre((2 * i, 3)), 90.0) for i in range(6)] + [FigureSpec(9, (401.0, 251.0), 0.0)]
    frame, truth = _frame(seed, figures, blur_px=0.7)
    found = locate_markers(MarkerConfig(), frame)
    cal = calibrate_board(found, (1280, 720), CORNERS, made="2026-01-01T00:00:00Z")
    assert cal.resolution == (1280, 720)
    by_id = {m.id: m for m in found}
    for f in figures:
        (x, y), up, side = cal.marker_on_board(by_id[f.id])
        assert np.hypot(x - f.at[0], y - f.at[1]) < 1.0, f      # within 1 mm on a ~2 px/mm view
        assert side == pytest.approx(12.0, abs=1.2)  # corners found up to ~1 px inside the black square
        heading = np.degrees(np.arctan2(-up[1], up[0])) % 360
        assert abs((heading - f.heading_deg + 180) % 360 - 180) < 5.0  # hex facings are 60 degrees apart


def test_calibration_is_refused_at_another_resolution_and_round_trips(tmp_path):
    frame, _ = _frame(4)
    cal = calibrate_board(locate_markers(MarkerConfig(), frame), (1280, 720), CORNERS)
    cal.check((1280, 720))
    with pytest.raises(CalibrationMismatch, match="board calibration made at 1280x720 cannot be used with 640x480"):
        cal.check((640, 480))
    path = tmp_path / "board.json"
    cal.save(path)
    again = BoardCalibration.load(path)
    assert again == cal
    path.write_text('{"kind": "board-calibration", "resolution": [1, 2]}')
    with pytest.raises(CalibrationRefused, match="not a board calibration"):
        BoardCalibration.load(path)


def test_reference_marker_in_its_cell_or_refused_with_the_miss_in_mm():
    cell = (5, 4)
    frame, _ = _frame(5, [FigureSpec(10, HEX.centre(cell), 90.0)])
    found = locate_markers(MarkerConfig(), frame)
    cal = calibrate_board(found, (1280, 720), CORNERS, reference=(10, [5, 4]),
                          cell_at=HEX.cell_at, centre_of=HEX.centre)
    assert cal.reference.cell == cell and cal.reference.offset_mm < 1.0
    # a board laid 40 mm further right than the corners say: the reference lands a hex off
    shifted = {i: (x + 40.0, y) for i, (x, y) in CORNERS.items()}
    with pytest.raises(CalibrationRefused, match=r"reference marker 10 landed in cell \[6, 4\], not \[5, 4\]: "
                                                 r"missed by 40\.\d mm"):
        calibrate_board(found, (1280, 720), shifted, reference=(10, cell), cell_at=HEX.cell_at, centre_of=HEX.centre)


def _square(ids_at, side=20.0):
    return [marker_at(i, c, side) for i, c in ids_at]


def test_corner_markers_known_by_id_and_checked():
    at = {46: (100.0, 100.0), 47: (500.0, 120.0), 48: (520.0, 420.0), 49: (90.0, 400.0)}
    seen = _square(at.items())
    # the board's corners are known by id, whatever the order or place in the image
    cal = calibrate_board(list(reversed(seen)), (640, 480), CORNERS)
    assert cal.to_board([at[48]]).round(6).tolist() == [[450.0, 300.0]]
    with pytest.raises(CalibrationRefused, match=r"corner marker 49 not seen \(markers seen: 46, 47, 48\)"):
        calibrate_board(seen[:3], (640, 480), CORNERS)
    with pytest.raises(CalibrationRefused, match="corner marker 47 seen 2 times"):
        calibrate_board(seen + _square([(47, (300.0, 300.0))]), (640, 480), CORNERS)
    with pytest.raises(CalibrationRefused, match="four distinct corner marker ids"):
        calibrate_board(seen, (640, 480), {46: (0, 0), 47: (1, 0), 48: (1, 1)})
    swapped = {46: CORNERS[47], 47: CORNERS[46], 48: CORNERS[48], 49: CORNERS[49]}
    with pytest.raises(CalibrationRefused, match=r"ids do not match their places \(two swapped\?\)"):
        calibrate_board(seen, (640, 480), swapped)
    mirrored = {46: CORNERS[47], 47: CORNERS[46], 48: CORNERS[49], 49: CORNERS[48]}
    with pytest.raises(CalibrationRefused, match="seen mirrored: check their ids"):
        calibrate_board(seen, (640, 480), mirrored)
    line = dict(CORNERS)
    line[49] = (225.0, 150.0)  # halfway along the diagonal 46-48
    with pytest.raises(CalibrationRefused, match="three corner markers are in a line on the board"):
        calibrate_board(seen, (640, 480), line)


def test_on_board_uses_the_corner_quadrilateral():
    cal = calibrate_board(_square(zip(CORNER_IDS, ((10.0, 10.0), (460.0, 10.0), (460.0, 310.0), (10.0, 310.0)))),
                          (640, 480), CORNERS)
    assert cal.on_board((225.0, 150.0)) and cal.on_board((0.0, 0.0))
    assert not cal.on_board((-5.0, 150.0)) and cal.on_board((-5.0, 150.0), margin_mm=6.0)
    assert not cal.on_board((225.0, 301.0))


def _photo(tmp_path, cell=(5, 4)):
    import cv2

    frame, _ = _frame(7, [FigureSpec(10, HEX.centre(cell), 90.0)])
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), frame)
    return path


def test_cli_calibrates_from_a_photo_and_refuses_a_miss_keeping_the_old_file(tmp_path, capsys):
    from arena_table.cli import main

    photo = _photo(tmp_path)
    data = ["--data-dir", str(tmp_path / "data")]
    grid = ["--grid", "hex:20@30,30"]
    assert main(["calibrate", str(photo), "--board-mm", "450,300", "--reference", "10=5,4", *grid, *data]) == 0
    out = capsys.readouterr().out
    assert "calibrated at 1280x720 from corner markers 46, 47, 48, 49; reference marker 10 in [5, 4]" in out
    stored = tmp_path / "data" / "board-calibration.json"
    before = stored.read_text()
    assert BoardCalibration.load(stored).reference.cell == (5, 4)
    assert main(["calibrate", str(photo), "--board-mm", "450,300", "--reference", "10=6,4", *grid, *data]) == 1
    err = capsys.readouterr().err
    assert "calibration refused: reference marker 10 landed in cell [5, 4], not [6, 4]: missed by 34." in err
    assert stored.read_text() == before  # a refused calibration leaves the one in force
    assert main(["calibrate", str(photo), "--board-mm", "450,300", "--reference", "10=5,4", *data]) == 2
    assert "--reference needs --grid" in capsys.readouterr().err


def test_cli_takes_a_live_frame_and_explicit_corners(tmp_path, capsys):
    from arena_table.cli import main

    folder = tmp_path / "cam"
    folder.mkdir()
    _photo(folder)
    corners = [a for i, p in CORNERS.items() for a in ("--corner", f"{i}={p[0]:g},{p[1]:g}")]
    assert main(["calibrate", "--camera", str(folder), *corners, "--out", str(tmp_path / "c.json"), "--json"]) == 0
    cal = json.loads(capsys.readouterr().out)
    assert cal["resolution"] == [1280, 720] and [c["id"] for c in cal["corners"]] == list(CORNER_IDS)
    assert main(["calibrate", "--camera", "sim", "--board-mm", "450,300", "--out", str(tmp_path / "d.json")]) == 1
    assert "corner markers 46, 47, 48, 49 not seen (markers seen: none)" in capsys.readouterr().err
    assert not (tmp_path / "d.json").exists()
