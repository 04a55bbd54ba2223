"""Taught die kinds: teach a kind's faces from shots, store it in the data folder, load it back.

Teaching (:func:`teach`) turns labelled die crops (:class:`~arena_table.vision.teach_shots.Shot`)
into a :class:`TaughtKind`: the kind's definition (a shipped kind, its faces filled in when they
are ``to_enter``, or a new kind id such as a licensed logo d6) and its face model
(:class:`~arena_table.vision.face_model.FaceModel`, whose held-back report gives the confusion
matrix). A model that cannot tell two faces apart is refused
(:class:`~arena_table.vision.face_model.IndistinguishableFaces` names them).

Storage: one file per kind in the data folder, ``taught-<kind id>.json``, written whole and
privately by :meth:`~arena_table.table.data_dir.DataDir.write` (a power cut leaves the old file or
the new one). The file format (:data:`FORMAT`) is a JSON object::

    {"format": 1,
     "kind": {...},                # the kind's JSON (die_kinds.kind_json), faces filled in
     "base": "d6" | null,          # the shipped kind it fills in, null for a new kind id
     "model": "<base64>",          # FaceModel.to_bytes()
     "shots": [{"face": "3", "photo": "3/a.jpg", "png": "<base64>",
                "reads": ["<base64>", ...]}, ...],   # the crops the die is read from (may be [])
     "orientation_matters": false, # taught without rotated copies (6 and 9)
     "report": {...},              # the held-back report (FaceModel.report)
     "taught_from": "...",         # what the shots came from, in words
     "root": "/abs/folder" | null} # the folder the shots' photo paths are relative to

The shots (each with the crops it is read from where the die locator found it, on which the
model's refusals are calibrated) are kept so an upgrade whose face model reads older models no more
(``FaceModel.from_bytes`` raises ``FaceModelError``) re-teaches the kind from them on load and
stores it again (atomically, as above), so later starts read the new model: a taught kind
survives a restart and an upgrade. A file of a later format is refused with its number.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import (
    KIND_ID, DieKind, DieKindError, Face, find_kind, kind_from_json, kind_json)
from arena_table.vision.face_model import FaceModel, FaceModelError
from arena_table.vision.teach_shots import Shot, learn_look

from .data_dir import LOCK_FILE, DataDir, lock_holder

log = logging.getLogger(__name__)

FORMAT = 1
"""Version of the ``taught-<id>.json`` format (module docstring)."""
FILE_PREFIX = "taught-"
"""Taught kinds are the data folder's ``taught-<kind id>.json`` files."""
SHOT_MAX_PX = 240
"""A stored shot's longer side in px at most (larger crops are shrunk; the face model reads a die at 48 px)."""


class TaughtKindError(ValueError):
    """A kind that cannot be taught as asked, or a stored taught kind that cannot be read; the
    message names the kind or file and why."""


@dataclass(frozen=True)
class TaughtKind:
    """A die kind and the face model that reads it."""

    kind: DieKind
    """Its definition: faces by symbol (filled in from the taught faces when they were ``to_enter``)."""
    model: FaceModel
    """The face model taught from :attr:`shots`."""
    base: str | None
    """The shipped kind it fills in, ``None`` for a kind id the catalogue does not have."""
    shots: tuple[tuple[str, str, np.ndarray], ...]
    """(face, photo, crop) of every shot taught from, kept to re-teach after an upgrade."""
    taught_from: str = ""
    """What the shots came from, in words (``--yolo DIR``, ``camera``)."""
    root: str | None = None
    """The absolute folder the shots' photo paths are relative to (``None``: camera shots), so
    ``dice eval`` on that folder leaves the photos taught from out."""
    reads: tuple[tuple[np.ndarray, ...], ...] = ()
    """Per shot, the crops it is read from (``Shot.reads``; ``()`` for none), kept to re-teach."""

    @property
    def report(self) -> dict:
        """The model's held-back report: faces, accuracy, per-face accuracy, confusion, threshold."""
        return self.model.report

    def __repr__(self) -> str:
        return (f"TaughtKind({self.kind.id!r}, faces={list(self.model.faces)}, shots={len(self.shots)}, "
                f"accuracy={self.report.get('accuracy', 0):.3f})")


def _face_order(faces: Sequence[str]) -> list[str]:
    """Numerals first in numeric order, then names alphabetically."""
    return sorted(set(faces), key=lambda f: (0, int(f), "") if re.fullmatch(r"-?[0-9]+", f) else (1, 0, f))


def kind_for(kind_id: str, faces: Sequence[str]) -> tuple[DieKind, str | None]:
    """The kind taught faces ``faces`` make of ``kind_id`` and the shipped kind it is based on.

    A shipped kind whose faces are ``to_enter`` keeps its placeholder faces when the taught ones
    are among them (their values and repeats: ``licensed-d6``'s logo is worth 1), else gets the
    taught faces (a placeholder's symbol keeping its value; other numerals as numbers, names as
    themselves); a shipped kind with known faces must be taught only faces it has; an id the
    catalogue lacks is a new kind with the taught faces.

    Raises:
        TaughtKindError: a bad kind id, or faces the shipped kind has not (naming them and its faces).
    """
    try:
        base = find_kind(kind_id, taught=False)
    except DieKindError:
        base = None
    names = _face_order(faces)
    as_faces = tuple(Face(f, int(f) if re.fullmatch(r"-?[0-9]+", f) else f) for f in names)
    if base is None:
        if not KIND_ID.match(kind_id):
            raise TaughtKindError(f"kind id {kind_id!r} is not a lower-case word (words joined by -), "
                                  "such as logo-d6")
        return DieKind(id=kind_id, title=kind_id, faces=as_faces, source="taught at the table"), None
    if "faces" in base.to_enter:
        # placeholders the taught faces are among stay as shipped (their values and repeats: a
        # logo face worth 1); other faces replace them, a shipped symbol keeping its value
        shipped = {f.symbol: f.value for f in base.faces}
        faces = base.faces if set(names) <= set(base.symbols) else tuple(
            Face(f.symbol, shipped.get(f.symbol, f.value)) for f in as_faces)
        kind = replace(base, faces=faces, to_enter=tuple(t for t in base.to_enter if t != "faces"),
                       source=f"{base.source}; faces taught at the table".lstrip("; "))
        return kind, base.id
    unknown = [f for f in names if f not in base.symbols]
    if unknown:
        raise TaughtKindError(f"a {base.id} die has no face {', '.join(unknown)}; its faces: "
                              f"{', '.join(base.symbols)} (teach a new kind id for another die)")
    return base, base.id


def teach(kind_id: str, shots: Sequence[Shot], taught_from: str = "", root: str | Path | None = None, *,
          orientation_matters: bool = False) -> TaughtKind:
    """Teach ``kind_id`` from ``shots``. A kind whose look is to enter (or a new kind) gets the
    body colours of the shots as its look (:func:`~arena_table.vision.teach_shots.learn_look`).

    Raises:
        TaughtKindError: as :func:`kind_for`, or no shots.
        IndistinguishableFaces: two faces the held-back shots could not tell apart (names them).
        FaceModelError: fewer than two faces, or a face with fewer than two shots.
    """
    if not shots:
        raise TaughtKindError(f"no die shots to teach {kind_id} from")
    kind, base = kind_for(kind_id.strip().lower(), [s.face for s in shots])
    if base is None or "look" in kind.to_enter:  # the body colours of the shots tell it from other kinds
        seen = learn_look([s.crop for s in shots])
        kind = replace(kind, look=replace(kind.look, body=seen.body, colour=seen.colour),
                       to_enter=tuple(t for t in kind.to_enter if t != "look"))
    model = _fit([s.face for s in shots], [s.photo for s in shots], [s.crop for s in shots],
                 [s.reads for s in shots], orientation_matters)
    return TaughtKind(kind, model, base, tuple((s.face, s.photo, s.crop) for s in shots), taught_from,
                      str(Path(root).resolve()) if root is not None else None, tuple(s.reads for s in shots))


def _fit(faces: Sequence[str], photos: Sequence[str], crops: Sequence[np.ndarray],
         reads: Sequence[Sequence[np.ndarray]], orientation_matters: bool) -> FaceModel:
    """The face model of shots: its refusals calibrated on their reads, a photo's shots held back
    together (:meth:`~arena_table.vision.face_model.FaceModel.fit`)."""
    return FaceModel.fit(crops, faces, orientation_matters=orientation_matters, reads=reads, groups=photos)


def file_name(kind_id: str) -> str:
    """The data folder's file of kind ``kind_id``.

    >>> file_name("logo-d6")
    'taught-logo-d6.json'
    """
    return f"{FILE_PREFIX}{kind_id}.json"


def _png(crop: np.ndarray) -> str:
    h, w = crop.shape[:2]
    if max(h, w) > SHOT_MAX_PX:
        f = SHOT_MAX_PX / max(h, w)
        crop = cv2.resize(crop, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".png", crop)
    if not ok:
        raise TaughtKindError("a shot could not be encoded as PNG")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def to_text(taught: TaughtKind) -> str:
    """``taught`` in the ``taught-<id>.json`` format (:data:`FORMAT`)."""
    return json.dumps({
        "format": FORMAT, "kind": kind_json(taught.kind), "base": taught.base,
        "model": base64.b64encode(taught.model.to_bytes()).decode("ascii"),
        "shots": [{"face": f, "photo": p, "png": _png(c), "reads": [_png(r) for r in rs]}
                  for (f, p, c), rs in zip(taught.shots, taught.reads or [()] * len(taught.shots))],
        "orientation_matters": taught.model.orientation_matters,
        "report": taught.report, "taught_from": taught.taught_from, "root": taught.root,
    }, ensure_ascii=True)


def from_text(text: str, where: str) -> TaughtKind:
    """A :class:`TaughtKind` from its file's text; re-taught from its shots when the stored model is
    one this version's face model cannot read (logged).

    Raises:
        TaughtKindError: not JSON, a later or unknown format, a malformed kind or shot (naming ``where``).
    """
    return _parse(text, where)[0]


def _parse(text: str, where: str) -> tuple[TaughtKind, bool]:
    """:func:`from_text`'s kind and whether it was re-taught."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TaughtKindError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
    fmt = raw.get("format") if isinstance(raw, dict) else None
    if not isinstance(fmt, int):
        raise TaughtKindError(f"{where}: not a taught die kind file (no format number)")
    if fmt > FORMAT:
        raise TaughtKindError(f"{where}: written in taught-kind format {fmt} by a later arena-table; "
                              f"this one reads format {FORMAT}")
    try:
        kind = kind_from_json(raw["kind"], where)
        shots = tuple((str(s["face"]), str(s["photo"]), _image(s["png"])) for s in raw["shots"])
        reads = tuple(tuple(_image(r) for r in s.get("reads", [])) for s in raw["shots"])
        model_bytes = base64.b64decode(raw["model"])
    except (KeyError, TypeError, ValueError) as exc:
        raise TaughtKindError(f"{where}: malformed taught kind ({type(exc).__name__}: {exc})") from None
    if any(c is None for _, _, c in shots) or any(r is None for rs in reads for r in rs):
        raise TaughtKindError(f"{where}: a stored shot is not a PNG image")
    retaught = False
    try:
        model = FaceModel.from_bytes(model_bytes)
    except FaceModelError as exc:
        log.warning("%s: the stored face model cannot be read (%s): taught again from its %d shots",
                    where, exc, len(shots))
        model = _fit([f for f, _, _ in shots], [p for _, p, _ in shots], [c for _, _, c in shots], reads,
                     bool(raw.get("orientation_matters", False)))
        retaught = True
    return TaughtKind(kind, model, raw.get("base"), shots, str(raw.get("taught_from", "")), raw.get("root"),
                      reads), retaught


def _image(png: str) -> np.ndarray | None:
    """A stored PNG (base64) as a BGR image, None when it is not one."""
    return cv2.imdecode(np.frombuffer(base64.b64decode(png), np.uint8), cv2.IMREAD_COLOR)


def save(data_dir: str | Path, taught: TaughtKind) -> Path:
    """Write ``taught`` to ``data_dir``'s :func:`file_name` atomically; returns the file's path.

    Raises:
        OSError: it cannot be written (the message names the file).
    """
    folder = DataDir(data_dir)
    folder.write(file_name(taught.kind.id), to_text(taught))
    return folder.path / file_name(taught.kind.id)


def load(data_dir: str | Path, kind_id: str) -> TaughtKind:
    """The taught kind ``kind_id`` of ``data_dir``.

    Raises:
        TaughtKindError: no such taught kind (the message lists the folder's), or as :func:`from_text`.
        OSError: the file cannot be read.
    """
    folder = DataDir(data_dir)
    kid = kind_id.strip().lower()
    text = folder.read(file_name(kid), "taught die kind") if KIND_ID.match(kid) else None
    if text is None:
        have = ", ".join(kind_ids(data_dir)) or "none"
        raise TaughtKindError(f"{folder.path}: no taught die kind {kind_id!r} (taught kinds here: {have}); "
                              f"teach it with `arena-table dice teach {kind_id} ...`")
    taught, retaught = _parse(text.decode("ascii"), str(folder.path / file_name(kid)))
    if retaught:
        _save_back(folder, taught)
    return taught


def _save_back(folder: DataDir, taught: TaughtKind) -> None:
    """Store a kind re-taught on load (:func:`save`: atomically), so the next start reads its model
    instead of teaching it again; not while another process holds the folder's lock (the running
    table, the folder's writer, which stores it when it loads it). A folder that cannot be written
    is logged: the kind is read all the same and taught again at the next load."""
    holder = lock_holder(folder.path / LOCK_FILE)
    if holder is not None and holder != str(os.getpid()):
        log.info("%s: re-taught %s not stored: the table (pid %s) holds the folder", folder.path,
                 taught.kind.id, holder)
        return
    try:
        path = save(folder.path, taught)
    except OSError as exc:
        log.warning("re-taught %s not stored, it is taught again at the next load: %s", taught.kind.id, exc)
        return
    log.info("%s: re-taught model stored", path)


def kind_ids(data_dir: str | Path) -> list[str]:
    """Ids of the kinds taught in ``data_dir``, sorted (``[]`` for a missing folder)."""
    path = Path(data_dir)
    if not path.is_dir():
        return []
    return sorted(p.name[len(FILE_PREFIX):-5] for p in path.glob(f"{FILE_PREFIX}*.json")
                  if KIND_ID.match(p.name[len(FILE_PREFIX):-5]))


def load_all(data_dir: str | Path) -> tuple[list[TaughtKind], list[str]]:
    """Every taught kind of ``data_dir`` and one problem line per file that could not be read (the
    table runs on without that kind)."""
    kinds, problems = [], []
    for kid in kind_ids(data_dir):
        try:
            kinds.append(load(data_dir, kid))
        except (TaughtKindError, FaceModelError, OSError) as exc:
            problems.append(str(exc))
    return kinds, problems
