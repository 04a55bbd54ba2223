"""The control page's start form for Clash of the Heroes and the options it submits.

Flat fields in the ``/api/games`` format: the quest, its grid's fields (6.2) and up to four Teams,
each a name and its Heroes. :func:`to_options` turns them into :func:`.setup.new_game` options.

>>> to_options({"quest": "pvp2", "team_1": "red", "heroes_1": ["Artemis"], "team_2": "purple",
...             "heroes_2": ["Shae"], "team_3": "", "heroes_3": [], "kills_to_win": 0})
{'quest': 'pvp2', 'heroes': {'red': ['artemis'], 'purple': ['shae']}}
"""

from __future__ import annotations

from typing import Any, Mapping

from .quests import QUESTS

MAX_TEAMS = 4
FORM_KEYS = {f"team_{i}" for i in range(1, MAX_TEAMS + 1)} | {f"heroes_{i}" for i in range(1, MAX_TEAMS + 1)}


def setup_form() -> list[dict[str, Any]]:
    """Fields of the start form, in the order shown."""
    quests = [{"value": q.id, "label": q.title} for q in QUESTS.values()] + [
        {"value": "custom", "label": "Custom Quest sheet"}]
    fields: list[dict[str, Any]] = [
        {"name": "quest", "label": "Quest", "type": "select", "default": "pvp1", "options": quests,
         "help": "Clash of the Heroes PvP Challenge Quests (6.2); each grid allows its own choices."},
        {"name": "act", "label": "ACT", "type": "select", "default": 1, "options": [1, 2]},
        {"name": "soulrank", "label": "Soulrank of every Hero (1-6)", "type": "number", "default": 1, "min": 1, "max": 6},
        {"name": "resurrections", "label": "Resurrection tokens per Team", "type": "number",
         "help": "Empty: the quest's first allowed value. PvP I: 1-3; PvP II: 0; PvP III: unlimited."},
        {"name": "day_night", "label": "Day / Night cycle", "type": "checkbox", "default": False},
        {"name": "kills_to_win", "label": "Kill Coins to win (PvP III)", "type": "number", "default": 0},
    ]
    for i, (name, heroes) in enumerate((("purple", ["shae", "thorgar"]), ("red", ["artemis", "thorgren"]),
                                        ("", []), ("", [])), start=1):
        fields.append({"name": f"team_{i}", "label": f"Team {i}", "type": "text", "default": name})
        fields.append({"name": f"heroes_{i}", "label": f"Heroes of Team {i}", "type": "list", "default": heroes})
    return fields


def to_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The :func:`.setup.new_game` options for the form's ``values`` (options without form keys pass
    through unchanged, so transcripts replay as written).

    Raises:
        ValueError: a Team with Heroes but no name.
    """
    if not isinstance(values, Mapping) or not set(values) & FORM_KEYS:
        return dict(values) if isinstance(values, Mapping) else values
    out = {k: v for k, v in values.items() if k not in FORM_KEYS and v not in ("", None)}
    heroes = {}
    for i in range(1, MAX_TEAMS + 1):
        name = str(values.get(f"team_{i}") or "").strip().lower()
        hs = [str(h).strip().lower() for h in values.get(f"heroes_{i}") or () if str(h).strip()]
        if hs and not name:
            raise ValueError(f"team_{i}: Team {i} has Heroes but no name")
        if name:
            heroes[name] = hs
    out["heroes"] = heroes
    if not out.get("kills_to_win"):
        out.pop("kills_to_win", None)
    if not values.get("day_night"):
        out.pop("day_night", None)
    if "act" in out:
        out["act"] = int(out["act"])
    return out
