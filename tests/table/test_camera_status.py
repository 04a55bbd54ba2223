"""A dice reader that fails puts the camera's status in ``error`` naming the failure (the
dashboard shows it red); the next good read puts it back to ``ok``."""

from __future__ import annotations

from camera_kit import EndingSim, truth_reader_for

from arena_table.table import camera_loop
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.table.camera_loop import CameraLoop
from arena_table.vision.sim import SimDie, SimTable, SimThrow


def test_reader_failure_is_camera_error_then_ok_again(tmp_path, monkeypatch):
    four = SimDie(4, (100.0, 120.0), 10.0, 0, start=(-30.0, 60.0), spin=400.0)
    five = SimDie(5, (220.0, 100.0), 35.0, 1, start=(350.0, 200.0), spin=500.0)
    sim = SimTable(seed=0, size=(320, 240), throws=[SimThrow(1.0, 2.0, (four,)), SimThrow(4.5, 5.5, (five,))])
    src = EndingSim(sim, 8.0)
    truth = truth_reader_for(sim, src)
    calls = []

    def reader(image):
        calls.append(src.last.t)
        if len(calls) == 2:  # the first throw's read (the first call reads the empty tray: the baseline)
            raise FileNotFoundError("models/dice.onnx: no such file")
        return truth(image)
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: reader)

    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"))) as table:
        seen = []
        real_set = table.status_board.set

        def spy(name, **info):
            if name == "camera":
                seen.append((info.get("state"), info.get("detail")))
            real_set(name, **info)
        monkeypatch.setattr(table.status_board, "set", spy)
        with CameraLoop(table.ports("camera"), "sim", source_factory=lambda spec, **kw: src) as loop:
            loop.join(60)
        states = [s for s, _ in seen]
        error = ("error", "camera sim: dice reader failed (FileNotFoundError: models/dice.onnx: no such file)")
        assert error in seen
        after = states[states.index("error"):]
        assert "ok" in after and seen[states.index("ok", states.index("error"))][1] == \
            "camera sim: running, dice reader back"
        assert [r.faces for r in table.state.tray.rolls] == [(5,)]  # the throw read while failing is not a roll
        assert len(calls) == 3
