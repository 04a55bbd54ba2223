"""Quantize the dice reader's face classifier to 8-bit integers (ONNX Runtime static quantization).

Writes ``dice_face.int8.onnx`` beside the float model; the reader (``arena_table.vision.nets``)
runs it when ONNX Runtime is installed (about 1.4x faster on one x86 core with AVX2; CPUs with
8-bit dot products such as the Raspberry Pi 5's Cortex-A76 gain more) and falls back to the float
model with ``cv2.dnn``. The detector is not quantized: its 8-bit version ran no faster here
(``--what det`` makes it anyway).

Calibration uses the nets' real inputs: the reader runs over every 3rd labelled photo of
``../shared/data/dice`` and over rendered tables, and the tensors it feeds each net are
recorded. Weights are quantized per output channel (int8), activations per tensor (uint8), in
the QDQ format.

Run (needs ``pip install onnx onnxruntime``, e.g. in the training venv)::

    python tools/quantize_dice.py [--models arena_table/vision/models]

The 8-bit model records the SHA-256 of its float model (metadata ``float_sha256``); the reader runs
the float model instead, with a warning, beside any other float model.

Source: ONNX Runtime, "Quantize ONNX models" (static quantization, QDQ format).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from arena_table.vision import dice as reader  # noqa: E402
from arena_table.vision import nets  # noqa: E402
from arena_table.vision.dice_io import load_image  # noqa: E402
from arena_table.vision.labels import dice_set_dir, load_set  # noqa: E402
from arena_table.vision.render import random_table, render_table  # noqa: E402

SETS = ("byler_d6", "matteo_d6")


class _Recorder:
    """A stand-in net that records each input and forwards it to the float net."""

    def __init__(self, net, store: list):
        self.net, self.store = net, store

    def setInput(self, x):  # noqa: N802 - the cv2.dnn name
        self.store.append(np.array(x, np.float32))
        self.net.setInput(x)

    def forward(self):
        return self.net.forward()


def record_inputs(frames) -> dict[str, list[np.ndarray]]:
    """Inputs the reader gives each net while reading ``frames``: {"dice_det.onnx": [...], ...}."""
    store: dict[str, list[np.ndarray]] = {"dice_det.onnx": [], "dice_face.onnx": []}
    nets._load.cache_clear()
    float_load = nets._load

    def load(name):
        return _Recorder(float_load(name), store[name])

    nets._load = load
    try:
        for frame in frames:
            reader.read_dice(reader.DiceConfig(), frame)
    finally:
        nets._load = float_load
    return store


def calibration_frames(step: int = 3, rendered: int = 40, seed: int = 0):
    for name in SETS:
        for item in load_set(dice_set_dir(name))[::step]:
            yield load_image(item.path)
    rng = np.random.default_rng(seed)
    for _ in range(rendered):
        yield render_table(random_table(rng, 1280, 720, n_dice=10, touching_pairs=1), rng)[0]


def quantize(src: Path, dst: Path, inputs: list[np.ndarray]) -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.it = iter(inputs)

        def get_next(self):
            x = next(self.it, None)
            return None if x is None else {"input": x}

    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:  # ONNX Runtime leaves scratch files in the working folder
        os.chdir(tmp)
        try:
            pre = Path(tmp) / "pre.onnx"
            quant_pre_process(str(src.resolve()), str(pre), skip_symbolic_shape=True)  # the detector: dynamic H, W
            quantize_static(str(pre), str(dst.resolve()), Reader(), quant_format=QuantFormat.QDQ,
                            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True)
        finally:
            os.chdir(here)
    stamp_source(src, dst)


def stamp_source(src: Path, dst: Path) -> None:
    """Record in 8-bit model ``dst`` the SHA-256 of float model ``src`` it was made from
    (``nets.INT8_SOURCE_KEY``): the reader runs an 8-bit model only beside that very float model."""
    import onnx

    model = onnx.load(str(dst))
    for prop in [p for p in model.metadata_props if p.key == nets.INT8_SOURCE_KEY]:
        model.metadata_props.remove(prop)
    entry = model.metadata_props.add()
    entry.key, entry.value = nets.INT8_SOURCE_KEY, nets.file_sha256(src)
    onnx.save(model, str(dst))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=str(nets.MODEL_DIR),
                    help="folder with dice_det.onnx and/or dice_face.onnx (default: the shipped models); "
                         "the reader's other model, for calibration, is the shipped one")
    ap.add_argument("--what", choices=["face", "det", "both"], default="face")
    a = ap.parse_args(argv)
    models = Path(a.models).expanduser()
    names = {"face": ["dice_face.onnx"], "det": ["dice_det.onnx"]}.get(a.what, ["dice_det.onnx", "dice_face.onnx"])
    names = [name for name in names if (models / name).is_file()]
    if not names:
        print(f"error: {models}: no {a.what} model to quantize", file=sys.stderr)
        return 1
    for name in nets.MODEL_NAMES:  # never calibrate through an older int8 model
        (models / name.replace(".onnx", ".int8.onnx")).unlink(missing_ok=True)
    if models.resolve() != nets.MODEL_DIR.resolve():
        try:
            nets.use_models(models)  # a candidate folder (an --out of train_dice.py); what it lacks is shipped
        except nets.ModelMissing as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
    inputs = record_inputs(calibration_frames())
    for name in names:
        xs = inputs[name]
        dst = models / name.replace(".onnx", ".int8.onnx")
        quantize(models / name, dst, xs)
        print(f"{dst}: calibrated on {len(xs)} inputs, {dst.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
