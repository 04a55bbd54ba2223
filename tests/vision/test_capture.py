"""The camera edge: pixel formats, grabber semantics, retries, exposure lock, folders, calibration."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from arena_table.vision.capture import (Backoff, CameraStatus, FolderSource, OpenCVSource, Picamera2Source, SimSource,
                                        VideoFileSource, open_source)
from arena_table.vision.frames import (PICAMERA2_FORMATS, Calibration, CalibrationMismatch, CameraError,
                                       CameraUnavailable, EndOfStream, to_bgr, xbgr8888_to_bgr, xrgb8888_to_bgr,
                                       yuv420_to_bgr)

RED_BGR = (0, 0, 255)
FAST = Backoff(0.01, 2.0, 0.04)


def red_patch_bgr(h: int = 48, w: int = 64) -> np.ndarray:
    """Grey frame with a pure red square at rows 8..24, columns 16..40."""
    img = np.full((h, w, 3), 128, np.uint8)
    img[8:24, 16:40] = RED_BGR
    return img


def assert_red_patch(bgr: np.ndarray, tol: int = 40) -> None:
    assert bgr.shape == (48, 64, 3) and bgr.dtype == np.uint8
    b, g, r = (int(v) for v in bgr[16, 28])
    assert r >= 255 - tol and g <= tol and b <= tol, f"patch is B={b} G={g} R={r}, not red"
    grey = bgr[40, 8].astype(int)
    assert np.all(np.abs(grey - 128) <= tol), f"background is {grey}, not grey"


# --- pixel formats: a known red patch in every format comes out red in BGR --------------------------

def test_xrgb8888_bytes_are_b_g_r_x():
    # Picamera2 manual 4.2.2: an XRGB8888 pixel is [B, G, R, 255] in Python.
    arr = np.full((48, 64, 4), 255, np.uint8)
    arr[..., :3] = 128
    arr[8:24, 16:40, :3] = (0, 0, 255)
    assert_red_patch(xrgb8888_to_bgr(arr))


def test_xbgr8888_bytes_are_r_g_b_x():
    arr = np.full((48, 64, 4), 255, np.uint8)
    arr[..., :3] = 128
    arr[8:24, 16:40, :3] = (255, 0, 0)  # R first
    out = xbgr8888_to_bgr(arr)
    assert_red_patch(out)
    assert out.flags["C_CONTIGUOUS"]


def test_yuv420_planes_hand_built_from_bt601():
    # BT.601 limited range: red is Y=81, U(Cb)=90, V(Cr)=240; mid grey 128 is Y=126, U=V=128.
    h, w = 48, 64
    y = np.full((h, w), 126, np.uint8)
    u = np.full((h // 2, w // 2), 128, np.uint8)
    v = np.full((h // 2, w // 2), 128, np.uint8)
    y[8:24, 16:40] = 81
    u[4:12, 8:20] = 90
    v[4:12, 8:20] = 240
    i420 = np.concatenate([y.ravel(), u.ravel(), v.ravel()]).reshape(h * 3 // 2, w)  # Y, then U, then V
    assert_red_patch(yuv420_to_bgr(i420))


def test_yuv420_with_u_and_v_swapped_is_not_red():
    """The test above can fail: the same planes in YV12 order (V before U) give blue, not red."""
    h, w = 48, 64
    y = np.full((h, w), 81, np.uint8)
    u = np.full((h // 2, w // 2), 90, np.uint8)
    v = np.full((h // 2, w // 2), 240, np.uint8)
    swapped = np.concatenate([y.ravel(), v.ravel(), u.ravel()]).reshape(h * 3 // 2, w)
    b, g, r = yuv420_to_bgr(swapped)[16, 28]
    assert b > 150 and r < 100


def test_yuv420_rejects_a_bad_shape():
    with pytest.raises(ValueError, match="YUV420"):
        yuv420_to_bgr(np.zeros((47, 64), np.uint8))


def test_rgb888_and_bgr888_formats():
    bgr = red_patch_bgr()
    assert_red_patch(PICAMERA2_FORMATS["RGB888"](bgr.copy()))  # bytes [B, G, R]
    assert_red_patch(PICAMERA2_FORMATS["BGR888"](bgr[:, :, ::-1].copy()))  # bytes [R, G, B]


def test_to_bgr_grey_and_bgra():
    assert to_bgr(np.full((4, 4), 9, np.uint8))[2, 2].tolist() == [9, 9, 9]
    bgra = np.dstack([red_patch_bgr(), np.full((48, 64), 255, np.uint8)])
    assert_red_patch(to_bgr(bgra))
    with pytest.raises(ValueError):
        to_bgr(np.zeros((4, 4), np.float32))


def test_opencv_video_frames_are_bgr(tmp_path):
    path = tmp_path / "red.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for _ in range(3):
        writer.write(red_patch_bgr())
    writer.release()
    src = VideoFileSource(path)
    frames = [src.read(), src.read(), src.read()]
    with pytest.raises(EndOfStream):
        src.read()
    src.close()
    for f in frames:
        assert_red_patch(f.image)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2])


# --- OpenCV camera: fake VideoCapture drives the real grabber code -------------------------------------

class FakeCapture:
    """Stands in for cv2.VideoCapture: numbered frames; properties as a V4L2 camera would keep them."""

    def __init__(self, accepts_manual: bool = True, opened: bool = True) -> None:
        self.props = {cv2.CAP_PROP_FRAME_WIDTH: 64, cv2.CAP_PROP_FRAME_HEIGHT: 48, cv2.CAP_PROP_AUTO_EXPOSURE: 3,
                      cv2.CAP_PROP_EXPOSURE: 157.0, cv2.CAP_PROP_AUTO_WB: 1, cv2.CAP_PROP_WB_TEMPERATURE: 4600}
        self.accepts_manual = accepts_manual
        self.opened = opened
        self.count = 0
        self.released = False

    def isOpened(self):
        return self.opened

    def read(self):
        time.sleep(0.002)
        self.count += 1
        img = red_patch_bgr()
        img[0, 0] = self.count % 256
        return True, img

    def set(self, prop, value):
        if not self.accepts_manual and prop in (cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_AUTO_WB):
            return False
        self.props[prop] = value
        return True

    def get(self, prop):
        return float(self.props.get(prop, 0))

    def release(self):
        self.released = True


def _wait_for(pred, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.005)
    return False


@pytest.mark.perf
def test_grabber_returns_only_the_newest_frame_never_a_stale_one():
    cap = FakeCapture()
    statuses: list[CameraStatus] = []
    with OpenCVSource(0, capture_factory=lambda d: cap, warmup_s=0.0, on_status=statuses.append) as src:
        first = src.read()
        assert_red_patch(first.image)
        time.sleep(0.05)  # the camera keeps delivering ~20 frames meanwhile
        second = src.read()
        assert second.index > first.index + 3, "an old buffered frame was returned"
        assert second.t > first.t
        grabbed = cap.count  # frame k (0-based) is the (k+1)-th grabbed: warm-up is 0 s here
        third = src.read()
        assert third.index > second.index  # never the same frame twice
        assert third.index >= grabbed - 1  # no older than the newest grabbed when it was asked for
    assert cap.released


def test_a_backend_refilling_one_buffer_still_gives_each_frame_its_own_array():
    class OneBuffer(FakeCapture):
        buffer = red_patch_bgr()

        def read(self):
            ok, img = super().read()
            self.buffer[:] = img
            return ok, self.buffer

    with OpenCVSource(0, capture_factory=lambda d: OneBuffer(), warmup_s=0.0) as src:
        frames = [src.read() for _ in range(3)]
    assert len({id(f.image) for f in frames}) == 3
    assert len({int(f.image[0, 0, 0]) for f in frames}) == 3  # each kept the picture it was grabbed with


def test_opencv_exposure_and_white_balance_locked_and_read_back():
    cap = FakeCapture()
    statuses: list[CameraStatus] = []
    with OpenCVSource(0, capture_factory=lambda d: cap, warmup_s=0.0, on_status=statuses.append) as src:
        src.read()
    ok = [s for s in statuses if s.state == "ok"][0]
    assert ok.exposure_locked is True and ok.white_balance_locked is True
    assert ok.settings["auto_exposure"] == 1.0 and ok.settings["exposure"] == 157.0
    assert ok.settings["auto_wb"] == 0.0 and ok.settings["wb_temperature"] == 4600
    assert ok.resolution == (64, 48)
    assert "exposure locked" in ok.detail


def test_opencv_camera_refusing_manual_exposure_is_reported():
    cap = FakeCapture(accepts_manual=False)
    statuses: list[CameraStatus] = []
    with OpenCVSource(0, capture_factory=lambda d: cap, warmup_s=0.0, on_status=statuses.append) as src:
        src.read()
    ok = [s for s in statuses if s.state == "ok"][0]
    assert ok.exposure_locked is False and ok.white_balance_locked is False
    assert ok.settings["auto_exposure"] == 3.0
    assert "NOT locked" in ok.detail


def test_frames_held_back_during_warm_up():
    ticks = iter(np.arange(0, 100, 0.1))  # fake clock: 0.1 s a frame
    cap = FakeCapture()
    with OpenCVSource(0, capture_factory=lambda d: cap, warmup_s=0.45, clock=lambda: float(next(ticks))) as src:
        first = src.read()
    assert first.index == 0 and first.t >= 0.45 - 1e-9


def test_missing_camera_is_retried_with_backoff_and_reported():
    """Device 99 does not exist: the real cv2.VideoCapture fails, the grabber retries, nothing raises."""
    statuses: list[CameraStatus] = []
    src = OpenCVSource(99, backoff=FAST, on_status=statuses.append)
    with pytest.raises(CameraUnavailable, match="camera:99"):
        src.read(timeout=0.2)
    assert _wait_for(lambda: sum(s.state == "retrying" for s in statuses) >= 4)
    src.close()
    retries = [s for s in statuses if s.state == "retrying"]
    assert [s.attempt for s in retries[:4]] == [1, 2, 3, 4]
    assert [s.retry_in for s in retries[:4]] == [0.01, 0.02, 0.04, 0.04]
    assert "cannot open camera 99" in retries[0].detail
    assert statuses[-1].state == "closed"


def test_busy_camera_comes_back_after_retries():
    attempts = []

    def factory(device):
        attempts.append(device)
        return FakeCapture(opened=len(attempts) >= 3)  # busy twice, then free

    statuses: list[CameraStatus] = []
    with OpenCVSource(0, capture_factory=factory, backoff=FAST, warmup_s=0.0, on_status=statuses.append) as src:
        frame = src.read(timeout=2.0)
    assert_red_patch(frame.image)
    assert [s.state for s in statuses if s.state in ("retrying", "ok")][:3] == ["retrying", "retrying", "ok"]


# --- picamera2 through a fake module (no Pi here) ------------------------------------------------------

class FakePicamera2:
    instances: list["FakePicamera2"] = []

    def __init__(self, num, fmt_pixels, honour_controls=True):
        self.num = num
        self.pixels = fmt_pixels
        self.honour = honour_controls
        self.controls = {}
        self.md = {"ExposureTime": 9000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.4), "Lux": 300.0}
        self.started = self.closed = False
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, buffer_count, queue=True):
        return {"main": dict(main), "buffer_count": buffer_count, "queue": queue}

    def align_configuration(self, config):
        pass

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_array(self, name):
        return self.pixels.copy()

    def capture_metadata(self):
        if self.controls and self.honour:
            self.md.update({k: v for k, v in self.controls.items() if k in self.md})
        elif self.controls:
            self.md["ExposureTime"] += 3000  # auto exposure still wandering
        return dict(self.md)

    def set_controls(self, controls):
        self.controls = dict(controls)

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


def _picamera_module(pixels, honour=True):
    class Module:
        @staticmethod
        def Picamera2(num):
            return FakePicamera2(num, pixels, honour)
    return Module


@pytest.mark.parametrize("fmt, make", [
    ("XRGB8888", lambda bgr: np.dstack([bgr, np.full(bgr.shape[:2], 255, np.uint8)])),
    ("XBGR8888", lambda bgr: np.dstack([bgr[:, :, ::-1], np.full(bgr.shape[:2], 255, np.uint8)])),
    ("YUV420", lambda bgr: cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)),
])
def test_picamera2_source_delivers_bgr_and_locks_exposure(fmt, make):
    statuses: list[CameraStatus] = []
    src = Picamera2Source(0, size=(64, 48), pixel_format=fmt, module=_picamera_module(make(red_patch_bgr())),
                          warmup_s=0.0, on_status=statuses.append)
    with src:
        assert_red_patch(src.read().image)
    cam = FakePicamera2.instances[-1]
    assert cam.config["main"] == {"size": (64, 48), "format": fmt} and cam.config["queue"] is False
    assert cam.controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 9000, "AnalogueGain": 2.0,
                            "ColourGains": (1.8, 1.4)}
    ok = [s for s in statuses if s.state == "ok"][0]
    assert ok.exposure_locked is True and ok.white_balance_locked is True
    assert ok.settings["ExposureTime"] == 9000
    assert cam.closed


def test_picamera2_lock_not_held_is_reported():
    statuses: list[CameraStatus] = []
    pixels = np.dstack([red_patch_bgr(), np.full((48, 64), 255, np.uint8)])
    with Picamera2Source(0, size=(64, 48), module=_picamera_module(pixels, honour=False), warmup_s=0.0,
                         on_status=statuses.append) as src:
        src.read()
    ok = [s for s in statuses if s.state == "ok"][0]
    assert ok.exposure_locked is False and ok.white_balance_locked is True


def test_picamera2_not_installed_fails_once_with_advice(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_picamera2(name, *a, **kw):
        if name == "picamera2":
            raise ImportError("No module named 'picamera2'")
        return real_import(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_picamera2)
    statuses: list[CameraStatus] = []
    src = Picamera2Source(0, on_status=statuses.append, backoff=FAST)
    with pytest.raises(CameraUnavailable):
        src.read(timeout=0.3)
    src.close()
    failed = [s for s in statuses if s.state == "failed"]
    assert len(failed) == 1 and "apt install python3-picamera2" in failed[0].detail
    assert not any(s.state == "retrying" for s in statuses)


def test_unknown_picamera2_format_refused():
    with pytest.raises(ValueError, match="NV12"):
        Picamera2Source(0, pixel_format="NV12")


# --- folder of stills ------------------------------------------------------------------------------------

def _write(path, img):
    assert cv2.imwrite(str(path), img)


def test_folder_each_photo_is_one_cut_then_identical_still_frames(tmp_path):
    a, b = red_patch_bgr(), red_patch_bgr()[:, ::-1].copy()
    _write(tmp_path / "img_10.png", b)
    _write(tmp_path / "img_2.png", a)  # natural order: img_2 before img_10
    src = FolderSource(tmp_path, still_frames=3, fps=10.0, clock=lambda: 100.0)
    frames = [src.read() for _ in range(8)]
    with pytest.raises(EndOfStream):
        src.read()
    assert [f.name for f in frames] == ["img_2.png"] * 4 + ["img_10.png"] * 4
    assert [f.cut for f in frames] == [True, False, False, False] * 2
    assert [f.t for f in frames] == pytest.approx([100 + k / 10 for k in range(8)])
    assert np.array_equal(frames[3].image, a) and np.array_equal(frames[4].image, b)


def test_folder_corrupt_and_non_image_files_give_one_line_errors_and_are_skipped(tmp_path):
    _write(tmp_path / "a.png", red_patch_bgr())
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    (tmp_path / "c.txt").write_text("notes")
    ok = cv2.imencode(".jpg", red_patch_bgr())[1].tobytes()
    (tmp_path / "d.jpg").write_bytes(ok[: len(ok) // 2])  # truncated
    _write(tmp_path / "e.png", red_patch_bgr())
    (tmp_path / ".hidden").write_text("x")
    (tmp_path / "sub").mkdir()
    errors: list[str] = []
    src = FolderSource(tmp_path, still_frames=0, on_error=errors.append)
    names = [src.read().name, src.read().name]
    with pytest.raises(EndOfStream):
        src.read()
    assert names == ["a.png", "e.png"]
    assert len(errors) == 3 and all("\n" not in e for e in errors)
    assert "b.jpg" in errors[0] and "c.txt" in errors[1] and "d.jpg" in errors[2]
    assert "truncated" in errors[2]


# --- sim, specs, calibration ---------------------------------------------------------------------------

def test_sim_source_frames_follow_fps_without_waiting():
    sleeps = []
    src = SimSource(seed=1, fps=10.0, clock=lambda: 0.0, sleep=sleeps.append, realtime=False)
    frames = [src.read() for _ in range(3)]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2]) and sleeps == []
    assert frames[0].image.shape == (480, 640, 3)


def test_sim_source_realtime_paces_by_the_injected_clock():
    now = [5.0]
    sleeps = []
    src = SimSource(seed=1, fps=10.0, clock=lambda: now[0], sleep=sleeps.append, realtime=True)
    src.read()
    src.read()
    now[0] = 5.15
    src.read()
    assert sleeps == pytest.approx([0.0, 0.1, 0.05])


def test_open_source_specs(tmp_path):
    assert isinstance(open_source("sim", options={"realtime": False}), SimSource)
    assert isinstance(open_source(str(tmp_path)), FolderSource)
    cam = open_source("7", options={"backoff": FAST})
    assert isinstance(cam, OpenCVSource) and cam.device == 7
    assert open_source("/dev/video2").device == 2
    assert isinstance(open_source("picamera2"), Picamera2Source)
    with pytest.raises(ValueError, match="no-such-thing"):
        open_source(str(tmp_path / "no-such-thing"))
    (tmp_path / "x.mp4").write_text("not a video")
    with pytest.raises(CameraUnavailable, match="x.mp4"):
        open_source(str(tmp_path / "x.mp4"))


def test_calibration_refused_at_another_resolution(tmp_path):
    calib = Calibration((640, 480), tray=(10, 20, 600, 440), die_size_px=58.0, made="2026-11-29T20:00:00Z")
    calib.check((640, 480))
    with pytest.raises(CalibrationMismatch, match="640x480 cannot be used with 1280x720"):
        calib.check((1280, 720))
    from arena_table.vision.frames import Frame
    with pytest.raises(ValueError):  # CalibrationMismatch is a ValueError too
        calib.check_frame(Frame(np.zeros((480, 320, 3), np.uint8), 0.0, 0, "x"))
    path = tmp_path / "calib.json"
    calib.save(path)
    assert Calibration.load(path) == calib


def test_calibration_without_resolution_is_refused(tmp_path):
    path = tmp_path / "calib.json"
    path.write_text('{"tray": [0, 0, 10, 10]}')
    with pytest.raises(CameraError, match="resolution"):
        Calibration.load(path)
    path.write_text("{oops")
    with pytest.raises(CameraError, match="not a calibration file"):
        Calibration.load(path)


@pytest.mark.perf
def test_close_stops_the_grabber_thread_promptly():
    src = OpenCVSource(99, backoff=Backoff(5.0, 2.0, 5.0))  # long back-off: close must not wait for it
    src.start()
    time.sleep(0.05)
    t0 = time.monotonic()
    src.close()
    assert time.monotonic() - t0 < 1.0
    assert not any(t.name == "grab-camera:99" for t in threading.enumerate())


def test_camera_lost_while_running_is_reopened():
    caps = []

    class Flaky(FakeCapture):
        def read(self):
            if len(caps) == 1 and self.count >= 5:  # the first opening dies after 5 frames (USB unplugged)
                return False, None
            return super().read()

    def factory(device):
        caps.append(Flaky())
        return caps[-1]

    statuses: list[CameraStatus] = []
    with OpenCVSource(0, capture_factory=factory, backoff=FAST, warmup_s=0.0, on_status=statuses.append) as src:
        assert _wait_for(lambda: len(caps) >= 2)
        frame = src.read(timeout=2.0)
    assert_red_patch(frame.image)
    assert caps[0].released
    lost = [s for s in statuses if s.state == "retrying"]
    assert lost and "lost" in lost[0].detail
    assert [s.state for s in statuses].count("ok") >= 2

