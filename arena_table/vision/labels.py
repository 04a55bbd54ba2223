"""Labelled dice photo sets: ``labels.csv`` plus optional YOLO boxes.

A set directory holds ``labels.csv`` (``image,values``; values are the faces
showing, space separated) and optionally ``labels_yolo/<stem>.txt`` with one
``class cx cy w h`` line per die (normalised to the image size, class k means
face k+1). This is the layout of the sets in ``../shared/data/dice``.

>>> parse_values("1 6  3")
(1, 6, 3)
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

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
    boxes: tuple[LabelledBox, ...] | None
    """YOLO boxes if ``labels_yolo/`` has a file for the image, else ``None``."""


def shared_dir() -> Path:
    """The shared data folder: ``$ARENA_SHARED`` or the repo's sibling ``shared``.

    Returns:
        A path (not checked for existence).
    """
    env = os.environ.get("ARENA_SHARED")
    if env:
        return Path(env)
    return (Path(__file__).resolve().parents[2] / ".." / "shared").resolve()


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


def _read_yolo(path: Path, width: int, height: int) -> tuple[LabelledBox, ...]:
    boxes = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cls, cx, cy, w, h = int(parts[0]), *map(float, parts[1:])
        boxes.append(LabelledBox(cls + 1, (cx * width, cy * height), (w * width, h * height)))
    return tuple(boxes)


def load_set(directory: str | Path, labels_csv: str | Path | None = None,
             image_size=None) -> list[LabelledImage]:
    """Read a labelled set.

    Args:
        directory: the set folder; image paths in the CSV are relative to it.
        labels_csv: the CSV file (default ``directory/labels.csv``).
        image_size: callable ``path -> (width, height)`` used to scale YOLO
            boxes to pixels; without it boxes are not loaded.

    Returns:
        One :class:`LabelledImage` per CSV row, in file order.

    Raises:
        FileNotFoundError: the CSV does not exist.
        VisionError: a row has a bad face value.
    """
    directory = Path(directory)
    labels_csv = Path(labels_csv) if labels_csv else directory / "labels.csv"
    items = []
    with open(labels_csv, newline="") as fh:
        for row in csv.DictReader(fh):
            path = directory / row["image"]
            yolo = directory / "labels_yolo" / (Path(row["image"]).stem + ".txt")
            boxes = None
            if image_size is not None and yolo.is_file():
                try:
                    w, h = image_size(path)
                    boxes = _read_yolo(yolo, w, h)
                except (OSError, ValueError):
                    boxes = None
            items.append(LabelledImage(path, parse_values(row["values"]), boxes))
    return items
