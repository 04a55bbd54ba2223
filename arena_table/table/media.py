"""The media store: frames and die crops referenced by events (``image=``, ``crops=``).

Images are not put in the event log (it stays small and text); they are written as
JPEG files under ``<data dir>/media`` and events carry their reference, a relative
path such as ``2026-11-29/000123-frame.jpg``.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from arena_table.rules.kernel.events import MEDIA_REF as _REF


class MediaStore:
    """Writes images under ``root`` and resolves references back to files.

    Thread-safe; references never escape ``root`` (checked on resolve).
    """

    def __init__(self, root: str | Path, jpeg_quality: int = 85) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.jpeg_quality = jpeg_quality
        self._lock = threading.Lock()
        self._n = 0

    def save(self, image: np.ndarray, label: str, when: float | None = None) -> str:
        """Store a BGR ``image`` (HxWx3 uint8) as JPEG; returns its reference.

        Raises:
            ValueError: the array cannot be encoded as an image.
        """
        when = time.time() if when is None else when
        day = time.strftime("%Y-%m-%d", time.localtime(when))
        with self._lock:
            self._n += 1
            name = f"{int(when * 1000):013d}-{self._n:05d}-{re.sub(r'[^A-Za-z0-9_-]', '', label)[:40]}.jpg"
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        if not ok:
            raise ValueError(f"cannot encode {label} ({getattr(image, 'shape', '?')}) as JPEG")
        path = self.root / day / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(buf.tobytes())
        return f"{day}/{name}"

    def path(self, ref: str) -> Path:
        """The file behind ``ref``.

        Raises:
            KeyError: a malformed reference or one that names no stored file.
        """
        if not _REF.match(ref):
            raise KeyError(f"not a media reference: {ref!r}")
        p = self.root / ref
        if not p.is_file():
            raise KeyError(f"no such media: {ref}")
        return p
