"""The two shipped CNNs (die detector, face classifier), run with ONNX Runtime.

Both were trained by ``tools/train_dice.py`` on the labelled photos in
``../shared/data/dice`` plus rendered tables, and ship as ONNX in
``arena_table/vision/models``. ONNX Runtime (one intra-op thread) runs them
about three times faster than ``cv2.dnn`` on one core, the classifier as an
8-bit model (``dice_face.int8.onnx``, ``tools/quantize_dice.py``: 1.4x faster
again); ``cv2.dnn`` runs the float models when the ``onnxruntime`` package is
not installed.
Inputs are standardised per colour channel (mean 0, unit spread) so global
exposure and colour cast do not change what the nets see.

Shapes:
    detector: ``1x3xHxW`` float32 (H, W multiples of 8) -> ``1x4x(H/4)x(W/4)``:
    centre logit, log die side (working px), x and y offset in cells.
    classifier: ``Nx3xCROPxCROP`` -> ``Nx8`` logits: 0 = no die centred here,
    1..6 = face value, 7 = a die whose face is not a d6 pip face (logo, 7+ pips).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .errors import ModelMissing

log = logging.getLogger(__name__)

STRIDE = 4
"""Detector output stride in working pixels."""
WORK_LONG = 320
"""Long side (px) a frame is scaled to for the detector when no die size is configured."""
WORK_DIE = 20.0
"""Die side (working px) the detector sees best; used to pick the scale from ``DiceConfig.die_size_px``."""
CROP = 40
"""Classifier input side (px)."""
CROP_SPAN = 1.4
"""Classifier crop side as a multiple of the die side."""
STD_FLOOR = 8.0
"""Added to the channel spread so flat images are not blown up to noise."""
MODEL_DIR = Path(__file__).resolve().parent / "models"
DET_ONE_RUN_PX = 360_000
"""Largest input (working px, height x width) the detector runs whole: the size passes of a
1920x1080 frame (636x360 at most). A larger input (a search for small dice scales the frame up)
runs in tiles (:func:`detect_map`): a 1824x1024 input took 130 MB more memory in one run."""
DET_TILE = 512
"""Side (working px, a multiple of 8) of a tile's own part of a tiled detector output; with its
margins an inner tile's input is 672x672. The margins cost compute: about the same time as one
run for 1448x816, up to a third more for an input just over two tiles a side (1032x1032)."""
CLASSIFY_BATCH = 64
"""Most crops the classifier runs at once (a frame has 10-30; a size search hundreds)."""
DET_MARGIN = 80
"""Input px each tile reaches beyond its part of the output, a multiple of 8 so the tiles keep the
stride grid. An output cell sees 63 px each way (3x3 convolutions at strides 2, 4 and 8, dilations
2 and 4) plus one stride-8 cell through the nearest upsampling: 72 px gives a tiled output equal to
one run's (``tests/vision/test_nets.py``), 80 keeps a cell in hand."""


DET_STD_MIN = 40.0
"""Least channel spread (grey levels) the detector's input is divided by: a lone die on a plain
table must not be blown up to extreme contrast (the detector then over-sizes it)."""
CLASSES = 8
"""Classifier outputs: 0 no die, 1..6 faces, ``ODD`` a die face that is not a d6 pip face."""
ODD = 7


def standardise_frame(img: np.ndarray, stats: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Detector input: HxWx3 image -> 3xHxW float32, per-channel mean 0, divided by
    ``max(spread, DET_STD_MIN)``; ``stats``: the (mean, spread) to use (``cv2.meanStdDev`` of a
    larger image ``img`` is a tile of), default ``img``'s own."""
    mean, std = cv2.meanStdDev(img) if stats is None else stats
    blob = cv2.dnn.blobFromImage(img, 1.0, mean=tuple(mean.ravel()), swapRB=False)[0]  # CHW, mean removed
    blob *= (1.0 / np.maximum(std.reshape(3, 1, 1), DET_STD_MIN)).astype(np.float32)
    return blob


class _OrtNet:
    """A ``cv2.dnn.Net``-like wrapper (``setInput`` / ``forward``) around an ONNX Runtime session."""

    def __init__(self, session, path: Path):
        self.path = path
        self._session = session
        self._input = session.get_inputs()[0].name
        self._x = None

    def setInput(self, x):  # noqa: N802 - the cv2.dnn name
        self._x = np.ascontiguousarray(x, np.float32)

    def forward(self):
        return self._session.run(None, {self._input: self._x})[0]

    def metadata(self) -> dict[str, str]:
        """The model file's ``metadata_props`` (ONNX custom metadata)."""
        return dict(self._session.get_modelmeta().custom_metadata_map)


def _load_ort(path: Path):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1  # the reader shares the Pi with the camera, web and token threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return _OrtNet(ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"]), path)


INT8_SOURCE_KEY = "float_sha256"
"""Metadata key of an ``*.int8.onnx`` holding the SHA-256 of the float model it was quantized from
(written by ``tools/quantize_dice.py``)."""


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


USE_INT8 = True
"""Run the 8-bit models (``*.int8.onnx``, made by ``tools/quantize_dice.py``) when ONNX Runtime is
installed and they are present; ``cv2.dnn`` always runs the float models."""


MODEL_NAMES = ("dice_det.onnx", "dice_face.onnx")
_candidates_dir: Path | None = None


def use_models(directory: str | Path | None) -> None:
    """Read with the models in ``directory`` instead of the shipped ones (``MODEL_DIR``).

    ``directory`` holds ``dice_det.onnx`` and/or ``dice_face.onnx`` (an ``--out`` folder of
    ``tools/train_dice.py``), each with its optional ``*.int8.onnx`` and ``train_*.json``; a model
    it lacks is the shipped one. Each model found is loaded and run once on a blank input of its
    kind's shape (:func:`check_model`), so an unusable one is refused here, not at the first die.
    ``None``: the shipped models again.

    Raises:
        ModelMissing: ``directory`` is not a readable folder, holds neither model, or a model in it
            cannot be loaded or does not take and give the shapes of its kind (the shipped models
            stay in use).
    """
    global _candidates_dir
    if directory is None:
        _candidates_dir = None
        _load.cache_clear()
        return
    folder = Path(directory)
    try:
        is_dir = bool(str(directory).strip()) and folder.is_dir()
        found = [name for name in MODEL_NAMES if (folder / name).is_file()] if is_dir else []
        folder = folder.resolve()
    except OSError as exc:  # ModelMissing is an OSError too: raised only outside this block
        raise ModelMissing(f"{folder}: cannot read the folder ({exc.strerror or exc})") from None
    if not is_dir:
        raise ModelMissing(f"{str(directory) or repr(directory)}: no such folder of dice models")
    if not found:
        raise ModelMissing(f"{folder}: holds neither {' nor '.join(MODEL_NAMES)}")
    _candidates_dir = folder
    _load.cache_clear()
    try:
        for name in found:
            check_model(name)
    except ModelMissing:
        _candidates_dir = None
        _load.cache_clear()
        raise


_PROBES = {"dice_det.onnx": ("detector", (1, 3, 96, 128), {(1, 4, 24, 32)}),
           "dice_face.onnx": ("classifier", (2, 3, CROP, CROP), {(2, CLASSES), (2, CLASSES - 1)})}
"""Per model: its kind, a blank input and the output shapes a model of that kind gives for it."""


def check_model(name: str) -> None:
    """Load model ``name`` (one of ``MODEL_NAMES``) and run it once on a blank input.

    Raises:
        ModelMissing: it cannot be loaded, refuses the input or gives an output of another shape;
            the message names the file read (the ``*.int8.onnx`` when that is the one used).
    """
    kind, shape, outputs = _PROBES[name]
    net = _load(name)
    path = loaded_path(name)
    try:
        net.setInput(np.zeros(shape, np.float32))
        got = tuple(np.asarray(net.forward()).shape)
    except Exception as exc:  # onnxruntime and cv2.dnn raise their own exception types
        said = _line(exc, 0).split(" : ")[-1]  # ONNX Runtime: "[ONNXRuntimeError] : 2 : KIND : what"
        raise ModelMissing(f"{path}: not a dice {kind} (it refuses a {_dims(shape)} input: {said:.160})") from exc
    if got not in outputs:
        want = " or ".join(map(_dims, sorted(outputs)))
        raise ModelMissing(f"{path}: not a dice {kind} (a {_dims(shape)} input gives {_dims(got)}, not {want})")


def _dims(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape))


def _line(exc: BaseException, index: int = -1) -> str:
    """One line of an exception's message (the last by default), or its type's name."""
    lines = str(exc).strip().splitlines()
    return lines[index] if lines else type(exc).__name__


def model_path(name: str) -> Path:
    """Where float model ``name`` (one of ``MODEL_NAMES``) is read from (see :func:`use_models`)."""
    if _candidates_dir is not None and (_candidates_dir / name).is_file():
        return _candidates_dir / name
    return MODEL_DIR / name


def _int8_path(name: str) -> Path | None:
    """The 8-bit model beside ``model_path(name)`` that ONNX Runtime would run, or ``None``."""
    int8 = model_path(name).with_name(name.replace(".onnx", ".int8.onnx"))
    return int8 if USE_INT8 and int8.is_file() else None


def loaded_path(name: str) -> Path:
    """The file model ``name`` is run from: its ``*.int8.onnx`` under ONNX Runtime when there is
    one beside it, else the float model (``cv2.dnn`` runs only float models)."""
    net = _load(name)
    return getattr(net, "path", None) or model_path(name)


@lru_cache(maxsize=4)
def _load(name: str):
    path = model_path(name)
    if not path.is_file():
        raise ModelMissing(f"{path}: dice model not installed")
    tried = _int8_path(name) or path
    try:
        net = _load_ort(tried)
        if tried != path and net.metadata().get(INT8_SOURCE_KEY) != file_sha256(path):
            # a stale 8-bit model (the float one retrained or replaced since) would read with the old weights
            log.warning("%s was not quantized from the %s beside it (no or another %s record); running the "
                        "float model: re-run tools/quantize_dice.py", tried.name, path.name, INT8_SOURCE_KEY)
            tried = path
            net = _load_ort(path)
        return net
    except ImportError:
        pass
    except Exception as exc:  # onnxruntime raises its own exception types
        raise ModelMissing(f"{tried}: cannot load dice model ({_line(exc)})") from exc
    # Fallback: the classic cv2.dnn engine runs these small fixed-topology nets fastest of OpenCV's.
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    try:
        if engine is None:
            return cv2.dnn.readNetFromONNX(str(path))
        return cv2.dnn.readNetFromONNX(str(path), engine=engine)
    except cv2.error as exc:
        raise ModelMissing(f"{path}: cannot load dice model ({_line(exc)})") from exc


def trained_holdouts() -> dict[str, int | None]:
    """``holdout_every`` each model in use (see :func:`use_models`) was trained with:
    ``{"detector": N, "classifier": N}`` (0: every photo was used; ``None``: its ``train_*.json`` record is missing or unreadable)."""
    import json

    out: dict[str, int | None] = {}
    for model, name in (("detector", "det"), ("classifier", "face")):
        record = model_path(f"dice_{name}.onnx").with_name(f"train_{name}.json")
        try:
            out[model] = int(json.loads(record.read_text())["holdout_every"])
        except (OSError, ValueError, KeyError, TypeError):
            out[model] = None
    return out


_RUN_LOCKS = {name: threading.Lock() for name in MODEL_NAMES}
"""One lock per model: ``setInput`` then ``forward`` is one step (a ``cv2.dnn.Net`` and
:class:`_OrtNet` keep the input between the two calls), so readers on several threads (the camera
loop's read and the control page's overlay) may share the loaded models."""


def _forward(name: str, net, x: np.ndarray) -> np.ndarray:
    with _RUN_LOCKS[name]:
        net.setInput(x)
        return net.forward()


def detect_map(work: np.ndarray) -> np.ndarray:
    """Run the detector on a working-scale BGR image.

    Args:
        work: HxWx3 uint8 image with H and W multiples of 8.

    Returns:
        4x(H/4)x(W/4) float32: centre logit, log side, dx, dy.

    Raises:
        ModelMissing: the weights are not installed.
    """
    net = _load("dice_det.onnx")
    h, w = work.shape[:2]
    if h * w <= DET_ONE_RUN_PX:
        return _forward("dice_det.onnx", net, standardise_frame(work)[None])[0]
    # A large input (a search for small dice scales the frame up) runs in overlapping tiles, each
    # standardised with the whole image's statistics, so the detector's memory stays that of one
    # tile: the result is the same as one run's.
    stats = cv2.meanStdDev(work)
    ny, nx = -(-h // DET_TILE), -(-w // DET_TILE)
    out = np.empty((4, h // STRIDE, w // STRIDE), np.float32)
    ys, xs = _tile_edges(h, ny), _tile_edges(w, nx)
    for y0, y1 in zip(ys, ys[1:]):
        for x0, x1 in zip(xs, xs[1:]):
            a, b = max(0, y0 - DET_MARGIN), max(0, x0 - DET_MARGIN)
            part = work[a:min(h, y1 + DET_MARGIN), b:min(w, x1 + DET_MARGIN)]
            tile = _forward("dice_det.onnx", net, standardise_frame(part, stats)[None])[0]
            out[:, y0 // STRIDE:y1 // STRIDE, x0 // STRIDE:x1 // STRIDE] = \
                tile[:, (y0 - a) // STRIDE:(y1 - a) // STRIDE, (x0 - b) // STRIDE:(x1 - b) // STRIDE]
    return out


def _tile_edges(n: int, parts: int) -> list[int]:
    """``parts + 1`` edges from 0 to ``n`` (a multiple of 8), every inner edge a multiple of 8."""
    step = -(-n // parts // 8) * 8
    return [min(n, k * step) for k in range(parts)] + [n]


def classify(crops: np.ndarray) -> np.ndarray:
    """Face probabilities for a stack of die crops.

    Args:
        crops: Nx CROP x CROP x3 uint8 BGR crops centred on candidate dice.

    Returns:
        Nx8 float32 softmax probabilities (column 0: no die centred here, k: face k,
        7: a die whose face is not a d6 pip face).

    Raises:
        ModelMissing: the weights are not installed.
    """
    if len(crops) == 0:
        return np.zeros((0, CLASSES), np.float32)
    net = _load("dice_face.onnx")
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32)  # N x 3 x CROP x CROP
    flat = x.reshape(len(x), 3, -1)
    flat -= flat.mean(2, keepdims=True)
    flat /= np.sqrt((flat * flat).mean(2, keepdims=True)) + STD_FLOOR
    logits = []
    for k in range(0, len(x), CLASSIFY_BATCH):  # a search's hundreds of candidates in batches
        batch = x[k:k + CLASSIFY_BATCH]
        logits.append(_forward("dice_face.onnx", net, batch).reshape(len(batch), -1))
    logits = np.concatenate(logits)
    if logits.shape[1] < CLASSES:  # an older 7-class model: no "odd face" column
        logits = np.hstack([logits, np.full((len(crops), CLASSES - logits.shape[1]), -1e4, np.float32)])
    e = np.exp(logits - logits.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def face_probs(p: np.ndarray) -> tuple[int, float, float]:
    """Read one row of :func:`classify`: (best face 1..6, its probability given a die is there,
    probability of an odd face given a die is there)."""
    v = p.tolist()  # plain floats: a reader calls this dozens of times a frame on 8 numbers
    die = sum(v[1:]) or 1.0
    faces = v[1:ODD]
    best = faces.index(max(faces)) + 1
    return best, v[best] / die, v[ODD] / die
