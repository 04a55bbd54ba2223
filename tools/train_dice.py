"""Train the dice reader's two small CNNs and export them to ONNX.

Trains ONLY on the labelled photo sets in ``../shared/data/dice`` (never on
rendered images), with heavy colour/brightness/scale/rotation augmentation so
the models generalise to other dice, cameras and tables:

* the **detector** (``dice_det.onnx``): a CenterNet-style fully convolutional
  net on a frame scaled to ``WORK_LONG`` px; outputs at stride 4 a die-centre
  heat map, log die size and sub-cell offsets;
* the **face classifier** (``dice_face.onnx``): a tiny CNN on a ``CROP`` px
  crop around one die (1.5 die sides wide); classes 0 = "not a die centred
  here", 1..6 = face value.

Extra augmentation beyond photometric/geometric: copy-paste of real dice edge
to edge next to their originals (touching same-coloured dice are rare in the
photos), and ``--hard-negatives-from DIR``: the false positives of an earlier
detector on the training photos become "no die" crops for the classifier.

Every ``--holdout-every``-th image of each set (sorted by name) is held out of
training so ``arena-table dice eval`` can report held-out figures; pass
``--holdout-every 0`` to train on everything.

Run (needs torch, training only; the reader itself uses cv2.dnn); the shipped
models were made with::

    python tools/train_dice.py --what det --det-iters 3000 --out /tmp/m3
    python tools/train_dice.py --what face --face-iters 2200 --threads 2 \
        --hard-negatives-from /tmp/m1 --out /tmp/m2   # /tmp/m1: a first detector run
    cp /tmp/m3/dice_det.onnx /tmp/m2/dice_face.onnx arena_table/vision/models/

Source: CenterNet, Zhou et al. 2019, "Objects as Points" (heat-map + size head).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from arena_table.vision.labels import dice_set_dir, is_held_out, load_set, read_boxes  # noqa: E402
from arena_table.vision.nets import CROP, CROP_SPAN, STRIDE, standardise  # noqa: E402

SETS = ("byler_d6", "matteo_d6")
# Matteo's YOLO boxes enclose the pips, not the die: pips of a 4/5/6 span about
# this fraction of the die side, used to estimate the die size for training.
PIP_SPAN = 0.62
MATTEO_DEFAULT_DIE = 52.0


def load_items(holdout_every):
    """Images with die (value, cx, cy, side) arrays, split into (train, held out)."""
    train, held = [], []
    for name in SETS:
        for it in load_set(dice_set_dir(name)):
            img = cv2.imread(str(it.path))
            boxes = read_boxes(it, img.shape[1], img.shape[0])
            if not boxes:
                continue
            if name == "matteo_d6":
                est = [max(b.size) / PIP_SPAN for b in boxes if b.value >= 4]
                side = float(np.clip(np.median(est), 35, 85)) if est else MATTEO_DEFAULT_DIE
                dice = [(b.value, b.center[0], b.center[1], side) for b in boxes]
            else:
                dice = [(b.value, b.center[0], b.center[1], (b.size[0] + b.size[1]) / 2) for b in boxes]
            rec = (img, np.array(dice, np.float32), name)
            (held if is_held_out(it.index, holdout_every) else train).append(rec)
    return train, held


# ---------------------------------------------------------------- augmentation
def colour_aug(img, rng, invert_p):
    """Photometric augmentation on a uint8 BGR image (returns float32 0..255)."""
    x = img.astype(np.float32)
    if rng.random() < 0.5:  # hue rotation keeps value, changes die colour
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + rng.integers(0, 180)) % 180
        x = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.3:
        x = x[..., rng.permutation(3)]
    if rng.random() < invert_p:
        x = 255.0 - x
    x = x * rng.uniform(0.55, 1.45, 3).astype(np.float32)  # colour cast / exposure
    x = x * rng.uniform(0.5, 1.5) + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        x = 255.0 * (np.clip(x, 0, 255) / 255.0) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.25:
        k = rng.uniform(0.3, 1.3)
        x = cv2.GaussianBlur(x, (0, 0), k)
    if rng.random() < 0.15:  # motion blur
        n = int(rng.integers(3, 6))
        ker = np.zeros((n, n), np.float32)
        ker[n // 2, :] = 1.0 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
        ker = cv2.warpAffine(ker, rot, (n, n))
        x = cv2.filter2D(x, -1, ker / max(ker.sum(), 1e-6))
    if rng.random() < 0.4:
        x = x + rng.normal(0, rng.uniform(1, 8), x.shape).astype(np.float32)
    return np.clip(x, 0, 255)


def affine(cx, cy, scale, angle, flip, ox, oy):
    """Matrix mapping source (cx, cy) to output (ox, oy)."""
    a = math.radians(angle)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    fx = -1.0 if flip else 1.0
    m = np.array([[c * fx, -s, 0], [s * fx, c, 0]], np.float64)
    m[:, 2] = [ox - (m[0, 0] * cx + m[0, 1] * cy), oy - (m[1, 0] * cx + m[1, 1] * cy)]
    return m


def paste_neighbours(img, dice, rng, tries=4):
    """Copy-paste augmentation: copies of real dice laid edge to edge with their originals.

    Same-coloured touching dice are rare in the photos; this makes them common.
    Returns a new (image, dice) pair; the originals are not modified.
    """
    img, dice = img.copy(), [tuple(d) for d in dice]
    h, w = img.shape[:2]
    for _ in range(tries):
        v, cx, cy, side = dice[rng.integers(len(dice))]
        half = int(side / 2)
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][rng.integers(4)]
        nx, ny = cx + dx * side * rng.uniform(0.82, 1.0), cy + dy * side * rng.uniform(0.82, 1.0)
        x0, y0, px, py = int(cx) - half, int(cy) - half, int(nx) - half, int(ny) - half
        if min(x0, y0, px, py) < 0 or max(x0, px) + 2 * half > w or max(y0, py) + 2 * half > h:
            continue
        if any(np.hypot(d[1] - nx, d[2] - ny) < 0.8 * side for d in dice):
            continue
        img[py:py + 2 * half, px:px + 2 * half] = img[y0:y0 + 2 * half, x0:x0 + 2 * half]
        dice.append((v, px + half, py + half, side))
    return img, np.array(dice, np.float32)


def det_sample(rec, rng, out=192, paste_prob=0.5):
    img, dice, _ = rec
    if rng.random() < paste_prob:
        img, dice = paste_neighbours(img, dice, rng)
    med = float(np.median(dice[:, 3]))
    scale = rng.uniform(10, 32) / med
    if rng.random() < 0.7:
        j = rng.integers(len(dice))
        cx, cy = dice[j, 1] + rng.normal(0, 40), dice[j, 2] + rng.normal(0, 40)
    else:
        cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
    m = affine(cx, cy, scale, rng.uniform(0, 360), rng.random() < 0.5, out / 2, out / 2)
    fill = tuple(float(v) for v in rng.integers(0, 256, 3))
    warped = cv2.warpAffine(img, m, (out, out), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    x = standardise(colour_aug(warped, rng, invert_p=0.15))
    g = out // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for v, px, py, side in dice:
        qx, qy = m @ np.array([px, py, 1.0])
        sz = side * scale
        gx, gy = qx / STRIDE - 0.5, qy / STRIDE - 0.5
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        sigma = max(0.5, sz / STRIDE / 5)
        heat = np.maximum(heat, np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2)))
        ix, iy = int(round(gx)), int(round(gy))
        ix, iy = min(max(ix, 0), g - 1), min(max(iy, 0), g - 1)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(sz), gx - ix, gy - iy)
        mask[iy, ix] = 1.0
    return x, heat, reg, mask


def hard_negatives(train, model_dir):
    """Detector false positives on the training images: per image an array of (cx, cy, side)."""
    from arena_table.vision import dice as reader
    from arena_table.vision import nets

    nets.MODEL_DIR = Path(model_dir)
    cfg = reader.DiceConfig(detect_threshold=0.2)
    out = []
    for img, dice, _ in train:
        h, w = img.shape[:2]
        lo, hi = reader._size_range(cfg, h, w)
        fps = [(cx, cy, s) for _, cx, cy, s in reader._candidates(cfg, img, lo, hi)
               if (np.hypot(dice[:, 1] - cx, dice[:, 2] - cy) / dice[:, 3]).min() > 0.6]
        out.append(np.array(fps, np.float32).reshape(-1, 3))
    return out


def face_sample(rec, rng, negs=None):
    img, dice, _ = rec
    j = rng.integers(len(dice))
    v, cx, cy, side = dice[j]
    label = int(v)
    r = rng.random()
    if negs is not None and len(negs) and r < 0.08:  # where the detector fires wrongly
        cx, cy, side = negs[rng.integers(len(negs))]
        cx, cy = cx + rng.normal(0, 0.05 * side), cy + rng.normal(0, 0.05 * side)
        side *= rng.uniform(0.85, 1.18)
        label = 0
    elif r < 0.18:  # off-centre: between dice or half a die away
        ang = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.55, 1.1) * side
        cx, cy = cx + d * math.cos(ang), cy + d * math.sin(ang)
        dist = np.hypot(dice[:, 1] - cx, dice[:, 2] - cy) / dice[:, 3]
        if dist.min() < 0.3:
            return None
        label = 0
    elif r < 0.3:  # background anywhere
        cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
        dist = np.hypot(dice[:, 1] - cx, dice[:, 2] - cy) / dice[:, 3]
        if dist.min() < 0.8:
            return None
        label = 0
    else:
        cx += rng.normal(0, 0.06 * side)
        cy += rng.normal(0, 0.06 * side)
        side *= rng.uniform(0.85, 1.18)
    scale = CROP / (CROP_SPAN * side)
    if rng.random() < 0.3:  # low-resolution camera
        lo = rng.uniform(0.5, 0.9)
        small = cv2.resize(img, None, fx=lo, fy=lo, interpolation=cv2.INTER_AREA)
        m = affine(cx * lo, cy * lo, scale / lo, rng.uniform(0, 360), rng.random() < 0.5, CROP / 2, CROP / 2)
        src = small
    else:
        m = affine(cx, cy, scale, rng.uniform(0, 360), rng.random() < 0.5, CROP / 2, CROP / 2)
        src = img
    crop = cv2.warpAffine(src, m, (CROP, CROP), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    return standardise(colour_aug(crop, rng, invert_p=0.3)), label


# ---------------------------------------------------------------- networks
def cbr(i, o, s=1, d=1):
    return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.s2 = cbr(3, 16, 2)
        self.s4 = nn.Sequential(cbr(16, 24, 2), cbr(24, 24))
        self.s8 = nn.Sequential(cbr(24, 48, 2), cbr(48, 48, d=2), cbr(48, 48, d=4))
        self.fuse = nn.Sequential(nn.Conv2d(72, 24, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU(inplace=True), cbr(24, 24))
        self.head = nn.Conv2d(24, 4, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -2.2

    def forward(self, x):
        a = self.s4(self.s2(x))
        b = self.s8(a)
        up = F.interpolate(b, scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([a, up], 1)))


class FaceNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(cbr(3, 16), cbr(16, 32, 2), cbr(32, 32), cbr(32, 64, 2), cbr(64, 64),
                               cbr(64, 128, 2), cbr(128, 128))
        self.fc = nn.Linear(128, 7)

    def forward(self, x):
        return self.fc(self.f(x).mean((2, 3)))


def focal(logit, target):
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    lp = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    ln = -(torch.log(1 - p) * p**2 * (1 - target) ** 4 * neg).sum()
    return (lp + ln) / pos.sum().clamp(min=1)


def train_detector(train, iters, rng, log, paste_prob=0.5):
    net = Detector()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=iters)
    t0 = time.time()
    for it in range(iters):
        batch = [det_sample(train[rng.integers(len(train))], rng, paste_prob=paste_prob) for _ in range(12)]
        x = torch.from_numpy(np.stack([b[0] for b in batch])).float()
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        reg = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        out = net(x)
        lh = focal(out[:, 0], heat)
        m = mask.unsqueeze(1)
        lr = (F.smooth_l1_loss(out[:, 1:], reg, reduction="none") * m).sum() / m.sum().clamp(min=1)
        loss = lh + lr
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            log(f"det {it} heat {lh.item():.3f} reg {lr.item():.3f} {time.time() - t0:.0f}s")
    return net.eval()


def train_faces(train, iters, rng, log, negs=None):
    net = FaceNet()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=iters)
    t0 = time.time()
    for it in range(iters):
        xs, ys = [], []
        while len(xs) < 96:
            k = rng.integers(len(train))
            s = face_sample(train[k], rng, None if negs is None else negs[k])
            if s is not None:
                xs.append(s[0])
                ys.append(s[1])
        x = torch.from_numpy(np.stack(xs)).float()
        y = torch.tensor(ys)
        out = net(x)
        loss = F.cross_entropy(out, y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            acc = (out.argmax(1) == y).float().mean().item()
            log(f"face {it} loss {loss.item():.3f} acc {acc:.3f} {time.time() - t0:.0f}s")
    return net.eval()


def export(net, path, shape, dynamic):
    dummy = torch.zeros(*shape)
    kw = dict(input_names=["input"], output_names=["output"], opset_version=13)
    if dynamic:
        kw["dynamic_axes"] = dynamic
    try:
        torch.onnx.export(net, dummy, str(path), dynamo=False, **kw)
    except TypeError:
        torch.onnx.export(net, dummy, str(path), **kw)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="arena_table/vision/models")
    ap.add_argument("--what", choices=["det", "face", "both"], default="both")
    ap.add_argument("--det-iters", type=int, default=3000)
    ap.add_argument("--face-iters", type=int, default=3000)
    ap.add_argument("--holdout-every", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--paste-prob", type=float, default=0.5,
                    help="share of detector samples with copy-pasted touching dice")
    ap.add_argument("--hard-negatives-from", metavar="DIR",
                    help="folder with a trained dice_det.onnx whose false positives become extra negatives")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    train, held = load_items(a.holdout_every)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)

    def log(msg):
        print(msg, flush=True)

    log(f"train images {len(train)}, held out {len(held)}")
    if a.what in ("det", "both"):
        net = train_detector(train, a.det_iters, rng, log, a.paste_prob)
        torch.save(net.state_dict(), out / "dice_det.pt")
        export(net, out / "dice_det.onnx", (1, 3, 96, 128), {"input": {2: "h", 3: "w"}, "output": {2: "h", 3: "w"}})
    if a.what in ("face", "both"):
        negs = hard_negatives(train, a.hard_negatives_from) if a.hard_negatives_from else None
        if negs is not None:
            log(f"hard negatives: {sum(len(n) for n in negs)}")
        net = train_faces(train, a.face_iters, rng, log, negs)
        torch.save(net.state_dict(), out / "dice_face.pt")
        export(net, out / "dice_face.onnx", (1, 3, CROP, CROP), {"input": {0: "n"}, "output": {0: "n"}})
    meta = {"holdout_every": a.holdout_every, "sets": list(SETS), "seed": a.seed,
            "det_iters": a.det_iters, "face_iters": a.face_iters, "paste_prob": a.paste_prob,
            "hard_negatives_from": a.hard_negatives_from}
    (out / f"train_{a.what}.json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
