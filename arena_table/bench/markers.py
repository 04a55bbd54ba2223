"""Benchmark of the figure-marker path (``arena-table bench markers``).

On rendered 1280x720 frames of a hex board with 20 figures (``vision/board_scenes.py``: corner
markers, board art, dice, a card, blur and noise) and one core (OpenCV limited to one thread and the
process pinned to one CPU), times per frame:

* the whole path: :meth:`~arena_table.vision.markers.MarkerDetector.detect` (``detectMarkers`` and
  the typed markers), then :meth:`~arena_table.vision.tracking.FigureTracker.update` (homography to
  board mm, cells, facing, checks, move events; ``stable_s=0`` so every frame's figures, placed
  anew at random cells, give their moves: the path's most work);
* the bare ``ArucoDetector.detectMarkers`` with the same detector on the same frames, in the same
  run, alternating with the path frame by frame.

``overhead_ratio`` is ``median_ms / detect_only_ms`` (issue 29 target: at most 1.3). Speeds are
also given beside :func:`arena_table.bench.dice.reference_ms`, the machine's yardstick.

    python -m arena_table.bench.markers [--json]
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from arena_table.rules.kernel.geometry import HexLayout
from arena_table.vision.board_calib import calibrate_board
from arena_table.vision.board_scenes import CORNER_IDS, FigureSpec, SceneSpec, board_texture, render_scene
from arena_table.vision.markers import MarkerConfig, MarkerDetector
from arena_table.vision.tracking import FigureTracker, TrackConfig

from .dice import one_core, reference_ms

BOARD = (450.0, 300.0)
FIGURES = 20
GRID = HexLayout(20.0, origin_mm=(30.0, 30.0))


def bench_frames(n: int, seed: int = 29):
    """``(frames, calibration)``: ``n`` frames of one board and camera, 20 figures at random
    cells each, and the board calibration made from a frame without figures."""
    rng = np.random.default_rng(seed)
    base = SceneSpec(board_mm=BOARD, grid=GRID, dice=3, cards=1)
    texture = board_texture(base, rng)
    clean, truth = render_scene(base, rng, texture)
    detector = MarkerDetector(MarkerConfig())
    corners = dict(zip(CORNER_IDS, ((0.0, 0.0), (BOARD[0], 0.0), BOARD, (0.0, BOARD[1]))))
    cal = calibrate_board(detector.detect(clean), clean.shape[1::-1], corners)
    cells = [(q, r) for q in range(-8, 16) for r in range(0, 9)
             if 20 <= GRID.centre((q, r))[0] <= BOARD[0] - 20 and 20 <= GRID.centre((q, r))[1] <= BOARD[1] - 20]
    frames = []
    for _ in range(n):
        chosen = rng.choice(len(cells), FIGURES, replace=False)
        figs = tuple(FigureSpec(k, GRID.centre(cells[i]), float(rng.uniform(0, 360))) for k, i in enumerate(chosen))
        spec = SceneSpec(board_mm=BOARD, grid=GRID, figures=figs, dice=3, cards=1, blur_px=0.6)
        frames.append(render_scene(spec, rng, texture, camera=truth.board_to_image)[0])
    return frames, cal


def run_bench(frames: int = 12, repeats: int = 5) -> dict:
    """Time the path and the bare detector.

    Returns:
        ``{"median_ms", "detect_only_ms", "overhead_ratio", "p95_ms", "reference_ms",
        "median_ratio", "frames", "repeats", "frame": [w, h], "figures_per_frame",
        "markers_found_per_frame", "moves_per_frame"}``; times are wall ms per frame, medians over
        ``frames`` x ``repeats`` timings.
    """
    images, cal = bench_frames(frames)
    detector = MarkerDetector(MarkerConfig())
    names = {k: f"figure-{k}" for k in range(FIGURES)}
    path_ms, bare_ms, ref, found, moves = [], [], [], [], []
    with one_core():
        detector.detector.detectMarkers(images[0])  # warm-up
        for rep in range(repeats):
            for k, img in enumerate(images):
                tracker = FigureTracker(TrackConfig(stable_s=0.0), cal, GRID, names)
                for first in ((True, False) if (k + rep) % 2 else (False, True)):  # alternate which runs first
                    t0 = time.perf_counter()
                    if first:
                        detector.detector.detectMarkers(img)
                        bare_ms.append((time.perf_counter() - t0) * 1000.0)
                    else:
                        seen = detector.detect(img)
                        update = tracker.update(seen, float(k))
                        path_ms.append((time.perf_counter() - t0) * 1000.0)
                        found.append(len(seen))
                        moves.append(len(update.moves))
                ref.append(reference_ms())
    median, bare, ref_ms = float(np.median(path_ms)), float(np.median(bare_ms)), float(np.median(ref))
    return {"median_ms": round(median, 3), "detect_only_ms": round(bare, 3), "overhead_ratio": round(median / bare, 3),
            "p95_ms": round(float(np.percentile(path_ms, 95)), 3), "reference_ms": round(ref_ms, 3),
            "median_ratio": round(median / ref_ms, 3), "frames": frames, "repeats": repeats,
            "frame": list(images[0].shape[1::-1]), "figures_per_frame": FIGURES,
            "markers_found_per_frame": float(np.mean(found)), "moves_per_frame": float(np.mean(moves))}


def format_result(out: dict) -> str:
    return (f"markers: whole path median {out['median_ms']:.2f} ms, bare detectMarkers {out['detect_only_ms']:.2f} ms, "
            f"overhead ratio {out['overhead_ratio']:.3f} (target <= 1.3); p95 {out['p95_ms']:.2f} ms; "
            f"{out['median_ratio']:.2f}x the yardstick ({out['reference_ms']:.2f} ms); "
            f"{out['frame'][0]}x{out['frame'][1]}, {out['markers_found_per_frame']:.1f} markers and "
            f"{out['moves_per_frame']:.1f} moves a frame, {out['frames']} frames x {out['repeats']}, one core")


if __name__ == "__main__":
    result = run_bench()
    print(json.dumps(result, indent=1) if "--json" in sys.argv[1:] else format_result(result))
