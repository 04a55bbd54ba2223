"""``--models DIR``: score, read and bench with candidate dice models (``nets.use_models``)."""

import shutil

import cv2
import numpy as np
import pytest

from arena_table.vision import nets
from arena_table.vision.errors import ModelMissing
from arena_table.vision.render import DieSpec, TableSpec, render_table
from tests.vision.test_dice_cli import _run


@pytest.fixture(autouse=True)
def _shipped_models_after():
    yield
    nets.use_models(None)


def _labelled_threes(folder, n=5):
    frame, _ = render_table(TableSpec(640, 480, dice=(DieSpec(3, (320.0, 240.0), 36.0, angle=10),)),
                            np.random.default_rng(0))
    for i in range(n):
        cv2.imwrite(str(folder / f"img{i}.png"), frame)
    (folder / "labels.csv").write_text("image,values\n" + "".join(f"img{i}.png,3\n" for i in range(n)))


def _candidate(tmp_path, holdout_every):
    """A candidate folder with the shipped float classifier alone and its training record."""
    cand = tmp_path / "cand"
    cand.mkdir()
    shutil.copy(nets.MODEL_DIR / "dice_face.onnx", cand)
    (cand / "train_face.json").write_text(f'{{"holdout_every": {holdout_every}}}')
    return cand


def test_a_candidate_classifier_is_read_without_the_shipped_int8_one(tmp_path):
    pytest.importorskip("onnxruntime")
    cand = _candidate(tmp_path, 5)
    assert nets._load("dice_face.onnx").path.name == "dice_face.int8.onnx"  # shipped: the 8-bit model
    nets.use_models(cand)
    assert nets.model_path("dice_face.onnx") == cand.resolve() / "dice_face.onnx"
    assert nets.model_path("dice_det.onnx") == nets.MODEL_DIR / "dice_det.onnx"  # not in the folder: shipped
    assert nets._load("dice_face.onnx").path == cand.resolve() / "dice_face.onnx"
    nets.use_models(None)
    assert nets._load("dice_face.onnx").path.name == "dice_face.int8.onnx"


def test_eval_with_models_scores_the_candidate_and_reads_its_training_record(tmp_path, capsys):
    _labelled_threes(tmp_path)
    cand = _candidate(tmp_path, 5)
    # shipped pair: detector held out every 5th photo, classifier trained on every photo
    assert _run(["dice", "eval", str(tmp_path), "--holdout-every", "5"]) == 0
    assert "the classifier was trained with every photo" in capsys.readouterr().err
    # the candidate classifier's own record says every 5th photo was held out: no note
    assert _run(["dice", "eval", str(tmp_path), "--holdout-every", "5", "--models", str(cand), "--json"]) == 0
    out = capsys.readouterr()
    assert "note" not in out.err
    assert '"per_die_accuracy": 1.0' in out.out  # img0 and the 5th, both the rendered 3


def test_a_broken_candidate_is_a_clean_error_and_the_shipped_models_stay(tmp_path, capsys):
    _labelled_threes(tmp_path)
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "dice_face.onnx").write_bytes(b"not an onnx model")
    assert _run(["dice", "eval", str(tmp_path), "--models", str(cand)]) == 1
    err = capsys.readouterr().err
    assert "dice_face.onnx: cannot load dice model" in err and str(cand) in err
    assert "Traceback" not in err
    nets.use_models(None)
    assert _run(["dice", "eval", str(tmp_path)]) == 0


@pytest.mark.parametrize("make, said", [
    (lambda p: p / "missing", "no such folder of dice models"),
    (lambda p: p, "holds neither dice_det.onnx nor dice_face.onnx"),
])
def test_models_flag_refuses_a_folder_without_models(tmp_path, capsys, make, said):
    _labelled_threes(tmp_path)
    folder = make(tmp_path)
    for argv in (["dice", "eval", str(tmp_path)], ["dice", "read", str(tmp_path / "img0.png")],
                 ["bench", "dice", "--timing-frames", "1", "--stress-frames", "1"]):
        assert _run(argv + ["--models", str(folder)]) == 2
        assert f"error: --models: {folder}: {said}" in capsys.readouterr().err
    with pytest.raises(ModelMissing, match=said):
        nets.use_models(folder)


def test_bench_names_the_models_it_timed(tmp_path, capsys, monkeypatch):
    import json

    from arena_table.vision import bench

    monkeypatch.setattr(bench, "REAL_SETS", ())  # the shared sets are scored in test_dice_cli
    cand = _candidate(tmp_path, 5)
    argv = ["bench", "dice", "--json", "--stress-frames", "1", "--timing-frames", "1"]
    assert _run(argv + ["--models", str(cand)]) == 0
    models = json.loads(capsys.readouterr().out)["models"]
    assert models == {"dice_det.onnx": str(nets.MODEL_DIR / "dice_det.onnx"),
                      "dice_face.onnx": str(cand.resolve() / "dice_face.onnx")}
