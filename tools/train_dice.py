"""Train the dice reader's two small CNNs and export them to ONNX.

Data (``tools/dice_samples.py``): the labelled photo sets in ``../shared/data/dice``
plus rendered tables (``arena_table.vision.render``) with random die and pip
colours, glare, touching pairs, cocked dice and odd faces (logo, 7+ pips),
with heavy colour/exposure/scale/rotation augmentation so the models
generalise to other dice, cameras and tables:

* the **detector** (``dice_det.onnx``): a CenterNet-style fully convolutional
  net on a frame scaled so dice are about ``WORK_DIE`` px; outputs at stride 4
  a die-centre heat map, log die size and sub-cell offsets;
* the **face classifier** (``dice_face.onnx``): a small CNN on a ``CROP`` px
  crop around one die (``CROP_SPAN`` die sides wide); classes 0 = "no die
  centred here", 1..6 = face value, 7 = a die whose face is not a d6 pip face.

Every ``--holdout-every``-th photo of each set (sorted by name) is held out of
training so ``arena-table dice eval --holdout-every N`` reports held-out
figures; ``--holdout-every 0`` trains on every photo.

Run (needs torch, training only; the reader itself runs the ONNX files with
onnxruntime); the shipped models were made with the command in
``arena_table/vision/models/README.md``.

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
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dice_augment import augment_faces  # noqa: E402
from dice_samples import SETS, face_cache, jpeg_copies, real_items, rendered_item  # noqa: E402
from dice_torch_nets import Detector, FaceNet, export_onnx, facenet_from_onnx  # noqa: E402

from arena_table.vision.nets import CROP, STRIDE, standardise_frame  # noqa: E402


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
    # bilinear also when shrinking: warpAffine treats INTER_AREA as INTER_LINEAR, so asking for
    # INTER_LINEAR says what the shipped detector was trained on
    warped = cv2.warpAffine(img, m, (out, out), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    x = standardise_frame(colour_aug(warped, rng, invert_p=0.15).astype(np.uint8))
    g = out // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((2, g, g), np.float32)  # 0: offsets (centre cell), 1: log size (3x3 around it)
    near = np.full((g, g), np.inf, np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for v, px, py, side in dice:
        qx, qy = m @ np.array([px, py, 1.0])
        sz = side * scale
        gx, gy = qx / STRIDE - 0.5, qy / STRIDE - 0.5
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        sigma = max(0.5, sz / STRIDE / 5)
        dist = (xx - gx) ** 2 + (yy - gy) ** 2
        heat = np.maximum(heat, np.exp(-dist / (2 * sigma**2)))
        ix, iy = int(round(gx)), int(round(gy))
        ix, iy = min(max(ix, 0), g - 1), min(max(iy, 0), g - 1)
        heat[iy, ix] = 1.0
        # The size head is read at the peak, which may land a cell off the centre: it learns the
        # die's size on the 3x3 cells around it too (nearest die wins), offsets at the centre only.
        y0, y1, x0, x1 = max(iy - 1, 0), min(iy + 2, g), max(ix - 1, 0), min(ix + 2, g)
        win = dist[y0:y1, x0:x1] < near[y0:y1, x0:x1]
        reg[0, y0:y1, x0:x1][win] = math.log(sz)
        mask[1, y0:y1, x0:x1][win] = 1.0
        near[y0:y1, x0:x1][win] = dist[y0:y1, x0:x1][win]
        reg[1:, iy, ix] = (gx - ix, gy - iy)
        mask[0, iy, ix] = 1.0
    return x, heat, reg, mask


def detector_samples(items, model_dir):
    """Run a trained detector over ``items``: per item (false positives as an array of (cx, cy, side),
    proposals matched to a die as an array of (label, cx, cy, side)).

    False positives become "no die" crops; matched proposals become extra crops of their die cut
    where and at the size the detector put it, so the classifier learns the crops it will see
    (the detector's centre is off by ~0.06 die sides and its size by >15 % on a third of the dice).
    """
    from arena_table.vision import dice as reader
    from arena_table.vision.candidates import find_candidates
    from arena_table.vision import nets

    nets.use_models(model_dir)
    try:
        cfg = reader.DiceConfig(detect_threshold=0.2)
        return _detector_samples(items, lambda img, lo, hi: find_candidates(cfg, img, lo, hi),
                                 lambda h, w: reader.size_range(cfg, h, w))
    finally:
        nets.use_models(None)


def _detector_samples(items, candidates, size_range):
    negs, props = [], []
    for img, dice, _ in items:
        h, w = img.shape[:2]
        lo, hi = size_range(h, w)
        fp, best = [], {}
        for c in candidates(img, lo, hi):
            if c is None:
                continue
            d = (np.hypot(dice[:, 1] - c[1], dice[:, 2] - c[2]) / dice[:, 3]) if len(dice) else np.array([9.0])
            j = int(np.argmin(d))
            if d[j] > 0.6:
                fp.append((c[1], c[2], c[3]))
            elif d[j] < 0.3 and abs(math.log(c[3] / dice[j, 3])) < math.log(1.4) and (j not in best or c[0] > best[j][0]):
                best[j] = (c[0], dice[j, 0], c[1], c[2], c[3])  # the die's strongest proposal of about its size
        tp = [b[1:] for b in best.values()]
        negs.append(np.array(fp, np.float32).reshape(-1, 3))
        props.append(np.array(tp, np.float32).reshape(-1, 4))
    return negs, props


# ---------------------------------------------------------------- networks
def focal(logit, target):
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    lp = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    ln = -(torch.log(1 - p) * p**2 * (1 - target) ** 4 * neg).sum()
    return (lp + ln) / pos.sum().clamp(min=1)


_REG_W = torch.tensor([2.0, 1.0, 1.0]).view(1, 3, 1, 1)


def train_detector(train, rendered, iters, rng, log, paste_prob=0.5, render_share=0.25, init=None, lr=3e-3,
                   slim=False, photo_weights=None):
    """Train the detector on photos (with copy-pasted neighbours) and rendered tables.

    ``photo_weights``: optional sampling probabilities of the photos (default uniform)."""
    rendered = [r for r in rendered if len(r[1])]
    net = Detector(slim)
    if init:  # fine-tune an earlier model (a slim one from the full model's shared layers)
        state = torch.load(init)
        if slim:
            own = net.state_dict()
            state = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
        net.load_state_dict(state, strict=not slim)
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=iters)
    t0 = time.time()
    for it in range(iters):
        batch = [det_sample(rendered[rng.integers(len(rendered))], rng, out=192, paste_prob=0.0)
                 if rendered and rng.random() < render_share else
                 det_sample(train[rng.choice(len(train), p=photo_weights)], rng, out=192, paste_prob=paste_prob)
                 for _ in range(12)]
        x = torch.from_numpy(np.stack([b[0] for b in batch])).float()
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        reg = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        out = net(x)
        lh = focal(out[:, 0], heat)
        m = torch.stack([mask[:, 1], mask[:, 0], mask[:, 0]], 1)
        per = F.smooth_l1_loss(out[:, 1:], reg, reduction="none") * m
        # the log-size channel weighs double: crops and the pip check depend on the die side
        lr = (_REG_W[0, 0] * per[:, 0].sum() / mask[:, 1].sum().clamp(min=1)
              + per[:, 1:].sum() / mask[:, 0].sum().clamp(min=1))
        loss = lh + lr
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            log(f"det {it} heat {lh.item():.3f} reg {lr.item():.3f} {time.time() - t0:.0f}s")
    return net.eval()


def train_faces(crops, labels, iters, seed, log, batch=128, weights=None, init=None, lr=4e-3, mild=0.0,
                width=1.0, teacher=None, distill=0.7, temp=2.0, glare_streak=0.0):
    """Train the face classifier on cached crops (see ``dice_samples.face_cache``).

    ``weights``: optional per-crop sampling weights (the photos are outnumbered by rendered dice).
    ``width``: the classifier's channel factor (see :class:`FaceNet`).
    ``teacher``: a full-width ``dice_face.pt`` (or exported float ``dice_face.onnx``) whose softened outputs (temperature ``temp``) the
    net also learns, with weight ``distill`` against the labels' ``1 - distill`` (knowledge
    distillation, Hinton, Vinyals & Dean 2015, "Distilling the Knowledge in a Neural Network").
    """
    net = FaceNet(width=width)
    freeze_bn = bool(init) and str(init).endswith(".onnx")
    if freeze_bn:  # an exported model: its BatchNorms are folded, so they stay frozen (eval mode)
        net = facenet_from_onnx(init)
    elif init:  # fine-tune an earlier model
        net.load_state_dict(torch.load(init))
    tnet = None
    if teacher:  # a dice_face.pt, or an exported float dice_face.onnx (the shipped classifier)
        if str(teacher).endswith(".onnx"):
            tnet = facenet_from_onnx(teacher)
        else:
            tnet = FaceNet()
            tnet.load_state_dict(torch.load(teacher))
        tnet.eval()
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(net.parameters(), lr / 2, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=iters)
    x_all = torch.from_numpy(crops)
    weights = None if weights is None else torch.as_tensor(weights, dtype=torch.float64)
    y_all = torch.from_numpy(labels)
    t0 = time.time()
    net.train(not freeze_bn)
    for it in range(iters):
        if weights is None:
            idx = torch.randint(len(x_all), (batch,), generator=gen)
        else:
            idx = torch.multinomial(weights, batch, replacement=True, generator=gen)
        x = augment_faces(x_all[idx], gen, mild=mild, glare_streak=glare_streak)
        y = y_all[idx]
        out = net(x)
        loss = F.cross_entropy(out, y, label_smoothing=0.05)
        if tnet is not None:
            with torch.no_grad():
                soft = F.softmax(tnet(x) / temp, 1)
            kd = F.kl_div(F.log_softmax(out / temp, 1), soft, reduction="batchmean") * temp * temp
            loss = (1.0 - distill) * loss + distill * kd
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            acc = (out.argmax(1) == y).float().mean().item()
            log(f"face {it} loss {loss.item():.3f} acc {acc:.3f} {time.time() - t0:.0f}s")
    return net.eval()


def export(net, path, shape, dynamic):
    export_onnx(net, path, shape, dynamic)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="arena_table/vision/models")
    ap.add_argument("--what", choices=["det", "face", "both"], default="both")
    ap.add_argument("--det-iters", type=int, default=2500)
    ap.add_argument("--face-iters", type=int, default=4000)
    ap.add_argument("--rendered", type=int, default=1500, help="rendered tables added to the photos")
    ap.add_argument("--render-share", type=float, default=0.25, help="share of detector samples that are rendered")
    ap.add_argument("--photo-share", type=float, default=0.6, help="share of face samples drawn from the photos")
    ap.add_argument("--init-det", metavar="PT", help="fine-tune this dice_det.pt instead of starting afresh")
    ap.add_argument("--det-lr", type=float, default=3e-3, help="peak learning rate of the detector")
    ap.add_argument("--det-slim", action="store_true",
                    help="the slim detector (a third fewer multiply-adds), fine-tuned from --init-det")
    ap.add_argument("--init-face", metavar="PT",
                    help="fine-tune this dice_face.pt (or an exported float dice_face.onnx, its BatchNorms frozen) "
                         "instead of starting afresh")
    ap.add_argument("--face-lr", type=float, default=4e-3, help="peak learning rate of the face classifier")
    ap.add_argument("--face-width", type=float, default=1.0,
                    help="channel factor of the classifier (0.5: a quarter of the multiply-adds)")
    ap.add_argument("--distill-from", metavar="PT",
                    help="a full-width dice_face.pt (or float dice_face.onnx) the classifier also learns from "
                         "(knowledge distillation)")
    ap.add_argument("--distill-weight", type=float, default=0.7, help="weight of the teacher's soft targets")
    ap.add_argument("--distill-temp", type=float, default=2.0, help="softmax temperature of the distillation")
    ap.add_argument("--face-mild", type=float, default=0.0,
                    help="share of face samples given geometry, exposure and noise only (no colour change)")
    ap.add_argument("--face-interior", type=float, default=0.0,
                    help="share of dice also cut at about half their side as 'no die' (see dice_samples.face_cache)")
    ap.add_argument("--texture-max", type=float, default=20.0,
                    help="largest table-texture amplitude (grey levels) of the rendered tables")
    ap.add_argument("--texture-cells", type=float, nargs=2, default=(32, 32), metavar=("MIN", "MAX"),
                    help="size range (px, log-uniform) of the rendered tables' texture blotches")
    ap.add_argument("--oblique", type=float, default=0.0,
                    help="share of rendered tables seen obliquely: dice tilted 10-50 degrees showing front-face pips")
    ap.add_argument("--glare-streak", type=float, default=0.0,
                    help="share of the classifier's glare spots drawn out into a streak")
    ap.add_argument("--jpeg", type=float, default=0.0,
                    help="share of training photos also cut from a JPEG re-compressed copy (quality 20-85)")
    ap.add_argument("--holdout-every", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--paste-prob", type=float, default=0.5,
                    help="share of detector samples from photos with copy-pasted touching dice")
    ap.add_argument("--hard-negatives-from", metavar="DIR",
                    help="folder with a trained dice_det.onnx whose false positives become extra negatives")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    train, held = real_items(a.holdout_every)
    rendered = [rendered_item(rng, texture_max=a.texture_max, texture_cells=tuple(a.texture_cells),
                              oblique=a.oblique) for _ in range(a.rendered)]
    out = Path(a.out).expanduser()
    out.mkdir(parents=True, exist_ok=True)

    def log(msg):
        print(msg, flush=True)

    log(f"photos: train {len(train)}, held out {len(held)}; rendered tables {len(rendered)}")
    if a.what in ("det", "both"):
        net = train_detector(train, rendered, a.det_iters, rng, log, a.paste_prob, a.render_share,
                             init=a.init_det, lr=a.det_lr, slim=a.det_slim)
        torch.save(net.state_dict(), out / "dice_det.pt")
        export(net, out / "dice_det.onnx", (1, 3, 96, 128), {"input": {2: "h", 3: "w"}, "output": {2: "h", 3: "w"}})
    if a.what in ("face", "both"):
        items = train + rendered
        hard, props = detector_samples(items, a.hard_negatives_from) if a.hard_negatives_from else (None, None)
        if hard is not None:
            log(f"hard negatives: {sum(len(n) for n in hard)}; detector proposals on dice: {sum(len(p) for p in props)}")
        n = len(train)
        copies, of = jpeg_copies(train, rng, a.jpeg)
        photos = train + copies
        if hard is not None:  # a copy's dice and detector spots are its photo's
            hard = hard[:n] + [hard[k] for k in of] + hard[n:]
            props = props[:n] + [props[k] for k in of] + props[n:]
        log(f"JPEG re-compressed copies of {len(copies)} photos")
        n = len(photos)
        c1, l1 = face_cache(photos, rng, hard=hard and hard[:n], proposals=props and props[:n], interior=a.face_interior)
        c2, l2 = face_cache(rendered, rng, hard=hard and hard[n:], proposals=props and props[n:], interior=a.face_interior)
        crops, labels = np.concatenate([c1, c2]), np.concatenate([l1, l2])
        weights = np.concatenate([np.full(len(c1), a.photo_share / len(c1)),
                                  np.full(len(c2), (1 - a.photo_share) / len(c2))])
        log(f"face crops {len(c1)} from photos, {len(c2)} rendered; per class {np.bincount(labels).tolist()}")
        net = train_faces(crops, labels, a.face_iters, a.seed, log, weights=weights, init=a.init_face, lr=a.face_lr,
                          mild=a.face_mild, width=a.face_width, teacher=a.distill_from,
                          distill=a.distill_weight, temp=a.distill_temp, glare_streak=a.glare_streak)
        torch.save(net.state_dict(), out / "dice_face.pt")
        export(net, out / "dice_face.onnx", (1, 3, CROP, CROP), {"input": {0: "n"}, "output": {0: "n"}})
    meta = {k: getattr(a, k) for k in ("holdout_every", "seed", "det_iters", "face_iters", "rendered", "render_share", "photo_share", "init_face", "face_lr", "init_det", "det_lr", "face_mild", "face_interior", "texture_max", "texture_cells", "oblique", "det_slim", "paste_prob",
                                          "face_width", "distill_from", "distill_weight", "distill_temp", "jpeg", "glare_streak",
                                          "hard_negatives_from")}
    meta["sets"] = list(SETS)
    (out / f"train_{a.what}.json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
