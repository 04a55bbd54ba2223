"""Render test sets of every drawable shipped die kind: one folder of frames per scene.

A scene is one game's table (its kinds plus distractor dice of other games' kinds) or the dice
tray (the game-free kinds: d6s, d4s and the d8, d10, d12 and d20); see ``arena_table/vision/kind_sets.py``. Each frame varies
rotation, size, light, blur, glare, noise and tray (``arena_table/vision/kind_render.py``), all
from the seed. ``arena-table bench dice --kinds`` renders the same frames in memory (same seeds).

Writes ``OUT/<scene>/<seed>.png`` and ``OUT/labels.json``:
``{"seed", "frames", "scenes": {scene: {"kinds", "others", "left_out", "together", "not_drawn",
"frames": [{"file", "index", "dice": [{"kind", "face", "centre", "side", "other", "outline"}]}]}}}``
(``outline``: a d4's or d8-d20's silhouette corners in px, see ``kind_render.RenderedDie``).

Run: ``python tools/render_die_kinds.py OUT [--frames 30] [--seed 900000]``. The default seed is
the test sets' (``kind_sets.TEST_SEED``); the kind face model was trained on seeds below 100 000.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import arena_table.rules  # noqa: E402,F401 - loads the games' kinds
from arena_table.vision.kind_sets import GAMES, TEST_SEED, scene_frames, scene_plan  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path, help="folder to write (created)")
    ap.add_argument("--frames", type=int, default=30, help="frames per scene (default 30)")
    ap.add_argument("--seed", type=int, default=TEST_SEED, help=f"first seed (default {TEST_SEED}: the test sets)")
    args = ap.parse_args(argv)
    if args.frames < 1:
        ap.error("--frames must be at least 1")
    labels = {"seed": args.seed, "frames": args.frames, "scenes": {}}
    for game in (*GAMES, None):
        name = game or "tray"
        plan = scene_plan(game)
        folder = args.out / name
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for i, (frame, truth) in enumerate(scene_frames(game, args.frames, args.seed)):
            file = folder / f"{i:04d}.png"
            cv2.imwrite(str(file), frame)
            entries.append({"file": f"{name}/{file.name}", "index": i, "dice": [asdict(d) for d in truth]})
        labels["scenes"][name] = {"kinds": [k.id for k in plan.kinds], "others": [k.id for k in plan.others],
                                  "left_out": plan.left_out, "together": plan.together,
                                  "not_drawn": plan.not_drawn, "frames": entries}
        print(f"{name}: {len(entries)} frames, kinds {', '.join(k.id for k in plan.kinds)}; "
              f"{len(plan.others)} distractor kinds; not drawn: {', '.join(plan.not_drawn) or '-'}")
    (args.out / "labels.json").write_text(json.dumps(labels, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
