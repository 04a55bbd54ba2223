"""The Clash of the Heroes quest sheets (6.2 and the three PvP Challenge Quests) and their checking.

Each quest prints a setup grid: for every field an "x" marks an allowed choice (6.2: "the X
indicates the possible applicable choices, and each setting must be applied equally to all
Teams"). :data:`QUESTS` transcribes the three grids; a ``custom`` quest sheet (the blank
Customizable Quest Sheet, p.33) has the same fields, every choice allowed, and its own victory
condition and Crowns. :func:`check` refuses a setup outside its quest's grid, naming the field.

Crowns: the grid's asterisk row multiplies the printed Crowns, but its key is not printed
(ambiguities.md): PvP I 100 x Soulrank, PvP II 300 per Team, PvP III 100 x Heroes in the Team.

>>> q = check({"quest": "pvp1", "act": 1, "teams": 2, "heroes_per_team": 2, "soulrank": 3,
...            "resurrections": 2})
>>> q.crowns, q.victory, q.resurrections
(300, 'last-team', 2)
>>> check({"quest": "pvp2", "teams": 3})
Traceback (most recent call last):
ValueError: teams: 3 is not allowed by PvP Quest II: First Blood (allowed: 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

INFINITE = -1
"""``resurrections`` value of the grid's "∞" box (PvP III: no limit, no cost)."""

DAY_NIGHT = ("yes", "no", "optional", "day-only", "night-only")
"""The Day / Night Cycle column of the grid (6.2)."""

VICTORIES = ("last-team", "first-blood", "kill-coins")
"""PvP I "All Teams but one are defeated", PvP II "The first Team who kills a Hero of the opposite
Team wins", PvP III "The first Hero to achieve the agreed-upon number of Kill Coins"."""

CROWN_SCALES = ("soulrank", "team", "hero")
"""What the asterisk row multiplies the printed Crowns by (ambiguities.md reading)."""


@dataclass(frozen=True)
class QuestSheet:
    """One quest's setup grid (6.2)."""

    id: str
    title: str
    acts: tuple[int, ...]
    teams: tuple[int, ...]
    heroes: tuple[int, ...]
    soulranks: tuple[int, ...]
    day_night: tuple[str, ...]
    resurrections: tuple[int, ...]
    crowns: int
    crowns_per: str
    victory: str
    shrines: int
    """Open Shrines on the quest's map (Tokens on Map)."""
    special: tuple[str, ...] = ()
    """Special Quest Rules in force: ``pitfalls-first-time-phase``, ``alliances``,
    ``free-resurrections``, ``spawn-gate-teleport``."""


QUESTS: dict[str, QuestSheet] = {
    "pvp1": QuestSheet("pvp1", "PvP Quest I: There Can Be Only One!", (1, 2), (2, 3, 4), (1, 2, 3, 4),
                       (1, 2, 3, 4, 5, 6), ("optional",), (1, 2, 3), 100, "soulrank", "last-team", 4,
                       ("pitfalls-first-time-phase", "alliances")),
    "pvp2": QuestSheet("pvp2", "PvP Quest II: First Blood", (1, 2), (2,), (1, 2), (1, 2, 3, 4, 5, 6),
                       ("optional",), (0,), 300, "team", "first-blood", 2),
    "pvp3": QuestSheet("pvp3", "PvP Quest III: Infernal Deathmatch", (1, 2), (2, 3, 4), (1, 2, 3),
                       (1, 2, 3, 4, 5, 6), ("optional",), (INFINITE,), 100, "hero", "kill-coins", 4,
                       ("free-resurrections", "spawn-gate-teleport")),
}
"""The three PvP Challenge Quests' grids as printed (pp.30-32)."""

CUSTOM = QuestSheet("custom", "Custom Quest", (1, 2), (2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4, 5, 6), DAY_NIGHT,
                    (0, 1, 2, 3, 4, 5, 6, INFINITE), 100, "team", "last-team", 4)
"""The Customizable Quest Sheet (p.33): the same fields, any choice; its Crowns, scale, victory
and special rules come from the options."""

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII"}


@dataclass(frozen=True)
class Quest:
    """The setup chosen for one game, checked against its sheet."""

    sheet: QuestSheet
    act: int
    teams: int
    heroes_per_team: int
    soulrank: int
    day_night: bool
    """Whether the Day (Event 4) / Night (Event 5) cards alternate each Round (6.2)."""
    resurrections: int
    """Resurrection tokens per Team (:data:`INFINITE`: unlimited, at no cost)."""
    crowns: int
    """Crowns each Team gets."""
    victory: str
    kills_to_win: int
    """PvP III: the agreed number of Kill Coins (0 for other victories)."""
    special: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.sheet.id


def _pick(field: str, value: Any, allowed: tuple, sheet: QuestSheet) -> Any:
    if isinstance(value, bool) or value not in allowed:
        shown = ", ".join("∞" if a == INFINITE else str(a) for a in allowed)
        raise ValueError(f"{field}: {value} is not allowed by {sheet.title} (allowed: {shown})")
    return value


def _int(field: str, value: Any) -> Any:
    if isinstance(value, str) and value.strip() in ("∞", "inf", "infinite", "unlimited"):
        return INFINITE
    if isinstance(value, str) and value.strip().upper() in {v: k for k, v in ROMAN.items()}:
        return {v: k for k, v in ROMAN.items()}[value.strip().upper()]
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def check(options: Mapping[str, Any]) -> Quest:
    """The quest setup in ``options`` checked against its sheet's grid.

    Keys: ``quest`` (``pvp1``, ``pvp2``, ``pvp3``, ``custom``; default ``pvp1``), ``act`` (1|2),
    ``teams`` (2-4), ``heroes_per_team`` (1-4), ``soulrank`` (1-6 or I-VI), ``day_night``
    (true/false, allowed when the grid says Optional or Yes), ``resurrections``, ``kills_to_win``
    (PvP III, required), and for ``custom`` also ``crowns``, ``crowns_per``, ``victory``, ``special``.
    Absent fields take the grid's single allowed value, else the smallest allowed one.

    Raises:
        ValueError: a field outside the grid; the message names the field and the allowed choices.
    """
    qid = str(options.get("quest", "pvp1")).lower().replace(" ", "")
    sheet = QUESTS.get(qid) or (CUSTOM if qid == "custom" else None)
    if sheet is None:
        raise ValueError(f"quest: {qid!r} is not a Clash of the Heroes quest (pvp1, pvp2, pvp3, custom)")

    def get(field: str, allowed: tuple) -> Any:
        return _pick(field, _int(field, options.get(field, allowed[0])), allowed, sheet)

    act = get("act", sheet.acts)
    teams = get("teams", sheet.teams)
    heroes = get("heroes_per_team", sheet.heroes)
    soulrank = get("soulrank", sheet.soulranks)
    resurrections = get("resurrections", sheet.resurrections)
    cycle = options.get("day_night", False)
    if not isinstance(cycle, bool):
        raise ValueError(f"day_night: {cycle!r} must be true or false")
    if cycle and not set(sheet.day_night) & {"yes", "optional", "day-only", "night-only"}:
        raise ValueError(f"day_night: the Day / Night Cycle is not allowed by {sheet.title}")
    if not cycle and "optional" not in sheet.day_night and "no" not in sheet.day_night:
        raise ValueError(f"day_night: {sheet.title} requires the Day / Night Cycle")
    crowns, per, victory, special = sheet.crowns, sheet.crowns_per, sheet.victory, sheet.special
    if sheet is CUSTOM:
        crowns = _int("crowns", options.get("crowns", crowns))
        if not isinstance(crowns, int) or isinstance(crowns, bool) or crowns < 0:
            raise ValueError(f"crowns: {crowns!r} must be a whole number of Crowns, 0 or more")
        per = _pick("crowns_per", options.get("crowns_per", per), CROWN_SCALES + ("none",), sheet)
        victory = _pick("victory", options.get("victory", victory), VICTORIES, sheet)
        special = tuple(options.get("special", ()))
        unknown = set(special) - {s for q in QUESTS.values() for s in q.special}
        if unknown:
            raise ValueError(f"special: unknown Special Quest Rule(s) {sorted(unknown)}")
    else:
        for field in ("crowns", "crowns_per", "victory", "special"):
            if field in options:
                raise ValueError(f"{field}: fixed by {sheet.title}; use quest=custom to set it")
    scale = {"soulrank": soulrank, "team": 1, "hero": heroes, "none": 1}[per]
    kills = 0
    if victory == "kill-coins":
        kills = _int("kills_to_win", options.get("kills_to_win"))
        if not isinstance(kills, int) or isinstance(kills, bool) or kills < 1:
            raise ValueError("kills_to_win: all Teams must agree on the number of Kill Coins needed (1 or more)")
    elif "kills_to_win" in options:
        raise ValueError(f"kills_to_win: only a Kill Coins victory uses it, not {sheet.title}")
    return Quest(sheet, act, teams, heroes, soulrank, cycle, resurrections, crowns * scale, victory, kills, special)
