"""``arena-table dice read|eval|calibrate|teach`` (``teach`` and ``eval --kind``: :mod:`.dice_teach`).

The top-level CLI calls :func:`register` with its subparsers; every leaf sets
``func`` to a handler ``(args) -> exit code``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from arena_table.vision.errors import UnreadableImage, VisionError


def register(sub) -> None:
    """Add ``dice`` (``read``, ``eval``, ``calibrate``, ``teach``) to the top-level subparsers."""
    from .dice_teach import data_flags, register_teach

    dice = sub.add_parser("dice", help="read dice from photos, score the reader")
    dsub = dice.add_subparsers(dest="dice_cmd", metavar="WHAT", required=True)
    read = dsub.add_parser("read", help="read the dice in image files")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="print one JSON list")
    _reader_flags(read)
    read.set_defaults(func=cmd_read)
    cal = dsub.add_parser("calibrate", help="measure the die size in a camera frame and write a calibration file")
    cal.add_argument("image", metavar="IMAGE", help="a frame from the camera, at its resolution, with a few dice in view")
    cal.add_argument("--tray", metavar="X,Y,W,H", help="the tray's box in the frame (px); default the whole frame")
    cal.add_argument("--out", metavar="FILE", help="write the calibration JSON here (the camera_calibration setting)")
    cal.set_defaults(func=cmd_calibrate)
    ev = dsub.add_parser("eval", help="score the reader on a labelled folder")
    ev.add_argument("directory", metavar="DIR")
    ev.add_argument("--labels", metavar="CSV", help="labels file (default DIR/labels.csv)")
    ev.add_argument("--holdout-every", type=int, default=0, metavar="N",
                    help="score only the training hold-out split (every N-th image by name)")
    _reader_flags(ev)
    ev.add_argument("--json", action="store_true", help="print the metrics as JSON")
    ev.add_argument("--kind", metavar="KIND", help="score a kind taught with `dice teach` (kept in the data folder) "
                    "instead of the pip reader; DIR may also be a folder per face, DIR/<face>/*.jpg")
    ev.add_argument("--classes", metavar="MAP", help="with --kind: the faces of the YOLO box classes, e.g. "
                    "0=1,1=2,...,5=logo (default: class k is face k+1)")
    data_flags(ev)
    ev.set_defaults(func=cmd_eval)
    register_teach(dsub)


def _quiet_opencv() -> None:
    import cv2

    # Decoder warnings would interleave with our own one-line error per file.
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def _die_text(d) -> str:
    x, y = d.center
    what = str(d.value) if d.status == "ok" else d.status
    tail = f" ({d.reason})" if d.reason else ""
    return f"  {what:<10} at ({x:.0f}, {y:.0f}) conf {d.confidence:.2f}{tail}"


_READER_FLAGS = (("min_confidence", "min_confidence"), ("logo_face", "logo_face"), ("size_check", "size_check"))
"""``dice read/eval`` flags and the ``[dice]`` keys they match (:class:`~arena_table.table.config.DiceSettings`)."""


def _models_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--models", metavar="DIR",
                   help="read with the dice_det.onnx and/or dice_face.onnx in DIR (e.g. an --out folder of "
                        "tools/train_dice.py); a model DIR lacks is the shipped one")


def _use_models(args: argparse.Namespace) -> bool:
    """Install ``--models`` (if given); ``False`` after printing why it is refused."""
    from arena_table.vision.nets import MODEL_NAMES, loaded_path, model_path, use_models

    folder = getattr(args, "models", None)
    try:
        use_models(folder)
    except VisionError as exc:
        print(f"error: --models: {exc}", file=sys.stderr)
        return False
    if folder is not None:
        ran = ", ".join(f"{loaded_path(n).name} from {folder}" if model_path(n).parent == Path(folder).resolve()
                        else f"the shipped {n.removesuffix('.onnx')}" for n in MODEL_NAMES)
        print(f"note: reading with {ran}", file=sys.stderr)
    return True


def _reader_flags(p: argparse.ArgumentParser) -> None:
    _models_flag(p)
    p.add_argument("--die-size", type=float, metavar="PX",
                   help="look for dice of about this side in px (as `dice calibrate` measures it); "
                        "default: 3-20 %% of the image's long side, then every size when the dice "
                        "read there are at an end of that range or none is read surely")
    p.add_argument("--min-confidence", type=float, metavar="P",
                   help="a die whose best face is less likely than P is unreadable (default 0.5)")
    p.add_argument("--logo-face", type=int, metavar="N",
                   help="the value (1-6) of a face showing a maker's logo (default: unreadable)")
    p.add_argument("--size-check", type=float, metavar="R",
                   help="re-read unsure dice more than R times off the typical size; 0: off (default 1.6)")


def _reader_config(args: argparse.Namespace):
    """The reader's config for the ``dice read/eval`` flags (the camera's ``[dice]`` keys, see
    ``DiceSettings.reader_config``), or ``None`` after printing which flag is refused and why."""
    from arena_table.table.config import BadValue, DiceSettings

    settings = {key: getattr(args, flag) for flag, key in _READER_FLAGS if getattr(args, flag, None) is not None}
    try:
        dice = DiceSettings(**settings)
    except BadValue as exc:
        flag = next(f for f, key in _READER_FLAGS if exc.key == f"dice.{key}")
        print(f"error: --{flag.replace('_', '-')} {exc.why}", file=sys.stderr)
        return None
    try:
        return dice.reader_config(args.die_size)
    except ValueError as exc:
        print(f"error: --die-size: {exc}", file=sys.stderr)
        return None


def cmd_read(args: argparse.Namespace) -> int:
    """Print the dice of each image; a bad file gets one error line and the rest continue."""
    from arena_table.vision.size_search import read_dice_any_size
    from arena_table.vision.dice import MIN_DIE_SIDE_PX
    from arena_table.vision.dice_io import load_image

    _quiet_opencv()
    cfg = _reader_config(args)
    if cfg is None or not _use_models(args):
        return 2
    failed = 0
    results = []
    for path in args.images:
        try:
            image = load_image(path)
            if min(image.shape[:2]) < MIN_DIE_SIDE_PX:  # as `dice calibrate` says of such a frame
                print(f"warning: {path}: the {image.shape[1]}x{image.shape[0]} image is too small to hold a die "
                      f"(the reader reads dice of {MIN_DIE_SIDE_PX:g} px and more)", file=sys.stderr)
            if args.die_size is not None and args.die_size > max(image.shape[:2]):
                print(f"warning: {path}: --die-size {args.die_size:g} px is larger than the "
                      f"{image.shape[1]}x{image.shape[0]} image", file=sys.stderr)
            reading = read_dice_any_size(cfg, image)
        except (UnreadableImage, VisionError) as exc:
            failed += 1
            print(f"error: {exc}", file=sys.stderr)
            results.append({"image": path, "error": str(exc)})
            continue
        if args.json:
            results.append({"image": path, "width": reading.width, "height": reading.height,
                            "values": list(reading.values),
                            "dice": [dataclasses.asdict(d) for d in reading.dice]})
        else:
            print(f"{path}: {' '.join(map(str, reading.values)) or '-'}  ({len(reading.dice)} dice)")
            for d in reading.dice:
                print(_die_text(d))
    if args.json:
        print(json.dumps(results, indent=1))
    return 1 if failed else 0


def _parse_tray(text: str) -> tuple[int, int, int, int]:
    parts = text.replace(" ", "").split(",") if text.strip() else []
    try:
        x, y, w, h = (int(v) for v in parts)
    except ValueError:
        raise ValueError(f"--tray must be four whole numbers X,Y,W,H (px), got {text!r}") from None
    return x, y, w, h


def _check_calibration_out(out: str, image: str) -> None:
    """Refuse an ``--out`` that would destroy something: the photo being read, a folder, or a file
    that is not an earlier calibration (re-calibrating over one is the normal use).

    Raises:
        ValueError: naming ``out`` and why it is refused.
    """
    from arena_table.vision.frames import Calibration

    path = Path(out)
    if not path.exists():
        return
    if path.is_dir():
        raise ValueError(f"--out {out}: is a folder; name the calibration file to write")
    if Path(image).exists() and path.samefile(image):
        raise ValueError(f"--out {out}: is the photo being read; it is left as it is, choose another name")
    try:
        Calibration.load(path)
    except (VisionError, OSError) as exc:
        raise ValueError(f"--out {out}: exists and is not a calibration file ({exc}); it is left as it is, "
                         "remove it or choose another name") from None


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Measure the die size (and record the resolution and tray) for the camera that took IMAGE."""
    from arena_table.vision.calibrate import calibrate
    from arena_table.vision.size_search import HINT_SPREAD
    from arena_table.vision.dice_io import load_image

    _quiet_opencv()
    try:
        if args.out:
            _check_calibration_out(args.out, args.image)
        tray = _parse_tray(args.tray) if args.tray is not None else None
        frame = load_image(args.image)  # its errors name the file
    except (ValueError, VisionError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        calib, size = calibrate(frame, tray=tray)
    except (ValueError, VisionError) as exc:
        print(f"error: {args.image}: {exc}", file=sys.stderr)
        return 1
    spread = f"median of {size.dice} dice, {size.smallest_px:.0f}-{size.largest_px:.0f} px" if size.dice > 1 else "1 die"
    summary = (f"{args.image}: {calib.resolution[0]}x{calib.resolution[1]}, die side {size.side_px:.1f} px "
               f"({spread}); the reader will look for {size.side_px / HINT_SPREAD:.0f}-"
               f"{size.side_px * HINT_SPREAD:.0f} px")
    if args.out:
        try:
            calib.save(args.out)
        except OSError as exc:
            print(f"error: {args.out}: cannot write ({exc.strerror or exc})", file=sys.stderr)
            return 1
        print(summary)
        print(f"wrote {args.out}; start the table with: arena-table run --calibration {args.out}")
    else:  # stdout is the calibration JSON alone, so `dice calibrate F > calib.json` works
        print(summary, file=sys.stderr)
        print(json.dumps(calib.to_json()))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Score the reader on a labelled folder."""
    from arena_table.vision.evaluate import evaluate_set, format_calibration, format_metrics

    if args.kind:
        from .dice_teach import cmd_eval_kind

        return cmd_eval_kind(args)

    _quiet_opencv()
    if not Path(args.directory).is_dir():
        what = "is a file, not a folder of labelled images" if Path(args.directory).exists() else "no such folder"
        print(f"error: {args.directory}: {what}", file=sys.stderr)
        return 1
    labels = Path(args.labels) if args.labels else Path(args.directory) / "labels.csv"
    if labels.is_dir():
        print(f"error: {labels}: is a folder; --labels names the labels CSV file", file=sys.stderr)
        return 1
    if not labels.is_file():
        print(f"error: {labels}: labels file not found", file=sys.stderr)
        return 1
    if args.holdout_every < 0:
        print(f"error: --holdout-every must be 0 (every image) or more, got {args.holdout_every}", file=sys.stderr)
        return 2
    cfg = _reader_config(args)
    if cfg is None or not _use_models(args):
        return 2
    if args.holdout_every:
        from arena_table.vision.nets import trained_holdouts

        other = {k: v for k, v in trained_holdouts().items() if v != args.holdout_every}
        if other:
            said = "; ".join(f"the {k} was trained with every photo (--holdout-every 0)" if v == 0 else
                             f"the {k} has no readable training record (train_*.json)" if v is None else
                             f"the {k} was trained with --holdout-every {v}" for k, v in other.items())
            print(f"note: {said}: the figures may count images a model was trained on, not only held-out "
                  f"ones (see arena_table/vision/models/README.md)", file=sys.stderr)
    try:
        m = evaluate_set(args.directory, labels, cfg=cfg, holdout_every=args.holdout_every)
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        from arena_table.vision.nets import MODEL_NAMES, loaded_path

        print(json.dumps(dict(m, models={n: str(loaded_path(n)) for n in MODEL_NAMES}), indent=1))
    else:
        print(format_metrics(Path(args.directory).name, m))
        print(f"  {format_calibration(m['calibration'])}")
        for t, row in m["confusion"].items():
            print(f"  true {t}: " + ", ".join(f"{k}={v}" for k, v in row.items()))
        if m["boxes_ignored"]:
            print(f"  (not paired by box, as their YOLO boxes hold other faces than labels.csv: "
                  f"{', '.join(m['boxes_ignored'])})")
        for e in m["errors"]:
            print(f"  error: {e}")
    if not m["images"]:
        print(f"error: {labels}: no image could be scored", file=sys.stderr)
        return 1
    if m["errors"]:  # their labelled dice are not in the figures: the score is not the set's
        print(f"error: {len(m['errors'])} image(s) of {labels} could not be read; the figures leave "
              "their dice out", file=sys.stderr)
        return 1
    return 0
