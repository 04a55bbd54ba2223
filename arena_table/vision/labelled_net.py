"""A small ONNX classifier whose output labels are stored in the model file, run with ONNX Runtime.

The die-kind face net (``kind_face.onnx``, labels under the metadata key ``glyphs``) and the
polyhedral die net (``poly_face.onnx``, key ``classes``) are both loaded and run this way: one
intra-op thread (the camera loop's budget is one core), one lock (an ONNX Runtime session is shared
by the camera thread and the web app's threads), and a softmax over the logits.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

from .errors import ModelMissing


class LabelledNet:
    """The ONNX model at ``path`` with its label list (``labels``) read from the metadata entry
    ``key``; ``what`` names the model in errors ("the kind face model").

    Raises:
        ModelMissing: no file, not loadable by ONNX Runtime, or without the ``key`` entry.
    """

    def __init__(self, path: Path, key: str, what: str):
        path = Path(path)
        if not path.is_file():
            raise ModelMissing(f"{path}: {what} not installed")
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - onnxruntime is a dependency
            raise ModelMissing(f"{what} needs onnxruntime") from exc
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise ModelMissing(f"{path}: cannot load {what} ({exc})") from exc
        meta = self.session.get_modelmeta().custom_metadata_map
        if key not in meta:
            raise ModelMissing(f"{path}: no {key} list in its metadata (not {what})")
        self.labels: tuple[str, ...] = tuple(json.loads(meta[key]))
        self.input = self.session.get_inputs()[0].name
        self._lock = threading.Lock()

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Softmax (N x len(labels)) of the net's logits for the float32 input ``x`` (N x ...)."""
        with self._lock:
            logits = self.session.run(None, {self.input: np.ascontiguousarray(x, np.float32)})[0]
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
