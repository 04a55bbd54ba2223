"""Rendered scenes of die kinds: what a camera over one game's table sees, for test sets.

A scene of a game holds dice of the six-sided kinds the game throws and, as distractors, dice of
other games' kinds: the reader must name the game's dice and report the others as ``other-kind``.
The *tray* scene (no game) holds the kinds any table sees (game-free kinds: the pip d6, the
licensed d6).

Two kinds are *twins* when one's usual colour lies in the other's body range, their inks are not
one light and one dark, and they show a glyph in common: no camera tells such dice apart on those faces. A distractor that is the twin of one of
the game's kinds is left out of that game's scenes (:func:`scene_plan` lists it), and two twins
that a scene reads together (the pip d6 and the licensed d6 on faces 2-6) are *judged together*:
either kind counts as right on their shared faces.

The d4s are drawn by :mod:`arena_table.vision.d4_render`, the d8, d10, d12 and d20 by
:mod:`arena_table.vision.poly_render` (all game-free: the tray scene holds them); a kind neither
draws is named by :func:`scene_plan`.

>>> import arena_table.rules
>>> plan = scene_plan("demigods")
>>> len(plan.kinds), "sns-red" in [k.id for k in plan.others], ("euthia-hero", "demigods-demigod") in plan.left_out
(10, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from arena_table.rules.kernel.mechanics.die_kinds import D4_STYLES, DieKind, die_kinds
from arena_table.vision import poly_render
from arena_table.vision.kind_render import RenderedDie, light_ink, render_frame
from arena_table.vision.kind_icons import glyph_id
from arena_table.vision.kinds import square_faced

GAMES = ("theosis", "demigods", "sword-and-sorcery", "euthia")
"""The games whose scenes are drawn, plus the tray scene (``None``)."""
TEST_SEED = 900_000
"""First seed of the test sets; the kind face model is trained on seeds below 100 000
(``tools/train_kinds.py``), so no test frame was seen in training."""
DICE_PER_SCENE = 8
"""Dice of the game's kinds in a scene frame."""
OTHERS_PER_SCENE = 2
"""Distractor dice (other games' kinds) in a scene frame."""


def usual_hsv(kind: DieKind) -> tuple[int, int, int] | None:
    """The kind's usual body colour HSV (``Look.colour``), ``None`` when the look names none."""
    return kind.look.colour


def face_glyph(kind: DieKind, symbol: str) -> str:
    """The glyph the face ``symbol`` of ``kind`` shows: a d4's its style and numeral
    (``top-vertex-3``), a d8-d20's its shape and numeral (``d20-17``: no camera takes a d8's 3
    for a d20's), else :func:`~arena_table.vision.kind_icons.glyph_id`."""
    if kind.look.style:
        return f"{kind.look.style}-{symbol}"
    if poly_render.is_poly(kind):
        return f"d{kind.sides}-{symbol}"
    return glyph_id(symbol, kind.look.marks)


def glyphs(kind: DieKind) -> set[str]:
    """The glyphs the faces of ``kind`` show (:func:`face_glyph`)."""
    return {face_glyph(kind, s) for s in kind.symbols}


def twins(a: DieKind, b: DieKind) -> set[str]:
    """The glyphs on which dice of ``a`` and ``b`` cannot be told apart: shared glyphs when the
    usual colour of one lies in the other's body range and their inks are not one light and one
    dark (``set()``: they differ)."""
    ca, cb = usual_hsv(a), usual_hsv(b)
    same_look = (cb is not None and a.look.holds(cb)) or (ca is not None and b.look.holds(ca))
    ia, ib = light_ink(a), light_ink(b)
    same_ink = ia is None or ib is None or ia == ib
    return glyphs(a) & glyphs(b) if same_look and same_ink else set()


def drawable(kind: DieKind) -> bool:
    """Whether :mod:`kind_render` draws the kind: square-faced (``kinds.square_faced``), a d4 in
    one of the styles ``d4_render`` draws, or a d8-d20 (``poly_render.is_poly``)."""
    return (square_faced(kind) or (kind.sides == 4 and kind.look.style in D4_STYLES)
            or poly_render.is_poly(kind))


@dataclass(frozen=True)
class ScenePlan:
    """What one game's scenes hold."""

    game: str | None
    kinds: tuple[DieKind, ...]
    """The game's drawable kinds (the tray: the game-free drawable kinds)."""
    others: tuple[DieKind, ...]
    """Distractors: other games' drawable kinds, twins left out."""
    left_out: tuple[tuple[str, str], ...]
    """(distractor, kind the reader may answer) pairs left out as twins."""
    together: tuple[tuple[str, str, tuple[str, ...]], ...]
    """(drawn kind, kind the reader may answer, shared glyphs) judged together."""
    not_drawn: tuple[str, ...]
    """The game's kinds no scene draws (:func:`drawable`)."""


def scene_plan(game: str | None) -> ScenePlan:
    """The :class:`ScenePlan` of ``game`` (``None``: the tray)."""
    every = die_kinds()
    mine = [k for k in every if (game in k.games if game else not k.games)]
    kinds = tuple(k for k in mine if drawable(k))
    # the reader answers with the game's kinds and the game-free ones
    answers = [k for k in every if drawable(k) and (not k.games or (game is not None and game in k.games))]
    others, left_out = [], []
    if game:
        for o in every:
            if o.games and game not in o.games and drawable(o):
                clash = [k.id for k in answers if twins(o, k)]
                left_out += [(o.id, k) for k in clash]
                if not clash:
                    others.append(o)
    together = tuple((a.id, b.id, tuple(sorted(twins(a, b)))) for i, a in enumerate(kinds) for b in answers
                     if b is not a and twins(a, b) and not (b in kinds and kinds.index(b) < i))
    return ScenePlan(game, kinds, tuple(others), tuple(left_out), together,
                     tuple(k.id for k in mine if not drawable(k)))


def right_kinds(plan: ScenePlan, die: RenderedDie) -> set[str]:
    """The kind answers that count as right for ``die`` in a scene of ``plan``: its kind, and a
    twin judged together with it on the face it shows."""
    out = {die.kind}
    for a, b, shared in plan.together:
        if die.kind in (a, b):
            kind = next(k for k in die_kinds() if k.id == die.kind)
            if face_glyph(kind, die.face) in shared:
                out |= {a, b}
    return out


def scene_frames(game: str | None, frames: int, seed: int = TEST_SEED) -> Iterator[tuple[np.ndarray, list[RenderedDie]]]:
    """``frames`` rendered 480x640 frames of ``game``'s scene (:func:`scene_plan`), seeds
    ``seed + GAMES index * 10 000 + i``: :data:`DICE_PER_SCENE` of the game's dice and
    :data:`OTHERS_PER_SCENE` distractors each (the tray: no distractors)."""
    plan = scene_plan(game)
    base = seed + (GAMES.index(game) + 1 if game else 0) * 10_000
    for i in range(frames):
        n_others = OTHERS_PER_SCENE if plan.others else 0
        yield render_frame(plan.kinds, base + i, n=DICE_PER_SCENE, others=plan.others, n_others=n_others)
