"""Train the die-kind face classifier (``arena_table/vision/models/kind_face.onnx``).

Data: rendered frames (``arena_table.vision.kind_render.render_frame``) of every square-faced shipped
kind (``kinds.square_faced``: the dice this model reads; d4s and d8-d20 have readers of their own), seeds ``--seed`` to ``--seed + --frames - 1`` (all below 100 000; the test sets start at
``kind_sets.TEST_SEED`` = 900 000). Half the dice keep their kind's look, half get a random body
colour and a contrasting ink, so the net reads glyphs whatever the colours. Each die is found and
cropped by the reader's own steps (``kinds.locate``, ``kinds.face_crop``, ``kind_model.ink_map``).

Net: seven 3x3 convolutions (BatchNorm, ReLU; strides 2 at three of them), global average pooling,
one linear layer; input 1 x 48 x 48 ink map, one logit per glyph. Trained with Adam, random quarter
turns, shifts of up to 2 px and ink gain 0.8-1.25; exported to ONNX (opset 13) with the glyph list
in its metadata. Needs torch (``pip install -e .[train]``); the reader runs the ONNX file.

Run: ``nice python tools/train_kinds.py [--frames 1400] [--epochs 8] [--out arena_table/vision/models]``
(the shipped model: the command in ``arena_table/vision/models/README.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import arena_table.rules  # noqa: E402,F401 - loads the games' kinds
from arena_table.rules.kernel.mechanics.die_kinds import die_kinds  # noqa: E402
from arena_table.vision import kind_model  # noqa: E402
from arena_table.vision.kind_render import body_bgr, ink_bgr, render_frame  # noqa: E402
from arena_table.vision.kind_sets import glyphs  # noqa: E402
from arena_table.vision.kinds import face_crop, locate, square_faced  # noqa: E402
from arena_table.vision.kind_icons import glyph_id  # noqa: E402

TRAIN_SEED_LIMIT = 100_000


def palette(rng, kind):
    """Half the dice in their kind's colours, half in a random body colour with a contrasting ink."""
    if rng.random() < 0.5:
        return body_bgr(kind), ink_bgr(kind)
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(40, 256)]]])
    body = tuple(int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    light = sum(body) / 3 > 120
    if rng.random() < 0.7:
        ink = (25, 25, 25) if light else (240, 240, 240)
    else:
        base = 20 if light else 200
        ink = tuple(int(base + rng.integers(0, 56)) for _ in range(3))
    return body, ink


def samples(kinds, seed: int, frames: int, names: list[str]):
    """Ink maps and glyph labels of the dice found in ``frames`` rendered frames."""
    index = {g: i for i, g in enumerate(names)}
    by_id = {k.id: k for k in kinds}
    xs, ys, missed = [], [], 0
    for f in range(frames):
        frame, truth = render_frame(kinds, seed + f, n=12, palette=palette)
        rects = locate(frame)
        for die in truth:
            near = [r for r in rects if np.hypot(r[0][0] - die.centre[0], r[0][1] - die.centre[1]) < die.side / 2]
            if not near:
                missed += 1
                continue
            xs.append(kind_model.ink_map(face_crop(frame, near[0])))
            ys.append(index[glyph_id(die.face, by_id[die.kind].look.marks)])
    return np.array(xs, np.float32), np.array(ys, np.int64), missed


def build_net(classes: int):
    import torch.nn as nn
    from dice_torch_nets import cbr

    class KindNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(cbr(1, 16), cbr(16, 24, 2), cbr(24, 24), cbr(24, 48, 2), cbr(48, 48),
                                   cbr(48, 64, 2), cbr(64, 64))
            self.fc = nn.Linear(64, classes)

        def forward(self, x):
            return self.fc(self.f(x).mean((2, 3)))

    return KindNet()


def train(x, y, classes, epochs, seed, log):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    net = build_net(classes)
    steps = epochs * (len(x) // 128)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    net.train()
    t0 = time.time()
    for step in range(steps):
        idx = rng.integers(0, len(x), 128)
        batch = x[idx]
        k = int(rng.integers(4))
        batch = np.rot90(batch, k, axes=(1, 2))
        dx, dy = (int(v) for v in rng.integers(-2, 3, 2))
        batch = np.roll(batch, (dy, dx), axis=(1, 2)) * rng.uniform(0.8, 1.25, (len(idx), 1, 1)).astype(np.float32)
        xb = torch.from_numpy(np.ascontiguousarray(batch[:, None], np.float32))
        loss = F.cross_entropy(net(xb), torch.from_numpy(y[idx]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            log(f"step {step}/{steps} loss {loss.item():.3f} ({time.time() - t0:.0f} s)")
    net.eval()
    return net


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("arena_table/vision/models"))
    ap.add_argument("--frames", type=int, default=1400, help="rendered training frames (12 dice each)")
    ap.add_argument("--seed", type=int, default=1000, help="first training frame seed")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--cache", type=Path, help="npz of rendered samples to reuse (written when missing)")
    args = ap.parse_args(argv)
    if args.seed + args.frames > TRAIN_SEED_LIMIT:
        ap.error(f"training seeds must stay below {TRAIN_SEED_LIMIT} (the test sets' seeds lie above)")
    cv2.setNumThreads(1)
    kinds = [k for k in die_kinds() if square_faced(k)]
    names = sorted(set().union(*(glyphs(k) for k in kinds)))
    if args.cache and args.cache.is_file():
        data = np.load(args.cache)
        x, y, missed = data["x"], data["y"], int(data["missed"])
    else:
        t0 = time.time()
        x, y, missed = samples(kinds, args.seed, args.frames, names)
        print(f"{len(x)} samples ({missed} dice not found) in {time.time() - t0:.0f} s", flush=True)
        if args.cache:
            np.savez_compressed(args.cache, x=x, y=y, missed=missed)
    net = train(x, y, len(names), args.epochs, args.seed, lambda m: print(m, flush=True))
    import torch
    from dice_torch_nets import export_onnx

    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(x[i:i + 512, None])) for i in range(0, len(x), 512)])
    train_acc = float((logits.argmax(1).numpy() == y).mean())
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "kind_face.onnx"
    export_onnx(net, path, (1, 1, kind_model.CROP, kind_model.CROP), {"input": {0: "n"}, "logits": {0: "n"}},
                output="logits", labels=("glyphs", names))
    record = {"frames": args.frames, "seed": args.seed, "epochs": args.epochs, "samples": len(x),
              "dice_not_found": missed, "train_accuracy": round(train_acc, 4), "glyphs": names,
              "crop": kind_model.CROP}
    (args.out / "train_kinds.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path} ({path.stat().st_size} bytes), training accuracy {train_acc:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
