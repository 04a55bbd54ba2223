"""Labelled dice photo sets: ``labels.csv`` plus optional YOLO boxes.

A set directory holds ``labels.csv`` (``image,values``; values are the faces
showing, space separated) and optionally ``labels_yolo/<stem>.txt`` with one
``class cx cy w h`` line per die (normalised to the image size, class k means
face k+1). This is the layout of the sets in ``../shared/data/dice``.

>>> parse_values("1 6  3")
(1, 6, 3)
>>> [i for i in range(7) if is_held_out(i, 5)]
[0, 5]
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import VisionError


@dataclass(frozen=True)
class LabelledBox:
    """One labelled die: its face and its box in pixels."""

    value: int
    """Face showing, 1..6."""
    center: tuple[float, float]
    """Box centre (x, y) in pixels."""
    size: tuple[float, float]
    """Box (width, height) in pixels."""


@dataclass(frozen=True)
class LabelledImage:
    """One photo of a set with its ground truth."""

    path: Path
    """Image file."""
    values: tuple[int, ...]
    """Faces showing, as in ``labels.csv`` (the truth for scoring)."""
    yolo: Path | None
    """``labels_yolo/<stem>.txt`` if it exists."""
    index: int
    """Position of the image in the set sorted by file name (for hold-out splits)."""


def shared_dir() -> Path:
    """The shared data folder: ``$ARENA_SHARED`` or the repo's sibling ``shared``.

    Returns:
        A path (not checked for existence).
    """
    env = os.environ.get("ARENA_SHARED")
    if env:
        return Path(env)
    return (Path(__file__).resolve().parents[2] / ".." / "shared").resolve()


def dice_set_dir(name: str) -> Path:
    """Folder of a shared labelled dice set, e.g. ``dice_set_dir("byler_d6")``."""
    return shared_dir() / "data" / "dice" / name


def is_held_out(index: int, every: int) -> bool:
    """Whether the image at ``index`` (sorted by name) is in the hold-out split.

    Every ``every``-th image, starting with the first, is held out of training;
    ``every <= 0`` holds out nothing.
    """
    return every > 0 and index % every == 0


def parse_values(text: str) -> tuple[int, ...]:
    """Parse a space separated list of faces, e.g. ``"1 6 3"``.

    Raises:
        VisionError: a value is not an integer 1..6.
    """
    out = []
    for tok in text.split():
        if not tok.isdigit() or not 1 <= int(tok) <= 6:
            raise VisionError(f"bad die face {tok!r} in labels")
        out.append(int(tok))
    return tuple(out)


def read_boxes(item: LabelledImage, width: int, height: int) -> tuple[LabelledBox, ...] | None:
    """The YOLO boxes of ``item`` in pixels of a ``width`` x ``height`` image, or ``None``.
    """
    if item.yolo is None:
        return None
    boxes = []
    for line in item.yolo.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cls, cx, cy, w, h = int(parts[0]), *map(float, parts[1:])
        boxes.append(LabelledBox(cls + 1, (cx * width, cy * height), (w * width, h * height)))
    return tuple(boxes)


def load_set(directory: str | Path, labels_csv: str | Path | None = None,
             parse: Callable[[str], tuple] = parse_values) -> list[LabelledImage]:
    """Read a labelled set's CSV.

    Args:
        directory: the set folder; image paths in the CSV are relative to it.
        labels_csv: the CSV file (default ``directory/labels.csv``).
        parse: a row's values text -> the faces (raising VisionError for a bad one): pip faces
            1..6 by default (:func:`parse_values`); a taught kind's face symbols for ``dice eval --kind``.

    Returns:
        One :class:`LabelledImage` per CSV row, sorted by file name.

    Raises:
        FileNotFoundError: the CSV does not exist.
        VisionError: the CSV is not UTF-8 text with ``image`` and ``values`` columns, or a row has a
            bad face value, more columns than the header or an image already labelled (the message
            names the file and the line).
    """
    directory = Path(directory)
    labels_csv = Path(labels_csv) if labels_csv else directory / "labels.csv"
    rows = []
    try:
        with open(labels_csv, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = {"image", "values"} - set(reader.fieldnames or ())
            if missing:
                raise VisionError(f"{labels_csv}: no {' or '.join(sorted(missing))} column "
                                  f"(the header must name image,values)")
            first_line: dict[Path, int] = {}
            for row in reader:
                where = f"{labels_csv}, line {reader.line_num}"
                if not row["image"] or row["values"] is None:
                    raise VisionError(f"{where}: a row needs an image and its values")
                if row.get(None):  # "img.png,1,1": the faces must share one column, "img.png,1 1"
                    raise VisionError(f"{where}: {len(row[None])} more column(s) than the header's; the values "
                                      f"are one column of faces separated by spaces, e.g. {row['image']},"
                                      f"{' '.join([row['values'], *row[None]]).strip()}")
                image = Path(os.path.normpath(directory / row["image"]))
                if image in first_line:
                    raise VisionError(f"{where}: {row['image']} is labelled twice (first on line "
                                      f"{first_line[image]}); give each image one row with all its dice")
                first_line[image] = reader.line_num
                try:
                    values = parse(row["values"])
                except VisionError as exc:
                    raise VisionError(f"{where}: {exc}") from None
                yolo = directory / "labels_yolo" / (Path(row["image"]).stem + ".txt")
                rows.append((directory / row["image"], values, yolo if yolo.is_file() else None))
    except UnicodeDecodeError:
        raise VisionError(f"{labels_csv}: not UTF-8 text") from None
    rows.sort(key=lambda r: r[0].name)
    return [LabelledImage(p, v, y, i) for i, (p, v, y) in enumerate(rows)]
