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


MAX_BYTES = 200 * 1024 * 1024
"""Largest image file read (bytes): a phone's RAW-size JPEG is under 50 MB."""
MAX_PIXELS = 120_000_000
"""Largest image decoded (pixels, from the file's header before decoding): a 108-megapixel phone
photo passes; a 30000x30000 PNG of under 1 MB (a decompression bomb) would need 2.7 GB."""


def _dimensions(kind: str | None, data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, GIF, BMP or JPEG header, or ``None`` when not found."""
    if kind == "png" and len(data) >= 24 and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if kind == "gif" and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if kind == "bmp" and len(data) >= 26:
        return abs(int.from_bytes(data[18:22], "little", signed=True)), abs(int.from_bytes(data[22:26], "little", signed=True))
    if kind == "jpeg":  # walk the segments to the first start-of-frame marker (ITU-T T.81, B.2.2)
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = int.from_bytes(data[i + 2:i + 4], "big")
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
            i += 2 + length
    return None


def _to_bgr8(img: np.ndarray | None) -> np.ndarray | None:
    """An image decoded unchanged (float samples read as 0..1, clipped; 16/32-bit integers scaled to
    their range; grey or with alpha) as HxWx3 uint8 BGR, or ``None`` for a layout it cannot take.

    >>> _to_bgr8(np.array([[0.5, 2.0]], np.float32)).tolist()
    [[[128, 128, 128], [255, 255, 255]]]
    """
    if img is None or img.ndim not in (2, 3) or (img.ndim == 3 and img.shape[2] not in (1, 3, 4)):
        return None
    if img.dtype.kind == "f":
        img = np.clip(np.nan_to_num(img.astype(np.float32)) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    elif img.dtype != np.uint8:
        top = float(np.iinfo(img.dtype).max) if img.dtype.kind in "ui" else 255.0
        img = np.clip(img.astype(np.float64) * (255.0 / top) + 0.5, 0, 255).astype(np.uint8)
    if img.ndim == 2 or img.shape[2] == 1:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(img, cv2.COLOR_BGRA2BGR) if img.shape[2] == 4 else img


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as an HxWx3 uint8 BGR array.

    Args:
        path: image file (JPEG, PNG, BMP, WebP, TIFF... anything OpenCV decodes).

    Returns:
        HxWx3 uint8 BGR array (grey images are converted; an alpha channel is dropped when every
        pixel is opaque).

    Raises:
        UnreadableImage: one line naming the file and the problem: missing,
            a directory or device, empty, too large (``MAX_BYTES``, ``MAX_PIXELS``), not an image,
            truncated/corrupt, or with transparent pixels (an alpha channel not fully opaque).
    """
    p = Path(path)
    if not p.exists():
        raise UnreadableImage(f"{path}: missing (no such file)")
    if p.is_dir():
        raise UnreadableImage(f"{path}: is a directory, not an image")
    if not p.is_file():
        raise UnreadableImage(f"{path}: not a regular file (a device or a pipe?)")
    if p.stat().st_size > MAX_BYTES:
        raise UnreadableImage(f"{path}: {p.stat().st_size / 2**20:.0f} MB is too large for an image "
                              f"(at most {MAX_BYTES // 2**20} MB)")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise UnreadableImage(f"{path}: cannot read ({exc.strerror})") from exc
    if not data:
        raise UnreadableImage(f"{path}: empty file")
    kind = _kind(data)
    size = _dimensions(kind, data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise UnreadableImage(f"{path}: {size[0]}x{size[1]} is too large to decode "
                              f"(at most {MAX_PIXELS // 1_000_000} megapixels)")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None and kind == "tiff":  # 32-bit float or integer samples: OpenCV decodes them only unchanged
        img = _to_bgr8(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED))
    if img is None:
        if kind is None:
            raise UnreadableImage(f"{path}: not an image (cannot decode)")
        raise UnreadableImage(f"{path}: corrupt or truncated {kind} (cannot decode)")
    if _truncated(kind, data):
        raise UnreadableImage(f"{path}: truncated {kind} (no end-of-image marker)")
    if kind in ALPHA_KINDS:
        _refuse_transparency(path, cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED))
    return img


ALPHA_KINDS = ("png", "webp", "tiff", "gif")
"""Image kinds that may carry an alpha channel, which ``IMREAD_COLOR`` drops without a word."""


def _refuse_transparency(path: str | Path, unchanged: np.ndarray | None) -> None:
    """Raise :class:`UnreadableImage` when ``unchanged`` (the file decoded as stored) has an alpha
    channel that is not fully opaque: what lies under a transparent pixel is not in the file, and
    reading the colour stored there (often black or white) could show or hide a die."""
    if unchanged is None or unchanged.ndim != 3 or unchanged.shape[2] != 4:
        return
    alpha = unchanged[..., 3]
    opaque = np.iinfo(alpha.dtype).max if alpha.dtype.kind in "ui" else 1.0
    clear = float(np.mean(alpha < opaque))
    if clear > 0:
        raise UnreadableImage(f"{path}: has transparent pixels ({clear:.1%} of the image): flatten it over the "
                              f"table's background (or save it without alpha) before reading the dice")
