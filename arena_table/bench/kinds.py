"""Benchmark of the die-kind reader on rendered scenes (``arena-table bench dice --kinds``).

Each game's scene (:mod:`arena_table.vision.kind_sets`) is rendered for ``frames`` frames from the
test seeds (``TEST_SEED``: the kind face model was trained on seeds below 100 000) and read by
:func:`read_scene` (square-faced dice by ``vision.kinds.read_kinds``, d4s by
``vision.d4.read_d4_in``, d8-d20 by ``vision.poly.read_polys``) over every shipped kind, ``game=`` the scene's game.
A die is matched to the reading whose box holds its centre.

* **per-die accuracy**: share of dice read right: a game's die with its kind (or a twin judged
  together with it on that face) and face, a distractor as ``other-kind``. A die not found, an
  abstention or a wrong reading counts against it.
* **kind accuracy**: the same for the kind alone.

The tray scene draws d8, d10, d12 and d20 (``vision/poly_render.py``) beside its d6s and d4s; they
are read by ``vision.poly.read_polys`` (``by_reader["poly"]``).

Figures are on rendered dice only (not photos). Speed: the reader on the Demigods scene's 640x480
frames of 10 dice, one core, as a ratio (``median_ratio``) to the yardstick of ``bench dice``
(:func:`arena_table.bench.dice.reference_ms`) timed after each frame.
"""

from __future__ import annotations

import time
from collections import defaultdict

import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import die_kinds
from arena_table.vision import kind_model
from arena_table.vision.kind_render import RenderedDie
from arena_table.vision.d4 import read_d4_in
from arena_table.vision.kind_sets import GAMES, TEST_SEED, drawable, right_kinds, scene_frames, scene_plan
from arena_table.vision.kinds import KindReading, read_kinds
from arena_table.vision.poly import claim, read_polys
from arena_table.vision.poly_render import is_poly

from .dice import one_core, reference_ms


def read_scene(frame: np.ndarray, kinds, game: str | None) -> list[KindReading]:
    """Every die of ``frame``: square-faced dice by ``vision.kinds.read_kinds``, d4s by
    ``vision.d4.read_d4_in``, d8-d20 by ``vision.poly.read_polys`` (each with ``game``); one
    reading a die where the square-faced reader and the d4 or d8-d20 reader both read it
    (``poly.claim``)."""
    return claim(read_kinds(frame, kinds, game=game), read_polys(frame, kinds, game=game)
                 + read_d4_in(frame, kinds, game=game))


def _match(readings: list[KindReading], die: RenderedDie) -> KindReading | None:
    cx, cy = die.centre
    hits = [r for r in readings if r.box[0] <= cx <= r.box[0] + r.box[2] and r.box[1] <= cy <= r.box[1] + r.box[3]]
    return min(hits, key=lambda r: abs(r.box[0] + r.box[2] / 2 - cx) + abs(r.box[1] + r.box[3] / 2 - cy), default=None)


def _rate(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


def score_scene(game: str | None, frames: int, seed: int = TEST_SEED) -> dict:
    """Read ``frames`` frames of ``game``'s scene (``None``: the tray).

    Returns:
        ``{"dice", "right", "kind_right", "per_die_accuracy", "kind_accuracy", "missed", "abstained", "false_dice",
        "kinds": {kind: {"dice", "per_die_accuracy", "kind_accuracy"}}, "distractors": {the same},
        "errors": [{"truth", "read"}] (at most 20), "left_out", "together", "not_drawn"}``.
    """
    plan = scene_plan(game)
    every = die_kinds()
    tally = defaultdict(lambda: [0, 0, 0])  # (key) -> dice, per-die right, kind right
    missed = abstained = false = 0
    errors = []
    for frame, truth in scene_frames(game, frames, seed):
        got = read_scene(frame, every, game)
        used = set()
        for die in truth:
            r = _match(got, die)
            if r is not None:
                used.add(id(r))
            if r is None:
                missed += 1
            elif r.status == "abstain":
                abstained += 1
            if die.other:
                kind_ok = r is not None and r.status == "other-kind"
                face_ok = kind_ok
            else:
                kind_ok = r is not None and r.status == "ok" and r.kind in right_kinds(plan, die)
                face_ok = kind_ok and r.face == die.face
            key = ("distractors" if die.other else "kinds", die.kind)
            t = tally[key]
            t[0] += 1
            t[1] += face_ok
            t[2] += kind_ok
            if not face_ok and len(errors) < 20:
                errors.append({"truth": f"{'other:' if die.other else ''}{die.kind}/{die.face}",
                               "read": "missed" if r is None else f"{r.status}:{r.kind}/{r.face}"})
        false += sum(1 for r in got if id(r) not in used)
    dice = sum(t[0] for t in tally.values())
    right, kind_right = sum(t[1] for t in tally.values()), sum(t[2] for t in tally.values())
    out = {"dice": dice, "right": right, "kind_right": kind_right, "per_die_accuracy": _rate(right, dice),
           "kind_accuracy": _rate(kind_right, dice), "missed": missed, "abstained": abstained, "false_dice": false}
    for group in ("kinds", "distractors"):
        out[group] = {kid: {"dice": t[0], "per_die_accuracy": _rate(t[1], t[0]), "kind_accuracy": _rate(t[2], t[0])}
                      for (g, kid), t in sorted(tally.items()) if g == group}
    out.update(errors=errors, left_out=[list(p) for p in plan.left_out],
               together=[[a, b, list(s)] for a, b, s in plan.together], not_drawn=list(plan.not_drawn))
    return out


def time_reader(frames: int = 20, seed: int = TEST_SEED + 500_000) -> dict:
    """Median and p95 wall ms of :func:`read_scene` on Demigods scene frames (640x480, 10 dice),
    one core, and the same over the yardstick timed after each frame (``median_ratio``)."""
    every = die_kinds()
    scenes = list(scene_frames("demigods", frames, seed))
    ms, ref = [], []
    with one_core():
        read_scene(scenes[0][0], every, "demigods")  # warm-up: model load
        for frame, _ in scenes:
            t0 = time.perf_counter()
            read_scene(frame, every, "demigods")
            ms.append((time.perf_counter() - t0) * 1000.0)
            ref.append(reference_ms())
    median, p95, ref_ms = float(np.median(ms)), float(np.percentile(ms, 95)), float(np.median(ref))
    return {"median_ms": median, "p95_ms": p95, "reference_ms": ref_ms, "median_ratio": median / ref_ms,
            "p95_ratio": p95 / ref_ms, "frames": frames, "frame": [640, 480], "dice_per_frame": 10}


def run_bench(frames: int = 30, seed: int = TEST_SEED, timing_frames: int = 20) -> dict:
    """Score every scene and time the reader.

    Returns:
        ``{"per_die_accuracy", "kind_accuracy", "dice", "frames_per_scene", "seed", "data",
        "by_reader": {"kinds" | "d4" | "poly": {"dice", "per_die_accuracy", "kind_accuracy"}},
        "scenes": {scene: score_scene(...)}, "kinds": {kind: {"dice", "per_die_accuracy",
        "kind_accuracy"}}, "not_rendered": [kinds no scene draws],
        "not_rendered_note": that in words, "not_drawn_this_run": [kinds no
        frame of this run happened to draw], "model", "median_ms", "p95_ms",
        "reference_ms", "median_ratio", "p95_ratio", ...}``: ``kinds`` pools each kind's dice
        over the scenes of its game; distractors are scored under each scene's ``distractors``;
        ``by_reader`` splits the dice between the square-faced reader (``vision.kinds``), the
        d4 reader (``vision.d4``) and the d8-d20 reader (``vision.poly``), distractors included.
    """
    scenes, pooled = {}, {}
    right = kind_right = dice = 0
    for game in (*GAMES, None):
        s = score_scene(game, frames, seed)
        right, kind_right, dice = right + s["right"], kind_right + s["kind_right"], dice + s["dice"]
        scenes[game or "tray"] = s
        pooled.update(s["kinds"])
    drawn = {kid for s in scenes.values() for kid in (*s["kinds"], *s["distractors"])}
    reader_of = {k.id: "d4" if k.look.style else "poly" if is_poly(k) else "kinds" for k in die_kinds()}
    by_reader = {}
    for reader in ("kinds", "d4", "poly"):
        tallies = [t for s in scenes.values() for g in ("kinds", "distractors") for kid, t in s[g].items()
                   if reader_of[kid] == reader]
        n = sum(t["dice"] for t in tallies)
        by_reader[reader] = {"dice": n, "per_die_accuracy": _rate(round(sum(t["dice"] * t["per_die_accuracy"]
                                                                            for t in tallies)), n),
                             "kind_accuracy": _rate(round(sum(t["dice"] * t["kind_accuracy"] for t in tallies)), n)}
    out = {"per_die_accuracy": _rate(right, dice), "kind_accuracy": _rate(kind_right, dice), "dice": dice,
           "frames_per_scene": frames, "seed": seed,
           "data": "rendered dice (arena_table/vision/kind_render.py), not photos; test seeds differ from training's",
           "by_reader": by_reader, "kinds": dict(sorted(pooled.items())), "scenes": scenes,
           "not_rendered": sorted(k.id for k in die_kinds() if not drawable(k)),
           "not_rendered_note": "shipped kinds no scene draws; the figures above say nothing of them",
           "not_drawn_this_run": sorted(k.id for k in die_kinds() if drawable(k) and k.id not in drawn),
           "model": str(kind_model.MODEL)}
    out.update(time_reader(timing_frames))
    return out
