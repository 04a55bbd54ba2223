"""Benchmark of the dice reader (``arena-table bench dice``).

Reports, with the keys of ``arena-table dice eval``:

* the shared labelled photo sets (``../shared/data/dice/*``), when present;
* rendered stress sets (``render.py``): touching dice, glare, 40 % darker and
  brighter exposure, colour cast, motion blur, a strongly textured table (blotches of
  +-35 grey levels about half a die wide), and a wide view (dice of 20-30 px, below the automatic
  size range: read after the reader's size search, ``size_search.py``);

and the speed of the reader (:func:`~arena_table.vision.size_search.read_dice_any_size`) on 1280x720
frames with 10 dice on one core (OpenCV limited to one thread and the process
pinned to one CPU while timing), with the automatic die-size range and with a
calibrated die size, plus the process's peak resident memory.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from dataclasses import replace

import cv2
import numpy as np

from arena_table.vision.calibrate import measure_die_side
from arena_table.vision.dice import DiceConfig
from arena_table.vision.evaluate import evaluate_set, pool_metrics, score_samples
from arena_table.vision.labels import LabelledBox, dice_set_dir
from arena_table.vision.nets import MODEL_NAMES, loaded_path
from arena_table.vision.render import random_table, render_table
from arena_table.vision.size_search import read_dice_any_size, sized_config

REAL_SETS = ("byler_d6", "matteo_d6")
FRAME_SIZE = (1280, 720)
DICE_PER_FRAME = 10
STRESS = {
    "touching": dict(touching_pairs=3),
    "glare": dict(glare=True),
    "dark_40": dict(exposure=0.6),
    "bright_40": dict(exposure=1.4),
    "colour_cast": dict(cast=(1.35, 1.0, 0.7)),
    "motion_blur": dict(motion_blur=6.0, blur_angle=30.0),
    "textured_table": dict(texture=35.0),
    "wide_view": dict(size=(20.0, 30.0)),
}
"""Stress set name -> :func:`random_table` / :class:`TableSpec` options."""


def stress_samples(name: str, frames: int, seed: int = 0):
    """Rendered labelled frames of one stress set: ``(name, frame, values, boxes)``; 8 dice a frame,
    each frame's die side drawn from 50-80 px (``wide_view``: 20-30 px)."""
    opts = dict(STRESS[name])
    glare = opts.pop("glare", False)
    size = opts.pop("size", (50.0, 80.0))
    rng = np.random.default_rng(seed)
    for i in range(frames):
        spec = random_table(rng, *FRAME_SIZE, n_dice=8, size=float(rng.uniform(*size)), **opts)
        if glare:
            spec = replace(spec, dice=tuple(
                replace(d, glare=(float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3)), 0.18))
                for d in spec.dice))
        frame, truth = render_table(spec, rng)
        values = tuple(t.value for t in truth if t.status == "ok")
        boxes = tuple(LabelledBox(t.value, t.center, (t.box[2], t.box[3])) for t in truth)
        yield f"{name}_{i}", frame, values, boxes


REFERENCE_FRAME = (720, 1280)
"""Shape (h, w) of the yardstick's frame: the timed frames' size."""


def _reference_frame() -> np.ndarray:
    """The yardstick's fixed input: a 1280x720 greyscale frame of seeded noise and edges."""
    rng = np.random.default_rng(20261201)
    frame = rng.integers(0, 256, REFERENCE_FRAME, dtype=np.uint8)
    frame[::16, :] = 255
    frame[:, ::16] = 0
    return frame


_YARDSTICK = _reference_frame()


@contextlib.contextmanager
def one_core():
    """OpenCV on one thread and this process pinned to one CPU while inside (the benchmarks'
    "one core"); both are put back after."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if affinity:
        os.sched_setaffinity(0, {min(affinity)})
    try:
        yield
    finally:
        cv2.setNumThreads(threads)
        if affinity:
            os.sched_setaffinity(0, affinity)


def reference_ms() -> float:
    """Wall ms of the speed yardstick: ``cv2.GaussianBlur`` (5x5, sigma 1.5) then ``cv2.Canny``
    (50, 150) on a fixed 1280x720 frame, run with OpenCV's current thread setting.

    A standard OpenCV workload the project does not tune, so its time measures only the machine
    at that moment (a shared virtual machine's speed drifts by half within minutes). A speed is
    quoted as a ratio to it, measured in the same run (``median_ratio``).
    """
    t0 = time.perf_counter()
    cv2.Canny(cv2.GaussianBlur(_YARDSTICK, (5, 5), 1.5), 50, 150)
    return (time.perf_counter() - t0) * 1000.0


SMALL_DICE = (16.0, 28.0)
"""Die sides (px, drawn per frame) of the second timed set (``small_dice``): a camera that sees the
whole of a table, its dice below the automatic size range (38 px at 1280x720)."""


def timing_frames(seed: int = 1, small: bool = False):
    """The frames :func:`time_frames` times, rendered one at a time: 1280x720 tables of 10 dice with
    a touching pair (an endless generator); ``small``: dice of ``SMALL_DICE`` px, else 64 px."""
    rng = np.random.default_rng(seed)
    while True:
        size = float(rng.uniform(*SMALL_DICE)) if small else 64.0
        yield render_table(random_table(rng, *FRAME_SIZE, n_dice=DICE_PER_FRAME, size=size, touching_pairs=1), rng)[0]


def time_frames(cfg: DiceConfig, frames: int = 40, seed: int = 1, calibrated: bool = False,
                small: bool = False) -> dict:
    """Median and p95 wall and CPU ms of the reader on 1280x720 frames with 10 dice, one thread.

    ``small``: frames of dice of ``SMALL_DICE`` px (:func:`timing_frames`).

    ``calibrated``: first measure the die side on one frame (``calibrate.measure_die_side``, as
    ``arena-table dice calibrate`` does for a mounted camera) and time the reader sized to it; the
    result then also has ``die_side_px``.

    ``reference_ms`` is the median of the yardstick (:func:`reference_ms`) timed after each frame,
    and ``median_ratio`` / ``p95_ratio`` are ``median_ms`` / ``p95_ms`` over it: the ratio stays
    about the same when the machine itself runs faster or slower, so runs made at different times
    and on different machines can be compared.
    """
    scenes = timing_frames(seed, small)  # one frame at a time: 40 frames held at once would be 110 MB of RSS
    first = next(scenes)
    side = None
    if calibrated:
        side = measure_die_side(first, cfg).side_px
        cfg = sized_config(side, cfg)
    with one_core():
        read_dice_any_size(cfg, first)  # warm-up: model load
        ms, cpu, ref = [], [], []
        for k in range(frames):
            img = first if k == 0 else next(scenes)
            t0, c0 = time.perf_counter(), time.process_time()
            read_dice_any_size(cfg, img)
            ms.append((time.perf_counter() - t0) * 1000.0)
            cpu.append((time.process_time() - c0) * 1000.0)
            ref.append(reference_ms())
    # CPU time is reported too: on a loaded machine wall time also counts other processes.
    median, p95, ref_ms = float(np.median(ms)), float(np.percentile(ms, 95)), float(np.median(ref))
    out = {"median_ms": median, "p95_ms": p95,
           "cpu_median_ms": float(np.median(cpu)), "cpu_p95_ms": float(np.percentile(cpu, 95)), "frames": frames,
           "reference_ms": ref_ms, "median_ratio": median / ref_ms, "p95_ratio": p95 / ref_ms}
    if side is not None:
        out["die_side_px"] = side
    return out


def run_bench(cfg: DiceConfig | None = None, stress_frames: int = 20, timing_frames: int = 40) -> dict:
    """Run the whole benchmark.

    Returns:
        ``{"median_ms", "p95_ms", "cpu_median_ms", "cpu_p95_ms", "reference_ms", "median_ratio",
        "p95_ratio", "rss_mb",
        "frame": [w, h], "dice_per_frame", "sets": {set name: eval metrics}, "skipped": [reasons],
        "calibrated": {"median_ms", "p95_ms", "reference_ms", "median_ratio", "die_side_px", ...},
        "small_dice": {the same keys, "die_side_px": [16, 28]}, "calibration": [bins],
        "models": {model name: file run}}``: the top-level times are the reader's automatic
        die-size range (no calibration), ``calibrated`` the same frames read at a measured die side;
        ``small_dice`` frames of 16-28 px dice (``SMALL_DICE``), read without calibration;
        ``calibration`` the reliability table (``evaluate.calibration``) of the shared sets pooled:
        the shipped models trained on those photos, so it is no held-out figure;
        ``reference_ms`` the machine's speed during each (see :func:`time_frames`); ``models``
        names an ``*.int8.onnx`` when that is what runs.
    """
    cfg = cfg or DiceConfig()
    sets, skipped = {}, []
    for name in REAL_SETS:
        d = dice_set_dir(name)
        if (d / "labels.csv").is_file():
            sets[name] = evaluate_set(d, cfg=cfg)
        else:
            skipped.append(f"{name}: {d} not found")
    for name in STRESS:
        sets[name] = score_samples(stress_samples(name, stress_frames), cfg)
    out = time_frames(cfg, timing_frames)
    out["calibrated"] = time_frames(cfg, timing_frames, calibrated=True)
    out["small_dice"] = dict(time_frames(cfg, timing_frames, small=True), die_side_px=list(SMALL_DICE))
    real = [sets[name] for name in REAL_SETS if name in sets]
    out["calibration"] = pool_metrics(real)["calibration"] if real else []
    out.update(rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
               frame=list(FRAME_SIZE), dice_per_frame=DICE_PER_FRAME, sets=sets, skipped=skipped,
               models={name: str(loaded_path(name)) for name in MODEL_NAMES})
    return out
