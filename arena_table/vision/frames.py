"""Frames and what travels with them, free of any camera API.

:class:`Frame` (what every source hands out), the camera edge's typed errors,
pixel-format conversions to OpenCV's BGR order (picamera2's formats are named
after DRM fourccs, so ``XRGB8888`` is ``[B, G, R, X]`` in memory) and
:class:`Calibration`, which is valid only at the resolution it was made at.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import cv2
import numpy as np

from .errors import VisionError

Clock = Callable[[], float]
"""Seconds, monotonic (``time.monotonic``); tests inject a fake."""
ErrorCallback = Callable[[str], None]
"""Told one line per problem that does not stop a source (a bad file in a folder)."""


def ignore(*_: object) -> None:
    """The default callback: does nothing."""


class CameraError(VisionError):
    """Base of the camera edge's failures."""


class CameraUnavailable(CameraError, ConnectionError):
    """No frame could be had: the camera is missing, busy, lost or not installed."""


class EndOfStream(CameraError, EOFError):
    """A finite source (video file, folder of photos) has no more frames."""


class CalibrationMismatch(CameraError, ValueError):
    """Calibration made at one resolution was offered frames of another."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One frame from a source."""

    image: np.ndarray
    """BGR, ``HxWx3`` uint8."""
    t: float
    """Capture time in seconds on the source's clock (monotonic for cameras, the file's
    clock for video, ``1/fps`` steps for photos); only differences are meaningful."""
    index: int
    """Running number of the frame from this source, 0-based; gaps mean dropped frames."""
    name: str
    """Where it came from: ``camera:0``, ``picamera2``, ``sim``, a file name."""
    cut: bool = False
    """True on the first frame of a new still photo: frame-to-frame motion across it is
    meaningless, so the settle detector treats it as a whole new scene."""

    def __repr__(self) -> str:
        h, w = self.image.shape[:2]
        return f"Frame({self.name!r}, #{self.index}, t={self.t:.3f}, {w}x{h}{', cut' if self.cut else ''})"


# --- pixel formats -----------------------------------------------------------------------------

def to_bgr(image: np.ndarray) -> np.ndarray:
    """An OpenCV frame (BGR, grey ``HxW`` or BGRA) as contiguous BGR ``HxWx3`` uint8.

    Raises:
        ValueError: an array that is not an 8-bit image.

    >>> to_bgr(np.full((2, 2), 7, np.uint8))[0, 0].tolist()
    [7, 7, 7]
    """
    if image is None or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise ValueError(f"not an 8-bit image: {getattr(image, 'dtype', None)} {getattr(image, 'shape', None)}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] == 3:
        return np.ascontiguousarray(image)
    raise ValueError(f"not an 8-bit image: {image.shape[2]} channels")


def xrgb8888_to_bgr(array: np.ndarray) -> np.ndarray:
    """picamera2 ``XRGB8888`` (``HxWx4``, bytes ``[B, G, R, X]`` per pixel) -> BGR.

    Source: Picamera2 manual, section 4.2.2 "Image formats": XRGB8888 pixels look
    like ``[B, G, R, 255]`` in Python.
    """
    return np.ascontiguousarray(array[:, :, :3])


def xbgr8888_to_bgr(array: np.ndarray) -> np.ndarray:
    """picamera2 ``XBGR8888`` (``HxWx4``, bytes ``[R, G, B, X]``) -> BGR (same manual section)."""
    return np.ascontiguousarray(array[:, :, 2::-1])


def yuv420_to_bgr(array: np.ndarray) -> np.ndarray:
    """picamera2 ``YUV420`` (planar I420: ``(3H/2)xW`` -- Y plane, then U, then V) -> BGR.

    The width must be the configured (aligned) width; ``Picamera2Source`` aligns its
    configuration so the array has no row padding.

    Raises:
        ValueError: the array does not have the ``3H/2 x W`` shape of I420.
    """
    if array.ndim != 2 or array.shape[0] % 3 or array.shape[1] % 2:
        raise ValueError(f"not a YUV420 (I420) array: shape {array.shape}")
    return cv2.cvtColor(array, cv2.COLOR_YUV2BGR_I420)


PICAMERA2_FORMATS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "XRGB8888": xrgb8888_to_bgr,
    "XBGR8888": xbgr8888_to_bgr,
    "YUV420": yuv420_to_bgr,
    "RGB888": np.ascontiguousarray,  # bytes [B, G, R]: already BGR
    "BGR888": lambda a: np.ascontiguousarray(a[:, :, ::-1]),  # bytes [R, G, B]
}
"""picamera2 main-stream formats this edge accepts, each with its conversion to BGR."""


# --- calibration -------------------------------------------------------------------------------

def _whole(v: Any) -> int:
    """A whole number from JSON (``1280`` or ``1280.0``), else ValueError (``true``, ``"12"``, ``12.5``)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
        raise ValueError(v)
    return int(v)


@dataclass(frozen=True)
class Calibration:
    """Per-camera set-up data, valid only at the resolution it was made at.

    >>> Calibration((640, 480)).check((1280, 720))
    Traceback (most recent call last):
    ...
    arena_table.vision.frames.CalibrationMismatch: calibration made at 640x480 cannot be used with 1280x720 frames; recalibrate at 1280x720
    """

    resolution: tuple[int, int]
    """(width, height) in pixels of the frames the calibration was made from."""
    tray: tuple[int, int, int, int] | None = None
    """The tray as (x, y, w, h) pixels; dice and motion outside it are ignored. None: whole frame."""
    die_size_px: float | None = None
    """Die side in pixels as the reader measures it (top face plus visible sides), made by
    ``arena-table dice calibrate``: the reader then looks for dice from side/1.6 to side*1.6
    (:func:`arena_table.vision.size_search.sized_config`). None: the automatic range."""
    made: str = ""
    """When it was made (ISO 8601), informative only."""

    def check(self, resolution: tuple[int, int]) -> None:
        """Refuse frames of another size.

        Raises:
            CalibrationMismatch: ``resolution`` (width, height) differs from :attr:`resolution`.
        """
        if tuple(resolution) != tuple(self.resolution):
            (cw, ch), (w, h) = self.resolution, resolution
            raise CalibrationMismatch(f"calibration made at {cw}x{ch} cannot be used with {w}x{h} frames; "
                                      f"recalibrate at {w}x{h}")

    def check_frame(self, frame: Frame) -> None:
        """:meth:`check` for a frame's image size."""
        h, w = frame.image.shape[:2]
        self.check((w, h))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Calibration":
        """Raises: CameraError naming the field: no or bad ``resolution``; a ``tray`` that is not
        [x, y, w, h] inside the resolution; a ``die_size_px`` that is not a number from 8 px
        (``size_search.sized_config``'s floor) to the frame's long side."""
        if not isinstance(obj, Mapping):
            raise CameraError(f"a calibration is a JSON object, got {type(obj).__name__}")
        try:
            res = tuple(_whole(v) for v in obj["resolution"])
            if len(res) != 2 or min(res) <= 0:
                raise ValueError(res)
        except (KeyError, TypeError, ValueError) as exc:
            raise CameraError(f"calibration has no valid resolution [width, height]: {obj!r:.80}") from exc
        tray = obj.get("tray")
        if tray is not None:
            try:
                tray = tuple(_whole(v) for v in tray)
                x, y, w, h = tray
            except (TypeError, ValueError):
                raise CameraError(f"calibration tray must be [x, y, width, height] pixels, got {tray!r:.60}") from None
            if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > res[0] or y + h > res[1]:
                raise CameraError(f"calibration tray {list(tray)} is empty or leaves the {res[0]}x{res[1]} frame")
        side = obj.get("die_size_px")
        if side is not None and (isinstance(side, bool) or not isinstance(side, (int, float))
                                 or not math.isfinite(side) or not 8 <= side <= max(res)):
            raise CameraError(f"calibration die_size_px must be a number of pixels from 8 to {max(res)} "
                              f"(the frame's long side), got {side!r:.40}")
        return cls(resolution=res, tray=tray, die_size_px=None if side is None else float(side),  # type: ignore[arg-type]
                   made=str(obj.get("made", "")))

    @classmethod
    def load(cls, path: str | Path) -> "Calibration":
        """Read a calibration JSON file.

        Raises:
            CameraError: the file is not a valid calibration (the message names the file and the field).
            OSError: it cannot be read.
        """
        try:
            return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8 text"
            raise CameraError(f"{path}: not a calibration file ({reason})") from exc
        except CameraError as exc:
            raise CameraError(f"{path}: {exc}") from exc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2))


class FrameSource:
    """Base of all sources: :meth:`read` the next frame, :meth:`close` when done.

    Context manager. ``read`` may block up to ``timeout`` seconds.
    """

    name = "source"

    def start(self) -> "FrameSource":
        """Begin capturing (threaded sources); idempotent. Reading starts it too."""
        return self

    def read(self, timeout: float | None = 2.0) -> Frame:
        """The next frame.

        Raises:
            CameraUnavailable: no frame within ``timeout`` seconds (camera missing/busy/lost).
            EndOfStream: a finite source is exhausted.
        """
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> "FrameSource":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
