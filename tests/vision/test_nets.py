"""The two shipped CNNs: shapes, the ONNX Runtime engine and its cv2.dnn fallback agree."""

import numpy as np
import pytest

from arena_table.vision import nets
from arena_table.vision.dice import crop_die
from arena_table.vision.errors import ModelMissing
from arena_table.vision.render import DieSpec, TableSpec, render_table


def crops_of(values):
    dice = tuple(DieSpec(v, (60.0 + 90 * i, 60.0), 40.0, 20.0 * i) for i, v in enumerate(values))
    frame = render_table(TableSpec(90 * len(values) + 40, 120, dice=dice), np.random.default_rng(0))[0]
    side = 40.0 * 1.25  # box side of a rotated die, as the detector reports it
    return np.stack([crop_die(frame, d.center[0], d.center[1], side, nets.CROP, nets.CROP_SPAN) for d in dice])


def test_classifier_reads_rendered_faces():
    p = nets.classify(crops_of([1, 2, 3, 4, 5, 6]))
    assert p.shape == (6, nets.CLASSES)
    np.testing.assert_allclose(p.sum(1), 1.0, atol=1e-5)
    assert p.argmax(1).tolist() == [1, 2, 3, 4, 5, 6]


def test_engines_agree(monkeypatch):
    crops = crops_of([2, 5, 6])
    work = np.random.default_rng(1).integers(0, 255, (96, 128, 3), dtype=np.uint8)
    monkeypatch.setattr(nets, "USE_INT8", False)  # cv2.dnn runs the float models
    nets._load.cache_clear()
    p_ort, heat_ort = nets.classify(crops), nets.detect_map(work)
    assert type(nets._load("dice_face.onnx")).__name__ == "_OrtNet"
    nets._load.cache_clear()
    monkeypatch.setattr(nets, "_load_ort", lambda path: (_ for _ in ()).throw(ImportError("no onnxruntime")))
    try:
        p_cv, heat_cv = nets.classify(crops), nets.detect_map(work)
        assert type(nets._load("dice_face.onnx")).__module__.startswith("cv2")
    finally:
        nets._load.cache_clear()
    np.testing.assert_allclose(p_ort, p_cv, atol=1e-3)
    np.testing.assert_allclose(heat_ort, heat_cv, atol=1e-3)


def test_int8_classifier_agrees_with_the_float_one(monkeypatch):
    assert (nets.MODEL_DIR / "dice_face.int8.onnx").is_file()
    crops = crops_of([1, 2, 3, 4, 5, 6])
    nets._load.cache_clear()
    try:
        p_int8 = nets.classify(crops)
        monkeypatch.setattr(nets, "USE_INT8", False)
        nets._load.cache_clear()
        p_float = nets.classify(crops)
    finally:
        nets._load.cache_clear()
    assert p_int8.argmax(1).tolist() == p_float.argmax(1).tolist() == [1, 2, 3, 4, 5, 6]
    np.testing.assert_allclose(p_int8, p_float, atol=0.05)


def test_missing_model_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(nets, "MODEL_DIR", tmp_path)
    nets._load.cache_clear()
    try:
        with pytest.raises(ModelMissing, match="dice_face.onnx"):
            nets.classify(np.zeros((1, nets.CROP, nets.CROP, 3), np.uint8))
    finally:
        nets._load.cache_clear()


def test_detector_input_is_per_channel_with_a_spread_floor():
    img = np.zeros((8, 8, 3), np.uint8)
    img[..., 2] = np.arange(64, dtype=np.uint8).reshape(8, 8) * 3  # spread 55.4 > DET_STD_MIN
    img[..., 1] = np.arange(64, dtype=np.uint8).reshape(8, 8) // 2  # spread 9.2: floored
    img[..., 0] = 200
    x = nets.standardise_frame(img)
    assert x.shape == (3, 8, 8) and x.dtype == np.float32
    np.testing.assert_allclose(x.reshape(3, -1).mean(1), 0.0, atol=1e-5)
    assert x[0].std() == 0.0
    assert abs(x[2].std() - 1.0) < 1e-5
    assert abs(x[1].std() - img[..., 1].std() / nets.DET_STD_MIN) < 1e-5


def test_trained_holdouts_read_the_training_records(tmp_path, monkeypatch):
    monkeypatch.setattr(nets, "MODEL_DIR", tmp_path)
    assert nets.trained_holdouts() == {"detector": None, "classifier": None}
    (tmp_path / "train_det.json").write_text('{"holdout_every": 5}')
    (tmp_path / "train_face.json").write_text('{"holdout_every": 0}')
    assert nets.trained_holdouts() == {"detector": 5, "classifier": 0}


def test_shipped_models_record_their_holdout():
    assert set(nets.trained_holdouts().values()) <= {0, 5}


def test_a_large_detector_input_runs_in_tiles_with_the_same_output(monkeypatch):
    dice = tuple(DieSpec(1 + i % 6, (90.0 + 130 * (i % 11), 90.0 + 150 * (i // 11)), 26.0, 17.0 * i)
                 for i in range(55))
    work = render_table(TableSpec(1448, 816, dice=dice), np.random.default_rng(3))[0]
    runs = []
    real_load = nets._load

    class Counting:
        def __init__(self, net):
            self.net = net

        def setInput(self, x):  # noqa: N802
            runs.append(x.shape)
            self.net.setInput(x)

        def forward(self):
            return self.net.forward()

    monkeypatch.setattr(nets, "_load", lambda name: Counting(real_load(name)))
    tiled = nets.detect_map(work)
    assert len(runs) == 6 and max(s[2] * s[3] for s in runs) <= (nets.DET_TILE + 2 * nets.DET_MARGIN) ** 2
    monkeypatch.setattr(nets, "DET_ONE_RUN_PX", 10**9)
    runs.clear()
    whole = nets.detect_map(work)
    assert runs == [(1, 3, 816, 1448)]
    assert tiled.shape == whole.shape == (4, 204, 362)
    np.testing.assert_allclose(tiled, whole, atol=1e-4)
    # the margin is what makes them equal: without it the tile seams differ
    monkeypatch.setattr(nets, "DET_ONE_RUN_PX", 1)
    monkeypatch.setattr(nets, "DET_MARGIN", 16)
    assert np.abs(nets.detect_map(work) - whole).max() > 0.05


def test_many_crops_are_classified_in_batches_with_the_same_result(monkeypatch):
    crops = np.concatenate([crops_of([1, 2, 3, 4, 5, 6])] * 25)  # 150 crops
    batched = nets.classify(crops)
    monkeypatch.setattr(nets, "CLASSIFY_BATCH", 1000)
    np.testing.assert_allclose(batched, nets.classify(crops), atol=1e-6)
    assert batched.argmax(1).tolist() == [1, 2, 3, 4, 5, 6] * 25


def test_two_threads_share_the_models_and_each_gets_its_own_answer(monkeypatch):
    # The camera loop's read and the control page's overlay run the reader on two threads
    # (camera_loop._read_frame). A net keeps its input from setInput to forward; a pause between
    # the two (here 2 ms) would let another thread's input in without nets._forward's lock.
    import threading
    import time

    real_load = nets._load

    class Slow:
        def __init__(self, net):
            self.net = net

        def setInput(self, x):  # noqa: N802 - the cv2.dnn name
            self.net.setInput(x)
            time.sleep(0.002)

        def forward(self):
            return self.net.forward()

    slow = {name: Slow(real_load(name)) for name in nets.MODEL_NAMES}
    monkeypatch.setattr(nets, "_load", lambda name: slow[name])
    rng = np.random.default_rng(3)
    works = [rng.integers(0, 255, (96, 128, 3), np.uint8) for _ in range(3)]
    crops = [rng.integers(0, 255, (3, nets.CROP, nets.CROP, 3), np.uint8) for _ in range(3)]
    want = [(nets.detect_map(w), nets.classify(c)) for w, c in zip(works, crops)]
    bad = []

    def run(k):
        for _ in range(10):
            got = nets.detect_map(works[k]), nets.classify(crops[k])
            if not (np.array_equal(got[0], want[k][0]) and np.array_equal(got[1], want[k][1])):
                bad.append(k)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not bad
