"""The Tiebreaker Procedure (6.1), pure.

"Each Team rolls 4 Red Dice and takes note of how many [tiebreaker icon] results are rolled.
Teams then create a ranked list based on who has rolled the most results (tied Teams roll again
to determine their relative ranks), from First to Last Team." Only the tied Teams roll again, and
their relative order is inserted where the tie stood, without disturbing the rest. A roll-again is
a fresh roll, repeated until the tie breaks (ambiguities.md: 6.1 against "Dice can only be
rerolled once", which is about rerolling dice, not about this procedure). The four Medal tokens
(1-4) mirror the result.

The procedure is used for building conflicts in Preparation (6.3), Shrine claims and the
deployment order (6.4), the order of play at the start of every Battle Phase, and simultaneous
activations of items and powers (6.5).

>>> t = start("battle", ("purple", "red", "blue"))
>>> for team, n in (("purple", 2), ("red", 3), ("blue", 2), ("purple", 1), ("blue", 4)):
...     t = roll(t, team, n)
>>> ranking(t)
('red', 'blue', 'purple')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

DICE = 4
"""Red dice each Team rolls (6.1)."""


@dataclass(frozen=True)
class Tiebreak:
    """A Tiebreaker Procedure under way or done."""

    purpose: str
    """What it settles: ``battle``, ``deploy``, ``shrine:<area>``, ``building:<name>``, ``evade``,
    ``simultaneous:<what>``."""
    groups: tuple[tuple[str, ...], ...]
    """Teams from First to Last; a group of more than one is still tied."""
    rolls: tuple[tuple[str, int], ...] = ()
    """This roll's counts so far, ``(team, tiebreaker icons)``."""
    history: tuple[tuple[tuple[str, int], ...], ...] = ()
    """Every finished roll's counts, first roll first."""
    again: int = 0
    """Most roll-agains (0: until every tie breaks; 1: reading ``once-then-listing``, after which a
    tie still standing keeps the listing order)."""

    @property
    def is_done(self) -> bool:
        return all(len(g) == 1 for g in self.groups)

    def to_roll(self) -> tuple[str, ...]:
        """Teams still to roll in this roll, in listing order (only tied Teams roll)."""
        rolled = {t for t, _ in self.rolls}
        return tuple(t for g in self.groups if len(g) > 1 for t in g if t not in rolled)


def start(purpose: str, teams: tuple[str, ...], again: int = 0) -> Tiebreak:
    """A fresh procedure among ``teams`` (listing order; a single Team is ranked at once).

    Raises:
        ValueError: no Team, or a Team named twice.
    """
    if not teams:
        raise ValueError("a Tiebreaker Procedure needs at least one Team")
    if len(set(teams)) != len(teams):
        raise ValueError(f"a Team is named twice in {list(teams)}")
    return Tiebreak(purpose, (tuple(teams),) if len(teams) > 1 else ((teams[0],),), again=again)


def roll(t: Tiebreak, team: str, icons: int) -> Tiebreak:
    """``team`` rolled its 4 red dice showing ``icons`` tiebreaker icons.

    Raises:
        ValueError: ``team`` is not to roll now, or ``icons`` outside 0..4.
    """
    if not 0 <= icons <= DICE:
        raise ValueError(f"{DICE} red dice show 0..{DICE} tiebreaker icons, not {icons}")
    if team not in t.to_roll():
        waiting = ", ".join(t.to_roll()) or "nobody (the procedure is over)"
        raise ValueError(f"{team} is not to roll in this Tiebreaker Procedure; to roll: {waiting}")
    t = dataclasses.replace(t, rolls=t.rolls + ((team, icons),))
    if t.to_roll():
        return t
    counts = dict(t.rolls)
    groups: list[tuple[str, ...]] = []
    for g in t.groups:
        if len(g) == 1:
            groups.append(g)
            continue
        for n in sorted({counts[x] for x in g}, reverse=True):
            groups.append(tuple(x for x in g if counts[x] == n))
    history = t.history + (t.rolls,)
    if t.again and len(history) > t.again:
        groups = [(x,) for g in groups for x in g]
    return dataclasses.replace(t, groups=tuple(groups), rolls=(), history=history)


def ranking(t: Tiebreak) -> tuple[str, ...]:
    """First to Last Team once settled.

    Raises:
        ValueError: Teams are still tied.
    """
    if not t.is_done:
        raise ValueError(f"the Tiebreaker Procedure is not settled; still to roll: {', '.join(t.to_roll())}")
    return tuple(g[0] for g in t.groups)


def medals(t: Tiebreak) -> dict[str, int]:
    """Medal token (1 = First) of each Team ranked so far; tied Teams share no medal yet."""
    out: dict[str, int] = {}
    place = 1
    for g in t.groups:
        if len(g) == 1:
            out[g[0]] = place
        place += len(g)
    return out
