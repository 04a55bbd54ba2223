"""Video files and paths given as ``--camera``: what is not a video is named, and a file can be paced."""

import cv2
import numpy as np
import pytest


def test_camera_specs_that_are_no_video_are_named(tmp_path):
    """A new user's audit: a text file named .mp4 'ended after 0 frames', a photo gave one frame and
    no roll, and a mistyped path was 'not sim, picamera2, ...'."""
    from arena_table.vision.capture import CameraUnavailable, open_source

    text = tmp_path / "notes.mp4"
    text.write_text("not a video at all\n" * 50)
    with pytest.raises(CameraUnavailable, match="notes.mp4: (cannot open as video|not a video)"):
        open_source(str(text))
    photo = tmp_path / "dice.jpg"
    cv2.imwrite(str(photo), np.zeros((40, 40, 3), np.uint8))
    with pytest.raises(ValueError, match="is a photo: give the folder it is in"):
        open_source(str(photo))
    with pytest.raises(ValueError, match="no such file or folder"):
        open_source(str(tmp_path / "nope" / "x.mp4"))


def test_a_video_file_can_be_paced_at_its_frame_rate(tmp_path):
    """``camera_realtime=true`` was ignored for video files (a new user's audit)."""
    from arena_table.vision.capture import VideoFileSource

    path = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for _ in range(5):
        writer.write(np.zeros((24, 32, 3), np.uint8))
    writer.release()
    now = [100.0]
    slept = []

    def sleep(s):
        slept.append(round(s, 3))
        now[0] += s
    src = VideoFileSource(path, realtime=True, clock=lambda: now[0], sleep=sleep)
    assert [src.read().index for _ in range(5)] == [0, 1, 2, 3, 4]
    assert slept == [0.0, 0.1, 0.1, 0.1, 0.1]
