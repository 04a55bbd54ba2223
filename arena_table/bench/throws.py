"""How mixed throws of one game's dice read, tray by tray: rendered throws (``vision/throw_film.py``)
read as the camera loop reads them while the game waits for symbol dice (``vision/kinds.read_kinds``
with the kinds the game throws, then ``vision/kind_roll``), against the truth.

Each throw: ``--dice`` dice of different kinds the game throws, random faces, turned at random
anywhere in the tray, the photo through the renderer's camera (light, glare, blur, noise, JPEG), and one die of a kind of another game, which must be reported (``other-kind``),
never read as a kind (the distractors of ``vision/kind_sets.scene_plan``: another game's six-sided
kinds, less the twins of the game's own, which no camera tells apart). Per cloth colour it prints the share of throws read whole and right (the
roll the table would record), of dice read right, of dice misread (another kind or face: worse than
refused), and of the other game's dice reported.

These are rendered sets, not held-out photos: the reader's templates come from the same drawing
code (``vision/kind_render.py``), so the figures say how the trays and the kinds' colours separate,
not how real dice read.

    python -m arena_table.bench.throws [--game demigods] [--throws 40] [--dice 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

import arena_table.rules  # noqa: F401 - loads the games' die kinds
from arena_table.rules.kernel.awaited import thrown_kinds
from arena_table.vision.kind_roll import KindCodes, as_dice_reading
from arena_table.vision.kind_sets import scene_plan
from arena_table.vision.kinds import read_kinds
from arena_table.vision.throw_film import ThrowFilm, ThrownDie

TRAYS = {"green felt": (40, 90, 50), "dark blue felt": (90, 40, 30), "grey slate": (60, 60, 60),
         "brown wood": (40, 75, 120), "black felt": (25, 25, 25)}
"""Cloth colours (BGR) the throws are rendered on."""
CELLS = [(110 + 140 * c, 100 + 140 * r) for r in range(3) for c in range(4)]
"""Die places (px) on the 640x480 tray: a grid 140 px apart, so no two dice touch."""


def throws(game: str, n: int, dice: int, seed: int) -> list[list[ThrownDie]]:
    """``n`` throws of ``dice`` dice of different kinds of ``game`` and one die of another game's kind."""
    rng = np.random.default_rng(seed)
    plan = scene_plan(game)
    own = [k for k in plan.kinds if not k.counter]
    other = list(plan.others)
    out = []
    for _ in range(n):
        kinds = [own[i] for i in rng.choice(len(own), size=min(dice, len(own)), replace=False)]
        kinds.append(other[int(rng.integers(len(other)))])
        places = rng.choice(len(CELLS), size=len(kinds), replace=False)
        out.append([ThrownDie(k.id, k.symbols[int(rng.integers(len(k.symbols)))],
                              (CELLS[p][0] + int(rng.integers(-12, 13)), CELLS[p][1] + int(rng.integers(-12, 13))),
                              float(rng.uniform(0, 360)), int(rng.integers(60, 76))) for k, p in zip(kinds, places)])
    return out


def score(game: str, n: int = 40, dice: int = 4, seed: int = 0) -> dict:
    """The figures per tray (see the module docstring)."""
    own = thrown_kinds(game)
    ids = {k.id for k in own}
    codes = KindCodes(own)
    sets = throws(game, n, dice, seed)
    out = {}
    for name, bgr in TRAYS.items():
        film = ThrowFilm(tray_bgr=bgr, seed=seed)
        whole = right = wrong = own_dice = reported = others = 0
        for throw in sets:
            image = film.frame(throw)
            reading, stray = as_dice_reading(read_kinds(image, own, game=game), codes, image.shape)
            read = {}
            for d in reading.dice:
                cx, cy = d.center
                place = min(throw, key=lambda t: (t.centre[0] - cx) ** 2 + (t.centre[1] - cy) ** 2)
                read[place] = codes.pair(d.value) if d.status == "ok" else None
            truth_own = [t for t in throw if t.kind in ids]
            ok = [read.get(t) == (t.kind, t.face) for t in truth_own]
            own_dice += len(truth_own)
            right += sum(ok)
            wrong += sum(1 for t in throw if read.get(t) not in (None, (t.kind, t.face)))
            foreign = [t for t in throw if t.kind not in ids]
            others += len(foreign)
            reported += sum(1 for t in foreign if t not in read)
            whole += all(ok) and len(stray) == len(foreign) and len(reading.dice) == len(truth_own)
        out[name] = {"throws_right": round(whole / len(sets), 3), "dice_right": round(right / own_dice, 3),
                     "dice_misread": round(wrong / (own_dice + others), 3),
                     "other_game_reported": round(reported / others, 3)}
    return {"game": game, "throws": n, "dice": dice, "seed": seed, "trays": out}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="demigods")
    p.add_argument("--throws", type=int, default=40)
    p.add_argument("--dice", type=int, default=4, help="dice of the game's kinds in each throw (default 4)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if not thrown_kinds(args.game):
        p.error(f"{args.game!r} throws no die kinds")
    result = score(args.game, args.throws, args.dice, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.game}: {args.throws} rendered throws of {args.dice} dice + 1 of another game (seed {args.seed})")
    for tray, f in result["trays"].items():
        print(f"  {tray:15s} throws right {f['throws_right']:.3f}  dice right {f['dice_right']:.3f}  "
              f"misread {f['dice_misread']:.3f}  other game's die reported {f['other_game_reported']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
