"""The control page's start form for Theosis and the options it submits (Game Modes, p.20-21).

``setup_form()`` lists flat fields in the format of ``/api/games`` (``arena_table/webui/app.py``):
a mode, Fast Action Preparation, the players clockwise, one hero list per seat, the monsters and
the Boss of the monster modes, second archetypes. The page submits their values as they are;
``to_options`` turns them into the options of :func:`.setup.setup` (``mode``/``teams``/``blitz``,
``heroes`` per player, ``monsters``/``boss``), so the ``start`` event records what the operator
chose and replays to the same state.

>>> opts = to_options({"mode": "team-2x2", "players": ["Ann", "Bo", "Cy", "Di"],
...     "heroes_1": ["rochon", "rac", "norn"], "heroes_2": ["aer", "lug", "edhel"],
...     "heroes_3": ["sauth", "gurth", "garav"], "heroes_4": ["raug", "curunir", "nimloth"]})
>>> opts["mode"], opts["teams"], opts["heroes"]["Cy"]
('team', {'Ann': 'Team 1', 'Bo': 'Team 1', 'Cy': 'Team 2', 'Di': 'Team 2'}, ['sauth', 'gurth', 'garav'])
"""

from __future__ import annotations

from typing import Any, Mapping

from arena_table.rules.kernel.mechanics import options as opt
from . import catalog

MAX_SEATS = 6
"""Theosis seats at most six players (Game Modes)."""
MAX_MONSTERS = 3
"""The most monsters of a row in the table of Heroes Facing Monsters Modes."""

MODES: dict[str, tuple[str, dict[str, Any]]] = {
    "pvp": ("PvP normal: 2-4 players x 3 heroes, 5-6 players x 2", {"mode": "pvp"}),
    "blitz": ("PvP blitz: 2-4 players x 2 heroes", {"mode": "blitz"}),
    "team-2x2": ("2 teams of 2 players: 3 heroes each", {"mode": "team", "team_size": 2}),
    "team-2x2-blitz": ("2 teams of 2 players, blitz: 2 heroes each", {"mode": "team", "team_size": 2, "blitz": True}),
    "team-2x3": ("2 teams of 3 players: 2 heroes each", {"mode": "team", "team_size": 3}),
    "team-3x2": ("3 teams of 2 players: 2 heroes each", {"mode": "team", "team_size": 2}),
    "solo": ("Solo against monsters: 1 player", {"mode": "solo"}),
    "coop": ("Co-op against monsters: 1-6 players", {"mode": "coop"}),
    "light": ("Light semi co-op: co-op, MVP by Stamina Tokens taken", {"mode": "light"}),
    "heavy": ("Heavy semi co-op: co-op, then competitive once the monsters fall", {"mode": "heavy"}),
}
"""Form value -> (label, what it means for :func:`.setup.setup`); ``team_size`` seats per team."""

FORM_KEYS = ({"teams_list", "boss_monster", "second_archetypes"} | {f"heroes_{i}" for i in range(1, MAX_SEATS + 1)}
             | {f"monster_{i}" for i in range(1, MAX_MONSTERS + 1)})


def setup_form() -> list[dict[str, Any]]:
    """Fields of the control page's start form (``/api/games`` format), in the order shown."""
    heroes = [{"value": h, "label": x["name"] + (f" ({x['alignment']})" if x.get("alignment") else "")}
              for h, x in catalog.heroes().items()]
    regular = [m for m in catalog.monsters_data()["monsters"] if not m.get("boss")]
    bosses = [m for m in catalog.monsters_data()["monsters"] if m.get("boss")]
    fields: list[dict[str, Any]] = [
        {"name": "mode", "label": "Game mode", "type": "select", "default": "pvp",
         "options": [{"value": k, "label": label} for k, (label, _) in MODES.items()],
         "help": "Game Modes (p.20). Monster modes use the Stamina table of Heroes Facing Monsters Modes."},
        {"name": "fast", "label": "Fast Action Preparation (skip Hierapolis)", "type": "checkbox", "default": False},
        {"name": "players", "label": "Players, clockwise from the Initiative Marker holder", "type": "list",
         "default": ["Ann", "Bo"],
         "help": "Comma-separated names; the first chose the first hero and holds the Initiative Marker. "
                 "Team modes: the first 2 (or 3) names are team 1, the next ones team 2 ..."},
        {"name": "teams_list", "label": "Teams (team modes, optional)", "type": "list", "default": [],
         "help": "The team of each player in seat order, e.g. 'Sun, Moon, Sun, Moon'."},
    ]
    for seat in range(1, MAX_SEATS + 1):
        fields.append({"name": f"heroes_{seat}", "label": f"Heroes of player {seat}", "type": "multiselect",
                       "options": heroes, "default": [],
                       "help": "Each hero once; every player the same number: 3 (2-4 players) or 2 (blitz, "
                               "5-6 players, 2x3, 3x2); monster modes 2-4." if seat == 1 else None})
    fields.append({"name": "second_archetypes", "label": "Heroes playing their second archetype", "type": "multiselect",
                   "default": [], "options": [{"value": f"{h}/{a}", "label": f"{x['name']}: {a.replace('-', ' ')}"}
                                              for h, x in catalog.heroes().items()
                                              for a in list(x["archetypes"])[1:]],
                   "help": "Unlisted heroes play the first archetype on their mat."})
    for i in range(1, MAX_MONSTERS + 1):
        fields.append({"name": f"monster_{i}", "label": f"Monster {i} (monster modes)", "type": "select", "default": "",
                       "options": [{"value": "", "label": "by the book (Kotronas)" if i == 1 else "none / by the book"}]
                       + [{"value": m["id"], "label": m["name"]} for m in regular],
                       "help": "How many monsters follows the Stamina table (1-3 by players and heroes)." if i == 1
                       else None})
    fields.append({"name": "boss_monster", "label": "Boss (monster modes with 12 heroes)", "type": "select",
                   "default": "", "options": [{"value": "", "label": "no Boss"}]
                   + [{"value": m["id"], "label": m["name"]} for m in bosses]})
    fields.append({"name": "expansion", "label": "Expansion Power cards", "type": "checkbox", "default": False})
    return [{k: v for k, v in f.items() if v is not None} for f in fields]



def to_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The :func:`.setup.setup` options for the form's ``values`` (other keys pass through unchanged).

    Options that never came from the form (no form-only key, a mode ``setup`` knows) are returned as
    they are, so transcripts written with ``heroes``/``teams`` replay unchanged.

    Raises:
        ValueError: a form mode that does not exist, a seat without heroes, a team list that does not
            name one team per player, a second archetype the hero does not have.
    """
    form_mode = values.get("mode", "pvp")
    if not (set(values) & FORM_KEYS) and form_mode not in {"team-2x2", "team-2x2-blitz", "team-2x3", "team-3x2"}:
        return dict(values)
    if form_mode not in MODES and form_mode != "team":
        raise ValueError(f"unknown mode {form_mode!r}; modes: {', '.join(MODES)}")
    out = {k: v for k, v in values.items() if k not in FORM_KEYS}
    meaning = dict(MODES.get(form_mode, ("", {"mode": "team"}))[1])
    out["mode"] = meaning["mode"]
    if meaning.get("blitz"):
        out["blitz"] = True
    names = opt.names("players", values.get("players"))
    out["players"] = names
    seats = {"team-2x2": 4, "team-2x2-blitz": 4, "team-2x3": 6, "team-3x2": 6, "solo": 1}.get(form_mode)
    if seats and len(names) != seats:
        raise ValueError(f"{MODES[form_mode][0]} needs {seats} player(s), not {len(names)}")
    if "heroes" not in values:
        heroes = {}
        for seat, player in enumerate(names, 1):
            chosen = opt.names(f"heroes_{seat}", values.get(f"heroes_{seat}"))
            if not chosen:
                raise ValueError(f"player {seat} ({player}) has no heroes: choose them under 'Heroes of player {seat}'")
            heroes[player] = chosen
        extra = [s for s in range(len(names) + 1, MAX_SEATS + 1) if values.get(f"heroes_{s}")]
        if extra:
            raise ValueError(f"heroes chosen for player {extra[0]} but only {len(names)} players are named")
        out["heroes"] = heroes
    if out["mode"] == "team" and "teams" not in values:
        out["teams"] = _teams(names, values.get("teams_list") or (), meaning.get("team_size", 2))
    archetypes = dict(values.get("archetypes", {}))
    for pair in values.get("second_archetypes") or ():
        hero, _, arch = str(pair).partition("/")
        if hero not in catalog.heroes() or arch not in catalog.heroes()[hero]["archetypes"]:
            raise ValueError(f"second_archetypes: {pair!r} is not hero/archetype")
        archetypes[hero] = arch
    if archetypes:
        out["archetypes"] = archetypes
    monsters = [str(values.get(f"monster_{i}") or "") for i in range(1, MAX_MONSTERS + 1)]
    monsters = [m for m in monsters if m]
    boss = str(values.get("boss_monster") or "")
    if boss:
        out["boss"], monsters = True, [boss]
    if monsters and "monsters" not in values:
        out["monsters"] = monsters
    return out


def _teams(names: list[str], given: Any, size: int) -> dict[str, str]:
    """``{player: team}`` from the team list, or consecutive seats of ``size`` players."""
    given = [str(t).strip() for t in given if str(t).strip()]
    if given:
        if len(given) != len(names):
            raise ValueError(f"teams: {len(given)} teams listed for {len(names)} players; list one team per player")
        return dict(zip(names, given))
    return {p: f"Team {i // size + 1}" for i, p in enumerate(names)}
