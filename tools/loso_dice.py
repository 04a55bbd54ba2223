"""Held-out figures of the dice reader's training recipe: leave-one-setup-out and k-fold by image.

Each *fold* trains both CNNs from scratch with one fixed recipe (:func:`train_fold`, the same
``tools/train_dice.py`` functions the shipped models come from), exports them to ONNX and scores
the photos the fold left out with the whole reader (``arena-table dice eval``'s
``read_dice_any_size`` and scoring, ``vision/evaluate.py``):

* ``--loso``: leave one setup out. For each of the shared sets (``byler_d6``, ``matteo_d6``,
  ``rune55_d6``: the last is the Rune55 dataset, CC BY 4.0), train on the other two and score it:
  how the reader does at a table, camera and dice it never saw.
* ``--kfold K``: fold k trains on every set less the photos of fold k and scores those; each
  set's figures are pooled over the K folds. A photo's fold follows its *source photo*
  (:func:`source_photo`): rune55_d6 holds up to a dozen Roboflow-augmented copies of one shot
  (``train_X_jpg.rf.HASH.jpg``, ``valid_X_jpg.rf.HASH.jpg``), which must not be split between
  training and scoring.

It prints one row per held-out set (accuracy / precision / abstention, dice, the share of ``ok``
reads that are wrong) and the pooled reliability table (``evaluate.calibration``); each fold
writes ``OUT/FOLD/metrics.json`` (folds may run as separate processes, ``--only``, and
``--report`` prints the tables of all of them); ``docs/figures.md`` quotes the table. ``--recipe-only`` trains one model on
every photo of every set with the same recipe (a model to ship; its held-out figures are the
table's). Training only: needs torch (``pip install -e .[train]``).

Run: ``nice -n 10 python tools/loso_dice.py --loso --kfold 3 --out /tmp/loso``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dice_samples import SETS, face_cache, jpeg_copies, real_items, rendered_item  # noqa: E402
from train_dice import detector_samples, export, train_detector, train_faces  # noqa: E402

from arena_table.vision import nets  # noqa: E402
from arena_table.vision.dice import DiceReading  # noqa: E402
from arena_table.vision.size_search import read_dice_any_size  # noqa: E402
from arena_table.vision.evaluate import pool_metrics, score_items, wrong_among_ok  # noqa: E402
from arena_table.vision.labels import dice_set_dir, load_set  # noqa: E402

RECIPE = dict(det_iters=1500, face_iters=1500, rendered=800, render_share=0.3, photo_share=0.8, det_lr=3e-3,
              face_lr=4e-3, face_batch=96, face_mild=0.3, face_interior=0.3, jpeg=0.3, glare_streak=0.5,
              texture_max=36.0, texture_cells=(4.0, 48.0))
"""The fold recipe's options (the names of ``tools/train_dice.py``'s flags)."""


def source_photo(name: str) -> str:
    """The shot an image file was made from: a Roboflow export's split prefix and ``_jpg.rf.HASH``
    tail removed, else the file's stem.

    >>> source_photo("valid_6UDybdeCCRugB4ITWjSa_jpg.rf.0223530653.jpg"), source_photo("IMG_1.jpg")
    ('6UDybdeCCRugB4ITWjSa', 'IMG_1')
    """
    stem = Path(name).stem
    if ".rf." not in stem:
        return stem
    head = stem.split(".rf.")[0].removesuffix("_jpg")
    for split in ("train_", "valid_", "test_"):
        head = head.removeprefix(split)
    return head


def kfold_of(sets, k: int) -> dict[tuple[str, int], int]:
    """(set name, image index) -> fold 0..k-1, by a stable hash of the image's source photo."""
    return {(name, it.index): zlib.crc32(source_photo(it.path.name).encode()) % k
            for name in sets for it in load_set(dice_set_dir(name))}


def _set_weights(items, share: float) -> np.ndarray:
    """Sampling weights giving each set an equal part of ``share`` (rune55 has ten times byler's photos)."""
    names = [it[2] for it in items]
    count = {n: names.count(n) for n in set(names)}
    return np.array([share / len(count) / count[n] for n in names], np.float64)


def train_fold(train, rendered, out: Path, seed: int, recipe: dict, log) -> Path:
    """Train a detector and a classifier on ``train`` photos plus ``rendered`` tables into ``out``.

    Args:
        train: (image, dice, set name) records (``dice_samples.real_items``).
        rendered: rendered records (``dice_samples.rendered_item``).
        out: folder for ``dice_det.onnx``, ``dice_face.onnx`` and their ``.pt``.
        seed: seed of the fold's sampling.
        recipe: options as :data:`RECIPE`.
        log: one-argument print function.

    Returns:
        ``out``.
    """
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    r = recipe
    det = train_detector(train, rendered, r["det_iters"], rng, log, render_share=r["render_share"],
                         lr=r["det_lr"], photo_weights=_set_weights(train, 1.0))
    torch.save(det.state_dict(), out / "dice_det.pt")
    export(det, out / "dice_det.onnx", (1, 3, 96, 128), {"input": {2: "h", 3: "w"}, "output": {2: "h", 3: "w"}})
    items = train + rendered
    hard, props = detector_samples(items, out)  # the fold's own detector: its misses and offsets
    n = len(train)
    copies, of = jpeg_copies(train, rng, r["jpeg"])
    photos = train + copies
    hard = hard[:n] + [hard[k] for k in of] + hard[n:]
    props = props[:n] + [props[k] for k in of] + props[n:]
    n = len(photos)
    c1, l1, w1 = [], [], []
    for name in sorted({p[2] for p in photos}):
        idx = [k for k, p in enumerate(photos) if p[2] == name]
        c, lab = face_cache([photos[k] for k in idx], rng, hard=[hard[k] for k in idx],
                            proposals=[props[k] for k in idx], interior=r["face_interior"])
        c1.append(c)
        l1.append(lab)
        w1.append(np.full(len(c), 1.0 / len(c)))
    w1 = np.concatenate(w1) * r["photo_share"] / len(c1)
    c2, l2 = face_cache(rendered, rng, hard=hard[n:], proposals=props[n:], interior=r["face_interior"])
    crops, labels = np.concatenate(c1 + [c2]), np.concatenate(l1 + [l2])
    weights = np.concatenate([w1, np.full(len(c2), (1 - r["photo_share"]) / len(c2))])
    log(f"face crops {len(crops)} ({len(c2)} rendered); per class {np.bincount(labels).tolist()}")
    face = train_faces(crops, labels, r["face_iters"], seed, log, batch=r["face_batch"], weights=weights,
                       lr=r["face_lr"], mild=r["face_mild"], glare_streak=r["glare_streak"])
    torch.save(face.state_dict(), out / "dice_face.pt")
    export(face, out / "dice_face.onnx", (1, 3, nets.CROP, nets.CROP), {"input": {0: "n"}, "output": {0: "n"}})
    (out / "train_recipe.json").write_text(json.dumps(dict(recipe, seed=seed, trained_on=sorted({t[2] for t in train}),
                                                           photos=len(train)), indent=1) + "\n")
    return out


def score_held_out(models: Path, name: str, held) -> dict:
    """Score the images of set ``name`` for which ``held(index)`` is true with the models in ``models``."""
    items = [it for it in load_set(dice_set_dir(name)) if held(it.index)]
    crashed = []

    def reader(cfg, frame):
        try:
            return read_dice_any_size(cfg, frame)
        except ValueError as exc:  # a reader fault: the image's dice count as missed, and it is listed
            crashed.append(str(exc))
            return DiceReading((), frame.shape[1], frame.shape[0])

    nets.use_models(models)
    try:
        m = score_items(items, reader=reader)
    finally:
        nets.use_models(None)
    m["reader_faults"] = crashed
    return m


def table(rows: list[tuple[str, str, dict]]) -> str:
    """Markdown table of (split, held-out set, metrics) rows."""
    out = ["| split | held-out set | images | dice | accuracy | precision | abstention | wrong among ok |",
           "|---|---|---|---|---|---|---|---|"]
    for split, name, m in rows:
        w = wrong_among_ok(m["calibration"])
        out.append(f"| {split} | {name} | {m['images']} | {m['dice_true']} | {m['per_die_accuracy']:.3f} | "
                   f"{m['precision']:.3f} | {m['abstention_rate']:.3f} | {'-' if w is None else f'{w:.4f}'} |")
    return "\n".join(out)


def reliability(rows: list[tuple[str, str, dict]]) -> str:
    """Markdown reliability table: per confidence bin, dice read ok and the share right, one column
    pair per (split, held-out set, metrics) row (bins as each row's own ``calibration``)."""
    out = ["| confidence | " + " | ".join(f"{name} ({split})" for split, name, _ in rows) + " |",
           "|---|" + "---|" * len(rows)]
    bins = sorted({tuple(b["confidence"]) for _, _, m in rows for b in m["calibration"]})
    for lo, hi in bins:
        cells = []
        for _, _, m in rows:
            b = next((b for b in m["calibration"] if tuple(b["confidence"]) == (lo, hi)), None)
            cells.append("" if b is None else "-" if not b["read_ok"] else f"{b['right']}/{b['read_ok']}")
        if any(c not in ("", "-") for c in cells):
            out.append(f"| {lo:g}-{hi:g} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/tmp/loso", help="folder for each fold's models and figures.json")
    ap.add_argument("--loso", action="store_true", help="leave each set out in turn")
    ap.add_argument("--kfold", type=int, default=0, metavar="K", help="k-fold by image within every set")
    ap.add_argument("--recipe-only", action="store_true", help="train one model on every photo (to ship)")
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    ap.add_argument("--only", nargs="+", metavar="FOLD", help="run only these folds (loso-SET, kfold-K)")
    ap.add_argument("--score-every", nargs=2, action="append", default=[], metavar=("SET", "N"),
                    help="score only every N-th held-out image of SET (by name; a sample, to save time)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    for k, v in RECIPE.items():
        if isinstance(v, tuple):
            ap.add_argument("--" + k.replace("_", "-"), type=type(v[0]), nargs=len(v), default=v)
        else:
            ap.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
    ap.add_argument("--reuse", action="store_true", help="score a fold's models already in OUT/FOLD (no training)")
    ap.add_argument("--report", action="store_true", help="only print the tables of OUT/figures.json")
    a = ap.parse_args(argv)
    if a.report:
        print(report(gather(Path(a.out))))
        return
    if not (a.loso or a.kfold or a.recipe_only):
        ap.error("say --loso, --kfold K and/or --recipe-only")
    torch.set_num_threads(a.threads)
    recipe = {k: (tuple(getattr(a, k)) if isinstance(v, tuple) else getattr(a, k)) for k, v in RECIPE.items()}
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()

    def log(msg):
        print(f"[{time.time() - t0:6.0f}s] {msg}", flush=True)

    rng = np.random.default_rng(a.seed + 1000)
    rendered = [rendered_item(rng, texture_max=recipe["texture_max"], texture_cells=tuple(recipe["texture_cells"]))
                for _ in range(recipe["rendered"])]
    folds = []  # (fold name, training sets, held_out(set, index), sets scored)
    if a.loso:
        for name in a.sets:
            others = [s for s in a.sets if s != name]
            folds.append((f"loso-{name}", others, lambda s, i: False, [name]))
    fold_of = kfold_of(a.sets, a.kfold) if a.kfold else {}
    for k in range(a.kfold):
        folds.append((f"kfold-{k}", a.sets, lambda s, i, k=k: fold_of[(s, i)] == k, a.sets))
    if a.recipe_only:
        folds.append(("all", a.sets, lambda s, i: False, []))
    if a.only:
        folds = [f for f in folds if f[0] in a.only]
    for fold, sets, held_out, scored in folds:
        models = out / fold
        if not (a.reuse and (models / "dice_det.onnx").is_file() and (models / "dice_face.onnx").is_file()):
            train, _ = real_items(0, sets=sets, held_out=held_out)
            log(f"{fold}: training on {len(train)} photos of {', '.join(sets)}")
            train_fold(train, rendered, models, a.seed, recipe, log)
        scores = {}
        every = {name: int(n) for name, n in a.score_every}
        for name in scored:
            held = (lambda i: True) if fold.startswith("loso") else (lambda i, s=name: held_out(s, i))
            step = every.get(name, 1)
            m = score_held_out(models, name, lambda i, held=held, step=step: held(i) and i % step == 0)
            keys = ("images", "dice_true", "dice_read", "matched", "per_die_accuracy", "precision",
                    "abstention_rate", "calibration", "ms_per_image", "misreads", "reader_faults")
            scores[name] = {"score_every": step, **{k: m[k] for k in keys}}
            log(f"{fold} {name}: acc {m['per_die_accuracy']:.3f} prec {m['precision']:.3f} "
                f"abst {m['abstention_rate']:.3f}")
        (out / fold / "metrics.json").write_text(json.dumps(scores, indent=1) + "\n")
    print(report(gather(out)))


def gather(out: Path) -> dict:
    """Every fold's scores under ``out``: fold name -> held-out set -> metrics (``OUT/FOLD/metrics.json``)."""
    return {p.parent.name: json.loads(p.read_text()) for p in sorted(out.glob("*/metrics.json"))}


def report(results: dict) -> str:
    """The markdown tables of a ``figures.json``: LOSO rows, k-fold rows pooled per set, reliability."""
    rows = []
    for fold, per in results.items():
        if fold.startswith("loso-"):
            for name, m in per.items():
                rows.append(("leave one setup out", name, m))
    kf = [per for fold, per in results.items() if fold.startswith("kfold-")]
    for name in sorted({n for per in kf for n in per}):
        ms = [per[name] for per in kf if name in per]
        rows.append((f"{len(ms)}-fold by source photo", name, pool_metrics(ms)))
    text = table(rows)
    if rows:
        text += "\n\nReliability of the dice read ok (right/read, paired by box) per held-out set:\n\n"
        text += reliability(rows)
    return text


if __name__ == "__main__":
    main()
