"""The Demigods game and the tray photos of the mixed-throw tests (table and browser).

The game: the book's 'Example Demigod turn' (pp.28-29): the Warlord, 2 AP moved, attacks the
Blacksmith (his back) and the Trapper (her front) with the Elemental Sword (10 damage; ice, fire
and slashing dice) and waits for its three dice. The photos (:class:`~arena_table.vision.throw_film.ThrowFilm`):

0. the empty tray;
1. two Demigod dice (5, 3): not the roll the attack waits for;
2. those picked up, then the Elemental Sword's three dice thrown with a Demigod die, read Failure,
   Critical and 1 (the book's), the Demigod die 4, and an S&S blue die (a kind Demigods does not throw);
3. those picked up, the Blacksmith's bludgeoning die for his Retaliation, read 2 (the book's).

(A folder of photos is a roll per photo, every die in it counted: ``vision/replay.py``.)
"""

from __future__ import annotations

import sys
from pathlib import Path

from arena_table.rules import parse
from arena_table.vision.throw_film import ThrowFilm, ThrownDie

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "demigods"))
from dg_helpers import elemental_sword_attack  # noqa: E402

DEMIGOD_PAIR = [ThrownDie("demigods-demigod", "5", (200, 150), 20.0), ThrownDie("demigods-demigod", "3", (420, 300), 65.0)]
MIXED = [ThrownDie("demigods-ice", "failure", (120, 110), 15.0), ThrownDie("demigods-fire", "critical", (330, 120), 50.0),
         ThrownDie("demigods-slashing", "1", (520, 140), 45.0), ThrownDie("demigods-demigod", "4", (200, 330), 35.0),
         ThrownDie("sns-blue", "shield", (470, 360), 10.0)]
RETALIATION = [ThrownDie("demigods-bludgeoning", "2", (330, 250), 25.0)]
SCENES = [[], DEMIGOD_PAIR, MIXED, RETALIATION]


def setup_lines() -> list[str]:
    """The game up to the Warlord's attack waiting for its dice, in notation."""
    return elemental_sword_attack().lines()


def setup_events():
    lines = setup_lines()
    assert lines[0].startswith("start "), lines[0]
    return [parse(x) for x in lines]


def photos(lead: int = 1, seed: int = 5) -> list:
    """The photos: ``lead`` of the empty tray, then the throws of :data:`SCENES` (after the first)."""
    film = ThrowFilm(seed=seed)
    return [film.frame([]) for _ in range(lead)] + [film.frame(s) for s in SCENES[1:]]


