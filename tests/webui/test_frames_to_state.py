"""From camera frames to ``/api/state``: a folder of stills through the camera loop, the
engine and the web app — each still one roll, shown with its die crops."""

from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np
from webhelpers import PIN, SSEReader, settle

from arena_table.table import camera_loop
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.vision.dice import DiceReading, DieReading
from arena_table.vision.render import DieSpec, TableSpec, render_table
from arena_table.webui.app import create_app, shutdown

STILLS = ((3,), (6, 2), (5, 5, 1))
"""The dice on each rendered still, left to right."""


def render_stills(folder: Path) -> dict[str, DiceReading]:
    """Write the stills as PNG (lossless, so the loop decodes the very pixels drawn); returns
    the ground-truth reading of each, keyed by a hash of its pixels."""
    folder.mkdir()
    rng = np.random.default_rng(3)
    truth = {}
    for i, values in enumerate(STILLS):
        dice = tuple(DieSpec(v, (130.0 + 190 * j, 220.0 + 30 * j), 64.0) for j, v in enumerate(values))
        frame, drawn = render_table(TableSpec(640, 480, dice), rng)
        cv2.imwrite(str(folder / f"still_{i:02d}.png"), frame)
        truth[hashlib.sha1(frame.tobytes()).hexdigest()] = DiceReading(
            tuple(DieReading(d.value, "ok", "", 0.9, d.center, d.box) for d in drawn), 640, 480)
    return truth


def check_state(client, table, n: int) -> dict:
    body = client.get("/api/state").get_json()
    tray = body["state"]["tray"]
    assert tray["rolls"] == n == len(table.state.tray.rolls), [(r.seq, r.status, str(r.event)[:60]) for r in table.rows()]
    assert [r["faces"] for r in reversed(tray["history"])] == [list(r.faces) for r in table.state.tray.rolls]
    last = tray["last"]
    assert len(last["crops"]) == len(last["faces"]) == len(last["confidence"])
    for ref in last["crops"] + [last["image"]]:
        r = client.get(f"/media/{ref}")
        assert r.status_code == 200 and r.mimetype == "image/jpeg"
    assert client.get("/api/status").get_json()["devices"]["camera"]["rolls"] == n
    return tray


def test_stills_become_rolls_on_api_state_with_crops(tmp_path, monkeypatch):
    truth = render_stills(tmp_path / "stills")
    # the loop, engine and web app are under test here, not the reader: it answers from the drawing
    monkeypatch.setattr(camera_loop, "default_reader",
                        lambda *_: lambda image: truth[hashlib.sha1(image.tobytes()).hexdigest()])
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                           camera=CameraSettings(source=str(tmp_path / "stills")),
                           web=WebSettings(pin=PIN))) as table:
        app = create_app(table)
        client = app.test_client()
        stream = SSEReader(client.get("/api/stream", buffered=False))
        stream.next()  # the snapshot
        table.devices[0].join(60)
        settle(app, len(STILLS))
        tray = check_state(client, table, len(STILLS))
        assert [r["faces"] for r in reversed(tray["history"])] == [list(v) for v in STILLS]
        assert [r["source"] for r in reversed(tray["history"])] == [f"dir:{tmp_path / 'stills' / f'still_{i:02d}.png'}" for i in range(3)]
        assert tray["stats"]["d6"]["counts"] == {"1": 1, "2": 1, "3": 1, "4": 0, "5": 2, "6": 1}
        _, upd, _ = stream.until(lambda m: m[0] == "update" and m[1]["version"] == len(STILLS))
        stream.close()
        shutdown(app)
