"""Label errata (vision/errata.py): parsing, correcting faces and boxes, refusing stale rows."""

from pathlib import Path

import pytest

from arena_table.vision.errata import LabelFix, apply_errata, load_errata
from arena_table.vision.errors import VisionError
from arena_table.vision.labels import LabelledBox, load_set, read_boxes

HEADER = "set,image,x,y,label,truth,note\n"


def _csv(tmp_path, body, header=HEADER):
    p = tmp_path / "errata.csv"
    p.write_text(header + body)
    return p


def _set(tmp_path):
    """A two-image set: a.jpg labelled 2 2 5 with boxes (64x64 image), b.jpg labelled 1 without."""
    d = tmp_path / "tiny"
    (d / "labels_yolo").mkdir(parents=True)
    (d / "labels.csv").write_text("image,values\na.jpg,2 2 5\nb.jpg,1\n")
    # class k is face k+1; centres (16, 16), (48, 16), (32, 48) px, boxes 8x8 and 8x12
    (d / "labels_yolo" / "a.txt").write_text("1 0.25 0.25 0.125 0.125\n1 0.75 0.25 0.125 0.125\n"
                                             "4 0.5 0.75 0.125 0.1875\n")
    return d


def test_a_mislabelled_die_takes_its_true_face_in_faces_and_box(tmp_path):
    fixes = load_errata(_csv(tmp_path, "tiny,a.jpg,47,17,2,3,three pips\n"))
    items = apply_errata(load_set(_set(tmp_path)), fixes, "tiny")
    assert items[0].values == (2, 5, 3) and items[1].values == (1,)
    boxes = read_boxes(items[0], 64, 64)
    assert [b.value for b in boxes] == [2, 3, 5]  # the box at (48, 16), not the other 2 at (16, 16)


def test_an_unlabelled_die_is_added_with_the_median_box_size(tmp_path):
    fixes = load_errata(_csv(tmp_path, "tiny,a.jpg,10,50,none,6,an extra six\n"))
    item = apply_errata(load_set(_set(tmp_path)), fixes, "tiny")[0]
    assert sorted(item.values) == [2, 2, 5, 6]
    assert read_boxes(item, 64, 64)[-1] == LabelledBox(6, (10.0, 50.0), (8.0, 8.0))


def test_errata_of_another_set_change_nothing(tmp_path):
    fixes = load_errata(_csv(tmp_path, "other,a.jpg,47,17,2,3,x\n"))
    items = load_set(_set(tmp_path))
    assert apply_errata(items, fixes, "tiny") == items


@pytest.mark.parametrize("row, message", [
    ("tiny,z.jpg,47,17,2,3,x\n", "images the set does not have: z.jpg"),
    ("tiny,a.jpg,47,17,4,3,x\n", "the set lists no 4 for this image (faces 2 2 5)"),
])
def test_a_row_that_does_not_fit_the_set_is_refused(tmp_path, row, message):
    fixes = load_errata(_csv(tmp_path, row))
    with pytest.raises(VisionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        apply_errata(load_set(_set(tmp_path)), fixes, "tiny")


def test_a_labelled_die_with_no_box_there_is_refused(tmp_path):
    fixes = load_errata(_csv(tmp_path, "tiny,a.jpg,32,48,2,3,x\n"))  # the box at (32, 48) is a 5
    item = apply_errata(load_set(_set(tmp_path)), fixes, "tiny")[0]
    with pytest.raises(VisionError, match=r"tiny/a.jpg \(32, 48\): no box labelled 2 at \(32, 48\)"):
        read_boxes(item, 64, 64)


@pytest.mark.parametrize("body, header, message", [
    ("tiny,a.jpg,1,2,2,7,x\n", HEADER, "line 2: truth must be 1..6, got '7'"),
    ("tiny,a.jpg,1,2,0,3,x\n", HEADER, "line 2: label must be 1..6 or none, got '0'"),
    ("tiny,a.jpg,1,2,none,none,x\n", HEADER, "truth must be 1..6"),
    ("tiny,a.jpg,left,2,2,3,x\n", HEADER, "x and y must be pixel numbers"),
    ("tiny,a.jpg,1,2,3,3,x\n", HEADER, "label and truth are both 3: not a fault"),
    ("tiny,a.jpg,1,2\n", HEADER, "a row needs all of"),
    ("tiny,a.jpg,1,2,2,3\n", "set,image,x,y,label,truth\n", "no note column"),
    ("tiny,a.jpg,1,2,2,3,x\ntiny,a.jpg,1,2,2,4,y\n", HEADER,
     r"line 3: repeats line 2 \(the same die of a.jpg at \(1, 2\)\)"),
])
def test_a_malformed_errata_file_names_the_line(tmp_path, body, header, message):
    with pytest.raises(VisionError, match=message):
        load_errata(_csv(tmp_path, body, header))


def test_fix_on_faces_refuses_a_label_not_listed():
    with pytest.raises(VisionError, match="lists no 6"):
        LabelFix("s", "a.jpg", (1.0, 2.0), 6, 1, "").corrected((1, 2))


def test_the_shipped_errata_file_parses():
    fixes = load_errata(Path(__file__).resolve().parents[2] / "docs" / "label-errata.csv")
    assert len(fixes) == 6 and {f.set for f in fixes} == {"byler_d6"}
    assert all(f.note for f in fixes)


def _sheet(args):
    import subprocess
    import sys

    tool = Path(__file__).resolve().parents[2] / "tools" / "errata_sheet.py"
    return subprocess.run([sys.executable, str(tool), *args], capture_output=True, text=True, timeout=120)


def test_errata_sheet_names_a_missing_file_in_one_line(tmp_path):
    r = _sheet([str(tmp_path / "nope.csv"), "--out", str(tmp_path / "e.png")])
    assert r.returncode == 1 and r.stderr.strip() == f"error: {tmp_path / 'nope.csv'}: errata file not found"


@pytest.mark.shared
def test_errata_sheet_draws_one_tile_per_row(tmp_path):
    import cv2

    from arena_table.vision.labels import dice_set_dir

    if not (dice_set_dir("byler_d6") / "labels.csv").is_file():
        pytest.skip("labelled photos not found (clone the repo beside ../shared)")
    r = _sheet(["--out", str(tmp_path / "e.png")])
    assert r.returncode == 0, r.stderr
    sheet = cv2.imread(str(tmp_path / "e.png"))
    assert sheet.shape == (2 * 320, 4 * 320, 3)  # 6 rows of docs/label-errata.csv, 4 tiles a row
    assert sheet[320:, 640:].max() == 0 and sheet[320:, 320:640].max() > 0  # the 6th tile, then padding
