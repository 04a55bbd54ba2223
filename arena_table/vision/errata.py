"""Label errata: known faults in a labelled dice set, applied on request to score against them.

A labelled set can be wrong: a die labelled with a face it does not show, or a die in the photo
with no label at all. Scoring against such labels counts the reader's right answers as wrong
reads. An errata CSV lists each fault with the evidence to check it by eye, and
``dice eval --errata FILE`` scores against the corrected labels (always beside the figures
against the labels as they are: the errata are a claim about the data, to be checked).

The CSV has a header and one row per fault::

    set,image,x,y,label,truth,note
    byler_d6,IMG_20191208_112342.jpg,316,482,2,3,a black die with three white pips on one diagonal

* ``set`` -- the set's folder name (errata for other sets are ignored);
* ``image`` -- the photo's file name;
* ``x``, ``y`` -- the die's centre in the photo, pixels;
* ``label`` -- the face the set gives it (1..6), or ``none`` for a die with no label;
* ``truth`` -- the face the photo shows (1..6);
* ``note`` -- what the photo shows, in words.

The set's ``labels.csv`` must list ``label`` for that image (the faces are a multiset: one of
them becomes ``truth``); a labelled die must have a YOLO box of class ``label`` within
``MATCH_SIDES`` box sides of (x, y) when the set has boxes, which takes the class ``truth``; an
unlabelled die gets a box there of the image's median box size. A row that does not fit the set
raises, so a stale errata file is noticed.

>>> fix = LabelFix("s", "a.jpg", (10.0, 20.0), None, 3, "a green 3")
>>> fix.corrected((1, 2))
(1, 2, 3)
>>> LabelFix("s", "a.jpg", (10.0, 20.0), 2, 3, "").corrected((2, 2, 5))
(2, 5, 3)
"""

from __future__ import annotations

import csv
import statistics
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import VisionError
from .labels import LabelledBox, LabelledImage

MATCH_SIDES = 0.75
"""A labelled box is the erratum's die when its centre is within this many box sides of (x, y)."""

COLUMNS = ("set", "image", "x", "y", "label", "truth", "note")


@dataclass(frozen=True)
class LabelFix:
    """One label fault of a set and its correction."""

    set: str
    """The set's folder name, e.g. ``byler_d6``."""
    image: str
    """The photo's file name."""
    center: tuple[float, float]
    """The die's centre in the photo, pixels."""
    label: int | None
    """The face the set gives the die, or ``None`` for a die the set does not label."""
    truth: int
    """The face the photo shows."""
    note: str
    """What the photo shows."""

    def corrected(self, values: tuple[int, ...]) -> tuple[int, ...]:
        """The image's faces with this fault corrected (one ``label`` taken out, ``truth`` added).

        Raises:
            VisionError: ``label`` is not among ``values``.
        """
        out = list(values)
        if self.label is not None:
            if self.label not in out:
                raise VisionError(f"erratum {self.where()}: the set lists no {self.label} for this image "
                                  f"(faces {' '.join(map(str, values))})")
            out.remove(self.label)
        return (*out, self.truth)

    def fix_boxes(self, boxes: tuple[LabelledBox, ...]) -> tuple[LabelledBox, ...]:
        """The image's boxes (pixels) with this fault corrected.

        Raises:
            VisionError: a labelled die has no box of its class near (x, y), or an unlabelled one
                is added to an image with no boxes to size it from.
        """
        x, y = self.center
        if self.label is None:
            if not boxes:
                raise VisionError(f"erratum {self.where()}: no boxes in this image to size the die from")
            w = statistics.median(b.size[0] for b in boxes)
            h = statistics.median(b.size[1] for b in boxes)
            return (*boxes, LabelledBox(self.truth, self.center, (w, h)))
        near = [(abs(complex(b.center[0] - x, b.center[1] - y)), i) for i, b in enumerate(boxes)
                if b.value == self.label]
        near = [(d, i) for d, i in near if d <= MATCH_SIDES * max(boxes[i].size)]
        if not near:
            raise VisionError(f"erratum {self.where()}: no box labelled {self.label} at ({x:.0f}, {y:.0f})")
        i = min(near)[1]
        return boxes[:i] + (replace(boxes[i], value=self.truth),) + boxes[i + 1:]

    def where(self) -> str:
        """``set/image (x, y)`` for messages."""
        return f"{self.set}/{self.image} ({self.center[0]:.0f}, {self.center[1]:.0f})"


def _face(text: str, column: str, where: str, allow_none: bool) -> int | None:
    text = text.strip()
    if allow_none and text == "none":
        return None
    if not text.isdigit() or not 1 <= int(text) <= 6:
        allowed = "1..6 or none" if allow_none else "1..6"
        raise VisionError(f"{where}: {column} must be {allowed}, got {text!r}")
    return int(text)


def load_errata(path: str | Path) -> tuple[LabelFix, ...]:
    """Read an errata CSV (see the module docstring for its columns).

    Raises:
        FileNotFoundError: the file does not exist.
        VisionError: a path that is no readable file, a missing column, a bad number or face, a
            fault whose truth is its label, or a row that repeats an earlier one (the message
            names the file and line).
    """
    path = Path(path)
    if path.is_dir():
        raise VisionError(f"{path}: is a folder, not an errata CSV file")
    out = []
    seen: dict[tuple, int] = {}
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
            if missing:
                raise VisionError(f"{path}: no {', '.join(missing)} column (the header must name "
                                  f"{','.join(COLUMNS)})")
            for row in reader:
                where = f"{path}, line {reader.line_num}"
                if any(row[c] is None for c in COLUMNS):
                    raise VisionError(f"{where}: a row needs all of {','.join(COLUMNS)}")
                try:
                    center = (float(row["x"]), float(row["y"]))
                except ValueError:
                    raise VisionError(f"{where}: x and y must be pixel numbers, got {row['x']!r}, {row['y']!r}") from None
                label = _face(row["label"], "label", where, allow_none=True)
                truth = _face(row["truth"], "truth", where, allow_none=False)
                if label == truth:
                    raise VisionError(f"{where}: label and truth are both {truth}: not a fault")
                key = (row["set"].strip(), row["image"].strip(), center)
                if key in seen:
                    raise VisionError(f"{where}: repeats line {seen[key]} (the same die of {key[1]} at "
                                      f"({center[0]:g}, {center[1]:g}))")
                seen[key] = reader.line_num
                out.append(LabelFix(row["set"].strip(), row["image"].strip(), center, label, truth,
                                    row["note"].strip()))
    except UnicodeDecodeError:
        raise VisionError(f"{path}: not UTF-8 text") from None
    except PermissionError as exc:
        raise VisionError(f"{path}: cannot read ({exc.strerror})") from None
    return tuple(out)


def apply_errata(items: list[LabelledImage], errata: tuple[LabelFix, ...],
                 set_name: str) -> list[LabelledImage]:
    """The set's images with the errata of ``set_name`` applied to their faces and boxes.

    Args:
        items: the set, as ``labels.load_set`` returns it.
        errata: faults, from :func:`load_errata`; those of other sets are ignored.
        set_name: the set's folder name.

    Returns:
        The items, each with its faults in ``fixes`` and its ``values`` corrected; the boxes are
        corrected when ``labels.read_boxes`` reads them.

    Raises:
        VisionError: a fault names an image the set does not have, or a label the image does not list.
    """
    by_image: dict[str, list[LabelFix]] = {}
    for fix in errata:
        if fix.set == set_name:
            by_image.setdefault(fix.image, []).append(fix)
    names = {it.path.name for it in items}
    unknown = sorted(set(by_image) - names)
    if unknown:
        raise VisionError(f"errata for {set_name} name images the set does not have: {', '.join(unknown)}")
    out = []
    for it in items:
        fixes = tuple(by_image.get(it.path.name, ()))
        values = it.values
        for fix in fixes:
            values = fix.corrected(values)
        out.append(replace(it, values=values, fixes=fixes) if fixes else it)
    return out
