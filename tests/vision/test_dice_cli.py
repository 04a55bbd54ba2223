"""arena-table dice read/eval and bench dice wiring."""

import json

import cv2
import numpy as np
import pytest
from cli_kit import run_cli

from arena_table.vision.render import DieSpec, TableSpec, render_table


def test_bench_is_shared_between_modules():
    assert run_cli(["bench", "other"]) == 7


def test_read_reports_bad_files_and_continues(tmp_path, capsys):
    good = tmp_path / "good.png"
    frame, _ = render_table(TableSpec(640, 480, dice=(DieSpec(3, (320.0, 240.0), 36.0, angle=10),)),
                            np.random.default_rng(0))
    cv2.imwrite(str(good), frame)
    bad = tmp_path / "photo.jpg"
    bad.write_text("hello")
    code = run_cli(["dice", "read", str(bad), str(good), str(tmp_path / "gone.jpg"), "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.splitlines() == [f"error: {bad}: not an image (cannot decode)",
                                f"error: {tmp_path / 'gone.jpg'}: missing (no such file)"]
    results = json.loads(out)
    assert [r.get("values") for r in results] == [None, [3], None]


def test_read_flags_reach_the_reader(tmp_path, capsys):
    # a logo die: unreadable by default, read as 1 with --logo-face 1; bad flag values are named
    logo = DieSpec(1, (320.0, 240.0), 34.0, 17.0, body=(235, 240, 240), pip=(40, 40, 200),
                   pips=((0.0, 0.0),), pip_radius=0.26)
    path = tmp_path / "logo.png"
    cv2.imwrite(str(path), render_table(TableSpec(640, 480, dice=(logo,)), np.random.default_rng(0))[0])
    assert run_cli(["dice", "read", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["dice"][0]["status"] == "unreadable"
    assert run_cli(["dice", "read", str(path), "--json", "--logo-face", "1", "--min-confidence", "0.3"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["values"] == [1]
    for flags, message in [(["--min-confidence", "2"], "--min-confidence must be a number from 0 to 1, got 2"),
                           (["--logo-face", "0"], "--logo-face must be a face value, a whole number from 1 to 6, got 0"),
                           (["--size-check", "0.5"], "--size-check must be 0 (off) or a number above 1, got 0.5")]:
        assert run_cli(["dice", "read", str(path)] + flags) == 2
        assert capsys.readouterr().err.strip() == f"error: {message}"


def test_eval_without_labels_is_an_error(tmp_path, capsys):
    assert run_cli(["dice", "eval", str(tmp_path)]) == 1
    assert "labels file not found" in capsys.readouterr().err


@pytest.mark.parametrize("content, message", [
    (b"foo,bar\nx,y\n", "labels.csv: no image or values column (the header must name image,values)"),
    (b"image\nimg0.png\n", "labels.csv: no values column (the header must name image,values)"),
    (b"", "labels.csv: no image or values column (the header must name image,values)"),
    (b"image,values\nimg0.png,3\nimg1.png,seven\n", "labels.csv, line 3: bad die face 'seven' in labels"),
    (b"image,values\nimg0.png,9\n", "labels.csv, line 2: bad die face '9' in labels"),
    (b"\xff\xfe\x00garbage", "labels.csv: not UTF-8 text"),
    (b"image,values\ngone.png,3\n", "labels.csv: no image could be scored"),
    (b"image,values\nimg0.png,1,1\n", "labels.csv, line 2: 1 more column(s) than the header's; the values are "
                                       "one column of faces separated by spaces, e.g. img0.png,1 1"),
    (b"image,values\nimg0.png,1 1\nimg1.png,2\n./img0.png,6 6\n",
     "labels.csv, line 4: ./img0.png is labelled twice (first on line 2); give each image one row with all its dice"),
])
def test_eval_names_what_is_wrong_with_the_labels(tmp_path, capsys, content, message):
    (tmp_path / "labels.csv").write_bytes(content)
    assert run_cli(["dice", "eval", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"error: {tmp_path / message}"


def test_read_warns_of_an_image_too_small_to_hold_a_die(tmp_path, capsys):
    tiny = tmp_path / "one.png"
    cv2.imwrite(str(tiny), np.full((1, 1, 3), 200, np.uint8))
    assert run_cli(["dice", "read", str(tiny)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{tiny}: -  (0 dice)")
    assert f"warning: {tiny}: the 1x1 image is too small to hold a die (the reader reads dice of 5 px and more)" in err


def test_eval_with_a_folder_for_labels_says_so(tmp_path, capsys):
    (tmp_path / "labels.csv").write_text("image,values\n")
    assert run_cli(["dice", "eval", str(tmp_path), "--labels", str(tmp_path)]) == 1
    assert capsys.readouterr().err.strip() == f"error: {tmp_path}: is a folder; --labels names the labels CSV file"


def test_eval_refuses_a_negative_holdout(tmp_path, capsys):
    (tmp_path / "labels.csv").write_text("image,values\n")
    assert run_cli(["dice", "eval", str(tmp_path), "--holdout-every", "-1"]) == 2
    assert "--holdout-every must be 0 (every image) or more, got -1" in capsys.readouterr().err


def test_eval_says_when_the_split_is_not_held_out(tmp_path, capsys, monkeypatch):
    from arena_table.vision import nets

    frame, _ = render_table(TableSpec(640, 480, dice=(DieSpec(3, (320.0, 240.0), 36.0, angle=10),)),
                            np.random.default_rng(0))
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"img{i}.png"), frame)
    (tmp_path / "labels.csv").write_text("image,values\n" + "".join(f"img{i}.png,3\n" for i in range(5)))
    models = tmp_path / "models"
    models.mkdir()
    for name in ("dice_det.onnx", "dice_face.onnx"):
        (models / name).write_bytes((nets.MODEL_DIR / name).read_bytes())
    (models / "train_det.json").write_text('{"holdout_every": 5}')
    (models / "train_face.json").write_text('{"holdout_every": 0}')
    monkeypatch.setattr(nets, "MODEL_DIR", models)
    nets._load.cache_clear()
    try:
        assert run_cli(["dice", "eval", str(tmp_path), "--holdout-every", "5"]) == 0
        err = capsys.readouterr().err
        assert "the classifier was trained with every photo (--holdout-every 0)" in err and "detector" not in err
        assert run_cli(["dice", "eval", str(tmp_path)]) == 0
        assert "note" not in capsys.readouterr().err
    finally:
        nets._load.cache_clear()


def _small_dice_photo(path):
    spec = TableSpec(1280, 720, dice=tuple(DieSpec(v, (150.0 + 160 * v, 300.0 + 40 * (v % 2)), 16.0, 10.0 * v)
                                           for v in range(1, 7)))
    cv2.imwrite(str(path), render_table(spec, np.random.default_rng(0))[0])
    return path


def test_calibrate_writes_a_file_the_reader_then_uses(tmp_path, capsys):
    photo = _small_dice_photo(tmp_path / "small.png")
    out = tmp_path / "calib.json"
    assert run_cli(["dice", "calibrate", str(photo), "--tray", "0,0,1280,720", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "1280x720, die side" in text and "median of 6 dice" in text and f"wrote {out}" in text
    calib = json.loads(out.read_text())
    assert calib["resolution"] == [1280, 720] and calib["tray"] == [0, 0, 1280, 720]
    side = calib["die_size_px"]
    assert 20 < side < 30
    assert run_cli(["dice", "read", str(photo), "--json"]) == 0
    # below the automatic range: read after the reader's size search (test_size_search.py), slower
    assert sorted(json.loads(capsys.readouterr().out)[0]["values"]) == [1, 2, 3, 4, 5, 6]
    assert run_cli(["dice", "read", str(photo), "--json", "--die-size", str(side)]) == 0
    assert sorted(json.loads(capsys.readouterr().out)[0]["values"]) == [1, 2, 3, 4, 5, 6]


def test_calibrate_errors_name_what_was_wrong(tmp_path, capsys):
    photo = _small_dice_photo(tmp_path / "small.png")
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((720, 1280, 3), 90, np.uint8))
    assert run_cli(["dice", "calibrate", str(empty)]) == 1
    assert "no die read surely in the 1280x720 frame" in capsys.readouterr().err
    assert run_cli(["dice", "calibrate", str(photo), "--tray", "1,2"]) == 1
    assert "--tray must be four whole numbers X,Y,W,H" in capsys.readouterr().err
    assert run_cli(["dice", "calibrate", str(photo), "--tray", "0,0,2000,720"]) == 1
    assert "leaves the 1280x720 frame" in capsys.readouterr().err
    assert run_cli(["dice", "calibrate", str(photo), "--out", str(tmp_path / "no" / "dir.json")]) == 1
    assert "cannot write" in capsys.readouterr().err
    assert run_cli(["dice", "read", str(photo), "--die-size", "0"]) == 2
    assert "--die-size: die side must be a positive number" in capsys.readouterr().err
    assert run_cli(["dice", "read", str(photo), "--die-size", "0.8"]) == 2
    assert "die side 0.8 px is too small to read (at least 8 px)" in capsys.readouterr().err
    assert run_cli(["dice", "calibrate", str(photo), "--tray", "0,0,20,20"]) == 1
    assert "the tray 0,0,20,20 (x,y,w,h) is too small to hold a die" in capsys.readouterr().err
    assert run_cli(["dice", "calibrate", str(photo), "--tray", ""]) == 1
    assert "--tray must be four whole numbers" in capsys.readouterr().err
    assert run_cli(["dice", "read", str(photo), "--die-size", "5000"]) == 0
    assert "--die-size 5000 px is larger than the 1280x720 image" in capsys.readouterr().err


def test_calibrate_never_writes_over_its_photo_or_a_file_that_is_not_a_calibration(tmp_path, capsys):
    photo = _small_dice_photo(tmp_path / "small.png")
    before = photo.read_bytes()
    assert run_cli(["dice", "calibrate", str(photo), "--out", str(photo)]) == 1
    assert f"--out {photo}: is the photo being read; it is left as it is" in capsys.readouterr().err
    assert photo.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("my table notes")
    assert run_cli(["dice", "calibrate", str(photo), "--out", str(notes)]) == 1
    err = capsys.readouterr().err
    assert f"--out {notes}: exists and is not a calibration file" in err and "remove it or choose another name" in err
    assert notes.read_text() == "my table notes"
    assert run_cli(["dice", "calibrate", str(photo), "--out", str(tmp_path)]) == 1
    assert "is a folder" in capsys.readouterr().err
    # re-calibrating over an earlier calibration is the normal use
    calib = tmp_path / "calib.json"
    calib.write_text(json.dumps({"resolution": [640, 480], "tray": None, "die_size_px": 30.0}))
    assert run_cli(["dice", "calibrate", str(photo), "--out", str(calib)]) == 0
    assert json.loads(calib.read_text())["resolution"] == [1280, 720]


def test_calibrate_without_out_prints_only_the_json_on_stdout(tmp_path, capsys):
    photo = _small_dice_photo(tmp_path / "small.png")
    assert run_cli(["dice", "calibrate", str(photo)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["resolution"] == [1280, 720]  # `dice calibrate F > calib.json` works
    assert "die side" in err


def test_bench_dice_json_has_the_issue_keys(capsys):
    """``bench dice --json``: one object with median_ms, p95_ms, rss_mb and per-set metrics with the
    keys of ``dice eval`` (shared sets when ../shared is beside the clone, rendered stress sets always)."""
    assert run_cli(["bench", "dice", "--json", "--stress-frames", "2", "--timing-frames", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("median_ms", "p95_ms", "rss_mb", "sets", "frame", "dice_per_frame"):
        assert key in out
    assert out["frame"] == [1280, 720] and out["dice_per_frame"] == 10 and out["rss_mb"] > 0
    assert {"touching", "glare", "dark_40", "bright_40", "colour_cast", "motion_blur"} <= set(out["sets"])
    for m in out["sets"].values():
        assert {"per_die_accuracy", "precision", "abstention_rate", "per_face_recall", "confusion"} <= set(m)
    cal = out["calibrated"]
    assert cal["median_ms"] > 0 and cal["p95_ms"] >= cal["median_ms"] and 60 < cal["die_side_px"] < 110
    # speeds are ratios to the yardstick timed in the same run (no timing is asserted: the bench prints them)
    assert out["reference_ms"] > 0 and out["median_ratio"] == out["median_ms"] / out["reference_ms"]
    assert cal["reference_ms"] > 0 and cal["median_ratio"] == cal["median_ms"] / cal["reference_ms"]
    small = out["small_dice"]  # the second timed set: 16-28 px dice, read without calibration
    assert small["die_side_px"] == [16.0, 28.0] and small["frames"] == 3
    assert small["reference_ms"] > 0 and small["median_ratio"] == small["median_ms"] / small["reference_ms"]
    if "byler_d6" in out["sets"]:  # the shared sets' reliability table, pooled
        assert sum(b["read_ok"] for b in out["calibration"]) == sum(
            b["read_ok"] for name in ("byler_d6", "matteo_d6") for b in out["sets"][name]["calibration"])


def test_eval_of_a_missing_folder_or_a_file_says_so(tmp_path, capsys):
    assert run_cli(["dice", "eval", str(tmp_path / "nope")]) == 1
    assert capsys.readouterr().err.strip() == f"error: {tmp_path / 'nope'}: no such folder"
    photo = tmp_path / "real.jpg"
    photo.write_bytes(b"x")
    assert run_cli(["dice", "eval", str(photo)]) == 1
    assert "is a file, not a folder of labelled images" in capsys.readouterr().err


def test_eval_with_an_unreadable_image_exits_1(tmp_path, capsys):
    """A new user's audit: the unreadable images' dice silently left the figures, exit 0."""
    frame, _ = render_table(TableSpec(640, 480, dice=(DieSpec(3, (320.0, 240.0), 36.0, angle=10),)),
                            np.random.default_rng(0))
    cv2.imwrite(str(tmp_path / "img0.png"), frame)
    (tmp_path / "img1.png").write_text("not a picture")
    (tmp_path / "labels.csv").write_text("image,values\nimg0.png,3\nimg1.png,5\n")
    assert run_cli(["dice", "eval", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "1 image(s) of" in err and "the figures leave their dice out" in err


def test_calibrate_error_names_the_image(tmp_path, capsys):
    one = tmp_path / "one.png"
    cv2.imwrite(str(one), np.zeros((1, 1, 3), np.uint8))
    assert run_cli(["dice", "calibrate", str(one)]) == 1
    assert capsys.readouterr().err.startswith(f"error: {one}: ")


def test_eval_scores_the_labels_as_they_are(tmp_path, capsys):
    """A label fault is fixed in the data, not scored around: there is no --errata."""
    frame, _ = render_table(TableSpec(640, 480, dice=(DieSpec(3, (320.0, 240.0), 36.0, angle=10),)),
                            np.random.default_rng(0))
    cv2.imwrite(str(tmp_path / "img0.png"), frame)
    (tmp_path / "labels.csv").write_text("image,values\nimg0.png,2\n")  # the photo shows a 3
    assert run_cli(["dice", "eval", str(tmp_path), "--json"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert m["precision"] == 0.0 and "errata" not in m and "errata_applied" not in m
    with pytest.raises(SystemExit) as exc:
        run_cli(["dice", "eval", str(tmp_path), "--errata", str(tmp_path / "e.csv")])
    assert exc.value.code == 2 and "unrecognized arguments: --errata" in capsys.readouterr().err
