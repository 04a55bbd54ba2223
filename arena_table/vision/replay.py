"""Sources that replay frames rather than own a camera: a folder of still photos, the simulated table.

Both hand out :class:`~arena_table.vision.frames.Frame` objects through the
:class:`~arena_table.vision.capture.FrameSource` interface and are chosen by
:func:`~arena_table.vision.capture.open_source` (``--camera DIR``, ``--camera sim``).
Their timestamps are frame time (``index / fps`` from the start), not wall time,
so a replay is read exactly like a live camera however fast it runs.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .dice_io import load_image
from .errors import UnreadableImage
from .frames import CameraUnavailable, Clock, EndOfStream, ErrorCallback, Frame, FrameSource, ignore


def _natural_key(path: Path) -> list:
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", path.name)]


class FolderSource(FrameSource):
    """Still photos replayed in natural name order (``dice_2`` before ``dice_10``).

    Each photo gives one frame marked ``cut`` followed by ``still_frames`` identical
    frames ``1/fps`` s apart, so the settle detector sees it settle exactly once. A
    file that is not a readable image is reported through ``on_error`` as one line
    (``name: what is wrong``) and skipped. Hidden files and sub-folders are ignored.

    Args:
        folder: the directory.
        still_frames: identical frames after each photo (default 10: 1 s at 10 fps).
        fps: frame rate of the timestamps.
        realtime: pace frames at ``fps`` by ``clock`` and ``sleep`` (for a live demo);
            otherwise frames come as fast as they are read.
    """

    def __init__(self, folder: str | Path, *, still_frames: int = 10, fps: float = 10.0,
                 on_error: ErrorCallback = ignore, clock: Clock = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, realtime: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraUnavailable(f"{self.folder}: not a folder")
        self.name = f"dir:{self.folder.name}"
        self.still_frames = still_frames
        self.fps = fps
        self.on_error = on_error
        self.clock = clock
        self.sleep = sleep
        self.realtime = realtime
        self.files = sorted((p for p in self.folder.iterdir() if p.is_file() and not p.name.startswith(".")),
                            key=_natural_key)
        self._next_file = 0
        self._held: tuple[np.ndarray, str] | None = None
        self._repeats = 0
        self._index = 0
        self._t0 = clock()

    def read(self, timeout: float | None = 2.0) -> Frame:
        cut = False
        if self._held is None or self._repeats >= self.still_frames:
            self._held = None
            while self._next_file < len(self.files):
                path = self.files[self._next_file]
                self._next_file += 1
                try:
                    self._held = (load_image(path), path.name)
                    break
                except UnreadableImage as exc:
                    self.on_error(str(exc))
            if self._held is None:
                raise EndOfStream(f"{self.folder}: no more images ({len(self.files)} files)")
            self._repeats = 0
            cut = True
        else:
            self._repeats += 1
        t = self._t0 + self._index / self.fps
        if self.realtime:
            self.sleep(max(0.0, t - self.clock()))
        image, name = self._held
        frame = Frame(image, t, self._index, name, cut=cut)
        self._index += 1
        return frame


SIM_KEEP_THROWS = 256
"""Throws a :class:`SimSource`'s own simulation keeps (about 20 minutes of its script)."""


class SimSource(FrameSource):
    """Frames of the simulated table (:class:`arena_table.vision.sim.SimTable`).

    Args:
        table: the simulation (default: ``SimTable(seed=seed, keep_throws=SIM_KEEP_THROWS)``: the
            source only asks for later frames, so its script is kept to the latest throws and a
            service that runs for days neither grows by ~1 MB an hour nor scans the whole script
            for each frame).
        fps: frame rate; frame ``k`` is the table at ``k / fps`` s.
        realtime: pace frames by ``clock``/``sleep`` (the service); tests pass False.
    """

    def __init__(self, table: Any = None, *, seed: int = 0, fps: float = 12.0, clock: Clock = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, realtime: bool = True) -> None:
        from .sim import SimTable

        self.table = table if table is not None else SimTable(seed=seed, keep_throws=SIM_KEEP_THROWS)
        self.name = "sim"
        self.fps = fps
        self.clock = clock
        self.sleep = sleep
        self.realtime = realtime
        self._index = 0
        self._t0 = clock()

    def read(self, timeout: float | None = 2.0) -> Frame:
        t = self._index / self.fps
        if self.realtime:
            self.sleep(max(0.0, self._t0 + t - self.clock()))
        frame = Frame(self.table.render(t), t, self._index, self.name)
        self._index += 1
        return frame
