"""Shared helpers of the camera-loop tests: a table run over a folder of photos, rendered photos,
a reader that answers from a script, the simulator as a stream that ends and its ground truth."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.vision.capture import SimSource
from arena_table.vision.dice import DiceReading, DieReading
from arena_table.vision.frames import EndOfStream
from arena_table.vision.render import DieSpec, TableSpec, render_table
from arena_table.vision.sim import SimTable


def run_folder(tmp_path: Path, photos: Path, **camera) -> Table:
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"),
                              camera=CameraSettings(source=str(photos), **camera)))
    table.start()
    table.devices[0].join(60)
    return table


def write_rendered(folder: Path, scenes: list[tuple[tuple[int, float, float], ...]]) -> Path:
    folder.mkdir()
    for i, dice in enumerate(scenes):
        spec = TableSpec(320, 240, tuple(DieSpec(v, (x, y), 40.0) for v, x, y in dice))
        cv2.imwrite(str(folder / f"s{i:02d}.png"), render_table(spec, np.random.default_rng(i))[0])
    return folder


def scripted_reader(answers):
    """Reader returning the given dice per call: each die is (value, status) at a fixed spot."""
    answers = list(answers)

    def read(image):
        dice = tuple(DieReading(v if st == "ok" else None, st, "" if st == "ok" else "tilted", 0.9,
                                (60.0 + 80 * i, 120.0), (40 + 80 * i, 100, 40, 40))
                     for i, (v, st) in enumerate(answers.pop(0)))
        return DiceReading(dice, image.shape[1], image.shape[0])
    return read


class EndingSim(SimSource):
    """The sim as fast as it renders, ending after ``end`` seconds of frames."""

    def __init__(self, sim: SimTable, end: float) -> None:
        super().__init__(sim, fps=12.0, realtime=False)
        self.end = end
        self.last = None

    def read(self, timeout=2.0):
        frame = super().read(timeout)
        if frame.t > self.end:
            raise EndOfStream("sim script over")
        self.last = frame
        return frame


def truth_reader_for(sim: SimTable, src: EndingSim, seen: list | None = None):
    """The sim's ground truth for the frame being read (every die lying in the tray); notes each time read."""
    def read(image):
        t = src.last.t
        if seen is not None:
            seen.append(t)
        s = sim.die_side
        dice, _ = sim.state_at(t)
        return DiceReading(tuple(DieReading(d.value, "ok", "", 0.9, d.center,
                                            (int(d.center[0] - s / 2), int(d.center[1] - s / 2), int(s), int(s)))
                                 for d, _u in dice), image.shape[1], image.shape[0])
    return read
