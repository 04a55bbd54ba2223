"""The control page's teach card API: capture the camera's dice as shots of a face, teach the kind
(the held-back confusion matrix, or 422 naming two faces it cannot tell apart), kept in the data folder."""

from __future__ import annotations

import pytest
from arena_table.rules.kernel.mechanics.die_kinds import DieKind, Face, find_kind, use_taught_kinds
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.vision.kind_render import render_frame


@pytest.fixture(autouse=True)
def shipped_kinds_after():
    yield
    use_taught_kinds(())


class RenderedCamera:
    """The camera's last frame: rendered dice all showing ``face`` (a tray drawn by kind_render)."""

    def __init__(self) -> None:
        self.face, self.seed = "sword", 0

    def show(self, face: str, seed: int) -> None:
        self.face, self.seed = face, seed

    def close(self) -> None:  # a table closes its devices
        pass

    def latest_frame(self):
        only = DieKind("web-glyph", "glyph", (Face(self.face, self.face),) * 2)
        return render_frame([only], self.seed, n=3)[0]


def _capture(ctl, camera, kind, faces, seeds):
    for face in faces:
        for seed in seeds:
            camera.show(face, seed)
            r = ctl("/api/teach/capture", {"kind": kind, "face": face})
            assert r.status_code == 200, r.get_json()
            assert r.get_json()["added"] >= 2


def test_capture_and_teach_from_the_camera(ctl, client, table, tmp_path):
    r = ctl("/api/teach/capture", {"kind": "web-glyph", "face": "sword"})
    assert r.status_code == 400 and "the camera has no frame yet" in r.get_json()["error"]
    camera = RenderedCamera()
    table.devices.append(camera)
    _capture(ctl, camera, "web-glyph", ["lightning", "spade", "sword"], range(3))
    status = client.get("/api/teach").get_json()
    shots = status["shots"]["web-glyph"]
    assert sorted(shots) == ["lightning", "spade", "sword"] and all(n >= 6 for n in shots.values())
    assert {"id": "d6", "title": find_kind("d6").title, "faces": ["1", "2", "3", "4", "5", "6"],
            "to_enter": False, "taught": False} in status["kinds"]
    r = ctl("/api/teach/build", {"kind": "web-glyph"})
    assert r.status_code == 200, r.get_json()
    d = r.get_json()
    rep = d["report"]
    assert d["file"] == "taught-web-glyph.json" and d["faces"] == ["lightning", "spade", "sword"]
    assert rep["faces"] == d["faces"] and [sum(row) for row in rep["confusion"]] == [shots[f] for f in d["faces"]]
    assert rep["accuracy"] >= 0.95
    after = client.get("/api/teach").get_json()
    assert after["shots"] == {} and [t["id"] for t in after["taught"]] == ["web-glyph"]
    assert find_kind("web-glyph").symbols == ("lightning", "spade", "sword")  # the table reads it now
    # kept in the data folder: a table started anew on it has it
    folder = table.data_dir
    assert (folder / "taught-web-glyph.json").is_file()
    table.close()
    use_taught_kinds(())
    again = Table(TableConfig(data=DataSettings(db=tmp_path / "again.db", dir=str(folder)),
                              camera=CameraSettings(source="none")))
    try:
        assert again.taught.ids() == ["web-glyph"]
    finally:
        again.close()


def test_two_faces_that_look_alike_are_refused_by_name(ctl, table):
    camera = RenderedCamera()
    table.devices.append(camera)
    _capture(ctl, camera, "twin-glyph", ["burn", "flame"], range(3))  # kind_icons draws both as a flame
    r = ctl("/api/teach/build", {"kind": "twin-glyph"})
    assert r.status_code == 422
    body = r.get_json()
    assert body["faces"] == ["burn", "flame"] and "faces 'burn' and 'flame' cannot be told apart" in body["error"]
    assert not (table.data_dir / "taught-twin-glyph.json").exists()


def test_bad_teach_requests_are_named(ctl, client):
    assert client.post("/api/teach/build", json={"kind": "x"}).status_code == 403  # no CSRF token
    assert ctl("/api/teach/capture", {"kind": "Logo D6", "face": "1"}).get_json()["error"].startswith(
        "kind 'Logo D6': want a kind id")
    assert ctl("/api/teach/capture", {"kind": "logo-d6", "face": 3}).get_json()["error"] == "face: want text, got int"
    r = ctl("/api/teach/build", {"kind": "logo-d6"})
    assert r.status_code == 400 and "no shots of logo-d6 yet" in r.get_json()["error"]
