"""The control page's start form for Demigods Evolution and the options it submits.

``setup_form()`` lists flat fields in the format of ``/api/games`` (``arena_table/webui/app.py``):
the victory condition ('Achieving Victory' p.4), the players (2, or 4 as two teams of two), heroes
per player with the book's limits, the hero selection method ('Hero Selection' p.11) and, to skip
the guided selection, each player's heroes and Demigod. ``to_options`` turns the submitted values
into the options of :func:`.setup.new_game` (a ``lineup`` when heroes were chosen on the form).

>>> opts = to_options({"mode": "slayer", "players": ["Ann", "Bo"], "heroes": 3, "selection": "chieftain",
...                    "first_picker": "Bo", "heroes_1": [], "heroes_2": [], "demigod_1": "", "demigod_2": ""})
>>> opts
{'mode': 'slayer', 'players': ['Ann', 'Bo'], 'heroes': 3, 'selection': 'chieftain', 'first': 'Bo'}
"""

from __future__ import annotations

from typing import Any, Mapping

from . import data
from .setup import HERO_LIMITS, SELECTIONS, TACTICS_TABLE

MAX_SEATS = 4
"""Two players, or two teams of two (p.4)."""
MODE_LABELS = {
    "slayer": "Slayer: defeat the enemy Demigod(s)",
    "tactics": "Tactics: tactical points for killed heroes (2 players)",
    "advanced-tactics": "Advanced Tactics: Tactics plus minions scoring at the far edge (2 players)",
}
SELECTION_LABELS = {
    "free-pick": "Free Pick",
    "chieftain": "Chieftain order (1, then 2 each)",
    "divine-mirror": "Divine Mirror deal (equal rage/focus/mana stacks)",
}
FORM_KEYS = {"first_picker"} | {f"heroes_{i}" for i in range(1, MAX_SEATS + 1)} | {
    f"demigod_{i}" for i in range(1, MAX_SEATS + 1)}


def limits_text() -> str:
    """The book's heroes-per-player limits in words (from :data:`.setup.HERO_LIMITS`, :data:`.setup.TACTICS_TABLE`)."""
    s2, s4, t2 = HERO_LIMITS[("slayer", 2)], HERO_LIMITS[("slayer", 4)], HERO_LIMITS[("tactics", 2)]
    tactics = "; ".join(f"{n}: max {cap} points, win at {win}" for n, (cap, win) in TACTICS_TABLE.items())
    return (f"Slayer {s2[0]}-{s2[1]} ({s4[0]}-{s4[1]} with 4 players); Tactics {t2[0]}-{t2[1]} "
            f"(tactical points by heroes each - {tactics}).")


def setup_form() -> list[dict[str, Any]]:
    """Fields of the control page's start form (``/api/games`` format), in the order shown."""
    heroes = [{"value": h, "label": f"{data.hero(h)['name']} ({data.hero(h)['class']})"} for h in data.hero_ids()]
    demigods = [{"value": "", "label": "choose later"}] + [
        {"value": d, "label": data.demigod(d)["name"]} for d in data.demigod_ids()]
    fields: list[dict[str, Any]] = [
        {"name": "mode", "label": "Victory condition", "type": "select", "default": "slayer",
         "options": [{"value": k, "label": v} for k, v in MODE_LABELS.items()], "help": "Achieving Victory (p.4)."},
        {"name": "players", "label": "Players", "type": "list", "default": ["Ann", "Bo"],
         "help": "2 names, or 4 for two teams of two (players 1 and 2 against 3 and 4; Slayer only)."},
        {"name": "heroes", "label": "Heroes per player", "type": "number", "default": 3,
         "min": min(lo for lo, _ in HERO_LIMITS.values()), "max": max(hi for _, hi in HERO_LIMITS.values()),
         "help": limits_text()},
        {"name": "selection", "label": "Hero selection", "type": "select", "default": "free-pick",
         "options": [{"value": k, "label": SELECTION_LABELS[k]} for k in SELECTIONS],
         "help": "Hero Selection (p.11): picks are then entered one by one, unless chosen below."},
        {"name": "first_picker", "label": "Chooses first (Chieftain: the youngest player)", "type": "text",
         "default": "", "help": "Empty: player 1."},
    ]
    for seat in range(1, MAX_SEATS + 1):
        fields.append({"name": f"heroes_{seat}", "label": f"Heroes of player {seat} (optional)",
                       "type": "multiselect", "options": heroes, "default": [],
                       "help": "Choose every player's heroes and Demigod here to skip the guided selection "
                               "(at most 3 heroes of one divine power, p.11)." if seat == 1 else None})
        fields.append({"name": f"demigod_{seat}", "label": f"Demigod of player {seat}", "type": "select",
                       "options": demigods, "default": ""})
    return [{k: v for k, v in f.items() if v is not None} for f in fields]


def to_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The :func:`.setup.new_game` options for the form's ``values`` (other keys pass through).

    Options without any form-only key are returned unchanged (transcripts replay as written).

    Raises:
        ValueError: heroes chosen for some players but not all, a player with heroes but no Demigod,
            heroes chosen for a seat beyond the named players.
    """
    if not set(values) & FORM_KEYS:
        return dict(values)
    out = {k: v for k, v in values.items() if k not in FORM_KEYS}
    names = [str(p).strip() for p in values.get("players", ()) if str(p).strip()]
    if "players" in values:
        out["players"] = names
    if "heroes" in out and out["heroes"] not in (None, ""):
        out["heroes"] = int(out["heroes"])
    first = str(values.get("first_picker") or "").strip()
    if first:
        out["first"] = first
    chosen = {seat: [str(h) for h in values.get(f"heroes_{seat}") or ()] for seat in range(1, MAX_SEATS + 1)}
    beyond = [s for s, hs in chosen.items() if hs and s > len(names)]
    if beyond:
        raise ValueError(f"heroes chosen for player {beyond[0]} but only {len(names)} players are named")
    if any(chosen.values()) and "lineup" not in values:
        lineup = {}
        for seat, player in enumerate(names, 1):
            demigod = str(values.get(f"demigod_{seat}") or "")
            if not chosen[seat]:
                raise ValueError(f"heroes are chosen on the form for some players: choose {player}'s too "
                                 f"(player {seat}), or none to select them in play")
            if not demigod:
                raise ValueError(f"{player} (player {seat}) has heroes but no Demigod")
            lineup[player] = {"demigod": demigod, "heroes": chosen[seat]}
        out["lineup"] = lineup
    return out
