"""arena-table dice read/eval and bench dice wiring."""

import argparse
import json

import cv2
import numpy as np

from arena_table.table import cli_dice
from arena_table.table.cli_common import bench_subparsers
from arena_table.vision.render import DieSpec, TableSpec, render_table


def _run(argv):
    p = argparse.ArgumentParser(prog="arena-table")
    s = p.add_subparsers(dest="cmd")
    cli_dice.register(s)
    bench_subparsers(s).add_parser("tokens").set_defaults(func=lambda a: 7)  # another module's leaf
    a = p.parse_args(argv)
    return a.func(a)


def test_bench_is_shared_between_modules():
    assert _run(["bench", "tokens"]) == 7


def test_read_reports_bad_files_and_continues(tmp_path, capsys):
    good = tmp_path / "good.png"
    frame, _ = render_table(TableSpec(640, 480, dice=(DieSpec(3, (320.0, 240.0), 36.0, angle=10),)),
                            np.random.default_rng(0))
    cv2.imwrite(str(good), frame)
    bad = tmp_path / "photo.jpg"
    bad.write_text("hello")
    code = _run(["dice", "read", str(bad), str(good), str(tmp_path / "gone.jpg"), "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.splitlines() == [f"error: {bad}: not an image (cannot decode)",
                                f"error: {tmp_path / 'gone.jpg'}: missing (no such file)"]
    results = json.loads(out)
    assert [r.get("values") for r in results] == [None, [3], None]


def test_eval_without_labels_is_an_error(tmp_path, capsys):
    assert _run(["dice", "eval", str(tmp_path)]) == 1
    assert "labels file not found" in capsys.readouterr().err


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
        assert _run(["dice", "eval", str(tmp_path), "--holdout-every", "5"]) == 0
        err = capsys.readouterr().err
        assert "the classifier with --holdout-every 0" in err and "detector" not in err
        assert _run(["dice", "eval", str(tmp_path)]) == 0
        assert "note" not in capsys.readouterr().err
    finally:
        nets._load.cache_clear()
