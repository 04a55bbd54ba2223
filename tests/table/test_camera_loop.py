"""The camera loop inside a real Table: frames -> settle -> reader -> roll events -> tray."""

from __future__ import annotations

import logging
import shutil
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from arena_table.rules import DiceRolled
from arena_table.table import camera_loop
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.table.camera_draw import crop_box
from arena_table.vision.dice import DiceReading, DieReading
from arena_table.vision.render import DieSpec, TableSpec, render_table
from camera_kit import run_folder, scripted_reader, write_rendered

PHOTOS = ("dice_5.jpg", "five_9.jpg", "four_13.jpg", "six_17.jpg", "three_21.jpg", "two_25.jpg")
"""Real photos of ../shared/data/dice/matteo_d6 (labels: 1 | 5 | 4 4 | 6 6 | 3 3 3 | 2 2 2)."""


def wait_for(pred, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.01)
    return False


def matteo() -> Path:
    """../shared's matteo_d6 set; the test is skipped, as the other shared-data tests are, without it."""
    from arena_table.vision.labels import dice_set_dir

    d = dice_set_dir("matteo_d6")
    if not (d / "images").is_dir():
        pytest.skip(f"labelled photos not found at {d} (clone the repo beside ../shared)")
    return d


def yolo_reader(folder: Path):
    """A reader that answers from the set's YOLO labels (matched by pixels): tests the loop, not the reader."""
    truth = {}
    for img_path in (folder / "images").glob("*.jpg"):
        img = cv2.imread(str(img_path))
        h, w = img.shape[:2]
        dice = []
        for line in (folder / "labels_yolo" / f"{img_path.stem}.txt").read_text().split("\n"):
            if line.strip():
                c, cx, cy, bw, bh = line.split()
                cx, cy, bw, bh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
                dice.append(DieReading(int(c) + 1, "ok", "", 0.97, (cx, cy),
                                       (int(cx - bw / 2), int(cy - bh / 2), int(bw), int(bh))))
        truth[img.tobytes()[::997]] = DiceReading(tuple(dice), w, h)
    return lambda image: truth[image.tobytes()[::997]]


def copy_photos(dst: Path, names=PHOTOS) -> Path:
    dst.mkdir()
    for name in names:
        shutil.copy(matteo() / "images" / name, dst / name)
    return dst


@pytest.mark.shared
def test_each_real_photo_is_one_roll_in_the_tray(tmp_path, monkeypatch):
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: yolo_reader(matteo()))
    photos = copy_photos(tmp_path / "photos")
    table = run_folder(tmp_path, photos)
    try:
        rolls = table.state.tray.rolls
        assert [r.source for r in rolls] == [f"dir:{photos / n}" for n in PHOTOS]
        assert [sorted(r.faces) for r in rolls] == [[1], [5], [4, 4], [6, 6], [3, 3, 3], [2, 2, 2]]
        for r in rolls:
            assert r.die == "d6" and len(r.crops) == len(r.faces) and r.confidence == (0.97,) * len(r.faces)
            frame = cv2.imread(str(table.media_path(r.image)))
            assert frame.shape == (480, 640, 3)
            for ref in r.crops:
                crop = cv2.imread(str(table.media_path(ref)))
                assert 15 < crop.shape[0] < 200 and 15 < crop.shape[1] < 200
        cam = table.status()["camera"]
        assert cam["state"] == "ended" and cam["rolls"] == len(PHOTOS)
        assert cam["last_settle"] == PHOTOS[-1]  # a settle that records a roll is the last settle too
    finally:
        table.close()
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                           camera=CameraSettings(source="none"))) as again:  # durable: replayed from the log
        assert [r.faces for r in again.state.tray.rolls] == [r.faces for r in rolls]


@pytest.mark.shared
def test_real_reader_turns_each_real_photo_into_one_roll(tmp_path):
    """The acceptance path with the shipped reader: ``--camera DIR`` -> one roll per photo."""
    photos = copy_photos(tmp_path / "photos")
    table = run_folder(tmp_path, photos)
    try:
        rolls = table.state.tray.rolls
        assert [r.source for r in rolls] == [f"dir:{photos / n}" for n in PHOTOS], table.status()["camera"].get("last_error")
        assert all(len(r.crops) == len(r.faces) == len(r.confidence) >= 1 for r in rolls)
    finally:
        table.close()


@pytest.mark.shared
def test_corrupt_file_in_the_folder_is_one_error_line_and_the_loop_goes_on(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: yolo_reader(matteo()))
    photos = copy_photos(tmp_path / "photos", PHOTOS[:3])
    (photos / "dice_6.jpg").write_bytes(b"\xff\xd8\xff\xe0garbage, not a photo")  # between dice_5 and five_9
    caplog.set_level(logging.ERROR, logger="arena_table.table.camera_loop")
    table = run_folder(tmp_path, photos)
    try:
        assert [r.source for r in table.state.tray.rolls] == [f"dir:{photos / n}" for n in PHOTOS[:3]]
        cam = table.status()["camera"]
        assert cam["errors"] == 1 and "dice_6.jpg" in cam["last_error"] and "\n" not in cam["last_error"]
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1 and "dice_6.jpg" in lines[0]
    finally:
        table.close()


# --- synthetic frames: refusals, rules errors, status -------------------------------------------------------

def test_a_roll_with_a_refused_die_is_not_recorded_and_is_named_for_a_reroll(tmp_path, monkeypatch):
    answers = [[(3, "ok"), (None, "cocked")], [(None, "unreadable")], [(7, "ok")], [(2, "ok"), (2, "ok")]]
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: scripted_reader(answers))
    photos = write_rendered(tmp_path / "p", [((1, 60, 120),)] * 4)
    table = run_folder(tmp_path, photos)
    try:
        rolls = table.state.tray.rolls
        assert [r.faces for r in rolls] == [(2, 2)]  # the roll with a cocked die is not half-recorded; 7 refused
        assert [r.source for r in rolls] == [f"dir:{photos / 's03.png'}"]
        cam = table.status()["camera"]
        assert cam["rolls"] == 1 and cam["errors"] == 3
        assert cam["reroll"] == []  # the last roll read every die
        rejected = [row for row in table.rows() if row.status == "rejected"]
        assert len(rejected) == 1 and "7" in rejected[0].reason
    finally:
        table.close()


def test_photos_settle_even_when_still_frames_is_shorter_than_settle_s(tmp_path, monkeypatch):
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: scripted_reader([[(1, "ok")], [(2, "ok")]]))
    photos = write_rendered(tmp_path / "p", [((1, 60, 120),), ((2, 160, 120),)])
    table = run_folder(tmp_path, photos, still_frames=2, settle_s=1.0)  # 0.2 s of stills asked for
    try:
        assert [r.faces for r in table.state.tray.rolls] == [(1,), (2,)]
    finally:
        table.close()


def test_status_asks_for_a_reroll_when_no_die_can_be_read(tmp_path, monkeypatch):
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: scripted_reader([[(None, "cocked"), (None, "partial")]]))
    table = run_folder(tmp_path, write_rendered(tmp_path / "p", [((1, 60, 120),)]))
    try:
        assert table.state.tray.rolls == ()
        cam = table.status()["camera"]
        assert [d["status"] for d in cam["reroll"]] == ["cocked", "partial"]
        assert "please re-roll" in cam["last_error"] and table.media_path(cam["reroll_image"]).is_file()
    finally:
        table.close()


def test_missing_camera_is_reported_and_retried_not_a_crash(tmp_path, caplog):
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                              camera=CameraSettings(source="99", backoff_initial_s=0.01, backoff_factor=2.0,
                                                    backoff_maximum_s=0.05)))
    with caplog.at_level(logging.WARNING, logger="arena_table.table.camera_loop"), table:
        assert wait_for(lambda: table.status().get("camera", {}).get("attempt", 0) >= 5, 5)
        cam = table.status()["camera"]
        assert cam["state"] == "retrying" and "cannot open camera 99" in cam["detail"]
        # the console says it too, at attempts 1, 2, 4, 8, ... (a new user saw nothing there)
        said = [r.getMessage() for r in caplog.records if "cannot open camera 99" in r.getMessage()]
        attempts = [int(m.split("; retry ")[1].split()[0]) for m in said]
        assert attempts[:3] == [1, 2, 4] and all(a & (a - 1) == 0 for a in attempts), said
        assert cam["retry_in"] == 0.05 or cam["retry_in"] == pytest.approx(0.04)
        table.submit(DiceRolled(faces=(4,), source="control"))  # the table works on
        assert table.state.tray.rolls[-1].faces == (4,)
    assert table.devices == []


def test_crop_box_grows_and_clips():
    img = np.arange(100 * 100 * 3, dtype=np.uint8).reshape(100, 100, 3)
    assert crop_box(img, (10, 20, 40, 20)).shape == (26, 52, 3)
    assert crop_box(img, (90, 90, 20, 20)).shape == (13, 13, 3)  # 87..100: grown by 3, cut at the edge


# --- the simulated table end to end ----------------------------------------------------------------------

def test_video_file_of_a_throw_is_one_roll(tmp_path, monkeypatch):
    """A die slides in and stops; MJPEG compression noise on the still frames is not motion."""
    seen = []

    def reader(image):
        seen.append(image.copy())
        return DiceReading((DieReading(6, "ok", "", 0.95, (200.0, 120.0), (180, 100, 40, 40)),), 320, 240)

    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: reader)
    path = tmp_path / "throw.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    rng = np.random.default_rng(0)
    table_only = TableSpec(320, 240, texture=0.0)  # fresh sensor noise each frame, the same table
    frames = [table_only] * 5 + [replace(table_only, dice=(DieSpec(1 + i % 6, (20.0 + 18 * i, 120.0), 40.0, 25.0 * i),))
                                 for i in range(11)]
    frames += [replace(table_only, dice=(DieSpec(6, (200.0, 120.0), 40.0, 250.0),))] * 20
    for spec in frames:
        writer.write(render_table(spec, rng)[0])
    writer.release()
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                           camera=CameraSettings(source=str(path)))) as table:
        table.devices[0].join(30)
        rolls = table.state.tray.rolls
        assert [r.faces for r in rolls] == [(6,)] and rolls[0].source.startswith(f"video:{path}@")
        assert table.status()["camera"]["state"] == "ended"
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                           camera=CameraSettings(source=str(path)))) as table:  # a restart goes on after it
        table.devices[0].join(30)
        assert [r.faces for r in table.state.tray.rolls] == [(6,)]  # not recorded twice
    # read: the empty table at the first start (the baseline, not recorded), the settled throw
    # once, and the baseline again after the restart (the resumed video's still die)
    assert len(seen) == 3


def test_control_page_gets_the_latest_frame_with_the_dice_drawn(tmp_path, monkeypatch):
    monkeypatch.setattr(camera_loop, "default_reader",
                        lambda *_: scripted_reader([[(3, "ok")], [(3, "ok"), (None, "cocked")]]))
    photos = write_rendered(tmp_path / "p", [((3, 60, 120),)])
    table = run_folder(tmp_path, photos)
    try:
        loop = table.devices[0]
        frame = loop.latest_frame()
        assert frame.shape == (240, 320, 3)
        shown = loop.overlay()  # the page's request reads the frame again: two dice this time
        assert shown.shape == frame.shape and not np.array_equal(shown, frame)
        assert tuple(shown[100, 40]) == (60, 200, 60)     # green box edge of the die read
        assert tuple(shown[100, 120]) == (0, 160, 255)    # orange box edge of the cocked one
        assert np.array_equal(loop.latest_frame(), frame)  # the frame itself is left alone
    finally:
        table.close()


def test_the_overlay_peeks_and_the_roll_is_read_in_full(tmp_path, monkeypatch):
    """A reader with a ``peek`` (``size_search.LearningReader``: no size search) is peeked at for the
    page's live view, which is drawn every second, and called for the settled roll."""
    calls = []
    real = scripted_reader([[(3, "ok")]] * 4)

    class Reader:
        def __call__(self, image):
            calls.append("read")
            return real(image)

        def peek(self, image):
            calls.append("peek")
            return real(image)

    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: Reader())
    table = run_folder(tmp_path, write_rendered(tmp_path / "p", [((3, 60, 120),)]))
    try:
        assert calls == ["read"] and [r.faces for r in table.state.tray.rolls] == [(3,)]
        table.devices[0].overlay()
        assert calls == ["read", "peek"]
    finally:
        table.close()


def test_the_overlay_does_not_wait_for_the_rolls_read(tmp_path, monkeypatch):
    """The settled roll's read may run a size search (0.2-0.7 s here, seconds on a Pi): the page's
    live view peeks meanwhile instead of waiting for it (a peek neither searches nor learns)."""
    import threading

    inside, release = threading.Event(), threading.Event()
    real = scripted_reader([[(3, "ok")]] * 4)

    class Reader:
        def __call__(self, image):
            inside.set()
            assert release.wait(30), "never released"
            return real(image)

        def peek(self, image):
            return real(image)

    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: Reader())
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                              camera=CameraSettings(source=str(write_rendered(tmp_path / "p", [((3, 60, 120),)])))))
    table.start()
    try:
        assert inside.wait(30)
        shown = []
        asker = threading.Thread(target=lambda: shown.append(table.devices[0].overlay()))
        asker.start()
        asker.join(10)
        waited = asker.is_alive()
        release.set()
        asker.join(10)
        assert not waited and shown[0] is not None and shown[0].shape == (240, 320, 3)
        table.devices[0].join(30)
        assert [r.faces for r in table.state.tray.rolls] == [(3,)]
    finally:
        release.set()
        table.close()


def test_overlays_asked_from_many_threads_are_read_and_drawn_on_one_thread(tmp_path, monkeypatch):
    """Native code keeps memory per calling thread (OpenCV 5's putText: a font engine of ~6 MB per
    thread) and the web server rotates requests over all its threads: every overlay, whichever
    thread asks, is read and drawn on the loop's one overlay thread, kept across requests."""
    import threading

    # Threads are told apart by name and object, not ident: an ended thread's ident is reused.
    readers, drawers = [], []
    scripted = scripted_reader([[(3, "ok")]] * 40)

    def reader(image):
        readers.append(threading.current_thread())
        return scripted(image)

    real_put_text = cv2.putText

    def put_text(*args, **kw):
        drawers.append(threading.current_thread())
        return real_put_text(*args, **kw)

    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: reader)
    photos = write_rendered(tmp_path / "p", [((3, 60, 120),)])
    table = run_folder(tmp_path, photos)
    try:
        loop = table.devices[0]
        monkeypatch.setattr(cv2, "putText", put_text)
        before = len(readers)  # the loop read the photo on its own thread
        askers, shown = [], []

        def ask():
            askers.append(threading.current_thread())
            shown.append(loop.overlay())

        for _ in range(3):  # 30 requests, each on a thread of its own, some at once
            threads = [threading.Thread(target=ask) for _ in range(10)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        assert len(shown) == 30 and all(tuple(img[100, 40]) == (60, 200, 60) for img in shown)
        overlay_threads = set(readers[before:]) - set(readers[:before])
        assert len(overlay_threads) == 1 and set(drawers) == overlay_threads
        assert not overlay_threads & set(askers)
        name = next(iter(overlay_threads)).name
        assert name.startswith("camera-overlay")
    finally:
        table.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("camera-overlay")]  # close() ends it


def test_a_photo_of_another_folder_with_a_recorded_name_is_read(tmp_path, monkeypatch):
    """A new user's audit: phone cameras reuse names (IMG_0001); the photo of a second folder
    with the name of one already recorded was skipped as 'already recorded'."""
    reader = scripted_reader([[(3, "ok")], [(5, "ok")]])
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: reader)
    first = write_rendered(tmp_path / "a", [((3, 60, 120),)])
    run_folder(tmp_path, first).close()
    second = write_rendered(tmp_path / "b", [((5, 60, 120),)])  # also s00.png
    table = run_folder(tmp_path, second)
    try:
        assert [(r.faces, r.source) for r in table.state.tray.rolls] == [
            ((3,), f"dir:{first / 's00.png'}"), ((5,), f"dir:{second / 's00.png'}")]
    finally:
        table.close()
    again = run_folder(tmp_path, second)  # the same folder again: nothing new
    try:
        assert len(again.state.tray.rolls) == 2
    finally:
        again.close()
