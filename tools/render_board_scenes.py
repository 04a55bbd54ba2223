"""Render a sequence of board frames (arena_table/vision/board_scenes.py) into a folder.

The frames show one board from one fixed camera: the four corner markers, figures on a hex or
square grid, and the camera's faults (a hand now and then, glare, blur, noise). Figures walk along
a path, one step every ``--hold`` frames, so ``arena-table run --camera DIR`` (or a test) sees each
figure stand still on each cell. ``truth.json`` beside the frames gives the corner markers, the
grid, and per frame each figure's cell, board mm and heading.

    python tools/render_board_scenes.py OUT_DIR [--grid hex|square] [--frames 40] [--hold 8] [--seed 0]
    arena-table calibrate OUT_DIR/frame-0000.png --board-mm 450,300
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import cv2
import numpy as np

from arena_table.rules.kernel.geometry import HexLayout, SquareLayout
from arena_table.vision.board_scenes import CORNER_IDS, FigureSpec, SceneSpec, board_texture, render_scene

BOARD = (450.0, 300.0)
GRIDS = {"hex": (HexLayout(20.0, origin_mm=(30.0, 30.0)), "hex:20@30,30"),
         "square": (SquareLayout(30.0, 15, 10), "square:30:15x10")}
PATHS = {"hex": [[(2, 2), (3, 2), (4, 2), (5, 2), (6, 2)], [(8, 5), (8, 4), (9, 3), (10, 3)]],
         "square": [[(2, 2), (3, 2), (4, 2), (5, 3), (6, 4)], [(10, 7), (10, 6), (10, 5), (9, 5)]]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--grid", choices=sorted(GRIDS), default="hex")
    p.add_argument("--frames", type=int, default=40)
    p.add_argument("--hold", type=int, default=8, help="frames a figure stands on each cell")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    grid, grid_spec = GRIDS[args.grid]
    rng = np.random.default_rng(args.seed)
    base = SceneSpec(board_mm=BOARD, grid=grid, dice=3, cards=1)
    texture = board_texture(base, rng)
    _, truth = render_scene(base, rng, texture)
    args.out.mkdir(parents=True, exist_ok=True)
    frames = []
    for k in range(args.frames):
        figures = []
        for marker_id, path in enumerate(PATHS[args.grid]):
            i = min(k // args.hold, len(path) - 1)
            cell = path[i]
            nxt = path[min(i + 1, len(path) - 1)]
            (x, y), (nx, ny) = grid.centre(cell), grid.centre(nxt)
            heading = math.degrees(math.atan2(-(ny - y), nx - x)) if nxt != cell else 90.0
            figures.append(FigureSpec(marker_id, (x, y), heading))
        spec = SceneSpec(board_mm=BOARD, grid=grid, figures=tuple(figures), dice=3, cards=1,
                         hand=k % 13 == 5, glare=float(rng.uniform(0, 80)), blur_px=float(rng.uniform(0.3, 0.9)))
        frame, _ = render_scene(spec, rng, texture, camera=truth.board_to_image)
        name = f"frame-{k:04d}.png"
        cv2.imwrite(str(args.out / name), frame)
        frames.append({"image": name, "figures": [
            {"id": f.id, "at_mm": list(f.at), "heading_deg": f.heading_deg,
             "cell": list(grid.cell_at(f.at))} for f in figures]})
    (args.out / "truth.json").write_text(json.dumps({
        "board_mm": list(BOARD), "corner_ids": list(CORNER_IDS), "grid": grid_spec, "frames": frames}, indent=1))
    print(f"wrote {args.frames} frames and truth.json to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
