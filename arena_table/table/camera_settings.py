"""The camera's settings (``TableConfig.extra``, ``arena-table run --camera-setting``): each key's
check, and the settle detector, frame source and dice reader configurations they make.

Keys and defaults: docs/camera.md, "Settings".
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

import cv2
import numpy as np

from arena_table.vision.capture import Backoff
from arena_table.vision.frames import Calibration
from arena_table.vision.settle import SettleConfig

Reader = Callable[[np.ndarray], Any]
"""``BGR frame -> DiceReading`` (see :func:`default_reader`); a reader with a ``peek`` method (no size
search) is peeked at for the control page's live view."""


def reader_config(die_side_px: float | None = None, settings: Mapping[str, Any] | None = None):
    """The reader's ``DiceConfig``: the defaults, looking for dice of about ``die_side_px`` when
    given (a calibration's ``die_size_px``, see :func:`arena_table.vision.size_search.sized_config`),
    and the ``dice_*`` settings (docs/camera.md, "Settings"): ``dice_min_confidence`` ->
    ``min_confidence``, ``dice_logo_face`` -> ``logo_faces={"logo": N}``, ``dice_size_check`` ->
    ``size_check_ratio``. Values are checked by :func:`check_settings` first.

    >>> reader_config(None, {"dice_logo_face": 1, "dice_min_confidence": 0.7}).logo_faces["logo"]
    1
    """
    from arena_table.vision.size_search import sized_config
    from arena_table.vision.dice import DiceConfig

    cfg = DiceConfig() if die_side_px is None else sized_config(float(die_side_px))
    settings = settings or {}
    changes: dict[str, Any] = {}
    if "dice_min_confidence" in settings:
        changes["min_confidence"] = float(settings["dice_min_confidence"])
    if "dice_size_check" in settings:
        changes["size_check_ratio"] = float(settings["dice_size_check"])
    if "dice_logo_face" in settings:
        changes["logo_faces"] = MappingProxyType({"logo": int(settings["dice_logo_face"])})
    return dataclasses.replace(cfg, **changes)


def default_reader(die_side_px: float | None = None, settings: Mapping[str, Any] | None = None) -> Reader:
    """The shipped dice reader configured by :func:`reader_config`: with ``die_side_px`` (a
    calibration) it reads dice of that size; without, it is an ``size_search.LearningReader``, which
    reads as ``size_search.read_dice_any_size`` does but lets the side its last size search found
    stand in for a search when a frame confirms it."""
    from arena_table.vision.size_search import LearningReader, read_dice_any_size

    cfg = reader_config(die_side_px, settings)
    # The reader's images are small (crops of ~48 px, frames scaled to ~420x240): OpenCV's thread
    # pool only adds hand-off cost there and competes with the camera, web and token threads.
    cv2.setNumThreads(1)
    if die_side_px is None:
        return LearningReader(cfg)
    return lambda image: read_dice_any_size(cfg, image)  # a configured size is never searched


def settle_config(extra: Mapping[str, Any]) -> SettleConfig:
    """The :class:`SettleConfig` the ``extra`` settings ask for.

    Raises:
        ValueError: a bad ``settle_mode`` or ``settle_s``.

    >>> settle_config({"settle_s": 0.6, "settle_mode": "whole"}).mode
    'whole'
    """
    cfg = SettleConfig()
    if "settle_s" in extra:
        cfg = dataclasses.replace(cfg, settle_s=float(extra["settle_s"]))
    if "settle_mode" in extra:
        cfg = dataclasses.replace(cfg, mode=str(extra["settle_mode"]))
    return cfg


def _number(lo: float, hi: float = math.inf, lo_open: bool = False) -> Callable[[Any], bool]:
    def ok(v: Any) -> bool:
        return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and (v > lo if lo_open else v >= lo) and v <= hi)
    ok.__doc__ = f"a number {'above' if lo_open else 'from'} {lo:g}" + ("" if hi == math.inf else f" to {hi:g}")
    return ok


def _whole(lo: int) -> Callable[[Any], bool]:
    def ok(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= lo
    ok.__doc__ = f"a whole number from {lo}"
    return ok


def _flag(v: Any) -> bool:
    """true or false"""
    return isinstance(v, bool)


def _size(v: Any) -> bool:
    """[width, height] in whole pixels"""
    return isinstance(v, (list, tuple)) and len(v) == 2 and all(_whole(1)(x) for x in v)


def _backoff(v: Any) -> bool:
    """{"initial": s, "factor": f >= 1, "maximum": s} (numbers)"""
    if isinstance(v, Backoff):
        return True
    return (isinstance(v, Mapping) and set(v) <= {"initial", "factor", "maximum"}
            and all(_number(0, lo_open=True)(x) for x in v.values()) and v.get("factor", 1) >= 1)


def _settle_mode(v: Any) -> bool:
    '''"moved" or "whole"'''
    return v in ("moved", "whole")


def _face(v: Any) -> bool:
    """a face value, a whole number from 1 to 6"""
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6


def _ratio_or_off(v: Any) -> bool:
    """0 (off) or a number above 1"""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and (v == 0 or v > 1)


def _path(v: Any) -> bool:
    """a file path"""
    return isinstance(v, (str, Path, Calibration)) and str(v) != ""


SETTINGS: dict[str, Callable[[Any], bool]] = {
    "settle_s": _number(0, 60, lo_open=True), "settle_mode": _settle_mode,
    "still_frames": _whole(1), "camera_fps": _number(0, 1000, lo_open=True), "camera_realtime": _flag,
    "camera_seed": _whole(0), "camera_size": _size, "warmup_s": _number(0, 60), "lock_exposure": _flag,
    "camera_backoff": _backoff, "camera_calibration": _path, "partial_rolls": _flag,
    "dice_min_confidence": _number(0, 1), "dice_logo_face": _face, "dice_size_check": _ratio_or_off,
}
"""The camera keys of ``TableConfig.extra`` (docs/camera.md, "Settings") and the check of each
value; ``arena-table run --camera-setting``."""


def check_settings(extra: Mapping[str, Any]) -> None:
    """Check the camera keys of ``extra`` (other keys are not the camera's and pass).

    Raises:
        ValueError: a camera key's value is out of its range; the message names the key.

    >>> check_settings({"settle_s": 0.6, "theme": "dark"})
    >>> check_settings({"camera_fps": 0})
    Traceback (most recent call last):
    ...
    ValueError: camera setting camera_fps must be a number above 0 to 1000, got 0
    """
    for key, ok in SETTINGS.items():
        if key in extra and not ok(extra[key]):
            raise ValueError(f"camera setting {key} must be {ok.__doc__}, got {extra[key]!r:.60}")


def source_options(extra: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`~arena_table.vision.capture.open_source` options from the ``extra`` settings.

    >>> source_options({"camera_fps": 5, "settle_s": 1})
    {'fps': 5}
    """
    names = {"still_frames": "still_frames", "camera_fps": "fps", "camera_realtime": "realtime",
             "camera_seed": "seed", "camera_size": "size", "warmup_s": "warmup_s", "lock_exposure": "lock_exposure",
             "camera_backoff": "backoff"}
    out = {opt: extra[key] for key, opt in names.items() if key in extra}
    if isinstance(out.get("backoff"), Mapping):  # from a JSON/TOML config: {"initial": 0.5, ...}
        out["backoff"] = Backoff(**out["backoff"])
    return out
