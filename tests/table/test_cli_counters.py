"""``arena-table counters PHOTO``: the configured slots read on one photo, as the table reads them.

The photos are rendered (``vision.counter_film``); each value expected is what the photo was drawn
with, written down by hand.
"""

from __future__ import annotations

import json

import cv2
import numpy as np

from arena_table.cli import main
from arena_table.rules.kernel.geometry.boards import board_from
from arena_table.vision.board_calib import CALIBRATION_FILE
from arena_table.vision.board_film import BoardFilm
from arena_table.vision.counter_film import paste_die_mm, table_photo

CONFIG = """[counters]
slots = [{hero = "knight", power = "rage", box_px = [230, 585, 80, 80]},
         {hero = "trapper", box_px = [530, 585, 80, 80]},
         {hero = "black-wolf", box_px = [830, 585, 80, 80]}]
"""


def test_each_slot_is_read_and_drawn(tmp_path, capsys):
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), table_photo([("demigods-divine-rage", 5, (270, 625), 15),
                                         ("demigods-divine-mana", 2, (565, 630), 70),
                                         ("demigods-divine-focus", 4, (860, 620), 5),
                                         ("demigods-divine-focus", 1, (885, 655), 40)], 4))
    (tmp_path / "c.toml").write_text(CONFIG)
    out = tmp_path / "seen.png"
    args = ["counters", str(photo), "--config", str(tmp_path / "c.toml"), "--data-dir", str(tmp_path)]
    assert main(args + ["--out", str(out)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == f"{photo}: 3 of 3 slots (no board calibration: box_px only)"
    assert text[1:] == ["  knight           5   [px]", "  trapper          2   [px]",
                        "  black-wolf       not read: something lies in black-wolf's slot that is not read as a die "
                        "(a die touching another, or a card's edge?)   [px]"]
    drawn = cv2.imread(str(out))
    assert drawn.shape == (720, 1280, 3)
    assert tuple(drawn[585, 270]) == (60, 200, 60) and tuple(drawn[585, 870]) == (40, 40, 230)  # outlines
    assert main(args + ["--json"]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert [(s["hero"], s["value"]) for s in seen["slots"]] == [("knight", 5), ("trapper", 2), ("black-wolf", None)]


def test_a_box_mm_slot_goes_through_the_data_folders_board_calibration(tmp_path, capsys):
    film = BoardFilm(board_from({"id": "f", "game": "demigods", "kind": "square", "size_mm": 30.0,
                                 "cols": 6, "rows": 4}), seed=3)
    film.calibration.save(tmp_path / CALIBRATION_FILE)
    image = film.frame({})
    paste_die_mm(image, film.camera @ np.array([[1, 0, 20.0], [0, 1, 20.0], [0, 0, 1]]),  # own mm: offset -20
                 "demigods-divine-rage", 6, (-57, 17), angle=30)
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), image)
    (tmp_path / "c.toml").write_text('[counters]\nslots = [{hero = "knight", box_mm = [-75, 0, 36, 36]}]\n')
    args = ["counters", str(photo), "--config", str(tmp_path / "c.toml"), "--data-dir", str(tmp_path)]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  knight           6   [mm]"
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(image, (640, 360)))
    assert main(["counters", str(small)] + args[2:]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{small}: 0 of 1 slots (no board calibration: box_px only)",
        f"  note: {tmp_path / CALIBRATION_FILE} was made at 1280x720, the photo is 640x360: box_mm slots not used",
        "  note: knight's slot is in board mm and there is no board calibration (arena-table calibrate), nor a box_px"]


def test_no_slots_or_a_bad_photo_is_an_error(tmp_path, capsys):
    (tmp_path / "c.toml").write_text("[counters]\n")
    assert main(["counters", str(tmp_path / "none.png"), "--config", str(tmp_path / "c.toml")]) == 1
    assert "sets no counters.slots: nothing to read" in capsys.readouterr().err
    (tmp_path / "c.toml").write_text(CONFIG)
    assert main(["counters", str(tmp_path / "none.png"), "--config", str(tmp_path / "c.toml")]) == 1
    assert "none.png" in capsys.readouterr().err


def test_an_out_name_with_no_image_writer_is_an_error_naming_it(tmp_path, capsys):
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), table_photo([("demigods-divine-rage", 5, (270, 625), 15)], 4))
    (tmp_path / "c.toml").write_text(CONFIG)
    out = tmp_path / "seen.txt"
    assert main(["counters", str(photo), "--config", str(tmp_path / "c.toml"), "--data-dir", str(tmp_path),
                 "--out", str(out)]) == 1
    assert capsys.readouterr().err == (f"error: {out}: cannot write the image (a .png or .jpg name in a folder "
                                       "that exists)\n")
    assert not out.exists()


def test_a_missing_data_folder_is_named_when_box_mm_slots_need_its_calibration(tmp_path, capsys):
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), table_photo([("demigods-divine-rage", 5, (270, 625), 15)], 4))
    missing = tmp_path / "no-such-data"
    (tmp_path / "mm.toml").write_text('[counters]\nslots = [{hero = "knight", box_mm = [-75, 0, 36, 36]}]\n')
    assert main(["counters", str(photo), "--config", str(tmp_path / "mm.toml"), "--data-dir", str(missing)]) == 1
    assert capsys.readouterr().err == (f"error: {missing}: no such folder; the box_mm slots need the data "
                                       f"folder's {CALIBRATION_FILE} (--data-dir, as given to run)\n")
    # box_px slots need no data folder: read as before
    (tmp_path / "c.toml").write_text(CONFIG)
    assert main(["counters", str(photo), "--config", str(tmp_path / "c.toml"), "--data-dir", str(missing)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  knight           5   [px]"
