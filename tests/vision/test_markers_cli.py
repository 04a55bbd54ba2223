"""``arena-table markers read|print|assign|list|remove``: sheets read back by the detector, the
registry edited from the command line."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from arena_table.cli import main
from arena_table.vision.labels import shared_dir
from arena_table.vision.markers import MarkerConfig, MarkerDetector, marker_image


def _ids_in(img: np.ndarray, dictionary: str) -> list[int]:
    return [m.id for m in MarkerDetector(MarkerConfig(dictionary=dictionary)).detect(img)]


def test_print_pdf_is_read_back_with_every_id(tmp_path, capsys):
    import pypdfium2

    out = tmp_path / "sheet.pdf"
    assert main(["markers", "print", "--ids", "0-49", "--size-mm", "12", str(out)]) == 0
    assert "wrote 50 DICT_4X4_50 markers of 12 mm on 1 page" in capsys.readouterr().out
    doc = pypdfium2.PdfDocument(str(out))
    assert len(doc) == 1
    page = doc[0]
    assert page.get_size() == pytest.approx((595.28, 841.89), abs=0.1)  # A4 in points
    grey = cv2.cvtColor(page.render(scale=150 / 72).to_numpy(), cv2.COLOR_BGR2GRAY)  # 150 dpi: 71 px markers
    assert _ids_in(grey, "DICT_4X4_50") == list(range(50))
    # printed at actual size: the black square of marker 0 is 12 mm = 70.9 px at 150 dpi
    (m0,) = [m for m in MarkerDetector().detect(grey) if m.id == 0]
    assert m0.side_px == pytest.approx(12 / 25.4 * 150, abs=1.5)
    doc.close()


def test_print_png_pages_apriltag_every_id(tmp_path, capsys):
    out = tmp_path / "tags.png"
    assert main(["markers", "print", "--ids", "0-39,100,586", "--size-mm", "20", "--dpi", "150",
                 "--dict", "DICT_APRILTAG_36h11", str(out)]) == 0
    said = capsys.readouterr().out
    pages = sorted(tmp_path.glob("tags*.png"))
    assert f"on {len(pages)} pages" in said and len(pages) == 2
    seen = []
    for p in pages:
        seen += _ids_in(cv2.imread(str(p), cv2.IMREAD_GRAYSCALE), "DICT_APRILTAG_36h11")
    assert sorted(seen) == list(range(40)) + [100, 586]


def test_print_refuses_bad_requests(tmp_path, capsys):
    assert main(["markers", "print", "--ids", "0-50", str(tmp_path / "a.pdf")]) == 2
    assert "marker id 50: DICT_4X4_50 has ids 0-49" in capsys.readouterr().err
    assert main(["markers", "print", "--ids", "5-2", str(tmp_path / "a.pdf")]) == 2
    assert "'5-2' is not an id nor a range like 0-49" in capsys.readouterr().err
    assert main(["markers", "print", str(tmp_path / "a.svg")]) == 2
    assert "give a .pdf or .png file name" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def _scene(tmp_path):
    """Three 4x4 markers and one AprilTag on a grey photo-like image; returns its path."""
    img = np.full((480, 640, 3), 150, np.uint8)
    for (x, y), (d, i) in zip([(40, 40), (240, 60), (420, 300), (100, 300)],
                              [("DICT_4X4_50", 3), ("DICT_4X4_50", 17), ("DICT_4X4_50", 49),
                               ("DICT_APRILTAG_36h11", 211)]):
        img[y - 10:y + 110, x - 10:x + 110] = 255
        img[y:y + 100, x:x + 100] = marker_image(d, i, 100)[..., None]
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), img)
    return path


def test_read_prints_ids_and_corners_per_image(tmp_path, capsys):
    path = _scene(tmp_path)
    assert main(["markers", "read", str(path), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert (result["width"], result["height"]) == (640, 480)
    assert [m["id"] for m in result["markers"]] == [3, 17, 49]
    # detector order: the marker's top-left, top-right, bottom-right, bottom-left (upright here)
    want = [[39.5, 39.5], [139.5, 39.5], [139.5, 139.5], [39.5, 139.5]]  # pixel centres at integers
    assert np.abs(np.array(result["markers"][0]["corners"]) - want).max() <= 1.0
    assert main(["markers", "read", str(path), "--dict", "DICT_APRILTAG_36H11"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{path}: 1 marker (DICT_APRILTAG_36H11)"
    assert out.splitlines()[1].split()[:2] == ["id", "211"]


def test_read_goes_on_past_a_bad_file_and_fails_at_the_end(tmp_path, capsys):
    path = _scene(tmp_path)
    assert main(["markers", "read", str(tmp_path / "none.jpg"), str(path)]) == 1
    cap = capsys.readouterr()
    assert "none.jpg: missing (no such file)" in cap.err and f"{path}: 3 markers" in cap.out
    assert main(["markers", "read", str(path), "--dict", "DICT_4X4_49"]) == 2
    assert "'DICT_4X4_49': not a dictionary name nor a dictionary file" in capsys.readouterr().err


@pytest.mark.shared
def test_read_a_custom_dictionary_file(capsys):
    d = shared_dir() / "data" / "markers" / "opencv_aruco"
    if not (d / "gold.json").is_file():
        pytest.skip(f"marker photos not found at {d}")
    assert main(["markers", "read", str(d / "gboriginal.png"), "--dict", str(d / "tutorial_dict.yml"), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert [m["id"] for m in result["markers"]] == list(range(35))


def test_registry_assign_list_remove(tmp_path, capsys):
    data = ["--data-dir", str(tmp_path)]
    assert main(["markers", "list", *data]) == 0
    assert "no markers assigned yet" in capsys.readouterr().out
    assert not (tmp_path / "markers.db").exists()  # listing makes no file
    assert main(["markers", "assign", "7", "--as", "theosis:hero:rochon", "--team", "red", *data]) == 0
    assert capsys.readouterr().out == "marker 7 -> theosis:hero:rochon (red)\n"
    assert main(["markers", "assign", "8", "--as", "demigods:minion:archer-1", *data]) == 0
    assert main(["markers", "assign", "7", "--as", "theosis:hero:rochon", "--team", "blue", *data]) == 0
    assert "(was theosis:hero:rochon, red)" in capsys.readouterr().out
    assert main(["markers", "assign", "9", "--as", "theosis:hero:rochon", "--team", "blue", *data]) == 0
    assert "also carries marker 7" in capsys.readouterr().err
    assert main(["markers", "list", "--json", *data]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["figure"], r["team"], r["kind"]) for r in rows] == [
        (7, "theosis:hero:rochon", "blue", "hero"), (8, "demigods:minion:archer-1", "demigods", "minion"),
        (9, "theosis:hero:rochon", "blue", "hero")]
    assert main(["markers", "remove", "9", *data]) == 0
    assert main(["markers", "remove", "9", *data]) == 1
    assert "marker 9 is not assigned" in capsys.readouterr().err


def test_registry_refuses_bad_figures_and_ids(tmp_path, capsys):
    data = ["--data-dir", str(tmp_path)]
    assert main(["markers", "assign", "3", "--as", "theosis:pawn:x", *data]) == 2
    assert "kind 'pawn' is not one of hero, monster, minion" in capsys.readouterr().err
    assert main(["markers", "assign", "50", "--as", "theosis:hero:x", *data]) == 2
    assert "marker id 50: DICT_4X4_50 has ids 0-49" in capsys.readouterr().err
    assert main(["markers", "assign", "3", "--as", "theosis:hero:x", "--dict", "DICT_APRILTAG_36h11", *data]) == 2
    assert "holds DICT_4X4_50 ids, not DICT_APRILTAG_36h11" in capsys.readouterr().err
    (tmp_path / "markers.db").write_text("not sqlite at all " * 100)
    assert main(["markers", "list", *data]) == 1
    assert "not a marker registry" in capsys.readouterr().err


def test_a_new_registry_takes_its_dictionary(tmp_path, capsys):
    data = ["--data-dir", str(tmp_path)]
    assert main(["markers", "assign", "300", "--as", "euthia:monster:ghoul", "--dict", "DICT_APRILTAG_36h11",
                 *data]) == 0
    assert main(["markers", "list", *data]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "DICT_APRILTAG_36h11, 12 mm: 1 marker assigned"
