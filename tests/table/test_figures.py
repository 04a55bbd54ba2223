"""The figure reader on a running table: rendered frames of the Theosis Arena -> figure-moved ->
the Hero's own move, or "check the table"; and one camera feeding both readers.

The Arena (91 hexes of 25 mm, ``games/theosis/data/boards.json``) is 500x430 mm: at 1280x720 that
is about 1.2 px/mm, so these figures carry 20 mm markers on 32 mm bases (12 mm markers would be
15 px, below what the detector reads reliably).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from arena_table.rules import find_game, parse
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.table.figures import FigureReader
from arena_table.vision.board_calib import CALIBRATION_FILE, calibrate_board
from arena_table.vision.board_scenes import CORNER_IDS, FigureSpec, SceneSpec, board_texture, render_scene
from arena_table.vision.frames import Frame
from arena_table.vision.marker_registry import MarkerRegistry
from arena_table.vision.markers import MarkerConfig, locate_markers
from arena_table.vision.tracking import TrackConfig

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "theosis"))
from th_helpers import ARENA, fast_blitz, lines_of  # noqa: E402

pytestmark = pytest.mark.slow

ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "despair", "valor", "lifeswap", "last-stand"]
SPEEDS = '"speeds":{"rac":3,"aer":3,"norn":3,"rochon":3}'
SIZE = (500.0, 430.0)
"""The rendered board: the Arena's hexes with a margin, its centre hex in the middle."""
SHIFT = (SIZE[0] / 2, SIZE[1] / 2)
CORNERS = dict(zip(CORNER_IDS, ((-SHIFT[0], -SHIFT[1]), (SHIFT[0], -SHIFT[1]), SHIFT, (-SHIFT[0], SHIFT[1]))))
"""Corner markers in the Arena's own board mm (its centre hex at 0, 0)."""
MARKERS = {1: "theosis:hero:rac", 2: "theosis:hero:norn", 3: "theosis:hero:rochon", 4: "theosis:hero:aer"}
TRACK = TrackConfig(marker_mm=20.0, stable_s=0.6)


def _table(tmp_path, **config) -> Table:
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"), **config))
    table.start()
    for line in lines_of(fast_blitz(ANN, BO, extra_options=SPEEDS)) + lines_of(ARENA):
        table.submit(parse(line))
    return table


class Scenes:
    """Frames of the Arena from one camera, figures at the hexes asked for."""

    def __init__(self, layout):
        self.layout = dataclasses.replace(layout, origin_mm=SHIFT)  # the renderer's board starts at a corner
        self.rng = np.random.default_rng(9)
        self.base = SceneSpec(board_mm=SIZE, grid=self.layout, marker_mm=20.0, base_mm=32.0, dice=2)
        self.texture = board_texture(self.base, self.rng)
        clean, truth = render_scene(self.base, self.rng, self.texture)
        self.camera = truth.board_to_image
        self.calibration = calibrate_board(locate_markers(MarkerConfig(), clean), (1280, 720), CORNERS)

    def frame(self, **cells) -> np.ndarray:
        ids = {f.split(":")[2]: i for i, f in MARKERS.items()}
        figs = tuple(FigureSpec(ids[h], self.layout.centre(c), 90.0) for h, c in cells.items())
        spec = dataclasses.replace(self.base, figures=figs, blur_px=0.6)
        return render_scene(spec, self.rng, self.texture, camera=self.camera)[0]


@pytest.fixture(scope="module")
def scenes():
    table = find_game("theosis")
    from arena_table.rules import replay
    ts = replay([parse(x) for x in lines_of(fast_blitz(ANN, BO, extra_options=SPEEDS)) + lines_of(ARENA)])
    return Scenes(table.board(ts.state).layout)


def _feed(reader, image, t0, seconds=1.0, fps=10):
    for k in range(int(seconds * fps)):
        reader(Frame(image, t0 + k / fps, k, "camera:0"))
    return t0 + seconds


def test_sensed_moves_become_the_heros_moves_or_a_check_the_table(tmp_path, scenes):
    table = _table(tmp_path)
    try:
        reader = FigureReader(table.ports("figures"), scenes.calibration, MARKERS, TRACK, interval_s=0.2)
        t = _feed(reader, scenes.frame(rac=(0, 3), norn=(3, -3)), 0.0)
        heroes = table.state.state.heroes
        assert heroes["rac"].cell == (0, 3) and heroes["norn"].cell == (3, -3)
        t = _feed(reader, scenes.frame(rac=(0, 0), norn=(3, -3)), t)  # 3 hexes: Rac's speed
        assert table.state.state.heroes["rac"].cell == (0, 0) and not table.state.desync
        t = _feed(reader, scenes.frame(rac=(0, -4), norn=(3, -3)), t)  # 4 more: beyond what is left
        assert table.state.state.heroes["rac"].cell == (0, 0)
        (d,) = table.state.desync
        assert d.message.startswith("check the table: Rac cannot reach that hex")
        _feed(reader, scenes.frame(rac=(0, 0), norn=(3, -3)), t)  # put back
        assert not table.state.desync
        assert [f.cell for f in reader.seen()] == [(0, 0), (3, -3)]
    finally:
        table.close()


def test_one_camera_feeds_the_dice_and_the_figures(tmp_path, scenes):
    data = tmp_path
    scenes.calibration.save(data / CALIBRATION_FILE)
    with MarkerRegistry(data / "markers.db") as reg:
        reg.set_marker_mm(20.0)
        for i, f in MARKERS.items():
            reg.assign(i, f)
    photos = tmp_path / "cam"
    photos.mkdir()
    for k, cells in enumerate([dict(rac=(0, 3), norn=(3, -3)), dict(rac=(1, 1), norn=(3, -3))]):
        cv2.imwrite(str(photos / f"p{k}.png"), scenes.frame(**cells))
    _table(tmp_path).close()  # the game set up in the log first, then the table runs with its camera
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                              camera=CameraSettings(source=str(photos), still_frames=12)))
    table.start()
    try:
        camera = table.devices[0]
        assert camera.frame_readers, "the camera loop was given the figure reader"
        camera.join(60)
        heroes = table.state.state.heroes
        assert heroes["norn"].cell == (3, -3)
        assert heroes["rac"].cell == (1, 1)  # placed on (0, 3), then moved 2 hexes
    finally:
        table.close()


@pytest.fixture
def web(tmp_path):
    """``(table, client, csrf token)``: a table running the Theosis game, its web app, logged in."""
    from arena_table.webui.app import create_app, shutdown

    sys.path.insert(0, str(Path(__file__).parents[1] / "webui"))
    from webhelpers import PIN, login

    table = _table(tmp_path, web=WebSettings(pin=PIN))
    app = create_app(table, {"heartbeat": 0.3})
    app.config["TESTING"] = True
    try:
        client = app.test_client()
        yield table, client, login(client)
    finally:
        shutdown(app)
        table.close()


def test_the_control_page_shows_the_board_with_its_grid_and_figures(web, scenes):
    table, client, token = web
    r = client.get("/api/camera/board.jpg")
    assert r.status_code == 404 and "no board calibration" in r.get_json()["error"]
    reader = FigureReader(table.ports("figures"), scenes.calibration, MARKERS, TRACK)
    table.devices.append(reader)
    assert client.get("/api/camera/board.jpg").get_json()["error"] == "no frame of a game with a board yet"
    _feed(reader, scenes.frame(rac=(0, 3)), 0.0)
    r = client.get("/api/camera/board.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    view = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert view.shape == (int(np.ceil((SIZE[1] + 20) * 2)), int(np.ceil((SIZE[0] + 20) * 2)), 3)  # 2 px/mm
    # the warped board puts Rac's marker where the Arena has hex (0, 3): its centre, 2 px/mm, 10 mm margin
    x, y = scenes.layout.centre((0, 3))
    cx, cy = int(round((x + 10) * 2)), int(round((y + 10) * 2))
    patch = cv2.cvtColor(view[cy - 8:cy + 8, cx - 8:cx + 8], cv2.COLOR_BGR2GRAY)
    assert patch.min() < 60 and patch.max() > 180  # the marker's black and white modules
    green = (view[..., 1] > 180) & (view[..., 0] < 120) & (view[..., 2] < 120)
    assert green[cy - 20:cy + 20, cx - 20:cx + 20].any()  # the figure's ring drawn around it
    # calibrate anew from the page: a reference marker off its hex is refused with the miss in mm
    corners = {str(i): list(p) for i, p in CORNERS.items()}
    r = client.post("/api/board/calibrate", json={"corners": corners, "reference": {"id": 1, "cell": [0, 2]}},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("reference marker 1 landed in cell [0, 3], not [0, 2]: missed by 43.")  # one hex: 25 mm x sqrt 3
    before = reader.calibration
    r = client.post("/api/board/calibrate", json={"corners": corners, "reference": {"id": 1, "cell": [0, 3]}},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["reference"]["cell"] == [0, 3] and reader.calibration is not before
    r = client.post("/api/board/calibrate", json={"corners": {"46": [0, 0]}}, headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and "four distinct corner marker ids" in r.get_json()["error"]


def test_the_control_page_edits_the_marker_registry_and_the_reader_follows(web, tmp_path, scenes):
    table, client, token = web
    assert client.get("/api/markers").get_json() == {"dictionary": None, "marker_mm": None, "markers": []}
    reader = FigureReader(table.ports("figures"), scenes.calibration, {}, TRACK)
    table.devices.append(reader)

    def post(body):
        return client.post("/api/markers", json=body, headers={"X-CSRF-Token": token})

    r = post({"id": 1, "figure": "theosis:hero:rac", "team": "bo"})
    assert r.status_code == 200
    assert r.get_json()["markers"] == [{"id": 1, "figure": "theosis:hero:rac", "team": "bo", "game": "theosis",
                                        "kind": "hero"}]
    assert (tmp_path / "markers.db").is_file() and reader.figures == {1: "theosis:hero:rac"}
    _feed(reader, scenes.frame(rac=(0, 3)), 0.0)
    assert table.state.state.heroes["rac"].cell == (0, 3)  # tracked as soon as it was assigned
    r = post({"id": 2, "figure": "theosis:pawn:x"})
    assert r.status_code == 400 and "kind 'pawn' is not one of hero, monster, minion" in r.get_json()["error"]
    assert post({"id": 60, "figure": "theosis:hero:aer"}).get_json()["error"] == \
        "marker id 60: DICT_4X4_50 has ids 0-49"
    assert post({"id": 1, "remove": True}).get_json()["markers"] == [] and reader.figures == {}
    assert post({"id": 1, "remove": True}).get_json()["error"] == "marker 1 is not assigned"
    assert post({"id": "x", "figure": "theosis:hero:aer"}).status_code == 400


def test_a_demigods_frame_sequence_moves_the_knight_with_its_facing(tmp_path):
    """The Knight's move of the example Hero turns (p.31) seen by the camera, under 'Movement' (p.21,
    one AP a field or a 90° turn): two fields, a quarter turn right, two more."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "demigods"))
    from dg_helpers import Table as DgTable, lineup_options

    board_def = {"cols": 8, "rows": 10, "obstacles": [[6, 2, "spike-pit"], [0, 0, "high-ground"], [7, 7, "pitfall"]]}
    played = DgTable(lineup_options(board=board_def)).until("knight").do("dg-place who=knight cell=[2,8] facing=0")
    layout = find_game("demigods").board(played.st).layout  # 30 mm fields, 8x10, from (0, 0)
    size = (layout.cols * layout.size_mm, layout.rows * layout.size_mm)
    corners = dict(zip(CORNER_IDS, ((0.0, 0.0), (size[0], 0.0), size, (0.0, size[1]))))
    rng = np.random.default_rng(31)
    base = SceneSpec(board_mm=size, grid=layout, marker_mm=14.0, dice=2)
    texture = board_texture(base, rng)
    clean, truth = render_scene(base, rng, texture)
    cal = calibrate_board(locate_markers(MarkerConfig(), clean), (1280, 720), corners)

    def frame(cell, heading):
        spec = dataclasses.replace(base, figures=(FigureSpec(5, layout.centre(cell), heading),), blur_px=0.6, hand=False)
        return render_scene(spec, rng, texture, camera=truth.board_to_image)[0]

    table = _table_of(tmp_path, played.records)
    try:
        reader = FigureReader(table.ports("figures"), cal, {5: "demigods:hero:knight"},
                              dataclasses.replace(TRACK, marker_mm=14.0), interval_s=0.2)
        t = _feed(reader, frame((2, 8), 90.0), 0.0)  # where the log has it, facing north
        knight = table.state.state.chars["knight"]
        assert (knight.cell, knight.facing, knight.ap) == ((2, 8), 0, 7) and not table.state.desync
        _feed(reader, frame((4, 6), 0.0), t)  # two fields on, facing east
        knight = table.state.state.chars["knight"]
        assert (knight.cell, knight.facing, knight.ap) == ((4, 6), 1, 2) and not table.state.desync
    finally:
        table.close()


def _table_of(tmp_path, records) -> Table:
    """A running table (no camera) whose log holds ``records`` (``(seq, event)``)."""
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none")))
    table.start()
    for _, event in records:
        table.submit(event)
    return table
