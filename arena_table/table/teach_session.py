"""Teaching a die kind from the camera (the control page's teach card).

The person picks a kind and a face, shows dice with that face up to the camera and presses
*capture*: every die :func:`~arena_table.vision.teach_shots.locate_dice` finds in the camera's
last frame becomes a shot of that face. *Teach* builds the kind from the shots gathered
(:func:`~.taught_kinds.teach`), stores it in the data folder and reads dice with it from then on
(:meth:`~.camera_taught.TaughtKinds.add`), or refuses it, naming two faces it cannot tell apart.

The shots wait in memory until taught or cleared (a restart loses them; a taught kind is kept).
Locating and teaching run on one worker thread of the session's own, whatever web thread asks:
native code (ONNX Runtime, OpenCV) keeps memory per calling thread (see
``CameraLoop.overlay``).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import KIND_ID, SYMBOL, die_kinds
from arena_table.vision.face_model import FaceModelError, IndistinguishableFaces
from arena_table.vision.teach_shots import Shot, locate_dice, located_shot

from . import taught_kinds
from .camera_taught import TaughtKinds

MAX_SHOTS = 600
"""Shots one kind may gather before teaching (a capture beyond is refused: memory is bounded)."""


class TeachRefused(ValueError):
    """A capture or teach that cannot be done; the message says why. ``faces`` names the two faces
    a refused model could not tell apart (``()`` otherwise)."""

    def __init__(self, message: str, faces: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.faces = faces


def _check_name(kind: Any, face: Any = "") -> tuple[str, str]:
    if not isinstance(kind, str) or not KIND_ID.match(kind.strip().lower()):
        raise TeachRefused(f"kind {kind!r}: want a kind id, a lower-case word (words joined by -), such as logo-d6")
    if not isinstance(face, str) or (face and not SYMBOL.match(face.strip().lower())):
        raise TeachRefused(f"face {face!r}: want a number or a lower-case name (3, logo, hit+critical)")
    return kind.strip().lower(), face.strip().lower()


class TeachSession:
    """Shots gathered from the camera per kind, and teaching them into ``taught``.

    Args:
        taught: the table's taught kinds (where a taught kind is stored and read from).
        frame: the camera's last frame (BGR), or ``None`` when there is none.
    """

    def __init__(self, taught: TaughtKinds, frame: Callable[[], np.ndarray | None]) -> None:
        self.taught = taught
        self.frame = frame
        self._lock = threading.Lock()
        self._shots: dict[str, list[Shot]] = {}
        self._last: dict[str, dict] = {}
        self._pool: ThreadPoolExecutor | None = None

    def __repr__(self) -> str:
        with self._lock:
            return f"TeachSession({ {k: len(v) for k, v in self._shots.items()} })"

    def _run(self, fn, *args):
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="teach")
            pool = self._pool
        return pool.submit(fn, *args).result()

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def counts(self, kind: str) -> dict[str, int]:
        """Shots gathered per face of ``kind``, faces in name order."""
        with self._lock:
            shots = list(self._shots.get(kind, ()))
        faces = sorted({s.face for s in shots})
        return {f: sum(1 for s in shots if s.face == f) for f in faces}

    def status(self) -> dict[str, Any]:
        """What the card shows: the kinds to pick (shipped, each with its faces and whether they are
        to enter), the kinds taught here, the shots gathered per kind and face, and each kind's
        last teaching (its report, or its refusal)."""
        taught = {t.kind.id: t for t in self.taught.all()}
        kinds = {k.id: k for k in die_kinds()}
        with self._lock:
            pending = {k: None for k in self._shots}
            last = dict(self._last)
        return {
            "kinds": [{"id": k.id, "title": k.title, "faces": list(k.symbols), "to_enter": "faces" in k.to_enter,
                       "taught": k.id in taught} for k in sorted(kinds.values(), key=lambda k: k.id)],
            "taught": [{"id": t.kind.id, "base": t.base, "faces": list(t.model.faces), "shots": len(t.shots),
                        "accuracy": t.report.get("accuracy")} for t in taught.values()],
            "shots": {k: self.counts(k) for k in pending},
            "last": last,
        }

    def capture(self, kind: Any, face: Any) -> dict[str, Any]:
        """Add every die of the camera's last frame as a shot of ``face`` of ``kind``.

        Returns:
            ``{"kind", "face", "added", "shots": {face: n}}``.

        Raises:
            TeachRefused: a bad kind or face name, no camera frame, no die found, or :data:`MAX_SHOTS`.
        """
        kind, face = _check_name(kind, face)
        if not face:
            raise TeachRefused("face: pick the face the dice show")
        image = self.frame()
        if image is None:
            raise TeachRefused("the camera has no frame yet: start the table with a camera (--camera)")
        with self._lock:
            if len(self._shots.get(kind, ())) >= MAX_SHOTS:
                raise TeachRefused(f"{kind} has {MAX_SHOTS} shots already: teach it or clear them")
        dice = self._run(locate_dice, image)
        if not dice:
            raise TeachRefused("no die found in the camera's last frame: lay the dice in the tray, in view")
        stamp = time.strftime("%H:%M:%S")
        new = [located_shot(face, image, f"camera {stamp}", x, y, s) for x, y, s in dice]
        with self._lock:
            self._shots.setdefault(kind, []).extend(new)
        return {"kind": kind, "face": face, "added": len(new), "shots": self.counts(kind)}

    def clear(self, kind: Any, face: Any = "") -> dict[str, Any]:
        """Drop the shots of ``kind`` (of ``face`` only, when given)."""
        kind, face = _check_name(kind, face)
        with self._lock:
            shots = self._shots.get(kind, [])
            self._shots[kind] = [s for s in shots if face and s.face != face]
            if not self._shots[kind]:
                del self._shots[kind]
        return {"kind": kind, "shots": self.counts(kind)}

    def teach(self, kind: Any) -> dict[str, Any]:
        """Teach ``kind`` from its shots, store it and read dice with it from now on.

        Returns:
            ``{"kind", "base", "file", "shots": {face: n}, "faces", "report": {...}}`` (the held-back
            report: ``faces``, ``confusion``, ``accuracy``, ``per_face_accuracy``, ``threshold``,
            ``abstention``); the shots are then let go.

        Raises:
            TeachRefused: no shots, a face with too few, faces the kind has not, or two faces the
                model cannot tell apart (``faces`` names them; the shots are kept to add to).
            OSError: the kind cannot be stored.
        """
        kind, _ = _check_name(kind)
        with self._lock:
            shots = list(self._shots.get(kind, ()))
        if not shots:
            raise TeachRefused(f"no shots of {kind} yet: pick a face, show it to the camera and capture")
        try:
            taught = self._run(lambda: taught_kinds.teach(kind, shots, "the control page's camera"))
        except IndistinguishableFaces as exc:
            with self._lock:
                self._last[kind] = {"refused": str(exc), "faces": list(exc.faces)}
            raise TeachRefused(f"cannot teach {kind}: {exc}; capture those faces again", exc.faces) from None
        except (taught_kinds.TaughtKindError, FaceModelError) as exc:
            raise TeachRefused(f"cannot teach {kind}: {exc}") from None
        path = self.taught.add(taught)
        counts = self.counts(kind)
        result = {"kind": kind, "base": taught.base, "file": path.name, "shots": counts,
                  "faces": [f.symbol for f in taught.kind.faces], "report": taught.report}
        with self._lock:
            self._shots.pop(kind, None)
            self._last[kind] = {"report": taught.report, "shots": counts}
        return result
