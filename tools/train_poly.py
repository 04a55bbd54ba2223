"""Train the polyhedral die classifier (``arena_table/vision/models/poly_face.onnx``).

Data: rendered dice found and cut by the reader's own steps (``d4.find_d4s`` and
``poly_model.d4_crops``; ``poly.find_polys`` and ``poly_model.poly_crops``), from three sources,
all seeds below 100 000 (the test sets start at ``kind_sets.TEST_SEED`` = 900 000, the abstention
thresholds are set on 700 000-799 999):

- d4 scene frames (``kind_render.render_frame``, 12 d4s of the shipped d4 kinds, 480x640, edges
  49.5-94.5 px as the scenes draw them), seeds ``--seed`` on;
- single d4s (``d4_render.render_d4``, 240x320, edges 60-130 px), seeds ``--seed + 20 000`` on;
- d8-d20 frames (``render_frame``, 12 dice: d8, d10, d12, d20 weighted 4:5:6:10, and every
  six-sided kind, learnt as ``other``), seeds 75 000 on, each blob cut at three random turns.

Half the dice keep their kind's colours, half get a random body and a contrasting ink
(``train_kinds.palette``), so the net reads numerals whatever the colours.

Net: eight 3x3 convolutions (BatchNorm, ReLU; stride 2 at four), the 4x4 map flattened into one
linear layer (the places of the numerals on the faces tell the style); input 1 x 64 x 64
standardised grey crop (``poly_model.standardise``), one logit per class (``<style>-<value>``,
``d<sides>-<face>``, ``other``).
Trained with Adam (one cycle), a random one of the three turns, a small random affine jitter (the
outline's corner error: up to 3 % scale, 4 degrees, 1.5 px), grey gain and offset, noise; exported
to ONNX (opset 13) with the class list in its metadata. Needs torch; the reader runs the ONNX file.

Run: ``nice python tools/train_poly.py [--frames 900] [--singles 2400] [--poly-frames 1500]
[--steps 2500] [--cache /tmp/poly_d4.npz] [--poly-cache /tmp/poly_p.npz] [--out arena_table/vision/models]`` (the shipped model: the command in
``arena_table/vision/models/README.md``).
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
from arena_table.vision import d4, poly, poly_model, poly_render  # noqa: E402
from arena_table.vision.d4_render import STYLES  # noqa: E402
from arena_table.vision.kind_render import render_frame  # noqa: E402
from arena_table.vision.kind_sets import drawable  # noqa: E402
from train_kinds import palette  # noqa: E402 - tools/ is this script's folder

TRAIN_SEED_LIMIT = 100_000
SINGLES_OFFSET = 20_000
POLY_SEED = 75_000


def class_names() -> list[str]:
    """The classes, in output order: the d4s' ``<style>-<value>``, the d8-d20s' ``d<sides>-<face>``
    and ``other``."""
    polys = [f"d{n}-{f}" for n in poly_render.SIDES for f in sorted(poly_render.numbering(n), key=int)]
    return [f"{s}-{v}" for s in STYLES for v in (1, 2, 3, 4)] + polys + [poly_model.OTHER]


def poly_samples(seed: int, frames: int, log):
    """Crops (N x 3 x CROP x CROP uint8, :func:`poly_model.poly_crops` at three random turns) and
    class indices of the blobs ``poly.find_polys`` finds in ``frames`` rendered frames of 12 dice
    each, d8-d20 (weighted by their face counts) and every drawable six-sided kind (class
    ``other``); and how many d8-d20 were not found."""
    index = {c: i for i, c in enumerate(class_names())}
    every = die_kinds()
    polys = {k.sides: k for k in every if poly_render.is_poly(k)}
    weighted = [polys[8]] * 4 + [polys[10]] * 5 + [polys[12]] * 6 + [polys[20]] * 10
    pool = weighted + [k for k in every if drawable(k) and k.sides == 6]
    by_id = {k.id: k for k in every}
    xs, ys, missed = [], [], 0
    t0 = time.time()
    for f in range(frames):
        frame, truth = render_frame(pool, seed + f, n=12, palette=palette)
        hulls = poly.find_polys(frame)
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        rng = np.random.default_rng(seed + f)
        for die in truth:
            kind = by_id[die.kind]
            near = [h for h in hulls if np.hypot(*(h.mean(axis=0) - die.centre)) < 0.3 * die.side]
            if not near:
                missed += poly_render.is_poly(kind)
                continue
            turns = rng.uniform(0, 360, 3)
            xs.append(np.stack([poly_render.crop_die(gray, near[0], poly_model.CROP, poly_model.POLY_FILL, a)[0]
                                for a in turns]))
            ys.append(index[f"d{kind.sides}-{die.face}" if poly_render.is_poly(kind) else poly_model.OTHER])
        if f % 100 == 0:
            log(f"poly frame {f}/{frames}: {len(xs)} blobs ({time.time() - t0:.0f} s)")
    return np.array(xs, np.uint8), np.array(ys, np.int64), missed


def _near(found: list[np.ndarray], centre, reach: float) -> np.ndarray | None:
    best = min(found, key=lambda c: float(np.hypot(*(c.mean(axis=0) - centre))), default=None)
    if best is None or np.hypot(*(best.mean(axis=0) - centre)) > reach:
        return None
    return best


def samples(seed: int, frames: int, singles: int, log):
    """Crops (N x 3 x CROP x CROP uint8) and class indices of the d4s found, and how many were not."""
    index = {c: i for i, c in enumerate(class_names())}
    kinds = [k for k in die_kinds() if k.sides == 4 and k.look.style in STYLES]
    xs, ys, missed = [], [], 0
    t0 = time.time()
    for f in range(frames):
        frame, truth = render_frame(kinds, seed + f, n=12, palette=palette)
        found = d4.find_d4s(frame)
        style = {k.id: k.look.style for k in kinds}
        for die in truth:
            c = _near(found, np.float32(die.centre), 0.25 * die.side)
            if c is None:
                missed += 1
                continue
            xs.append(poly_model.d4_crops(frame, c))
            ys.append(index[f"{style[die.kind]}-{die.face}"])
        if f % 100 == 0:
            log(f"frame {f}/{frames}: {len(xs)} dice ({time.time() - t0:.0f} s)")
    rng = np.random.default_rng(seed + SINGLES_OFFSET)
    for i in range(singles):
        kind = kinds[i % len(kinds)]
        value = int(rng.integers(1, 5))
        r = np.random.default_rng(seed + SINGLES_OFFSET + i)
        body, ink = palette(r, kind)
        frame, truth = d4.render_d4(kind.look.style, value, r, edge_px=(60, 130), body=body, ink=ink)
        found = d4.find_d4s(frame)
        edge = float(np.linalg.norm(np.subtract(truth.corners[0], truth.corners[1])))
        c = _near(found, np.float32(truth.corners).mean(axis=0), 0.25 * edge)
        if c is None:
            missed += 1
            continue
        xs.append(poly_model.d4_crops(frame, c))
        ys.append(index[f"{kind.look.style}-{value}"])
    return np.array(xs, np.uint8), np.array(ys, np.int64), missed


def build_net(classes: int):
    import torch.nn as nn
    from dice_torch_nets import cbr

    class PolyNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(cbr(1, 16), cbr(16, 24, 2), cbr(24, 32), cbr(32, 48, 2), cbr(48, 48),
                                   cbr(48, 64, 2), cbr(64, 64), cbr(64, 64, 2))
            self.drop = nn.Dropout(0.2)
            self.fc = nn.Linear(64 * 4 * 4, classes)

        def forward(self, x):
            return self.fc(self.drop(self.f(x).flatten(1)))

    return PolyNet()


def jitter(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each uint8 crop of ``batch`` (B x CROP x CROP) under a small random affine map about the
    crop's centre (the outline's corner error), a grey gain and offset, and noise."""
    out = np.empty(batch.shape, np.float32)
    c = poly_model.CROP / 2
    for i, img in enumerate(batch):
        m = cv2.getRotationMatrix2D((c, c), float(rng.uniform(-4, 4)), float(rng.uniform(0.97, 1.03)))
        m[:, :2] += rng.uniform(-0.03, 0.03, (2, 2))
        m[:, 2] += rng.uniform(-1.5, 1.5, 2)
        w = cv2.warpAffine(img, m, img.shape[::-1], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        w = w.astype(np.float32) * rng.uniform(0.8, 1.2) + rng.uniform(-15, 15)
        out[i] = np.clip(w + rng.normal(0, rng.uniform(0, 4), w.shape), 0, 255)
    return poly_model.standardise(out.round().astype(np.uint8))


def train(x, y, classes, steps, seed, log):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    net = build_net(classes)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    net.train()
    t0 = time.time()
    for step in range(steps):
        idx = rng.integers(0, len(x), 128)
        turn = rng.integers(0, x.shape[1], len(idx))
        xb = torch.from_numpy(jitter(x[idx, turn], rng)[:, None])
        loss = F.cross_entropy(net(xb), torch.from_numpy(y[idx]), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            log(f"step {step}/{steps} loss {loss.item():.3f} ({time.time() - t0:.0f} s)")
    net.eval()
    return net


def export(net, path: Path, names: list[str]) -> None:
    from dice_torch_nets import export_onnx

    export_onnx(net, path, (1, 1, poly_model.CROP, poly_model.CROP), {"input": {0: "n"}, "logits": {0: "n"}},
                output="logits", labels=("classes", names))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("arena_table/vision/models"))
    ap.add_argument("--frames", type=int, default=900, help="rendered scene frames (12 d4s each)")
    ap.add_argument("--singles", type=int, default=2400, help="rendered single-d4 frames")
    ap.add_argument("--seed", type=int, default=50_000, help="first training frame seed")
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--poly-frames", type=int, default=1500, help="rendered d8-d20 frames (12 dice each), "
                    f"seeds {POLY_SEED} on")
    ap.add_argument("--cache", type=Path, help="npz of rendered d4 samples to reuse (written when missing)")
    ap.add_argument("--poly-cache", type=Path, help="npz of rendered d8-d20 samples to reuse (written when missing)")
    ap.add_argument("--render-only", action="store_true", help="write the caches and stop")
    ap.add_argument("--keep-pt", action="store_true", help="also write the torch weights (poly_face.pt, not shipped)")
    args = ap.parse_args(argv)
    if (args.seed + SINGLES_OFFSET + args.singles > POLY_SEED or args.frames > SINGLES_OFFSET
            or POLY_SEED + args.poly_frames > TRAIN_SEED_LIMIT):
        ap.error(f"training seeds must stay below {TRAIN_SEED_LIMIT} (the test sets' seeds lie above)")
    cv2.setNumThreads(1)
    names = class_names()
    log = lambda m: print(m, flush=True)  # noqa: E731
    if args.cache and args.cache.is_file():
        data = np.load(args.cache)
        x, y, missed = data["x"], data["y"], int(data["missed"])
    else:
        t0 = time.time()
        x, y, missed = samples(args.seed, args.frames, args.singles, log)
        log(f"{len(x)} samples ({missed} dice not found) in {time.time() - t0:.0f} s")
        if args.cache:
            np.savez_compressed(args.cache, x=x, y=y, missed=missed)
    if args.poly_cache and args.poly_cache.is_file():
        data = np.load(args.poly_cache)
        px, py, pmissed = data["x"], data["y"], int(data["missed"])
    else:
        t0 = time.time()
        px, py, pmissed = poly_samples(POLY_SEED, args.poly_frames, log)
        log(f"{len(px)} d8-d20 frame samples ({pmissed} d8-d20 not found) in {time.time() - t0:.0f} s")
        if args.poly_cache:
            np.savez_compressed(args.poly_cache, x=px, y=py, missed=pmissed)
    if args.render_only:
        return 0
    x, y = np.concatenate([x, px]), np.concatenate([y, py])
    net = train(x, y, len(names), args.steps, args.seed, log)
    import torch

    with torch.no_grad():
        xs = poly_model.standardise(x[:, 0])
        logits = torch.cat([net(torch.from_numpy(xs[i:i + 512, None])) for i in range(0, len(x), 512)])
    train_acc = float((logits.argmax(1).numpy() == y).mean())
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "poly_face.onnx"
    export(net, path, names)
    if args.keep_pt:
        torch.save(net.state_dict(), args.out / "poly_face.pt")
    record = {"frames": args.frames, "singles": args.singles, "seed": args.seed, "poly_frames": args.poly_frames,
              "poly_seed": POLY_SEED, "steps": args.steps, "samples": len(x), "d4s_not_found": missed,
              "polys_not_found": pmissed, "train_accuracy": round(train_acc, 4),
              "classes": names, "crop": poly_model.CROP}
    (args.out / "train_poly.json").write_text(json.dumps(record, indent=1) + "\n")
    log(f"wrote {path} ({path.stat().st_size} bytes), training accuracy {train_acc:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
