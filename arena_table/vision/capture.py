"""The camera edge: every way a frame enters the program, and the only camera code.

A :class:`FrameSource` hands out :class:`Frame` objects (BGR ``HxWx3`` uint8 image,
timestamp in seconds, running index, a name). Backends:

* :class:`OpenCVSource` -- a camera by device index (``cv2.VideoCapture(0)``);
* :class:`VideoFileSource` -- a video file, every frame in order, timestamped by
  the file's own clock (``CAP_PROP_POS_MSEC``);
* :class:`Picamera2Source` -- the Raspberry Pi camera (``picamera2`` imported
  lazily, only on a Pi);
* :class:`~arena_table.vision.replay.FolderSource` -- still photos replayed in
  order, each held for ``still_frames`` identical frames so each photo settles
  into exactly one roll, and :class:`~arena_table.vision.replay.SimSource` --
  the simulated table of :mod:`arena_table.vision.sim` (no camera API: they live
  in :mod:`arena_table.vision.replay` and are re-exported here).

Live cameras are owned by one long-lived grabber thread (:class:`GrabberSource`)
that keeps only the newest frame, so :meth:`FrameSource.read` never returns a
stale buffered frame; a busy or missing camera is retried with back-off and
reported through ``on_status``; exposure and white balance are locked after
warm-up where the backend allows, and what the camera accepted is read back
and reported (:class:`CameraStatus`). :func:`open_source` maps a ``--camera``
spec to a source. Exposure-lock details per backend: ``docs/camera.md``.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import cv2
import numpy as np

from .frames import (PICAMERA2_FORMATS, CalibrationMismatch, CameraError, CameraUnavailable, Clock, EndOfStream,
                     ErrorCallback, Frame, FrameSource, ignore, to_bgr)
from .replay import FolderSource, SimSource

__all__ = ["Backoff", "CalibrationMismatch", "CameraError", "CameraStatus", "CameraUnavailable", "EndOfStream",
           "FolderSource", "Frame", "FrameSource", "GrabberSource", "OpenCVSource", "Picamera2Source", "SimSource",
           "VideoFileSource", "open_source"]


@dataclass(frozen=True)
class CameraStatus:
    """What a source reports to its ``on_status`` callback (shown on the dashboard)."""

    state: str
    """``opening``, ``warming``, ``ok``, ``retrying``, ``failed`` (will not retry), ``ended``, ``closed``."""
    detail: str = ""
    """One line for a person."""
    attempt: int = 0
    """Failed opening attempts in a row (``retrying``)."""
    retry_in: float | None = None
    """Seconds until the next attempt (``retrying``)."""
    exposure_locked: bool | None = None
    """True: auto exposure is off and read back off; False: asked and refused; None: not tried."""
    white_balance_locked: bool | None = None
    """As ``exposure_locked``, for auto white balance."""
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Values read back from the camera after locking (backend-specific names)."""
    resolution: tuple[int, int] | None = None
    """(width, height) of the frames delivered."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


StatusCallback = Callable[[CameraStatus], None]


@dataclass(frozen=True)
class Backoff:
    """Retry delays: ``initial * factor**(attempt-1)`` seconds, capped at ``maximum``.

    >>> [Backoff(0.5, 2.0, 4.0).delay(a) for a in (1, 2, 3, 4, 5)]
    [0.5, 1.0, 2.0, 4.0, 4.0]
    """

    initial: float = 0.5
    factor: float = 2.0
    maximum: float = 10.0

    def delay(self, attempt: int) -> float:
        return min(self.maximum, self.initial * self.factor ** max(0, attempt - 1))


# --- sources -----------------------------------------------------------------------------------

class GrabberSource(FrameSource):
    """A live camera owned by one grabber thread that keeps only the newest frame.

    Subclasses implement ``_open() -> (width, height)`` (raise to retry),
    ``_grab() -> BGR array | None`` (None: camera lost, reopen), ``_lock() ->
    CameraStatus fields`` and ``_release()``. Every frame gets an array of its own
    (a backend that hands back one refilled buffer is copied).

    Args:
        clock: timestamps frames (monotonic seconds; tests inject a fake).
        on_status: told of every state change (:class:`CameraStatus`); must not block.
        backoff: delays between opening attempts.
        warmup_s: seconds of frames (by ``clock``) let through auto exposure before locking;
            frames are delivered only after that.
        lock_exposure: lock exposure and white balance after warm-up.
    """

    def __init__(self, name: str, *, clock: Clock = time.monotonic, on_status: StatusCallback = ignore,
                 backoff: Backoff = Backoff(), warmup_s: float = 1.0, lock_exposure: bool = True) -> None:
        self.name = name
        self.clock = clock
        self.on_status = on_status
        self.backoff = backoff
        self.warmup_s = warmup_s
        self.lock_exposure = lock_exposure
        self.status = CameraStatus("opening", f"{name}: opening")
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._last_read = -1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._fatal: str | None = None

    def start(self) -> "GrabberSource":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"grab-{self.name}", daemon=True)
            self._thread.start()
        return self

    def read(self, timeout: float | None = 2.0) -> Frame:
        """The newest frame not returned before; waits for one if needed (see :class:`FrameSource`)."""
        self.start()
        with self._cond:
            ok = self._cond.wait_for(
                lambda: self._stop.is_set() or (self._latest is not None and self._latest.index > self._last_read),
                timeout)
            if not ok or self._latest is None or self._latest.index <= self._last_read:
                raise CameraUnavailable(f"no frame from {self.name} in {timeout}s: {self.status.detail}")
            self._last_read = self._latest.index
            return self._latest

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._report(CameraStatus("closed", f"{self.name}: closed"))

    # -- for subclasses ---------------------------------------------------------------------------
    def _open(self) -> tuple[int, int]:
        raise NotImplementedError

    def _grab(self) -> np.ndarray | None:
        raise NotImplementedError

    def _lock(self) -> dict[str, Any]:
        return {}

    def _release(self) -> None:
        pass

    def _fail(self, detail: str) -> None:
        """Give up for good (e.g. the backend is not installed): no more retries."""
        self._fatal = detail

    # -- the grabber ----------------------------------------------------------------------------
    def _report(self, status: CameraStatus) -> None:
        self.status = status
        try:
            self.on_status(status)
        except Exception:  # a broken listener must not stop the camera
            pass

    def _run(self) -> None:
        attempt = 0
        index = 0
        while not self._stop.is_set():
            self._report(CameraStatus("opening", f"{self.name}: opening", attempt=attempt))
            try:
                resolution = self._open()
            except Exception as exc:
                if self._fatal:
                    self._report(CameraStatus("failed", self._fatal))
                    break
                attempt += 1
                delay = self.backoff.delay(attempt)
                self._report(CameraStatus("retrying", f"{self.name}: {exc}; retry {attempt} in {delay:.1f} s",
                                          attempt=attempt, retry_in=delay))
                self._stop.wait(delay)
                continue
            attempt = 0
            self._report(CameraStatus("warming", f"{self.name}: warming up {self.warmup_s:.1f} s",
                                      resolution=resolution))
            warm_until: float | None = None
            live = False
            last: np.ndarray | None = None
            while not self._stop.is_set():
                try:
                    image = self._grab()
                except Exception as exc:  # a driver error is a lost camera, not a crash
                    image = None
                    lost = str(exc)
                else:
                    lost = "no frame"
                if image is None:
                    self._report(CameraStatus("retrying", f"{self.name}: lost ({lost}); reopening",
                                              attempt=1, retry_in=self.backoff.delay(1)))
                    self._stop.wait(self.backoff.delay(1))
                    break
                if image is last:  # a backend refilling one buffer: the settle detector takes an
                    image = image.copy()  # array handed in again for an unchanged picture
                else:
                    last = image
                t = self.clock()
                if warm_until is None:
                    warm_until = t + self.warmup_s
                if not live:
                    if t < warm_until:
                        continue
                    info = self._lock() if self.lock_exposure else {}
                    h, w = image.shape[:2]
                    self._report(CameraStatus("ok", _lock_detail(self.name, info, self.lock_exposure),
                                              resolution=(w, h), **info))
                    live = True
                with self._cond:
                    self._latest = Frame(image, t, index, self.name)
                    index += 1
                    self._cond.notify_all()
            try:
                self._release()
            except Exception:
                pass
        with self._cond:
            self._cond.notify_all()


def _lock_detail(name: str, info: Mapping[str, Any], asked: bool) -> str:
    if not asked:
        return f"{name}: running (exposure lock off by configuration)"
    words = {True: "locked", False: "NOT locked (camera refused)", None: "not lockable on this backend"}
    return (f"{name}: running; exposure {words[info.get('exposure_locked')]}, "
            f"white balance {words[info.get('white_balance_locked')]}")


class OpenCVSource(GrabberSource):
    """A camera by device index through ``cv2.VideoCapture`` (V4L2 on Linux).

    Args:
        device: device index (``0`` is ``/dev/video0``).
        size: (width, height) to ask for; what the camera gives is reported.
        capture_factory: ``device -> VideoCapture-like`` (tests pass a fake).
        Other keywords: see :class:`GrabberSource`.
    """

    def __init__(self, device: int, *, size: tuple[int, int] | None = None,
                 capture_factory: Callable[[int], Any] | None = None, **kw: Any) -> None:
        super().__init__(f"camera:{device}", **kw)
        self.device = device
        self.size = size
        self._factory = capture_factory or cv2.VideoCapture
        self._cap: Any = None

    def _open(self) -> tuple[int, int]:
        cap = self._factory(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraUnavailable(f"cannot open camera {self.device} (missing or busy)")
        if self.size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the grabber drains anyway; keep latency low
        self._cap = cap
        return int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))

    def _grab(self) -> np.ndarray | None:
        ok, image = self._cap.read()
        return to_bgr(image) if ok and image is not None else None

    def _lock(self) -> dict[str, Any]:
        cap = self._cap
        exposure = cap.get(cv2.CAP_PROP_EXPOSURE)
        wb = cap.get(cv2.CAP_PROP_WB_TEMPERATURE)
        # V4L2 takes 1 (V4L2_EXPOSURE_MANUAL); older DirectShow-style drivers take 0.25.
        exp_locked = False
        for manual in (1.0, 0.25):
            if cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, manual) and cap.get(cv2.CAP_PROP_AUTO_EXPOSURE) == manual:
                exp_locked = True
                if exposure > 0:
                    cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
                break
        wb_locked = bool(cap.set(cv2.CAP_PROP_AUTO_WB, 0)) and cap.get(cv2.CAP_PROP_AUTO_WB) == 0
        if wb_locked and wb > 0:
            cap.set(cv2.CAP_PROP_WB_TEMPERATURE, wb)
        settings = {"auto_exposure": cap.get(cv2.CAP_PROP_AUTO_EXPOSURE), "exposure": cap.get(cv2.CAP_PROP_EXPOSURE),
                    "auto_wb": cap.get(cv2.CAP_PROP_AUTO_WB), "wb_temperature": cap.get(cv2.CAP_PROP_WB_TEMPERATURE)}
        return {"exposure_locked": exp_locked, "white_balance_locked": wb_locked, "settings": settings}

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class Picamera2Source(GrabberSource):
    """The Raspberry Pi camera through ``picamera2`` (imported only when opened).

    Exposure lock: after warm-up the current ``ExposureTime``, ``AnalogueGain`` and
    ``ColourGains`` are read from the frame metadata and set with ``AeEnable`` and
    ``AwbEnable`` false; a few frames later the metadata is read back and the lock
    counts only if the values held (within 5 %).

    Args:
        camera: camera number.
        size: (width, height) asked for (aligned by picamera2; the result is reported).
        pixel_format: one of :data:`PICAMERA2_FORMATS`.
        module: the ``picamera2`` module (tests pass a fake); imported lazily otherwise.
    """

    def __init__(self, camera: int = 0, *, size: tuple[int, int] = (1280, 720), pixel_format: str = "XRGB8888",
                 module: Any = None, **kw: Any) -> None:
        super().__init__("picamera2" if camera == 0 else f"picamera2:{camera}", **kw)
        if pixel_format not in PICAMERA2_FORMATS:
            raise ValueError(f"picamera2 format {pixel_format!r} not supported (use {', '.join(PICAMERA2_FORMATS)})")
        self.camera = camera
        self.size = size
        self.pixel_format = pixel_format
        self._module = module
        self._cam: Any = None
        self._convert = PICAMERA2_FORMATS[pixel_format]

    def _open(self) -> tuple[int, int]:
        if self._module is None:
            try:
                import picamera2  # noqa: PLC0415  (Pi only; never a pip dependency)
            except ImportError as exc:
                self._fail("picamera2 is not installed: on a Raspberry Pi `apt install python3-picamera2` "
                           "and make the venv with --system-site-packages")
                raise CameraUnavailable(str(exc)) from exc
            self._module = picamera2
        cam = self._module.Picamera2(self.camera)  # raises when missing or busy: retried
        try:
            # queue=False: capture_array waits for a frame started after the request, never a queued one
            config = cam.create_video_configuration(main={"size": tuple(self.size), "format": self.pixel_format},
                                                    buffer_count=2, queue=False)
            cam.align_configuration(config)  # YUV420 rows without padding (see yuv420_to_bgr)
            cam.configure(config)
            cam.start()
        except Exception:
            cam.close()
            raise
        self._cam = cam
        return tuple(config["main"]["size"])  # type: ignore[return-value]

    def _grab(self) -> np.ndarray | None:
        return self._convert(self._cam.capture_array("main"))

    def _lock(self) -> dict[str, Any]:
        cam = self._cam
        md = cam.capture_metadata()
        want = {k: md[k] for k in ("ExposureTime", "AnalogueGain", "ColourGains") if k in md}
        try:
            cam.set_controls({"AeEnable": False, "AwbEnable": False, **want})
        except Exception as exc:
            return {"exposure_locked": False, "white_balance_locked": False, "settings": {"error": str(exc)}}
        for _ in range(4):  # controls take effect a few frames later
            got = cam.capture_metadata()

        def held(key: str) -> bool:
            if key not in want or key not in got:
                return False
            a, b = np.atleast_1d(want[key]).astype(float), np.atleast_1d(got[key]).astype(float)
            return bool(np.all(np.abs(a - b) <= 0.05 * np.maximum(np.abs(a), 1e-9)))

        settings = {k: got.get(k) for k in ("ExposureTime", "AnalogueGain", "ColourGains", "Lux") if k in got}
        return {"exposure_locked": held("ExposureTime") and held("AnalogueGain"),
                "white_balance_locked": held("ColourGains"), "settings": settings}

    def _release(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
            finally:
                self._cam.close()
                self._cam = None


PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".gif")
"""Still-photo files: ``--camera`` takes their folder, not one of them."""


class VideoFileSource(FrameSource):
    """Every frame of a video file, in order, timestamped by the file (no frame is dropped).

    Raises:
        CameraUnavailable: (on construction) the file cannot be opened as video.
    """

    def __init__(self, path: str | Path, *, realtime: bool = False, clock: Clock = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.path = Path(path)
        self.name = self.path.name
        self.realtime, self.clock, self.sleep = realtime, clock, sleep
        """``realtime``: frames come at the file's own rate (a demo), else as fast as they decode."""
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            raise CameraUnavailable(f"{self.path.name}: cannot open as video")
        self._fps = self._cap.get(cv2.CAP_PROP_FPS) or 30.0
        self._index = 0
        ok, first = self._cap.read()  # FFmpeg "opens" many files that hold no frame at all
        if not ok or first is None:
            self._cap.release()
            raise CameraUnavailable(f"{self.path.name}: not a video (no frame decodes)")
        self._first: np.ndarray | None = first
        self._t0: float | None = None

    def skip_to(self, index: int) -> None:
        """Go on from frame ``index`` (frames before it are decoded and dropped: exact on any codec)."""
        if index > self._index and self._first is not None:
            self._first, self._index = None, self._index + 1
        while self._index < index and self._cap.grab():
            self._index += 1

    def read(self, timeout: float | None = 2.0) -> Frame:
        if self._first is not None:
            ok, image, self._first = True, self._first, None
        else:
            ok, image = self._cap.read()
        if not ok or image is None:
            raise EndOfStream(f"{self.name}: end of video after {self._index} frames")
        if self.realtime:
            if self._t0 is None:
                self._t0 = self.clock() - self._index / self._fps
            self.sleep(max(0.0, self._t0 + self._index / self._fps - self.clock()))
        # POS_MSEC is the next frame's time on some builds; the index is exact.
        frame = Frame(to_bgr(image), self._index / self._fps, self._index, self.name)
        self._index += 1
        return frame

    def close(self) -> None:
        self._cap.release()


def open_source(spec: str, *, clock: Clock = time.monotonic, on_status: StatusCallback = ignore,
                on_error: ErrorCallback = ignore, options: Mapping[str, Any] | None = None) -> FrameSource:
    """The source a ``--camera`` spec names.

    Args:
        spec: ``sim``; ``picamera2`` (or ``picamera2:N``); a device index (``0``) or
            ``/dev/videoN``; a folder of still images; a video file.
        options: backend settings (``still_frames``, ``fps``, ``realtime``, ``seed``,
            ``warmup_s``, ``lock_exposure``, ``size`` (w, h), ``backoff`` (a :class:`Backoff`),
            ``pixel_format``); unknown keys are ignored.

    Raises:
        ValueError: the spec names nothing usable (no such file or folder).
        CameraUnavailable: a video file that cannot be opened.
    """
    o = dict(options or {})
    live = {k: o[k] for k in ("warmup_s", "lock_exposure", "backoff") if k in o}
    size = tuple(o["size"]) if o.get("size") else None
    if spec == "sim":
        return SimSource(seed=o.get("seed", 0), fps=o.get("fps", 12.0), clock=clock,
                         realtime=o.get("realtime", True))
    if spec == "picamera2" or spec.startswith("picamera2:"):
        num = int(spec.partition(":")[2] or 0)
        return Picamera2Source(num, size=size or (1280, 720), pixel_format=o.get("pixel_format", "XRGB8888"),
                               clock=clock, on_status=on_status, **live)
    if spec.isdigit() or re.fullmatch(r"/dev/video\d+", spec):
        return OpenCVSource(int(spec.removeprefix("/dev/video")), size=size, clock=clock, on_status=on_status, **live)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, still_frames=o.get("still_frames", 10), fps=o.get("fps", 10.0),
                            on_error=on_error, clock=clock, realtime=o.get("realtime", False))
    if path.is_file():
        if path.suffix.lower() in PHOTO_SUFFIXES:
            raise ValueError(f"camera {spec!r} is a photo: give the folder it is in (--camera DIR), or read it "
                             f"with `arena-table dice read {spec}`")
        return VideoFileSource(path, realtime=o.get("realtime", False), clock=clock)
    what = "no such file or folder" if not path.exists() else "not a file or folder"
    raise ValueError(f"camera {spec!r}: {what} (the camera is sim, picamera2, a device index, a folder of "
                     "images or a video file)")
