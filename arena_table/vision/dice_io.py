"""Load an image file for the dice reader, with one-line typed errors.

>>> load_image("/nonexistent/photo.jpg")
Traceback (most recent call last):
...
arena_table.vision.errors.UnreadableImage: /nonexistent/photo.jpg: missing (no such file)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .errors import UnreadableImage

_MAGIC = {b"\xff\xd8\xff": "jpeg", b"\x89PNG\r\n\x1a\n": "png", b"BM": "bmp", b"RIFF": "webp",
          b"II*\x00": "tiff", b"MM\x00*": "tiff", b"GIF8": "gif"}


def _kind(data: bytes) -> str | None:
    return next((k for magic, k in _MAGIC.items() if data.startswith(magic)), None)


def _truncated(kind: str | None, data: bytes) -> bool:
    tail = data.rstrip(b"\x00")
    if kind == "jpeg":
        return not tail.endswith(b"\xff\xd9")
    if kind == "png":
        return b"IEND" not in data[-64:]
    return False


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as an HxWx3 uint8 BGR array.

    Args:
        path: image file (JPEG, PNG, BMP, WebP, TIFF... anything OpenCV decodes).

    Returns:
        HxWx3 uint8 BGR array (grey and alpha images are converted).

    Raises:
        UnreadableImage: one line naming the file and the problem: missing,
            a directory, empty, not an image, or truncated/corrupt.
    """
    p = Path(path)
    if not p.exists():
        raise UnreadableImage(f"{path}: missing (no such file)")
    if p.is_dir():
        raise UnreadableImage(f"{path}: is a directory, not an image")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise UnreadableImage(f"{path}: cannot read ({exc.strerror})") from exc
    if not data:
        raise UnreadableImage(f"{path}: empty file")
    kind = _kind(data)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        if kind is None:
            raise UnreadableImage(f"{path}: not an image (cannot decode)")
        raise UnreadableImage(f"{path}: corrupt or truncated {kind} (cannot decode)")
    if _truncated(kind, data):
        raise UnreadableImage(f"{path}: truncated {kind} (no end-of-image marker)")
    return img
