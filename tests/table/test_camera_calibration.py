"""The camera loop with a calibration (``dice calibrate``): its resolution is checked on every frame,
its tray limits settle detection and reading, its die size lets the reader find small dice, and a
settle in which no die is read names the sizes the calibration reads (docs/camera.md)."""

from __future__ import annotations

import logging

import cv2
import numpy as np
from camera_kit import run_folder, scripted_reader, write_rendered

from arena_table.table import camera_loop
from arena_table.vision.dice import DiceReading
from arena_table.vision.frames import Calibration
from arena_table.vision.render import DieSpec, TableSpec, render_table


def test_calibration_at_another_resolution_stops_the_camera_with_a_reason(tmp_path, monkeypatch):
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: scripted_reader([[(1, "ok")]] * 3))
    calib = tmp_path / "calib.json"
    Calibration((1280, 720)).save(calib)
    table = run_folder(tmp_path, write_rendered(tmp_path / "p", [((1, 60, 120),)]),
                       calibration=str(calib))
    try:
        cam = table.status()["camera"]
        assert cam["state"] == "failed" and "1280x720 cannot be used with 320x240" in cam["detail"]
        assert table.state.tray.rolls == ()
    finally:
        table.close()


def test_a_frame_of_another_size_midway_stops_the_camera_not_misread(tmp_path, monkeypatch):
    """A new user's trial: a folder of 640x480 photos with one 640x640 photo among them, under a
    640x480 calibration, read that photo with the calibration (a wrong roll, no warning); only the
    first frame was checked. A USB camera that reconnects at another size does the same."""
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: scripted_reader([[(1, "ok")], [(2, "ok")]] * 3))
    calib = tmp_path / "calib.json"
    Calibration((320, 240)).save(calib)
    photos = write_rendered(tmp_path / "p", [((1, 60, 120),), ((2, 100, 90),)])
    cv2.imwrite(str(photos / "s01.png"), cv2.resize(cv2.imread(str(photos / "s01.png")), (320, 320)))
    table = run_folder(tmp_path, photos, calibration=str(calib))
    try:
        cam = table.status()["camera"]
        assert cam["state"] == "failed" and "320x240 cannot be used with 320x320" in cam["detail"]
        assert all(r.faces != (2,) for r in table.state.tray.rolls)  # the odd photo is never read
    finally:
        table.close()


def test_a_settle_with_no_die_read_says_so_and_names_the_calibrated_sizes(tmp_path, monkeypatch, caplog):
    """A new user's trial: under a calibration for 49.5 px dice, two 4s were followed by one 87 px 6,
    which the calibrated reader does not look for; the status said "settled, no dice moved"."""
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: scripted_reader([[(4, "ok"), (4, "ok")], []]))
    calib = tmp_path / "calib.json"
    Calibration((320, 240), die_size_px=49.5).save(calib)
    photos = write_rendered(tmp_path / "p", [((4, 60, 120), (4, 140, 120)), ((6, 100, 90),)])
    with caplog.at_level(logging.INFO, logger="arena_table.table.camera_loop"):
        table = run_folder(tmp_path, photos, calibration=str(calib))
    try:
        assert [r.faces for r in table.state.tray.rolls] == [(4, 4)]
        said = [r.getMessage() for r in caplog.records if "no die is read" in r.getMessage()]
        assert said == [f"camera {photos}: s01.png: settled, but no die is read (were the dice taken away?); with "
                        "its calibration the camera reads dice of 31-79 px only (arena-table dice calibrate)"], said
    finally:
        table.close()


def test_calibration_tray_limits_reading_to_the_tray(tmp_path, monkeypatch):
    seen = []

    def reader(image):
        seen.append(image.shape)
        return DiceReading((), image.shape[1], image.shape[0])

    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: reader)
    calib = tmp_path / "calib.json"
    Calibration((320, 240), tray=(20, 10, 200, 180)).save(calib)
    table = run_folder(tmp_path, write_rendered(tmp_path / "p", [((1, 60, 120),)]), calibration=str(calib))
    table.close()
    assert seen == [(180, 200, 3)]


def test_a_held_photo_is_scaled_for_settle_detection_once_also_in_a_tray(tmp_path, monkeypatch):
    """The folder hands each photo's array again while it is held; its tray part stays one array."""
    from arena_table.vision import settle

    worked = []
    real = settle.working_copy
    monkeypatch.setattr(settle, "working_copy", lambda image, width: worked.append(image.shape) or real(image, width))
    monkeypatch.setattr(camera_loop, "default_reader", lambda *_: scripted_reader([[(1, "ok")], [(2, "ok")]]))
    calib = tmp_path / "calib.json"
    Calibration((320, 240), tray=(20, 10, 200, 180)).save(calib)
    table = run_folder(tmp_path, write_rendered(tmp_path / "p", [((1, 60, 120),), ((2, 100, 90),)]),
                       calibration=str(calib))
    try:
        assert [r.faces for r in table.state.tray.rolls] == [(1,), (2,)]
        assert worked == [(180, 200, 3)] * 2  # 11 frames of each photo, worked once each
    finally:
        table.close()


def test_calibrated_die_size_lets_the_real_reader_find_small_dice(tmp_path):
    """A camera that sees 16 px dice on a 1280x720 frame (below the automatic 3 % of the long side):
    with the die side from ``dice calibrate`` in the calibration file, the shipped reader reads all six."""
    from arena_table.vision.calibrate import calibrate

    folder = tmp_path / "p"
    folder.mkdir()
    spec = TableSpec(1280, 720, tuple(DieSpec(v, (150.0 + 160 * v, 300.0 + 40 * (v % 2)), 16.0, 10.0 * v)
                                      for v in range(1, 7)))
    frame = render_table(spec, np.random.default_rng(0))[0]
    cv2.imwrite(str(folder / "small.png"), frame)
    calib, size = calibrate(frame)
    assert calib.resolution == (1280, 720) and size.dice == 6
    calib.save(tmp_path / "calib.json")
    table = run_folder(tmp_path, folder, calibration=str(tmp_path / "calib.json"))
    try:
        assert [sorted(r.faces) for r in table.state.tray.rolls] == [[1, 2, 3, 4, 5, 6]]
    finally:
        table.close()
