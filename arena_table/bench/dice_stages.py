"""Where a frame's time goes: the dice reader's stages, in milliseconds per 1280x720 frame.

Reads the 40 frames that ``arena-table bench dice`` times (``bench.time_frames``: rendered
1280x720 tables of 10 dice, one OpenCV thread, the automatic die-size range) and prints, per
frame, the wall time of the whole reader and of each stage: every detector run by its input size
(ONNX Runtime alone), the classifier (ONNX Runtime alone, with its crops a frame), the detector
stage around those runs (frame halvings, blur and resize, input standardisation, peak finding),
the classifier crops, the pip check and what is left. Last comes ``reference_ms`` (the yardstick,
GaussianBlur + Canny on a fixed 1280x720 frame, ``bench.reference_ms``) and the reader's time in those units, the
figure that stays the same when the virtual machine itself runs faster or slower (timed after
each frame, as ``time_frames`` does, and not counted in the stages).

Each stage is timed by wrapping the module function that does it (``time.perf_counter`` around
the call), so the stage figures add up to about the whole; the wrappers cost a few microseconds
a call. The process pins itself to one CPU and OpenCV to one thread while timing, as ``time_frames``
does, and gives both back after.

    taskset -c 0 python -m arena_table.bench.dice_stages [--frames 40] [--rounds 2]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections import defaultdict

import cv2
import numpy as np

from arena_table.bench import dice as bench
from arena_table.vision import dice, nets
from arena_table.vision.size_search import read_dice_any_size
from arena_table.vision.dice import DiceConfig


def frames(count: int, seed: int = 1) -> list[np.ndarray]:
    """The first ``count`` frames ``bench.time_frames`` times (``bench.timing_frames``)."""
    return list(itertools.islice(bench.timing_frames(seed), count))


class Stages:
    """Seconds and calls per stage, from wrappers put round module functions (undone by ``close``)."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.crops = 0
        self.paused = False
        """While true, the wrappers record nothing (the reference run between frames)."""
        self._undo = []
        forward = nets._forward

        def timed_forward(name, net, x):
            t0 = time.perf_counter()
            try:
                return forward(name, net, x)
            finally:
                key = f"detector {x.shape[3]}x{x.shape[2]} (ONNX Runtime)" if "det" in name \
                    else "classifier (ONNX Runtime)"
                if "face" in name and not self.paused:
                    self.crops += len(x)
                self._add(key, t0)

        try:
            self._patch(nets, "_forward", timed_forward)
            for module, name, key in ((dice, "find_candidates", "detector stage, all"),
                                      (dice, "_crops", "classifier crops"),
                                      (dice, "inspect_faces", "pip check")):
                self._wrap(module, name, key)
        except BaseException:  # a function renamed since: leave nothing wrapped
            self.close()
            raise

    def _add(self, key: str, t0: float) -> None:
        if self.paused:
            return
        self.seconds[key] += time.perf_counter() - t0
        self.calls[key] += 1

    def _patch(self, module, name: str, new) -> None:
        self._undo.append((module, name, getattr(module, name)))
        setattr(module, name, new)

    def _wrap(self, module, name: str, key: str) -> None:
        inner = getattr(module, name)

        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self._add(key, t0)

        self._patch(module, name, timed)

    def close(self) -> None:
        for module, name, old in reversed(self._undo):
            setattr(module, name, old)
        self._undo.clear()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=40, help="frames a round (default 40, as bench dice)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds over the frames (default 2)")
    args = ap.parse_args(argv)
    if args.frames < 1 or args.rounds < 1:
        ap.error("--frames and --rounds take a whole number from 1")
    threads = cv2.getNumThreads()
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    cfg = DiceConfig()
    scenes = frames(args.frames)
    whole, refs = 0.0, []
    stages = None
    try:  # one thread on one CPU while timing, as time_frames; both given back after
        cv2.setNumThreads(1)
        if affinity:
            os.sched_setaffinity(0, {min(affinity)})
        read_dice_any_size(cfg, scenes[0])  # warm-up: model load
        stages = Stages()
        for _ in range(args.rounds):
            for frame in scenes:
                t0 = time.perf_counter()
                read_dice_any_size(cfg, frame)
                whole += time.perf_counter() - t0
                stages.paused = True  # the machine's own speed after each frame, as time_frames
                refs.append(bench.reference_ms())
                stages.paused = False
    finally:
        if stages is not None:
            stages.close()
        cv2.setNumThreads(threads)
        if affinity:
            os.sched_setaffinity(0, affinity)
    n = args.frames * args.rounds
    ref = float(np.median(refs))
    ms = {k: v / n * 1000 for k, v in stages.seconds.items()}
    det_runs = sum(v for k, v in ms.items() if k.startswith("detector ") and "ONNX" in k)
    ms["detector stage, around the runs"] = ms.pop("detector stage, all", 0.0) - det_runs
    total = whole / n * 1000
    ms["the rest (classifier input, suppression, decisions, Python)"] = total - sum(ms.values())
    print(f"{n} frames ({args.frames} x {args.rounds}), 1280x720, {bench.DICE_PER_FRAME} dice, one thread")
    print(f"{'reader, whole':<62} {total:6.2f} ms/frame")
    for key, value in sorted(ms.items(), key=lambda kv: -kv[1]):
        calls = stages.calls.get(key)
        extra = f"  {calls / n:.1f} calls/frame" if calls else ""
        if key.startswith("classifier (ONNX"):
            extra += f", {stages.crops / n:.1f} crops/frame"
        print(f"  {key:<60} {value:6.2f} ms/frame{extra}")
    print(f"{'reference_ms (GaussianBlur + Canny, 1280x720)':<62} {ref:6.2f} ms")
    print(f"{'reader / reference_ms':<62} {total / ref:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
