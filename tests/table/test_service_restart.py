"""The real service in a subprocess: photos in a folder become rolls, SIGKILL loses nothing.

Needs ../shared/data/dice/matteo_d6 (MIT licence, see its LICENSE and SOURCE.md): a few of its
photos are copied into a temporary folder at test time, never into the repository.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from arena_table.cli.common import free_port

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
MATTEO = SHARED / "data" / "dice" / "matteo_d6"
PHOTOS = ["dice_11.jpg", "four_28.jpg", "six_59.jpg"]

pytestmark = [pytest.mark.shared, pytest.mark.slow,
              pytest.mark.skipif(not MATTEO.is_dir(), reason=f"needs {MATTEO} (../shared beside the clone)")]



def start(db: Path, camera: str, port: int, log: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "arena_table.cli", "run", "--db", str(db), "--camera", camera,
           "--tokens", "none", "--port", str(port), "--pin", "123456"]
    return subprocess.Popen(cmd, stdout=open(log, "w"), stderr=subprocess.STDOUT, env={**os.environ})


def get_state(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
        return json.load(r)


def wait_for(port: int, cond, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = get_state(port)
            if cond(last):
                return last
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"condition not met in {timeout} s; last state: {json.dumps(last)[:600]}")


def history(state: dict) -> list:
    tray = state["state"]["tray"]
    return [(r["seq"], r["faces"], r["source"]) for r in tray["history"]]


@pytest.mark.perf
def test_folder_of_photos_sigkill_and_restart(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in PHOTOS:
        shutil.copy(MATTEO / "images" / name, photos / name)
    (photos / "five_0.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated, not a photo")
    # The service must record exactly what the reader reads in each photo (its accuracy is
    # scored by the `dice eval` tests); a photo with a refused die records no roll.
    from arena_table.vision.dice import DiceConfig, read_dice
    from arena_table.vision.dice_io import load_image

    expected = {}
    for name in PHOTOS:
        reading = read_dice(DiceConfig(), load_image(photos / name))
        if all(d.status == "ok" for d in reading.dice):
            expected[f"dir:{photos / name}"] = sorted(reading.values)

    db, port = tmp_path / "table.db", free_port()
    proc = start(db, str(photos), port, tmp_path / "run1.log")
    try:
        assert len(expected) >= 2, f"the reader refuses too many of {PHOTOS}"
        state = wait_for(port, lambda s: s["state"]["tray"]["rolls"] >= len(expected))
        time.sleep(1.0)  # nothing more may come: one roll per photo, none for the corrupt file
        state = get_state(port)
        assert proc.poll() is None, "the service died on the corrupt file"
        before = history(state)
        assert {src: sorted(faces) for _, faces, src in before} == expected
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    out = (tmp_path / "run1.log").read_text()
    errors = [line for line in out.splitlines() if "five_0.jpg" in line]
    assert errors and all(len(line) < 300 for line in errors), out[-2000:]

    port = free_port()
    proc = start(db, str(photos), port, tmp_path / "run2.log")
    try:
        time.sleep(0.5)
        state = wait_for(port, lambda s: s["state"]["tray"]["rolls"] >= len(expected))
        time.sleep(2.0)  # the folder was read before: restarting must not add its photos again
        assert history(get_state(port)) == before
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
