"""``arena-table dice teach KIND`` and ``arena-table dice eval DIR --kind KIND``: taught die kinds.

``teach`` cuts the dice of labelled photos (``--faces DIR``: a folder per face; ``--yolo DIR
--classes 0=1,...``: YOLO boxes and a class -> face map; :mod:`arena_table.vision.teach_shots`),
teaches the kind's face model, prints the shots per face, the confusion matrix of the held-back
shots and the separation figures, and stores the kind in the data folder
(:mod:`arena_table.table.taught_kinds`). A kind two of whose faces cannot be told apart is refused
(exit 1), naming the two faces. ``eval --kind`` reads a labelled folder with the taught kind and
prints the keys of the pip dice's ``eval`` (:func:`arena_table.vision.evaluate.score_samples`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import DEFAULT_DB, at_least


def data_flags(p: argparse.ArgumentParser) -> None:
    """``--config``, ``--db`` and ``--data-dir``: the data folder as ``run`` finds it."""
    p.add_argument("--config", help="the configuration file (default: /etc/arena-table/config.toml where it exists)")
    p.add_argument("--db", default=str(DEFAULT_DB), help=f"the event log (default: the config file's data.db, "
                   f"else {DEFAULT_DB})")
    p.add_argument("--data-dir", help="the table's data folder, as given to run, where taught kinds are kept "
                   "(default: the folder of --db)")


def register_teach(dsub) -> None:
    """Add ``dice teach`` to the ``dice`` subparsers."""
    t = dsub.add_parser("teach", help="teach a die kind's faces from labelled photos and store it in the data folder")
    t.add_argument("kind", metavar="KIND", help="the kind's id: a shipped kind (its faces filled in when they are "
                   "to enter) or a new id such as logo-d6")
    src = t.add_mutually_exclusive_group(required=True)
    src.add_argument("--faces", metavar="DIR", help="a folder per face, DIR/<face>/*.jpg, each photo's dice "
                     "showing that face")
    src.add_argument("--yolo", metavar="DIR", help="photos with YOLO box files (a.jpg + a.txt, or images/ + "
                     "labels_yolo/); with --classes")
    t.add_argument("--classes", metavar="MAP", help="YOLO class -> face, e.g. 0=1,1=2,2=3,3=4,4=5,5=logo")
    t.add_argument("--photos-per-face", type=at_least(1), metavar="N",
                   help="teach from N photos of each face (default: every photo): with --yolo those with the most "
                        "dice of the face, with --faces the first by name")
    t.add_argument("--orientation-matters", action="store_true",
                   help="the faces differ by rotation (6 and 9): do not teach rotated copies")
    t.add_argument("--json", action="store_true", help="print the report as JSON")
    data_flags(t)
    t.set_defaults(func=cmd_teach)


def _data_dir(args: argparse.Namespace) -> Path:
    from .doctor import setup_from

    return setup_from(args).data_dir


def _shots(args: argparse.Namespace):
    from arena_table.vision.teach_shots import (
        face_folder_shots, parse_classes, teaching_photos, yolo_faces, yolo_photos, yolo_shots)

    n = args.photos_per_face
    if args.faces:
        return face_folder_shots(args.faces, n), f"--faces {args.faces}", args.faces
    if not args.classes:
        raise ValueError("--yolo needs --classes, the YOLO class -> face map (e.g. 0=1,1=2,...)")
    classes = parse_classes(args.classes)
    photos = yolo_photos(args.yolo)
    if n is not None:
        keep = teaching_photos([(str(p), yolo_faces(p, classes)) for p in photos], n)
        photos = [p for p in photos if str(p) in keep]
    return yolo_shots(args.yolo, classes, photos), f"--yolo {args.yolo} --classes {args.classes}", args.yolo


def confusion_lines(report: dict) -> list[str]:
    """The held-back confusion matrix as text rows (true face per row, read face per column).

    >>> print("\\n".join(confusion_lines({"faces": ["1", "2"], "confusion": [[3, 1], [0, 4]]})))
    true\\read     1     2
            1     3     1
            2     0     4
    """
    faces = report["faces"]
    w = max(5, *(len(f) + 1 for f in faces))
    head = "true\\read".rjust(w + 4) + "".join(f.rjust(w + 1) for f in faces)
    return [head] + [f.rjust(w + 4) + "".join(str(n).rjust(w + 1) for n in row)
                     for f, row in zip(faces, report["confusion"])]


def cmd_teach(args: argparse.Namespace) -> int:
    """Teach, print, store; 1 on a refusal or bad input (the message names it)."""
    from arena_table.table import taught_kinds
    from arena_table.table.data_dir import lock_holder, LOCK_FILE
    from arena_table.vision.face_model import FaceModelError, IndistinguishableFaces

    from .dice import _quiet_opencv

    _quiet_opencv()
    try:
        (shots, problems), said, root = _shots(args)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    kind_id = args.kind.strip().lower()
    try:
        taught = taught_kinds.teach(kind_id, shots, said, root, orientation_matters=args.orientation_matters)
    except IndistinguishableFaces as exc:
        print(f"error: cannot teach {kind_id}: {exc}; shoot those faces again (sharper, better lit) or "
              "check the folders", file=sys.stderr)
        if args.json:
            print(json.dumps({"kind": kind_id, "refused": str(exc), "faces": list(exc.faces)}))
        return 1
    except (taught_kinds.TaughtKindError, FaceModelError) as exc:
        print(f"error: cannot teach {kind_id}: {exc}", file=sys.stderr)
        return 1
    folder = _data_dir(args)
    try:
        path = taught_kinds.save(folder, taught)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    counts = {f: sum(1 for s in shots if s.face == f) for f in taught.model.faces}
    photos = len({s.photo for s in shots})
    rep = taught.report
    running = lock_holder(folder / LOCK_FILE)
    if args.json:
        print(json.dumps({"kind": taught.kind.id, "base": taught.base, "file": str(path), "photos": photos,
                          "shots": counts, **rep, "kind_faces": [f.symbol for f in taught.kind.faces]}, indent=1))
    else:
        what = (f"a new kind" if taught.base is None else
                f"fills in {taught.base}'s faces" if taught.kind != _shipped(taught.base) else f"the {taught.base} die")
        print(f"taught {taught.kind.id} ({what}) from {len(shots)} dice in {photos} photos")
        print("  shots per face: " + ", ".join(f"{f}={n}" for f, n in counts.items()))
        print(f"  held-back shots ({rep['held_back']}, each read against the others):")
        for line in confusion_lines(rep):
            print("  " + line)
        print(f"  accuracy {rep['accuracy']:.3f}; per face " +
              ", ".join(f"{f}={a:.2f}" for f, a in rep["per_face_accuracy"].items()))
        print(f"  abstention threshold {rep['threshold']:.3f} (margin), abstaining on {rep['abstention']:.1%} "
              "of the held-back shots")
        print(f"wrote {path}")
    if running:
        print(f"note: the table running on {folder} (pid {running}) reads it when it starts again",
              file=sys.stderr)
    return 0


def _shipped(kind_id: str):
    from arena_table.rules.kernel.mechanics.die_kinds import find_kind

    return find_kind(kind_id)


# --- eval --kind ---------------------------------------------------------------------------------

def _face_folder_items(root: Path, skip: set[str]) -> list[tuple[str, Path, str]]:
    from arena_table.vision.teach_shots import face_folder_photos

    return [(str(p.relative_to(root)), p, f) for f, p in face_folder_photos(root)
            if str(p.relative_to(root)) not in skip]


def _csv_items(root: Path, labels: Path, skip: set[str]):
    from arena_table.vision.labels import load_set
    from arena_table.vision.teach_shots import parse_faces

    return [it for it in load_set(root, labels, parse_faces) if str(it.path.relative_to(root)) not in skip]


def evaluate_taught(taught, root: str | Path, labels: str | Path | None = None,
                    classes: dict[int, str] | None = None) -> dict:
    """Score ``taught`` (a :class:`~arena_table.table.taught_kinds.TaughtKind`) on the labelled folder
    ``root``: ``labels.csv`` (+ ``labels_yolo/``) as pip ``dice eval`` reads (faces may be names,
    ``logo 3``; a box's class is the face ``classes`` maps it to, else class k face k+1), else a
    ``DIR/<face>/`` folder. The dice are read where
    :func:`~arena_table.vision.teach_shots.locate_dice` finds them, as the table reads them (the
    YOLO boxes only pair them with their labels), by
    :func:`~arena_table.vision.taught_read.read_taught`. The photos the kind was taught from, when
    ``root`` is its teaching folder, are left out (``left_out_taught``, ``left_out_taught_photos``):
    the figures are on photos not taught from.

    Returns:
        The keys of :func:`~arena_table.vision.evaluate.score_samples` (faces as symbols) plus
        ``kind``, ``left_out_taught`` (how many photos were left out) and ``left_out_taught_photos``
        (their paths relative to ``root``). In the ``DIR/<face>/`` layout the number of dice in a
        photo is not labelled: the dice found there count as the truth, each labelled with the
        folder's face.

    Raises:
        FileNotFoundError, VisionError: as :func:`~arena_table.vision.labels.load_set` and
            :func:`~arena_table.vision.teach_shots.face_folder_photos`.
    """
    from arena_table.vision.dice_io import load_image
    from arena_table.vision.errors import UnreadableImage
    from arena_table.vision.evaluate import score_samples
    from arena_table.vision.labels import LabelledBox, read_boxes
    from arena_table.vision.taught_read import read_taught
    from arena_table.vision.teach_shots import TeachInputError, locate_dice

    root = Path(root)
    skip = {p for _, p, _ in taught.shots} if taught.root and Path(taught.root) == root.resolve() else set()
    csv = Path(labels) if labels else root / "labels.csv"
    located: dict[int, list] = {}  # the dice found to label a face-folder photo, read as found

    def face_of(k: int) -> str:
        if classes is None:
            return str(k + 1)
        if k not in classes:
            raise TeachInputError(f"a box of class {k} is not in --classes "
                                  f"({', '.join(f'{c}={f}' for c, f in sorted(classes.items()))})")
        return classes[k]

    def samples():
        if csv.is_file():
            for item in items:
                name = str(item.path.relative_to(root))
                values = tuple(str(v) for v in item.values)
                try:
                    frame = load_image(item.path)
                except UnreadableImage as exc:
                    yield name, exc, values, None
                    continue
                boxes = read_boxes(item, frame.shape[1], frame.shape[0])
                yield name, frame, values, None if boxes is None else tuple(
                    LabelledBox(face_of(b.value - 1), b.center, b.size) for b in boxes)
        else:
            for name, path, face in items:
                try:
                    frame = load_image(path)
                except UnreadableImage as exc:
                    yield name, exc, (), None
                    continue
                located[id(frame)] = dice = locate_dice(frame)
                yield name, frame, (face,) * len(dice), None

    if csv.is_file():
        items = _csv_items(root, csv, skip)
        labelled = [str(v) for it in items for v in it.values]
    else:
        items = _face_folder_items(root, skip)
        labelled = [f for _, _, f in items]
    faces = list(dict.fromkeys([*taught.kind.symbols, *taught.model.faces, *labelled]))
    def read(_cfg, frame):
        return read_taught(taught.model, frame, located.pop(id(frame), None))

    m = score_samples(samples(), reader=read, faces=faces)
    return dict(m, kind=taught.kind.id, left_out_taught=len(skip), left_out_taught_photos=sorted(skip))


def cmd_eval_kind(args: argparse.Namespace) -> int:
    """``dice eval DIR --kind KIND``: print the metrics; 1 on a missing kind or folder, or unread photos."""
    from arena_table.table.taught_kinds import TaughtKindError, load
    from arena_table.vision.errors import VisionError
    from arena_table.vision.evaluate import format_calibration, format_metrics
    from arena_table.vision.teach_shots import parse_classes

    from .dice import _quiet_opencv

    _quiet_opencv()
    if not Path(args.directory).is_dir():
        print(f"error: {args.directory}: no such folder", file=sys.stderr)
        return 1
    try:
        taught = load(_data_dir(args), args.kind)
        classes = parse_classes(args.classes) if args.classes else None
        m = evaluate_taught(taught, args.directory, args.labels, classes)
    except (TaughtKindError, VisionError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(m, indent=1))
    else:
        print(format_metrics(Path(args.directory).name, m))
        print(f"  {format_calibration(m['calibration'])}")
        for t, row in m["confusion"].items():
            if row:
                print(f"  true {t}: " + ", ".join(f"{k}={v}" for k, v in row.items()))
        if m["left_out_taught"]:
            print(f"  left out, {taught.kind.id} was taught from them: {m['left_out_taught']} photos, "
                  + " ".join(m["left_out_taught_photos"]))
        for e in m["errors"]:
            print(f"  error: {e}")
    if not m["images"]:
        print(f"error: {args.directory}: no photo could be scored", file=sys.stderr)
        return 1
    return 1 if m["errors"] else 0
