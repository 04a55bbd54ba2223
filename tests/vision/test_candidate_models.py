"""``--models DIR``: score, read and bench with candidate dice models (``nets.use_models``)."""

import json
import shutil

import cv2
import numpy as np
import pytest
from cli_kit import run_cli

from arena_table.vision import nets
from arena_table.vision.errors import ModelMissing
from arena_table.vision.render import DieSpec, TableSpec, render_table


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
    assert run_cli(["dice", "eval", str(tmp_path), "--holdout-every", "5"]) == 0
    assert "the classifier was trained with every photo" in capsys.readouterr().err
    # the candidate classifier's own record says every 5th photo was held out: no note
    assert run_cli(["dice", "eval", str(tmp_path), "--holdout-every", "5", "--models", str(cand), "--json"]) == 0
    out = capsys.readouterr()
    assert out.err == f"note: reading with the shipped dice_det, dice_face.onnx from {cand}\n"  # no holdout note
    m = json.loads(out.out)
    assert m["per_die_accuracy"] == 1.0 and m["images"] == 1  # img0, the 1st of every 5, the rendered 3
    assert m["models"]["dice_face.onnx"] == str(cand.resolve() / "dice_face.onnx")


@pytest.mark.parametrize("broken, said", [
    ({"dice_face.onnx": b"not an onnx model"}, "dice_face.onnx: cannot load dice model"),
    # a trainer's mix-up: the detector saved under the classifier's name, and the reverse
    ({"dice_face.onnx": "dice_det.onnx"}, "dice_face.onnx: not a dice classifier (it refuses a 2x3x40x40 input"),
    ({"dice_det.onnx": "dice_face.onnx"}, "dice_det.onnx: not a dice detector (it refuses a 1x3x96x128 input"),
    # a good float model beside a broken 8-bit one: the error names the file that is run
    ({"dice_face.onnx": "dice_face.onnx", "dice_face.int8.onnx": b"junk"},
     "dice_face.int8.onnx: cannot load dice model"),
])
def test_an_unusable_candidate_is_refused_before_any_reading(tmp_path, capsys, broken, said):
    pytest.importorskip("onnxruntime")
    _labelled_threes(tmp_path)
    cand = tmp_path / "cand"
    cand.mkdir()
    for name, content in broken.items():
        data = content if isinstance(content, bytes) else (nets.MODEL_DIR / content).read_bytes()
        (cand / name).write_bytes(data)
    for argv in (["dice", "eval", str(tmp_path)], ["dice", "read", str(tmp_path / "img0.png"), "--json"],
                 ["bench", "dice", "--timing-frames", "1", "--stress-frames", "1"]):
        assert run_cli(argv + ["--models", str(cand)]) == 2
        out = capsys.readouterr()
        assert out.out == ""  # nothing read, so no image is blamed for the model
        assert out.err.startswith(f"error: --models: {cand.resolve() / said}") and out.err.count("\n") == 1
    assert nets.model_path("dice_face.onnx") == nets.MODEL_DIR / "dice_face.onnx"  # the shipped pair stays
    assert run_cli(["dice", "eval", str(tmp_path)]) == 0


@pytest.mark.parametrize("make, said", [
    (lambda p: p / "missing", "no such folder of dice models"),
    (lambda p: p, "holds neither dice_det.onnx nor dice_face.onnx"),
    (lambda p: "", "no such folder of dice models"),
])
def test_models_flag_refuses_a_folder_without_models(tmp_path, capsys, make, said):
    _labelled_threes(tmp_path)
    folder = make(tmp_path)
    shown = folder or "''"
    for argv in (["dice", "eval", str(tmp_path)], ["dice", "read", str(tmp_path / "img0.png")],
                 ["bench", "dice", "--timing-frames", "1", "--stress-frames", "1"]):
        assert run_cli(argv + ["--models", str(folder)]) == 2
        assert f"error: --models: {shown}: {said}" in capsys.readouterr().err
    with pytest.raises(ModelMissing, match=said):
        nets.use_models(folder)


def test_bench_names_the_models_it_timed(tmp_path, capsys, monkeypatch):
    from arena_table.bench import dice as bench

    monkeypatch.setattr(bench, "REAL_SETS", ())  # the shared sets are scored in test_dice_cli
    cand = _candidate(tmp_path, 5)
    argv = ["bench", "dice", "--json", "--stress-frames", "1", "--timing-frames", "1"]
    assert run_cli(argv + ["--models", str(cand)]) == 0
    models = json.loads(capsys.readouterr().out)["models"]
    assert models == {"dice_det.onnx": str(nets.MODEL_DIR / "dice_det.onnx"),
                      "dice_face.onnx": str(cand.resolve() / "dice_face.onnx")}
    assert run_cli(argv) == 0  # the shipped classifier runs as its 8-bit model, and says so
    assert json.loads(capsys.readouterr().out)["models"]["dice_face.onnx"] == str(nets.MODEL_DIR / "dice_face.int8.onnx")


def test_an_8bit_model_runs_only_beside_the_float_model_it_was_made_from(tmp_path, caplog):
    """``dice_face.int8.onnx`` records its float model's SHA-256 (``tools/quantize_dice.py``); beside
    another float model (retrained since) it would read with stale weights, so the float one runs."""
    pytest.importorskip("onnxruntime")
    cand = _candidate(tmp_path, 5)
    shutil.copy(nets.MODEL_DIR / "dice_face.int8.onnx", cand)
    nets.use_models(cand)
    assert nets.loaded_path("dice_face.onnx") == cand.resolve() / "dice_face.int8.onnx"  # its own float model
    # the same net saved again with a doc string (ONNX field 6): another file, as a retrained model is
    with open(cand / "dice_face.onnx", "ab") as f:
        f.write(b"\x32\x0bretrained 2")
    nets.use_models(cand)
    assert nets.loaded_path("dice_face.onnx") == cand.resolve() / "dice_face.onnx"
    assert "dice_face.int8.onnx was not quantized from the dice_face.onnx beside it" in caplog.text
    assert nets.classify(np.zeros((1, nets.CROP, nets.CROP, 3), np.uint8)).shape == (1, nets.CLASSES)


def test_the_shipped_8bit_classifier_records_its_float_model():
    ort = pytest.importorskip("onnxruntime")
    meta = ort.InferenceSession(str(nets.MODEL_DIR / "dice_face.int8.onnx")).get_modelmeta().custom_metadata_map
    assert meta[nets.INT8_SOURCE_KEY] == nets.file_sha256(nets.MODEL_DIR / "dice_face.onnx")
