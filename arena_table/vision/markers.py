"""Find fiducial markers (ArUco / AprilTag) in a frame: ids and corners in pixels.

A thin, typed layer over OpenCV's ``cv2.aruco.ArucoDetector`` (the pinned wheel). The dictionary
is configuration (:attr:`MarkerConfig.dictionary`): one of OpenCV's predefined dictionaries by name
(default ``DICT_4X4_50``; ``DICT_APRILTAG_36h11`` for AprilTag 36h11 tags), or the path of a
dictionary file as OpenCV writes it (``Dictionary.writeDictionary``: ``nmarkers``, ``markersize``,
``marker_<i>`` bit strings). A name that is neither is refused with :class:`~.errors.BadConfig`
listing the choices.

Corners are in the detector's order: the marker's own top-left, top-right, bottom-right,
bottom-left, clockwise in the image, whatever the marker's rotation. So the marker's "up" in the
image is the direction from its centre to the middle of the edge corner 0 -> corner 1, which is how
:attr:`Marker.angle_deg` gives a figure's facing from one flat view (no 3D pose, which flips on a
flat table).

>>> import numpy as np, cv2
>>> img = np.full((200, 200), 255, np.uint8)
>>> img[50:130, 60:140] = marker_image("DICT_4X4_50", 7, 80)
>>> [(m.id, m.centre, round(m.side_px), m.angle_deg) for m in locate_markers(MarkerConfig(), img)]
[(7, (99.5, 89.5), 79, 0.0)]
>>> marker_dictionary("DICT_4X4_51")
Traceback (most recent call last):
...
arena_table.vision.errors.BadConfig: marker dictionary 'DICT_4X4_51': not a dictionary name nor a dictionary file (names: DICT_4X4_50, DICT_4X4_100, ...)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .errors import BadConfig, BadFrame

DICTIONARIES = tuple(
    f"DICT_{kind}_{n}" for kind in ("4X4", "5X5", "6X6", "7X7") for n in (50, 100, 250, 1000)
) + ("DICT_ARUCO_ORIGINAL", "DICT_ARUCO_MIP_36h12",
     "DICT_APRILTAG_16h5", "DICT_APRILTAG_25h9", "DICT_APRILTAG_36h10", "DICT_APRILTAG_36h11")
"""OpenCV's predefined dictionaries, by the names :func:`marker_dictionary` takes (in any case:
``DICT_APRILTAG_36H11`` as ``cv2.aruco`` also spells it)."""

DEFAULT_DICTIONARY = "DICT_4X4_50"
"""Small figures carry small markers: 4x4 bits are the largest modules for a given printed size."""

CORNER_REFINEMENT = {"none": cv2.aruco.CORNER_REFINE_NONE, "subpix": cv2.aruco.CORNER_REFINE_SUBPIX,
                     "contour": cv2.aruco.CORNER_REFINE_CONTOUR, "apriltag": cv2.aruco.CORNER_REFINE_APRILTAG}
"""``MarkerConfig.corner_refinement`` names -> OpenCV's ``cornerRefinementMethod``."""


_BY_UPPER = {d.upper(): d for d in DICTIONARIES}


@lru_cache(maxsize=16)
def marker_dictionary(name: str) -> cv2.aruco.Dictionary:
    """The OpenCV dictionary called ``name`` (see :data:`DICTIONARIES`), or read from the file ``name``.

    Raises:
        BadConfig: ``name`` is neither a known name nor a readable dictionary file.
    """
    if name.upper() in _BY_UPPER:
        return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, _BY_UPPER[name.upper()]))
    path = Path(name)
    if path.suffix.lower() in (".yml", ".yaml", ".json", ".xml") and path.is_file():
        fs = cv2.FileStorage(str(path), cv2.FILE_STORAGE_READ)
        try:
            dictionary = cv2.aruco.Dictionary()
            ok = dictionary.readDictionary(fs.root())
        except cv2.error:
            ok = False
        finally:
            fs.release()
        if ok and dictionary.bytesList.shape[0] > 0:
            return dictionary
        raise BadConfig(f"marker dictionary {name!r}: not an OpenCV dictionary file "
                        f"(want nmarkers, markersize and marker_<i> bit strings)")
    raise BadConfig(f"marker dictionary {name!r}: not a dictionary name nor a dictionary file "
                    f"(names: {', '.join(DICTIONARIES[:2])}, ...)")


def dictionary_size(name: str) -> int:
    """How many marker ids the dictionary ``name`` has (ids are ``0 .. size-1``).

    >>> dictionary_size("DICT_4X4_50"), dictionary_size("DICT_APRILTAG_36h11")
    (50, 587)
    """
    return int(marker_dictionary(name).bytesList.shape[0])


@dataclass(frozen=True)
class MarkerConfig:
    """How markers are looked for (documented defaults; every value is checked by :class:`MarkerDetector`)."""

    dictionary: str = DEFAULT_DICTIONARY
    """A :data:`DICTIONARIES` name or the path of an OpenCV dictionary file."""
    corner_refinement: str = "none"
    """One of :data:`CORNER_REFINEMENT` (OpenCV's default ``none``). On rendered boards with 23 px
    markers and a little blur, ``subpix`` moved corners up to 1.8 px off the truth where ``none``
    stayed within 1.1 px; on OpenCV's own larger tutorial markers both are within 1 px."""
    min_perimeter_rate: float = 0.01
    """Smallest marker perimeter as a fraction of the frame's long side (OpenCV's
    ``minMarkerPerimeterRate``, default 0.03). 0.01 keeps a 12 mm marker seen at 1 px/mm
    in a 1280 px frame (perimeter 48 px > 12.8 px); smaller blobs are too few pixels to decode."""
    cell_margin: float = 0.3
    """Share of each bit's cell left out when the bit is read (OpenCV's
    ``perspectiveRemoveIgnoredMarginPerCell``, default 0.13): reading only the middle of each cell
    keeps a blurred, turned small marker readable. On rendered boards (23 px markers, blur up to
    1.1 px) 0.13 missed 4 of 369 markers, 0.3 none."""
    params_file: str = ""
    """An OpenCV ``DetectorParameters`` file (YAML) used instead of ``min_perimeter_rate`` and
    ``cell_margin``, then ``corner_refinement`` when that is not ``none``; empty for none."""

    def __post_init__(self) -> None:
        if self.corner_refinement not in CORNER_REFINEMENT:
            raise BadConfig(f"corner_refinement {self.corner_refinement!r}: want one of "
                            f"{', '.join(CORNER_REFINEMENT)}")
        if not 0 < self.min_perimeter_rate < 4:
            raise BadConfig(f"min_perimeter_rate {self.min_perimeter_rate}: want 0 < rate < 4")
        if not 0 <= self.cell_margin < 0.5:
            raise BadConfig(f"cell_margin {self.cell_margin}: want 0 <= margin < 0.5")


@dataclass(frozen=True)
class Marker:
    """One marker found in a frame."""

    id: int
    """Its index in the dictionary."""
    corners: tuple[tuple[float, float], ...]
    """Four (x, y) px in the detector's order (the marker's top-left, top-right, bottom-right,
    bottom-left)."""
    centre: tuple[float, float] = field(init=False, compare=False)
    """Where the diagonals cross (px): the projection of the marker's true centre under any
    perspective, unlike the mean of the corners."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "centre", _diagonals_cross(self.corners))

    @property
    def side_px(self) -> float:
        """Mean length of the four edges (px)."""
        c = self.corners
        return sum(math.dist(c[i], c[(i + 1) % 4]) for i in range(4)) / 4

    @property
    def angle_deg(self) -> float:
        """Direction of the marker's "up" in the image, degrees clockwise from the image's up
        (-y), in [0, 360): 0 for an upright marker, 90 for one whose top points right."""
        (x0, y0), (x1, y1) = self.corners[0], self.corners[1]
        (x2, y2), (x3, y3) = self.corners[2], self.corners[3]
        ux, uy = (x0 + x1 - x2 - x3) / 2, (y0 + y1 - y2 - y3) / 2  # bottom edge -> top edge
        return round(math.degrees(math.atan2(ux, -uy)) % 360.0, 6)

    def to_json(self) -> dict:
        return {"id": self.id, "corners": [[round(x, 2), round(y, 2)] for x, y in self.corners]}


def _diagonals_cross(c) -> tuple[float, float]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = c
    d1x, d1y, d2x, d2y = x2 - x0, y2 - y0, x3 - x1, y3 - y1
    den = d1x * d2y - d1y * d2x
    if abs(den) < 1e-9:  # degenerate quad: fall back on the mean
        return (round((x0 + x1 + x2 + x3) / 4, 3), round((y0 + y1 + y2 + y3) / 4, 3))
    t = ((x1 - x0) * d2y - (y1 - y0) * d2x) / den
    return (round(x0 + t * d1x, 3), round(y0 + t * d1y, 3))


class MarkerDetector:
    """An ``ArucoDetector`` built once for a :class:`MarkerConfig` (building it per frame costs).

    Raises:
        BadConfig: an unknown dictionary, a bad refinement name or an unreadable ``params_file``.
    """

    def __init__(self, cfg: MarkerConfig | None = None) -> None:
        self.cfg = cfg or MarkerConfig()
        params = cv2.aruco.DetectorParameters()
        if self.cfg.params_file:
            fs = cv2.FileStorage(self.cfg.params_file, cv2.FILE_STORAGE_READ)
            ok = fs.isOpened() and params.readDetectorParameters(fs.root())
            fs.release()
            if not ok:
                raise BadConfig(f"params_file {self.cfg.params_file!r}: not an OpenCV DetectorParameters file")
        if self.cfg.corner_refinement != "none" or not self.cfg.params_file:
            params.cornerRefinementMethod = CORNER_REFINEMENT[self.cfg.corner_refinement]
        if not self.cfg.params_file:
            params.minMarkerPerimeterRate = self.cfg.min_perimeter_rate
            params.perspectiveRemoveIgnoredMarginPerCell = self.cfg.cell_margin
        self.dictionary = marker_dictionary(self.cfg.dictionary)
        self.detector = cv2.aruco.ArucoDetector(self.dictionary, params)

    def __repr__(self) -> str:
        return f"<MarkerDetector {self.cfg.dictionary} refine={self.cfg.corner_refinement}>"

    def detect(self, frame: np.ndarray) -> list[Marker]:
        """Every marker in ``frame`` (HxW or HxWx3 uint8, BGR), sorted by id then position.

        Raises:
            BadFrame: ``frame`` is not a uint8 grey or BGR image.
        """
        _check_frame(frame)
        corners, ids, _ = self.detector.detectMarkers(frame)
        if ids is None:
            return []
        out = [Marker(int(i), tuple((float(x), float(y)) for x, y in c.reshape(4, 2)))
               for i, c in zip(ids.ravel(), corners)]
        return sorted(out, key=lambda m: (m.id, m.centre))


def _check_frame(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or not (
            frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] in (1, 3))) or min(frame.shape[:2]) < 8:
        shape = getattr(frame, "shape", None)
        raise BadFrame(f"a marker frame is an HxW or HxWx3 uint8 image, got "
                       f"{getattr(frame, 'dtype', type(frame).__name__)} {shape}")


@lru_cache(maxsize=8)
def _detector(cfg: MarkerConfig) -> MarkerDetector:
    return MarkerDetector(cfg)


def locate_markers(cfg: MarkerConfig, frame: np.ndarray) -> list[Marker]:
    """:meth:`MarkerDetector.detect` with a detector kept per ``cfg`` (pure for the caller)."""
    return _detector(cfg).detect(frame)


def marker_image(dictionary: str, marker_id: int, side_px: int) -> np.ndarray:
    """The marker ``marker_id`` of ``dictionary`` as a ``side_px`` square uint8 image (black border
    included, no quiet zone).

    Raises:
        BadConfig: unknown dictionary, or an id outside it.
    """
    d = marker_dictionary(dictionary)
    n = int(d.bytesList.shape[0])
    if not 0 <= marker_id < n:
        raise BadConfig(f"marker id {marker_id}: {dictionary} has ids 0-{n - 1}")
    return cv2.aruco.generateImageMarker(d, int(marker_id), int(side_px), borderBits=1)


def marker_modules(dictionary: str) -> int:
    """Modules across one marker, its black border included (6 for 4x4 markers).

    >>> marker_modules("DICT_4X4_50"), marker_modules("DICT_APRILTAG_36h11")
    (6, 8)
    """
    return int(marker_dictionary(dictionary).markerSize) + 2
